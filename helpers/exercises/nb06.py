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

:func:`mark_refund_submitted` is the reference. The generated check (:data:`REPLIES`) runs replies of one to
four calls, the learner's tool once among ``lookup_order`` calls, with call ids in the styles of three
providers whose order is not their position, four request ids and three stages before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from langchain.agents import AgentState, create_agent
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command

from ..i18n import N_, _
from ..model import ProviderRuleError, ScriptedChatModel, tool_call
from .core import Case, Exercise, Generated
from .results import clipped, shown

__all__ = ["MARK_SUBMITTED", "REPLIES", "CheckContext", "mark_refund_submitted", "reply_outcome", "run_with_state"]


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


# -- the reference and the generated replies ------------------------------------------------------------------


@tool
def mark_refund_submitted(request_id: str, runtime: ToolRuntime[CheckContext]) -> Command:
    """Record that refund request `request_id` (e.g. RF-0001) has been submitted.

    The reference of 06.1 (the specification): one ``Command`` whose update serves both consumers,
    ``refund_stage = "submitted"`` for the program and one ``ToolMessage`` naming the request id, answering
    ``runtime.tool_call_id``, for the model; no ``goto``.
    """
    return Command(update={
        "refund_stage": "submitted",
        "messages": [ToolMessage(f"Refund request {request_id} is submitted.", tool_call_id=runtime.tool_call_id)],
    })


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order (the other tool a generated reply calls)."""
    return f'{{"order_id": "{order_id}", "status": "delivered"}}'


#: Tool call ids in the styles of the providers of notebook 14 (chat.completions, Responses, Anthropic), whose
#: order is not their position.
CALL_IDS = ("call_k2Xa9", "fc_07b1", "toolu_01Qz", "call_A", "call_0", "toolu_9", "call_x9")
#: Request ids the model may pass.
REQUEST_IDS = ("RF-0042", "RF-7", "RF-1200", "RF-0001")
#: ``refund_stage`` before the call.
STAGES = ("quoted", "confirmed", "not_started")

#: A generated reply: ``(the request id, the stage before, the calls)``; the calls are one to four ``(tool,
#: call id)`` with ``mark_refund_submitted`` exactly once, at any place among ``lookup_order`` calls.
REPLIES = st.tuples(
    st.sampled_from(REQUEST_IDS), st.sampled_from(STAGES),
    st.tuples(st.lists(st.sampled_from(CALL_IDS), min_size=1, max_size=4, unique=True), st.integers(0, 3))
    .map(lambda drawn: tuple(("mark_refund_submitted" if n == min(drawn[1], len(drawn[0]) - 1) else "lookup_order",
                              call_id) for n, call_id in enumerate(drawn[0]))),
)


def reply_outcome(answer: Any, spec: tuple) -> dict[str, Any]:
    """The reply of ``spec`` (:data:`REPLIES`) run by ``ToolNode`` (langgraph-prebuilt 1.1.3) with the answer as
    ``mark_refund_submitted`` and :func:`lookup_order`, from a state with ``refund_stage``.

    Returns:
        ``{"refund_stage", "answers" (per call in order: (status, names the request id) of each ToolMessage
        answering it), "goto" (the Command's, or None)}``; ``{"ToolNode": "rejected the Command"}`` when its
        update answers no call of its own.
    """
    request_id, stage, calls = spec
    tool_obj = _require_tool(answer)
    returned: list[Any] = []

    def capture(request: Any, execute: Any) -> Any:
        result = execute(request)
        returned.append(result)
        return result

    graph = StateGraph(_RefundState, context_schema=CheckContext)
    graph.add_node("tools", ToolNode([tool_obj, lookup_order], wrap_tool_call=capture))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    made = [{"name": tool_obj.name if name == "mark_refund_submitted" else name,
             "args": {"request_id": request_id} if name == "mark_refund_submitted" else {"order_id": "A1024"},
             "id": call_id, "type": "tool_call"} for name, call_id in calls]
    try:
        state = graph.compile().invoke(
            {"messages": [HumanMessage("please submit my refund"), AIMessage("", tool_calls=made)], "refund_stage": stage},
            context=CheckContext("user-42"))
    except ValueError as exc:
        if "matching ToolMessage" in str(exc):
            return {"ToolNode": "rejected the Command: its update has no ToolMessage answering its own call"}
        raise
    answers = [[(m.status, request_id in str(m.content)) for m in state["messages"]
                if isinstance(m, ToolMessage) and m.tool_call_id == call["id"]] for call in made]
    gotos = [command.goto for command in returned if isinstance(command, Command) and command.goto]
    return {"refund_stage": state["refund_stage"], "answers": answers, "goto": gotos or None}


def _describe_reply(spec: tuple) -> str:
    request_id, stage, calls = spec
    made = ", ".join(f"{name}(id={call_id!r})" for name, call_id in calls)
    return _("refund_stage is {stage!r}; the model calls, in one reply: {calls}, with request_id={request_id!r}").format(
        stage=stage, calls=made, request_id=request_id)


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
    generated=Generated(
        "agrees with the reference on generated replies", REPLIES, reply_outcome, mark_refund_submitted,
        _describe_reply,
        hint=N_("answer the call your tool is running (runtime.tool_call_id), whatever its id looks like and wherever "
                "it stands in the reply, with one ToolMessage naming the request id, and set refund_stage"),
        examples=60),
    probe=lambda answer: run_with_state(answer, "RF-0001", call_id="call_probe"),
    # The generated check compiles a graph for each input; on a loaded 2-core machine 60 inputs (and the
    # reference's, on the first check) can take seconds, so the deadline (which only ever matters for an
    # endless loop) is longer than the default 5 s.
    timeout=30,
)
