"""Exercises of notebook 06 (Command state updates): serve both consumers of a tool result.

``MARK_SUBMITTED.check(tool)`` takes the learner's ``mark_refund_submitted`` tool and runs it
the way an agent does: through LangGraph's ``ToolNode`` in a graph whose state has a
``refund_stage`` field, and end to end in ``create_agent`` with the scripted model (which
rejects a history where a tool call has no ToolMessage, like a real provider).

Program state is served when ``refund_stage`` becomes ``"submitted"``; the model is served
when exactly one ToolMessage with the call's ``tool_call_id`` (and the request id in its
content) lands in ``messages``. The model must speak next, so the Command must not route
(no ``goto``; in ``create_agent`` a ``goto=END`` would not end the run anyway) and the tool
must not be ``return_direct``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain.agents import AgentState, create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command

from ..i18n import _
from ..model import ProviderRuleError, ScriptedChatModel, tool_call
from .core import Case, Exercise
from .results import clipped, shown

__all__ = ["MARK_SUBMITTED", "CheckContext", "run_with_state"]


@dataclass
class CheckContext:
    """The context the checker passes: the trusted ``user_id``."""

    user_id: str


class _RefundState(MessagesState):
    refund_stage: str


class _AgentRefundState(AgentState):
    refund_stage: str


def run_with_state(tool: BaseTool, request_id: str, *, call_id: str, stage: str = "quoted",
                   returned: list[Any] | None = None) -> dict[str, Any]:
    """Run one ``mark_refund_submitted``-style call through ``ToolNode`` and return the final state.

    Args:
        tool: the learner's tool; it must take ``request_id`` from the model.
        request_id: the model's argument.
        call_id: the tool call id of the scripted AIMessage.
        stage: ``refund_stage`` before the call.
        returned: if given, what ToolNode got back from the tool (a ``Command`` or ``ToolMessage``,
            after ToolNode's own checks) is appended to it, through ToolNode's ``wrap_tool_call`` hook.

    Returns:
        the graph's final state: ``{"messages": [...], "refund_stage": ...}``.

    Raises:
        ValueError: ToolNode's "Expected to have a matching ToolMessage" check
            (langgraph-prebuilt 1.1.3) when a returned Command lacks the matching ToolMessage.
    """
    def capture(request: Any, execute: Any) -> Any:
        result = execute(request)
        if returned is not None:
            returned.append(result)
        return result

    graph = StateGraph(_RefundState, context_schema=CheckContext)
    graph.add_node("tools", ToolNode([tool], wrap_tool_call=capture))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    call = {"name": tool.name, "args": {"request_id": request_id}, "id": call_id, "type": "tool_call"}
    return graph.compile().invoke(
        {"messages": [HumanMessage("please submit my refund"), AIMessage("", tool_calls=[call])], "refund_stage": stage},
        context=CheckContext("user-42"),
    )


def _require_tool(answer: Any) -> BaseTool:
    assert isinstance(answer, BaseTool), (
        _("pass the tool object (decorate the function with @tool), got {type}").format(type=type(answer).__name__)
    )
    return answer


def _run(answer: Any, request_id: str, call_id: str, returned: list[Any] | None = None) -> dict[str, Any]:
    tool = _require_tool(answer)
    try:
        state = run_with_state(tool, request_id, call_id=call_id, returned=returned)
    except ValueError as exc:
        if "matching ToolMessage" in str(exc):
            raise AssertionError(
                _("ToolNode rejected the Command: its update has no ToolMessage with tool_call_id={call_id!r}. Put "
                  "ToolMessage(..., tool_call_id=runtime.tool_call_id) in update['messages'] (never a hard-coded id)").format(
                      call_id=call_id)
            ) from None
        raise
    last = state["messages"][-1]
    assert not (isinstance(last, ToolMessage) and last.status == "error"), (
        _("ToolNode answered the call with an error: {content}").format(content=clipped(last.content, 300))
    )
    return state


def _schema(answer: Any) -> None:
    tool = _require_tool(answer)
    names = sorted(convert_to_openai_tool(tool)["function"]["parameters"].get("properties", {}))
    assert names == ["request_id"], _("the model should fill only request_id, the schema has {names}").format(
        names=shown(names))


def _state_updated(answer: Any) -> None:
    state = _run(answer, "RF-0042", "call_7")
    assert state["refund_stage"] == "submitted", (
        _("refund_stage is {refund_stage} after the call: the program's consumer is not served. Return "
          "Command(update={{'refund_stage': 'submitted', ...}}); a str or dict only reaches the model").format(
              refund_stage=shown(state['refund_stage']))
    )


def _message_pairs(answer: Any) -> None:
    for call_id in ("call_7", "call_x9"):
        state = _run(answer, "RF-0042", call_id)
        answers = [m for m in state["messages"] if isinstance(m, ToolMessage)]
        assert len(answers) == 1, _("expected one ToolMessage for the call, found {count}").format(count=len(answers))
        assert answers[0].tool_call_id == call_id, (
            _("the ToolMessage answers {tool_call_id}, the call was {call_id!r}: use runtime.tool_call_id").format(
                tool_call_id=shown(answers[0].tool_call_id), call_id=call_id)
        )


def _message_names_request(answer: Any) -> None:
    state = _run(answer, "RF-0042", "call_7")
    message = [m for m in state["messages"] if isinstance(m, ToolMessage)][-1]
    assert "RF-0042" in str(message.content), (
        _("the ToolMessage says {content}; include the request id so the model can tell the user").format(
            content=shown(message.content))
    )


def _no_routing(answer: Any) -> None:
    returned: list[Any] = []
    _run(answer, "RF-0042", "call_7", returned=returned)
    commands = [r for r in returned if isinstance(r, Command)]
    for command in commands:
        assert not command.goto, (
            _("the Command has goto={goto}. The model must speak next (it tells the user the request id), so do "
              "not route. goto=END would not stop create_agent anyway: goto adds a target and the agent's tools -> "
              "model edge still runs (section 6)").format(goto=shown(command.goto))
        )


def _end_to_end(answer: Any) -> None:
    tool = _require_tool(answer)
    model = ScriptedChatModel(script=[[tool_call(tool.name, {"request_id": "RF-0042"})], "Your refund request RF-0042 is submitted."])
    agent = create_agent(model, [tool], state_schema=_AgentRefundState, context_schema=CheckContext)
    try:
        result = agent.invoke({"messages": [HumanMessage("submit it")], "refund_stage": "confirmed"},
                              context=CheckContext("user-42"))
    except ProviderRuleError as exc:  # a ValueError subclass: catch it first
        raise AssertionError(
            _("the provider rejected the next model request: {exc}. The update must hold exactly one ToolMessage, "
              "with tool_call_id=runtime.tool_call_id").format(exc=clipped(exc, 300))
        ) from None
    except ValueError as exc:
        if "matching ToolMessage" in str(exc):
            raise AssertionError(_("create_agent's ToolNode rejected the Command: no matching ToolMessage")) from None
        raise
    assert result["refund_stage"] == "submitted", _("the agent run ended with refund_stage={refund_stage}").format(
        refund_stage=shown(result['refund_stage']))
    assert isinstance(result["messages"][-1], AIMessage), (
        _("the run ended on the ToolMessage, so the model never told the user: the model should get the last word "
        "(do not mark this tool return_direct=True)")
    )
    assert len(model.requests) == 2, _("expected 2 model turns (call the tool, then tell the user), got {count}").format(
        count=len(model.requests))


MARK_SUBMITTED = Exercise(
    "06.1",
    "mark_refund_submitted serves program state and the model",
    [
        Case("the model fills only request_id", _schema),
        Case("program state: refund_stage becomes 'submitted'", _state_updated),
        Case("the model: one ToolMessage answers the same tool call id", _message_pairs),
        Case("the ToolMessage tells the model the request id", _message_names_request),
        Case("the Command does not route (no goto): the model speaks next", _no_routing),
        Case("end to end in create_agent: stage submitted, the model gets the last word", _end_to_end),
    ],
    probe=lambda answer: run_with_state(answer, "RF-0001", call_id="call_probe"),
)
