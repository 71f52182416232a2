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
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from ..domain import DomainError
from ..i18n import _
from .core import Case, Exercise
from .results import clipped, shown

__all__ = ["USER_SCOPED_LOOKUP", "CheckContext", "run_in_tool_node"]


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
)
