"""Exercises of notebook 03 (ToolMessage pairing).

``RUN_TOOL_CALLS`` checks a function that answers every call of one AIMessage::

    run_tool_calls(ai_message: AIMessage, tools: list[BaseTool]) -> list[ToolMessage]

The answer may be a plain function or an ``async def`` (``wants="either"``; a returned
coroutine is run to the end on a private event loop: the core runs each case in a worker
thread, which has no running loop, so the check works inside Jupyter, whose loop is already
running).

Hidden cases: every call answered exactly once with its own id; results paired with the right
call when the calls finish out of order (different ``asyncio.sleep`` / ``time.sleep`` delays);
an unknown tool name, a tool exception, arguments that fail the schema and an invalid call
(arguments that are not JSON) each become ``ToolMessage(status="error")`` with the same id,
and the function never raises for them; an invalid call never runs the tool. The error content
of an unknown tool must contain the tool's name, and that of a tool exception the exception's
text. Results that are un-awaited coroutines fail with "did you forget await?" (the coroutines
are closed, so no ``RuntimeWarning`` reaches the notebook).

Every case works on fresh data: the tools hand out deep copies of :data:`ORDERS`, so an answer
that edits a returned dict in place cannot change what the next case (or attempt) sees.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import threading
import time
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool

from .core import Case, Exercise
from .results import clipped, shown

__all__ = ["RUN_TOOL_CALLS", "call_answer"]

ORDERS = {
    "A1024": {"order_id": "A1024", "product": "Wireless headphones", "status": "delivered"},
    "A1025": {"order_id": "A1025", "product": "Phone case", "status": "shipped"},
    "A1030": {"order_id": "A1030", "product": "Winter jacket", "status": "delivered"},
}


class _Recorder:
    """Fresh tools for one case; ``runs`` counts executions, ``finished`` lists ids of finished orders."""

    def __init__(self, delays: dict[str, float] | None = None):
        self.delays = delays or {}
        self.runs = 0
        self.finished: list[str] = []
        self._lock = threading.Lock()

    def _lookup(self, order_id: str) -> dict:
        with self._lock:
            self.runs += 1
        if order_id not in ORDERS:
            raise KeyError(f"order {order_id} does not exist")
        return copy.deepcopy(ORDERS[order_id])  # fresh: an answer may edit what a tool returns

    def tools(self) -> list[BaseTool]:
        def lookup_order(order_id: str) -> dict:
            """Look up an order by id."""
            time.sleep(self.delays.get(order_id, 0))
            result = self._lookup(order_id)
            self.finished.append(order_id)
            return result

        async def alookup_order(order_id: str) -> dict:
            """Look up an order by id."""
            await asyncio.sleep(self.delays.get(order_id, 0))
            result = self._lookup(order_id)
            self.finished.append(order_id)
            return result

        def quote_refund(order_id: str) -> str:
            """Quote the refundable amount of an order."""
            with self._lock:
                self.runs += 1
            if ORDERS.get(order_id, {}).get("status") != "delivered":
                raise ValueError(f"order {order_id} is not delivered yet")
            return f"{order_id}: refundable"

        async def aquote_refund(order_id: str) -> str:
            """Quote the refundable amount of an order."""
            return quote_refund(order_id)

        return [
            StructuredTool.from_function(func=lookup_order, coroutine=alookup_order, name="lookup_order"),
            StructuredTool.from_function(func=quote_refund, coroutine=aquote_refund, name="quote_refund"),
        ]


def _call(name: str, args: dict[str, Any], id: str) -> dict[str, Any]:
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def _invalid(name: str, raw: str, id: str) -> dict[str, Any]:
    return {"name": name, "args": raw, "id": id, "error": "arguments are not valid JSON", "type": "invalid_tool_call"}


def call_answer(answer: Any, ai_message: AIMessage, tools: list[BaseTool]) -> Any:
    """Call ``answer(ai_message, tools)``; if it returns an awaitable, run it on a fresh event loop.

    The loop runs in the calling thread when that thread has no running loop (the exercise
    core runs every case in a worker thread), else in a helper thread (e.g. called directly
    from a Jupyter cell, whose loop is running).

    Returns:
        what the answer returned (or what its coroutine returned).

    Raises:
        whatever the answer raises (including ``NotImplementedError`` from the stub).
    """
    result = answer(ai_message, tools)
    if not inspect.isawaitable(result):
        return result

    async def _await() -> Any:
        return await result

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await())
    box: dict[str, Any] = {}

    def _worker() -> None:
        try:
            box["value"] = asyncio.run(_await())
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=_worker, name="run_tool_calls-check")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _no_forgotten_await(result: Any) -> None:
    """Fail with "did you forget await?" when the answer returned awaitables instead of results.

    Un-awaited coroutines are closed first, so Python does not print a ``RuntimeWarning:
    coroutine ... was never awaited`` into the learner's cell.
    """
    items = result if isinstance(result, (list, tuple)) else [result]
    pending = [item for item in items if inspect.isawaitable(item)]
    if not pending:
        return
    for item in pending:
        if inspect.iscoroutine(item):
            item.close()
    kind = type(pending[0]).__name__
    raise AssertionError(
        f"got {len(pending)} {kind} object(s) instead of ToolMessages: did you forget await? "
        "Write `await tool.ainvoke(call)` (or `await asyncio.gather(...)`) inside an async def"
    )


def _answers(answer: Any, ai_message: AIMessage, tools: list[BaseTool]) -> dict[str, ToolMessage]:
    """Run the answer and check the basic contract: a list of ToolMessages, one per call id."""
    result = call_answer(answer, ai_message, tools)
    _no_forgotten_await(result)
    assert isinstance(result, list), f"return a list of ToolMessage objects, got {type(result).__name__}"
    for item in result:
        assert isinstance(item, ToolMessage), f"every item must be a ToolMessage, got {type(item).__name__}"
    wanted = [c["id"] for c in ai_message.tool_calls] + [c["id"] for c in ai_message.invalid_tool_calls]
    got = [m.tool_call_id for m in result]
    missing = [i for i in wanted if i not in got]
    assert not missing, (
        f"no ToolMessage answers {missing}: every call (valid or invalid) needs exactly one answer, "
        "or the provider rejects the next request"
    )
    extra = [i for i in got if i not in wanted]
    assert not extra, f"ToolMessages answer ids that were never called: {shown(extra)}"
    duplicates = sorted({i for i in got if got.count(i) > 1})
    assert not duplicates, f"ids answered more than once: {shown(duplicates)}"
    return {m.tool_call_id: m for m in result}


def _product(message: ToolMessage) -> str | None:
    try:
        return json.loads(message.content).get("product")
    except (TypeError, ValueError, AttributeError):
        return None


def _each_call_once(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_a"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_b")])
    by_id = _answers(answer, ai, rec.tools())
    assert rec.runs == 2, f"two calls should run the tool twice, it ran {rec.runs} time(s)"
    for call_id in ("call_a", "call_b"):
        assert by_id[call_id].status == "success", f"{call_id} succeeded, so its status should be 'success'"


def _out_of_order(answer: Any) -> None:
    rec = _Recorder(delays={"A1024": 0.2, "A1030": 0.0})
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_slow"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_fast")])
    by_id = _answers(answer, ai, rec.tools())
    pairs = {i: _product(by_id[i]) for i in ("call_slow", "call_fast")}
    assert pairs == {"call_slow": "Wireless headphones", "call_fast": "Winter jacket"}, (
        f"results are paired with the wrong calls: {shown(pairs)}. The fast call finished first; take the id "
        "from the call that produced each result, not from the order results arrive in"
    )


def _unknown_tool(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("cancel_order", {"order_id": "A1024"}, "call_u"),
                                           _call("lookup_order", {"order_id": "A1024"}, "call_ok")])
    by_id = _answers(answer, ai, rec.tools())
    bad = by_id["call_u"]
    assert bad.status == "error", "a call to a tool that does not exist should get status='error'"
    assert "cancel_order" in str(bad.content), (
        "name the unknown tool in the error content so the model can pick a real one"
    )
    assert by_id["call_ok"].status == "success", "one bad call must not spoil the other call's result"


def _tool_exception(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("quote_refund", {"order_id": "A1025"}, "call_q"),
                                           _call("quote_refund", {"order_id": "A1024"}, "call_ok")])
    by_id = _answers(answer, ai, rec.tools())
    bad = by_id["call_q"]
    assert bad.status == "error", "a tool that raised should be answered with status='error'"
    assert "not delivered" in str(bad.content), (
        f"put the error text in the content (the model sees content, not status), got {clipped(bad.content, 60)!r}"
    )
    assert by_id["call_ok"].status == "success" and "refundable" in str(by_id["call_ok"].content), (
        "the other call should still succeed"
    )


def _bad_arguments(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order": "A1024"}, "call_v")])
    by_id = _answers(answer, ai, rec.tools())
    assert by_id["call_v"].status == "error", (
        "arguments that fail the tool's schema raise a ValidationError: answer it with status='error'"
    )
    assert rec.runs == 0, "the tool body must not run when its arguments are invalid"


def _invalid_call(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1030"}, "call_ok")],
                   invalid_tool_calls=[_invalid("lookup_order", '{"order_id": A1024}', "call_bad")])
    by_id = _answers(answer, ai, rec.tools())
    assert by_id["call_bad"].status == "error", "an invalid call (arguments not JSON) should get status='error'"
    assert rec.runs == 1, (
        f"the tool ran {rec.runs} time(s); only the valid call may run: never guess arguments for an invalid call"
    )
    assert _product(by_id["call_ok"]) == "Winter jacket", "the valid call should still get its result"


RUN_TOOL_CALLS = Exercise(
    "03.1",
    "run_tool_calls: answer every call with its own id",
    [
        Case("every call answered once, status success", _each_call_once),
        Case("out-of-order completion still pairs by id", _out_of_order),
        Case("unknown tool name becomes an error result", _unknown_tool),
        Case("a tool exception becomes an error result", _tool_exception),
        Case("arguments that fail the schema become an error result", _bad_arguments),
        Case("an invalid call (not JSON) is answered, not run", _invalid_call),
    ],
    wants="either",
)
