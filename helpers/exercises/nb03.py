"""Exercises of notebook 03 (ToolMessage pairing).

``RUN_TOOL_CALLS`` checks a function that answers every call of one AIMessage::

    run_tool_calls(ai_message: AIMessage, tools: list[BaseTool]) -> list[ToolMessage]

The answer may be a plain function or an ``async def`` (``wants="either"``; a returned
coroutine is run to the end on a private event loop: the core runs each case in a worker
thread, which has no running loop, so the check works inside Jupyter, whose loop is already
running).

The habit it trains is the one notebook 09's error contract keeps: the failures the application
*expects* are answered, a bug is not. Hidden cases: every call answered exactly once with its
own id; results paired with the right call when the calls finish out of order (different
``asyncio.sleep`` / ``time.sleep`` delays); each expected failure becomes
``ToolMessage(status="error")`` with the same id and a stable code in its content, and the
function does not raise for it:

* an unknown tool name: code :data:`UNKNOWN_TOOL` and the tool's name;
* a refusal from the domain (a :class:`helpers.domain.DomainError`): the error's own ``code``
  (``not_refundable`` here);
* arguments that fail the tool's schema (a pydantic ``ValidationError``) and an invalid call
  (arguments that are not JSON, ``ai_message.invalid_tool_calls``): code
  :data:`INVALID_ARGUMENTS`, and the tool never runs;

and a bug in a tool (here a ``KeyError`` from a record without the field the code reads) is
**not** turned into text for the model: the function lets it raise (the case checks that the
exception that leaves the answer is the tool's own, or has it as its cause). Results that are
un-awaited coroutines fail with "did you forget await?" (the coroutines are closed, so no
``RuntimeWarning`` reaches the notebook).

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

from ..domain import NotRefundable, OrderNotFound
from ..i18n import _
from .core import Case, Exercise
from .results import clipped, shown

__all__ = ["INVALID_ARGUMENTS", "RUN_TOOL_CALLS", "UNKNOWN_TOOL", "call_answer"]

#: The code of an error result for a call to a tool that does not exist.
UNKNOWN_TOOL = "unknown_tool"
#: The code of an error result for arguments that fail the schema or are not JSON.
INVALID_ARGUMENTS = "invalid_arguments"

ORDERS = {
    "A1024": {"order_id": "A1024", "product": "Wireless headphones", "status": "delivered"},
    "A1025": {"order_id": "A1025", "product": "Phone case", "status": "shipped"},
    "A1030": {"order_id": "A1030", "product": "Winter jacket", "status": "delivered"},
}


class _Recorder:
    """Fresh tools for one case.

    ``runs`` counts executions, ``finished`` lists ids of finished orders and ``bug`` is the
    exception ``track_parcel`` raised (``None`` until it runs).
    """

    def __init__(self, delays: dict[str, float] | None = None):
        self.delays = delays or {}
        self.runs = 0
        self.finished: list[str] = []
        self.bug: BaseException | None = None
        self._lock = threading.Lock()

    def _count(self) -> None:
        with self._lock:
            self.runs += 1

    def _lookup(self, order_id: str) -> dict:
        self._count()
        if order_id not in ORDERS:
            raise OrderNotFound(f"order {order_id} does not exist", order_id=order_id)
        return copy.deepcopy(ORDERS[order_id])  # fresh: an answer may edit what a tool returns

    def _quote(self, order_id: str) -> str:
        order = self._lookup(order_id)
        if order["status"] != "delivered":
            raise NotRefundable(f"order {order_id} is {order['status']}, not delivered", order_id=order_id)
        return f"{order_id}: refundable"

    def _track(self, order_id: str) -> str:
        order = self._lookup(order_id)
        try:
            return order["carrier"]  # the bug: no order record has this field
        except KeyError as exc:
            self.bug = exc
            raise

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
            return self._quote(order_id)

        async def aquote_refund(order_id: str) -> str:
            """Quote the refundable amount of an order."""
            return self._quote(order_id)

        def track_parcel(order_id: str) -> str:
            """The carrier of an order's parcel."""
            return self._track(order_id)

        async def atrack_parcel(order_id: str) -> str:
            """The carrier of an order's parcel."""
            return self._track(order_id)

        return [
            StructuredTool.from_function(func=lookup_order, coroutine=alookup_order, name="lookup_order"),
            StructuredTool.from_function(func=quote_refund, coroutine=aquote_refund, name="quote_refund"),
            StructuredTool.from_function(func=track_parcel, coroutine=atrack_parcel, name="track_parcel"),
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
        _("got {count} {kind} object(s) instead of ToolMessages: did you forget await? Write `await "
          "tool.ainvoke(call)` (or `await asyncio.gather(...)`) inside an async def").format(
              count=len(pending), kind=kind)
    )


def _checked(result: Any, ai_message: AIMessage) -> dict[str, ToolMessage]:
    """The basic contract of a returned value: a list of ToolMessages, one per call id."""
    _no_forgotten_await(result)
    assert isinstance(result, list), _("return a list of ToolMessage objects, got {type}").format(
        type=type(result).__name__)
    for item in result:
        assert isinstance(item, ToolMessage), _("every item must be a ToolMessage, got {type}").format(
            type=type(item).__name__)
    wanted = [c["id"] for c in ai_message.tool_calls] + [c["id"] for c in ai_message.invalid_tool_calls]
    got = [m.tool_call_id for m in result]
    missing = [i for i in wanted if i not in got]
    assert not missing, (
        _("no ToolMessage answers {missing}: every call (valid or invalid) needs exactly one answer, or the "
          "provider rejects the next request").format(missing=missing)
    )
    extra = [i for i in got if i not in wanted]
    assert not extra, _("ToolMessages answer ids that were never called: {extra}").format(extra=shown(extra))
    duplicates = sorted({i for i in got if got.count(i) > 1})
    assert not duplicates, _("ids answered more than once: {duplicates}").format(duplicates=shown(duplicates))
    return {m.tool_call_id: m for m in result}


