"""The hidden cases of exercise 09.1 (``nb09.MAP_ERRORS``): the error-mapping middleware.

The rules they check are in :mod:`helpers.exercises.nb09`'s docstring.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from hypothesis import strategies as st
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command, interrupt

from ..domain import (
    AmountExceedsRefundable,
    DomainError,
    IdempotencyConflict,
    InvalidAmount,
    InvalidRequest,
    NotRefundable,
    OrderNotFound,
    PermissionDenied,
    RefundService,
    ServiceUnavailable,
)
from ..error_contract import model_view
from ..i18n import N_, _
from .nb09_agent import (
    _CUSTOMER,
    _answer_of,
    _facts_key,
    _run,
    _submit_tool,
    as_middleware,
)
from .results import CheckFailure, clipped, shown

__all__ = ["BEHAVIOURS", "REPLIES", "TOOL_NAMES", "describe_reply", "map_refund_errors", "reply_outcome"]


#: Internal text the hidden checks put into exception messages; none of it may reach the model.
_SECRETS = ("user-7", "row 991", "refunds-db-2.internal", "Traceback")


# -- 09.1: the error-mapping middleware ----------------------------------------------------------


def _error_scenario(code: str) -> tuple[Any, dict, Callable[[str, float, Any], str]]:
    """A fresh service, the model's arguments and the key for a submit that fails with ``code``."""
    service = RefundService()
    key = _facts_key
    args = {
        "invalid_request": {"order_id": "", "amount": 10.0},  # valid JSON for the schema, refused by the service
        "order_not_found": {"order_id": "Z9999", "amount": 10.0},
        "permission_denied": {"order_id": "B2048", "amount": 159.0},
        "not_refundable": {"order_id": "A1028", "amount": 100.0},
        "invalid_amount": {"order_id": "A1024", "amount": -5.0},
        "amount_exceeds_refundable": {"order_id": "A1024", "amount": 600.0},
        "idempotency_conflict": {"order_id": "A1024", "amount": 50.0},
        "service_unavailable": {"order_id": "A1024", "amount": 200.0},
    }[code]
    if code == "idempotency_conflict":  # a tool whose key names only the order, used before for 100.00

        def key(order_id: str, amount: Any, runtime: Any) -> str:
            return f"refund:{order_id}"

        service.submit("A1024", 100.0, user_id=_CUSTOMER.user_id, idempotency_key="refund:A1024")
    if code == "service_unavailable":
        service.simulate_outage(after_commit=True)  # committed, then the reply is lost
    return service, args, key


def _payload(message: Any, code: str) -> dict:
    content = message.content
    assert isinstance(content, str), (
        _("the ToolMessage content should be the string model_view(exc), got {type}").format(
            type=type(content).__name__)
    )
    try:
        payload = json.loads(content)
    except ValueError:
        raise AssertionError(
            _("the content should be model_view(exc), a JSON object with the code, got {content!r}").format(
                content=clipped(content, 80))
        ) from None
    assert isinstance(payload, dict) and payload.get("error") == code, (
        _("expected the stable code {code!r} in the content's 'error' field, got {content!r}").format(
            code=code, content=clipped(content, 100))
    )
    return payload


def _domain_error_case(code: str) -> Callable[[Any], None]:
    def run(answer: Any) -> None:
        service, args, key = _error_scenario(code)
        call_id = f"call_{code}"
        try:
            out = _run([_submit_tool(service, key)],
                       [[{"name": "submit_refund_request", "args": args, "id": call_id, "type": "tool_call"}], "ok"],
                       [as_middleware(answer)])
        except DomainError as exc:
            raise CheckFailure(
                _("{type} ({code}) propagated out of the agent and ended the run").format(
                    type=type(exc).__name__, code=exc.code),
                _("catch DomainError around handler(request) and return a ToolMessage(status='error')"),
            ) from None
        message = _answer_of(out, call_id)
        assert message.status == "error", _("a {code} answer must have status='error', got {status}").format(
            code=code, status=shown(message.status))
        payload = _payload(message, code)
        if code == "service_unavailable":
            assert payload.get("outcome") == "unknown", (
                _("the service committed and then the reply was lost: the model must hear outcome 'unknown' "
                  "(model_view does this), not {outcome}").format(outcome=shown(payload.get("outcome")))
            )

    return run


