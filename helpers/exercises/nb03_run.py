"""The plumbing of exercise 03.1 (``helpers.exercises.nb03``): fresh tools that count their runs, calling the
learner's answer (plain or ``async def``), and the contract every returned value keeps (a list of
ToolMessages, one per call id). Used by the named cases and the generated check alike.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import threading
import time
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool

from ..domain import NotRefundable, OrderNotFound
from ..i18n import _
from .results import shown

__all__ = ["INVALID_ARGUMENTS", "ORDERS", "UNKNOWN_TOOL", "call_answer"]

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
