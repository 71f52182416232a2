"""Exercises of notebook 04 (ToolRuntime): make an order tool user-scoped through the runtime.

``USER_SCOPED_LOOKUP.check(tool)`` takes the learner's ``@tool`` (a ``BaseTool``) and runs it
the way an agent does: inside a one-node graph whose node is LangGraph's ``ToolNode``, with
the signed-in user passed as ``context=`` at invoke time. ``ToolNode`` injects the
``ToolRuntime`` (langgraph-prebuilt 1.1.3), so the check does not depend on what the
learner named the runtime parameter.

The shipped stub still has the unsafe signature ``(order_id, user_id)``: the probe fills every
parameter the model would see (``user_id`` included) so the stub's ``NotImplementedError`` is
reached and the notebook shows "not solved yet". Every run records warnings instead of letting
them reach the cell; one case fails when the tool's runtime makes Pydantic warn (a bare
``ToolRuntime`` annotation, whose context type defaults to ``None``).

The generated check compares the learner's tool with :data:`lookup_my_order` (the reference) on
generated sessions: one to three signed-in users in turn (an owner, another customer, a user with no
orders), each asking for one or two orders (theirs, someone else's, cancelled, unknown, or an id in
the wrong case) through ``ToolNode``; the outcome is every dict the tool returned, exactly.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from ..domain import DomainError, OrderStore
from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .generated import content_value
from .results import clipped, shown

__all__ = ["SESSIONS", "USER_SCOPED_LOOKUP", "CheckContext", "lookup_my_order", "run_in_tool_node"]


@dataclass
class CheckContext:
    """The context the checker passes at invoke time: only the trusted ``user_id``."""

    user_id: str


def run_in_tool_node(tool: BaseTool, args: dict[str, Any], *, user_id: str, call_id: str = "call_check") -> ToolMessage:
    """Run ``tool`` once through ``ToolNode`` as user ``user_id`` and return its ToolMessage.

    Args:
        tool: a ``BaseTool`` (e.g. from ``@tool``) that may declare ``runtime: ToolRuntime[...]``.
        args: the arguments "the model" sends.
        user_id: goes into ``context=CheckContext(user_id)``; ``runtime.context.user_id`` reads it.
        call_id: the tool call id.

    Returns:
        the ToolMessage ToolNode produced.

    Raises:
        whatever the tool raises and ToolNode does not convert (its default handler converts
        only argument-validation errors), e.g. a ``DomainError`` the tool let escape.
    """
    graph = StateGraph(MessagesState, context_schema=CheckContext)
    graph.add_node("tools", ToolNode([tool]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    call = {"name": tool.name, "args": args, "id": call_id, "type": "tool_call"}
    result = graph.compile().invoke({"messages": [AIMessage(content="", tool_calls=[call])]},
                                    context=CheckContext(user_id))
    return result["messages"][-1]


def _run_quietly(tool: BaseTool, args: dict[str, Any], *, user_id: str) -> tuple[ToolMessage, list[str]]:
    """``run_in_tool_node`` with warnings recorded, not printed: ``(message, warning texts)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        message = run_in_tool_node(tool, args, user_id=user_id)
    return message, [" ".join(str(w.message).split()) for w in caught]


def _probe(answer: Any) -> None:
    """Call the answer once, filling every model-visible argument, so a stub's NotImplementedError shows."""
    if not isinstance(answer, BaseTool):
        return
    args: dict[str, Any] = {"order_id": "A1024"}
    for name in getattr(answer.tool_call_schema, "model_fields", {}):
        args.setdefault(name, "user-42")
    _run_quietly(answer, args, user_id="user-42")


def _require_tool(answer: Any) -> BaseTool:
    assert isinstance(answer, BaseTool), (
        _("pass the tool object (decorate the function with @tool), got {type}").format(type=type(answer).__name__)
    )
    return answer


def _result(answer: Any, order_id: str, user_id: str) -> dict[str, Any]:
    tool = _require_tool(answer)
    try:
        message, _warned = _run_quietly(tool, {"order_id": order_id}, user_id=user_id)
    except DomainError as exc:
        raise AssertionError(
            _("the tool raised {type} ({code}); inside an agent a raised exception ends the whole run. Catch "
              "DomainError and return exc.to_dict() so the model reads the refusal").format(
                  type=type(exc).__name__, code=clipped(exc.code, 60))
        ) from None
    assert message.status != "error", _("ToolNode reported an error: {content}").format(
        content=clipped(message.content, 300))
    try:
        data = json.loads(message.content)
    except (TypeError, ValueError):
        raise AssertionError(_("return a dict (ToolNode serialises it to JSON), got content {content}").format(
            content=shown(message.content))) from None
    assert isinstance(data, dict), _("return a dict, got {type}").format(type=type(data).__name__)
    return data


def _schema(answer: Any) -> None:
    tool = _require_tool(answer)
    params = convert_to_openai_tool(tool)["function"]["parameters"].get("properties", {})
    names = sorted(params)
    assert "user_id" not in names, (
        _("user_id is in the schema the model sees, so the model (or a user talking to it) can fill it. "
        "Read the user from runtime.context.user_id instead")
    )
    assert names == ["order_id"], _("the model should see only order_id, it sees {names}").format(names=shown(names))


def _owner_gets_order(answer: Any) -> None:
    data = _result(answer, "A1024", "user-42")
    assert "error" not in data and data.get("order_id") == "A1024" and data.get("status") == "delivered", (
        _("user-42 owns A1024: return ORDERS.get_order(...).to_dict(), got {data}").format(data=shown(data))
    )