def _no_internals(answer: Any) -> None:
    raised = {
        "call_leak_1": PermissionDenied("order B2048 belongs to user-7 (owner lookup row 991)", order_id="B2048"),
        "call_leak_2": ServiceUnavailable("upstream 503 from refunds-db-2.internal\nTraceback (most recent call last): ...",
                                          order_id="A1024"),
    }

    @tool("submit_refund_request")
    def leaky(order_id: str, amount: float) -> str:
        """Create a refund request (a backend whose error messages carry internals)."""
        raise raised["call_leak_1" if order_id == "B2048" else "call_leak_2"]

    for call_id, args in (("call_leak_1", {"order_id": "B2048", "amount": 1.0}),
                          ("call_leak_2", {"order_id": "A1024", "amount": 1.0})):
        out = _run([leaky], [[{"name": "submit_refund_request", "args": args, "id": call_id, "type": "tool_call"}], "ok"],
                   [as_middleware(answer)])
        content = str(_answer_of(out, call_id).content)
        leaked = [s for s in _SECRETS if s in content]
        assert not leaked, (
            _("the model was told internals ({leaked}): build the content from the error code "
              "(model_view(exc)), never from str(exc) or a traceback").format(leaked=", ".join(leaked))
        )


def _bug_propagates(answer: Any) -> None:
    @tool("submit_refund_request")
    def buggy(order_id: str, amount: float) -> str:
        """Create a refund request (version with a bug)."""
        return {"tier": "gold"}["level"]  # KeyError: a programming error

    try:
        out = _run([buggy], [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 1.0},
                               "id": "call_bug", "type": "tool_call"}], "ok"], [as_middleware(answer)])
    except KeyError:
        return
    message = _answer_of(out, "call_bug")
    raise AssertionError(
        _("a KeyError (a bug in the tool) was turned into a ToolMessage ({content!r}): only a DomainError is "
          "mapped; a bug must propagate so that it is seen and fixed").format(content=clipped(message.content, 60))
    )


def _interrupt_passes(answer: Any) -> None:
    @tool
    def ask_manager(order_id: str) -> str:
        """Ask a manager to approve a refund (pauses the run)."""
        return f"manager said {interrupt({'approve_refund_for': order_id})}"

    out = _run([ask_manager], [[{"name": "ask_manager", "args": {"order_id": "A1029"}, "id": "call_ask",
                                 "type": "tool_call"}], "ok"], [as_middleware(answer)],
               checkpointer=InMemorySaver(), config={"configurable": {"thread_id": "check-interrupt"}})
    assert out.interrupts, (
        _("a tool that calls interrupt() no longer pauses the run: interrupt() raises GraphInterrupt, an "
          "Exception subclass; catch DomainError only (or re-raise langgraph.errors.GraphBubbleUp)")
    )


def _success_unchanged(answer: Any) -> None:
    service = RefundService()
    out = _run([_submit_tool(service, _facts_key)],
               [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 100.0}, "id": "call_ok",
                  "type": "tool_call"}], "ok"], [as_middleware(answer)])
    message = _answer_of(out, "call_ok")
    assert message.status == "success" and message.content == "refund request RF-0001 registered for A1024 (100.00)", (
        _("a successful call must come back unchanged; got status={status}, content={content!r}").format(
            status=shown(message.status), content=clipped(message.content, 80))
    )
    assert service.submit_attempts == 1, _("the middleware ran the tool {count} times; call handler once").format(
        count=service.submit_attempts)


def _argument_errors_unchanged(answer: Any) -> None:
    service = RefundService()
    out = _run([_submit_tool(service, _facts_key)],
               [[{"name": "submit_refund_request", "args": {"order_id": "A1024"}, "id": "call_args",
                  "type": "tool_call"}], "ok"], [as_middleware(answer)])
    message = _answer_of(out, "call_args")
    assert message.status == "error" and "amount" in str(message.content) and "Field required" in str(message.content), (
        _("ToolNode answers a missing argument itself (\"... amount: Field required ...\"); pass that ToolMessage "
          "through unchanged, got {content!r}").format(content=clipped(message.content, 80))
    )