def _answers(answer: Any, ai_message: AIMessage, tools: list[BaseTool]) -> dict[str, ToolMessage]:
    """Run the answer and check the basic contract (:func:`_checked`)."""
    return _checked(call_answer(answer, ai_message, tools), ai_message)


def _product(message: ToolMessage) -> str | None:
    try:
        return json.loads(message.content).get("product")
    except (TypeError, ValueError, AttributeError):
        return None


def _error_with_code(message: ToolMessage, code: str, what: str) -> None:
    """An error result whose content carries ``code`` (the model reads content, not status)."""
    assert message.status == "error", _("{what} should be answered with status='error'").format(what=what)
    assert code in str(message.content), (
        _("{what}: put the stable code {code!r} in the content (the model and your logs read the content; the "
          "status is not sent), got {content!r}").format(what=what, code=code, content=clipped(message.content, 60))
    )


def _each_call_once(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_a"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_b")])
    by_id = _answers(answer, ai, rec.tools())
    assert rec.runs == 2, _("two calls should run the tool twice, it ran {runs} time(s)").format(runs=rec.runs)
    for call_id in ("call_a", "call_b"):
        assert by_id[call_id].status == "success", _("{call_id} succeeded, so its status should be 'success'").format(
            call_id=call_id)


def _out_of_order(answer: Any) -> None:
    rec = _Recorder(delays={"A1024": 0.2, "A1030": 0.0})
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_slow"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_fast")])
    by_id = _answers(answer, ai, rec.tools())
    pairs = {i: _product(by_id[i]) for i in ("call_slow", "call_fast")}
    assert pairs == {"call_slow": "Wireless headphones", "call_fast": "Winter jacket"}, (
        _("results are paired with the wrong calls: {pairs}. The fast call finished first; take the id from "
          "the call that produced each result, not from the order results arrive in").format(pairs=shown(pairs))
    )


def _unknown_tool(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("cancel_order", {"order_id": "A1024"}, "call_u"),
                                           _call("lookup_order", {"order_id": "A1024"}, "call_ok")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_u"], UNKNOWN_TOOL, _("a call to a tool that does not exist"))
    assert "cancel_order" in str(by_id["call_u"].content), (
        _("name the unknown tool in the error content so the model can pick a real one")
    )
    assert by_id["call_ok"].status == "success", _("one bad call must not spoil the other call's result")


def _domain_refusal(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("quote_refund", {"order_id": "A1025"}, "call_q"),
                                           _call("quote_refund", {"order_id": "A1024"}, "call_ok")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_q"], NotRefundable.code, _("a refusal from the domain (a DomainError)"))
    assert by_id["call_ok"].status == "success" and "refundable" in str(by_id["call_ok"].content), (
        _("the other call should still succeed")
    )


def _bad_arguments(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order": "A1024"}, "call_v")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_v"], INVALID_ARGUMENTS,
                     _("arguments that fail the tool's schema (a pydantic ValidationError)"))
    assert rec.runs == 0, _("the tool body must not run when its arguments are invalid")


def _invalid_call(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1030"}, "call_ok")],
                   invalid_tool_calls=[_invalid("lookup_order", '{"order_id": A1024}', "call_bad")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_bad"], INVALID_ARGUMENTS, _("an invalid call (arguments not JSON)"))
    assert rec.runs == 1, (
        _("the tool ran {runs} time(s); only the valid call may run: never guess arguments for an invalid call").format(
            runs=rec.runs)
    )
    assert _product(by_id["call_ok"]) == "Winter jacket", _("the valid call should still get its result")


def _caused_by(exc: BaseException, bug: BaseException) -> bool:
    """True when ``exc`` is ``bug``, or shows it: in its cause / context chain as a traceback prints
    it (``raise ... from None`` hides the context), or (an exception group) among its exceptions."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if current is bug:
            return True
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        context = None if current.__suppress_context__ else current.__context__
        todo += [current.__cause__, context, *getattr(current, "exceptions", ())]
    return False


def _bug_propagates(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("track_parcel", {"order_id": "A1024"}, "call_bug"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_ok")])
    try:
        result = call_answer(answer, ai, rec.tools())
    except Exception as exc:  # noqa: BLE001 - the learner's function must raise the tool's bug
        if rec.bug is not None and _caused_by(exc, rec.bug):
            return
        raise
    by_id = _checked(result, ai)
    assert rec.bug is None, (
        _("track_parcel has a bug (KeyError: 'carrier'), and your function turned it into a ToolMessage for "
          "the model: {content!r}. A bug is not a refusal the model can act on, and text hides it from you: "
          "catch only the failures you expect (DomainError, ValidationError) and let anything else raise "
          "(notebook 09's error contract does the same)").format(content=clipped(by_id['call_bug'].content, 60))
    )
    raise AssertionError(_("track_parcel never ran: run every valid call with its own tool"))


RUN_TOOL_CALLS = Exercise(
    "03.1",
    "run_tool_calls: answer every call with its own id",
    [
        Case("every call answered once, status success", _each_call_once),
        Case("out-of-order completion still pairs by id", _out_of_order),
        Case("an unknown tool becomes an error result with code unknown_tool", _unknown_tool),
        Case("a DomainError becomes an error result with its code", _domain_refusal),
        Case("arguments that fail the schema become an error result with code invalid_arguments",
             _bad_arguments),
        Case("an invalid call (not JSON) is answered with code invalid_arguments, not run", _invalid_call),
        Case("a bug in a tool is not turned into text for the model", _bug_propagates),
    ],
    wants="either",
)