def _other_user_denied(answer: Any) -> None:
    data = _result(answer, "A1024", "user-7")
    assert data.get("error") == "permission_denied", (
        _("user-7 asked for user-42's order A1024 and got {data}. Pass user_id=runtime.context.user_id to "
          "ORDERS.get_order, which checks ownership").format(data=shown(data))
    )
    assert "product" not in data and "amount" not in data, _("the refusal must not leak the order's details")


def _other_user_own_order(answer: Any) -> None:
    data = _result(answer, "B2048", "user-7")
    assert "error" not in data and data.get("order_id") == "B2048" and data.get("user_id") == "user-7", (
        _("user-7 owns B2048 but got {data}: is the user id hard-coded instead of read from runtime.context?").format(
            data=shown(data))
    )


def _unknown_order(answer: Any) -> None:
    data = _result(answer, "Z9999", "user-42")
    assert data.get("error") == "order_not_found", _("an unknown order should give error 'order_not_found', got {data}").format(
        data=shown(data))


def _typed_runtime(answer: Any) -> None:
    tool = _require_tool(answer)
    message, warned = _run_quietly(tool, {"order_id": "A1024"}, user_id="user-42")
    assert message.status != "error", _("ToolNode reported an error: {content}").format(
        content=clipped(message.content, 300))
    serializer = [w for w in warned if "Pydantic serializer warnings" in w or "Expected `none`" in w]
    assert not serializer, (
        _("running your tool made Pydantic warn (Expected `none` ...): annotate the runtime as "
        "ToolRuntime[SupportContext], not a bare ToolRuntime, so it knows the context type")
    )


# -- the reference and the generated sessions -----------------------------------------------------------

@cache
def _orders() -> OrderStore:
    """The reference's order store, read on first use (importing this module reads no data file)."""
    return OrderStore()



@tool
def lookup_my_order(order_id: str, runtime: ToolRuntime[CheckContext]) -> dict:
    """The reference: look up one of the signed-in user's orders by its id (the user comes from
    ``runtime.context``; a refusal is returned as ``exc.to_dict()``)."""
    try:
        return _orders().get_order(order_id, user_id=runtime.context.user_id).to_dict()
    except DomainError as exc:
        return exc.to_dict()


USERS = ("user-42", "user-7", "user-99")
ORDER_IDS = ("A1024", "B2048", "B2049", "A1025", "Z9999", "a1024")
#: A generated spec: one to three sessions ``(user, (order id, ...))``, one ``ToolNode`` run each.
SESSIONS = st.lists(st.tuples(st.sampled_from(USERS), st.lists(st.sampled_from(ORDER_IDS), min_size=1,
                                                                max_size=2).map(tuple)),
                    min_size=1, max_size=3).map(tuple)
_GRAPHS: dict[int, tuple[BaseTool, Any]] = {}


def _tool_node_graph(tool_object: BaseTool) -> Any:
    """The compiled one-node graph of :func:`run_in_tool_node` for this tool, built once per tool object (it
    holds no state: no checkpointer)."""
    cached = _GRAPHS.get(id(tool_object))
    if cached is None or cached[0] is not tool_object:
        if len(_GRAPHS) >= 8:
            _GRAPHS.clear()
        graph = StateGraph(MessagesState, context_schema=CheckContext)
        graph.add_node("tools", ToolNode([tool_object]))
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        _GRAPHS[id(tool_object)] = cached = (tool_object, graph.compile())
    return cached[1]


def _sessions_outcome(answer: Any, spec: tuple) -> tuple:
    tool_object = _require_tool(answer)
    outcomes = []
    for user, orders in spec:
        calls = [{"name": tool_object.name, "args": {"order_id": order}, "id": f"call_{n}", "type": "tool_call"}
                 for n, order in enumerate(orders, 1)]
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            out = _tool_node_graph(tool_object).invoke({"messages": [AIMessage("", tool_calls=calls)]},
                                                       context=CheckContext(user))
        answered = {m.tool_call_id: m for m in out["messages"] if isinstance(m, ToolMessage)}
        outcomes.append(tuple((str(answered[c["id"]].status), *content_value(answered[c["id"]].content))
                              if c["id"] in answered else ("no ToolMessage",) for c in calls))
    return tuple(outcomes)


def _describe_sessions(spec: tuple) -> str:
    return _("one ToolNode run per signed-in user, in turn: {sessions}").format(sessions="; ".join(
        _("{user} asks for {orders}").format(user=user, orders=", ".join(orders)) for user, orders in spec))


USER_SCOPED_LOOKUP = Exercise(
    "04.1",
    "a user-scoped order tool",
    [
        Case("the model sees only order_id", _schema),
        Case("user-42 gets their order A1024", _owner_gets_order),
        Case("user-7 asking for A1024 gets permission_denied (returned, not raised)", _other_user_denied),
        Case("user-7 gets their own order B2048", _other_user_own_order),
        Case("an unknown order gives order_not_found", _unknown_order),
        Case("the runtime is typed ToolRuntime[SupportContext] (no Pydantic warnings)", _typed_runtime),
    ],
    probe=_probe,
    generated=Generated(
        "agrees with the reference on generated sessions", SESSIONS, _sessions_outcome, lookup_my_order,
        _describe_sessions, hint=N_("return ORDERS.get_order(order_id, user_id=runtime.context.user_id).to_dict() "
                                    "and, for a DomainError, exc.to_dict() itself (its code, message and fields): "
                                    "not a dict of your own"),
        examples=50),  # one to three ToolNode runs per input
)