def _parallel_calls(answer: Any) -> None:
    service = RefundService()
    calls = [{"name": "submit_refund_request", "args": {"order_id": "B2048", "amount": 10.0}, "id": "call_a",
              "type": "tool_call"},
             {"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 10.0}, "id": "call_b",
              "type": "tool_call"}]
    out = _run([_submit_tool(service, _facts_key)], [calls, "ok"], [as_middleware(answer)])
    first, second = _answer_of(out, "call_a"), _answer_of(out, "call_b")
    assert first.status == "error" and second.status == "success", (
        _("two calls in one reply: call_a (another customer's order) must get the error and call_b the success; "
          "got call_a status={first}, call_b status={second}").format(first=shown(first.status),
                                                                      second=shown(second.status))
    )
    _payload(first, "permission_denied")


def _probe_mapping(answer: Any) -> None:
    _run([_submit_tool(RefundService(), _facts_key)],
         [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 1.0}, "id": "call_probe",
            "type": "tool_call"}], "ok"], [as_middleware(answer)])


#: Every code of ``helpers.domain.ErrorCode``: each case makes the real service raise its class. The most
#: telling first (a shared FAIL row shows the first): another customer's order, the notebook's own example.
_CODES = ("permission_denied", "order_not_found", "not_refundable", "invalid_amount", "amount_exceeds_refundable",
          "idempotency_conflict", "service_unavailable", "invalid_request")


# -- generated replies ---------------------------------------------------------------------------------


def map_refund_errors(request: Any, handler: Callable[[Any], Any]) -> Any:
    """The reference of 09.1 (the specification), a ``wrap_tool_call`` function: the handler's result unchanged;
    a :class:`~helpers.domain.DomainError` as ``ToolMessage(model_view(exc), status="error")`` answering this
    call (``model_view`` is notebook 09's, :func:`helpers.error_contract.model_view`); anything else (a bug,
    LangGraph's ``GraphInterrupt``) propagates.

    Args:
        request: the ``ToolCallRequest`` (``request.tool_call["id"]``, ``["name"]``).
        handler: runs the tool call and returns its ``ToolMessage`` or ``Command``.
    """
    try:
        return handler(request)
    except DomainError as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], name=request.tool_call["name"],
                           status="error")


#: The tools a generated reply calls: a text result, a JSON result, a state update (a ``Command``) and a
#: ``content_and_artifact`` result.
TOOL_NAMES = ("submit_refund_request", "lookup_order", "mark_submitted", "find_orders")
#: What a call does: succeed, fail with a domain error (each code; the message carries internals), hit a bug
#: (a ``KeyError`` or a ``ValueError``), miss an argument (``ToolNode`` answers it) or pause (``interrupt()``).
BEHAVIOURS = (N_("succeeds"), *(f"raises {code}" for code in _CODES), N_("has a KeyError bug"),
              N_("has a ValueError bug"), N_("misses an argument"), N_("pauses for a manager"))
_ORDERS = ("A1024", "A1030", "A1029")

#: A generated reply: one to three ``(tool, behaviour)`` calls the model makes at once.
REPLIES = st.lists(st.tuples(st.sampled_from(TOOL_NAMES), st.sampled_from(BEHAVIOURS)), min_size=1,
                   max_size=3).map(tuple)


def _later(current: str, update: str) -> str:
    return update


class _ReplyState(MessagesState):
    refund_stage: Annotated[str, _later]  # two mark_submitted calls of one reply write it in one step


#: Each domain error class by its code.
_ERROR_CLASSES = {cls.code: cls for cls in (InvalidRequest, OrderNotFound, PermissionDenied, NotRefundable,
                                            InvalidAmount, AmountExceedsRefundable, IdempotencyConflict,
                                            ServiceUnavailable)}


@dataclass(frozen=True)
class _ReplyContext:
    """What each call of a generated reply does, by tool call id (the tools read it from ``runtime.context``)."""

    behaviours: dict[str, str]


def _act(order_id: str, runtime: ToolRuntime) -> None:
    what = runtime.context.behaviours[runtime.tool_call_id]
    if what.startswith("raises "):
        code = what.removeprefix("raises ")
        raise _ERROR_CLASSES[code](f"{code} for {order_id}: owner user-7, row 991 on refunds-db-2.internal",
                                   order_id=order_id)
    if what == "has a KeyError bug":
        {"tier": "gold"}["level"]
    if what == "has a ValueError bug":
        int("row 991 on refunds-db-2.internal")
    if what == "pauses for a manager":
        interrupt({"approve_refund_for": order_id})


@tool
def _submit_refund_request(order_id: str, runtime: ToolRuntime[_ReplyContext]) -> str:
    """Create a refund request for an order."""
    _act(order_id, runtime)
    return f"refund request registered for {order_id}"


@tool
def _lookup_order(order_id: str, runtime: ToolRuntime[_ReplyContext]) -> str:
    """Look up an order."""
    _act(order_id, runtime)
    return json.dumps({"order_id": order_id, "status": "delivered"})


@tool
def _mark_submitted(order_id: str, runtime: ToolRuntime[_ReplyContext]) -> Command:
    """Record that the refund of an order is submitted."""
    _act(order_id, runtime)
    return Command(update={"refund_stage": "submitted", "messages": [
        ToolMessage(f"{order_id} marked as submitted", tool_call_id=runtime.tool_call_id)]})


@tool(response_format="content_and_artifact")
def _find_orders(order_id: str, runtime: ToolRuntime[_ReplyContext]) -> tuple[str, list]:
    """Find the customer's orders like this one."""
    _act(order_id, runtime)
    return "1 order found", [{"order_id": order_id}]


#: The tools of the generated replies, by name (stateless: what a call does comes with the run's context).
_REPLY_TOOLS = [t.model_copy(update={"name": t.name.lstrip("_")})
                for t in (_submit_refund_request, _lookup_order, _mark_submitted, _find_orders)]


def _as_data(content: Any) -> Any:
    if isinstance(content, str) and content.startswith("{"):
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


def reply_outcome(answer: Any, spec: tuple) -> dict[str, Any]:
    """The model's reply of ``spec`` (:data:`REPLIES`) run by ``ToolNode`` (langgraph-prebuilt 1.1.3) with the
    answer as its ``wrap_tool_call`` (what ``create_agent`` does with a middleware), on a fresh checkpointed thread.

    Returns:
        ``{"run": "finished" | "paused" | "ended with <exception type>", "answers": [(status, content, artifact)
        per call, in call order], "refund_stage": ...}``; the content of an error answer as the JSON it holds.
    """
    calls = [{"name": name, "args": {} if what == "misses an argument" else {"order_id": _ORDERS[number]},
              "id": f"call_{number + 1}", "type": "tool_call"} for number, (name, what) in enumerate(spec)]
    behaviours = {call["id"]: what for call, (_name, what) in zip(calls, spec)}
    graph = StateGraph(_ReplyState, context_schema=_ReplyContext)
    graph.add_node("tools", ToolNode(_REPLY_TOOLS, wrap_tool_call=as_middleware(answer).wrap_tool_call))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    start = {"messages": [HumanMessage("Please sort out my refunds."), AIMessage("", tool_calls=calls)],
             "refund_stage": "quoted"}
    try:
        out = graph.compile(checkpointer=InMemorySaver()).invoke(start, {"configurable": {"thread_id": "reply"}},
                                                                  context=_ReplyContext(behaviours), version="v2")
    except (DomainError, KeyError, ValueError) as exc:  # a refusal not mapped, or a bug: the run ended
        return {"run": f"ended with {type(exc).__name__}", "answers": [], "refund_stage": None}
    answers = {m.tool_call_id: m for m in out.value["messages"] if isinstance(m, ToolMessage)}
    return {"run": "paused" if out.interrupts else "finished",
            "answers": [(m.status, _as_data(m.content), m.artifact) if m else None
                        for m in (answers.get(call["id"]) for call in calls)],
            "refund_stage": out.value.get("refund_stage")}


def describe_reply(spec: tuple) -> str:
    """The reply of ``spec`` in the learner's words."""
    calls = "; ".join(_("{tool}, which {behaviour}").format(
        tool=name, behaviour=_("raises {code} (its message holds internal text)").format(code=what.split()[1])
        if what.startswith("raises ") else _(what)) for name, what in spec)
    return _("the model calls, in one reply: {calls}").format(calls=calls)

