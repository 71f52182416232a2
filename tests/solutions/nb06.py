"""Reference solution and known-wrong answers for exercise 06.1 (mark_refund_submitted)."""

from __future__ import annotations

from dataclasses import dataclass

from langchain.messages import ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.graph import END
from langgraph.types import Command

from helpers.exercises.registry import AnswerSet, KnownWrong


@dataclass
class SupportContext:
    user_id: str


@tool
def solution(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Record that a refund request was submitted."""
    return Command(update={
        "refund_stage": "submitted",
        "messages": [ToolMessage(f"Refund request {request_id} is submitted.", tool_call_id=runtime.tool_call_id)],
    })


@tool("mark_refund_submitted")
def wrong_returns_text(request_id: str, runtime: ToolRuntime[SupportContext]) -> str:
    """Only the model hears about it: refund_stage never changes."""
    return f"Refund request {request_id} is submitted."


@tool("mark_refund_submitted")
def wrong_state_only(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Only program state: the tool call is left unanswered."""
    return Command(update={"refund_stage": "submitted"})


@tool("mark_refund_submitted")
def wrong_message_only(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Only the model: refund_stage never changes."""
    return Command(update={"messages": [ToolMessage(f"Refund request {request_id} is submitted.",
                                                    tool_call_id=runtime.tool_call_id)]})


@tool("mark_refund_submitted")
def wrong_hard_coded_id(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """A hard-coded tool_call_id answers some other call."""
    return Command(update={"refund_stage": "submitted",
                           "messages": [ToolMessage(f"Refund request {request_id} is submitted.", tool_call_id="call_1")]})


@tool("mark_refund_submitted")
def wrong_stage_value(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Writes another stage name."""
    return Command(update={"refund_stage": "done",
                           "messages": [ToolMessage(f"Refund request {request_id} is submitted.",
                                                    tool_call_id=runtime.tool_call_id)]})


@tool("mark_refund_submitted")
def wrong_vague_message(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """The model is not told which request was created."""
    return Command(update={"refund_stage": "submitted",
                           "messages": [ToolMessage("Success", tool_call_id=runtime.tool_call_id)]})


@tool("mark_refund_submitted")
def wrong_user_id_argument(request_id: str, user_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Asks the model for the user id."""
    return solution.func(request_id, runtime)


@tool("mark_refund_submitted")
def wrong_goto_end(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Tries to end the run after recording: create_agent ignores it, and the model must speak next anyway."""
    return Command(goto=END, update={
        "refund_stage": "submitted",
        "messages": [ToolMessage(f"Refund request {request_id} is submitted.", tool_call_id=runtime.tool_call_id)],
    })


@tool("mark_refund_submitted")
def wrong_two_messages(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Answers the same call twice."""
    message = f"Refund request {request_id} is submitted."
    return Command(update={"refund_stage": "submitted",
                           "messages": [ToolMessage(message, tool_call_id=runtime.tool_call_id),
                                        ToolMessage(message, tool_call_id=runtime.tool_call_id)]})


@tool("mark_refund_submitted", return_direct=True)
def wrong_return_direct(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Ends the agent run on the ToolMessage: the model never tells the user."""
    return solution.func(request_id, runtime)


@tool("mark_refund_submitted")
def wrong_id_from_the_state(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """Wrong (issue 27): the id read from the state, as the first tool call of the last AIMessage. Every named call
    is alone in its reply; with a lookup before it in the same reply, the ToolMessage answers the lookup's id."""
    call_id = runtime.state["messages"][-1].tool_calls[0]["id"]
    return Command(update={
        "refund_stage": "submitted",
        "messages": [ToolMessage(f"Refund request {request_id} is submitted.", tool_call_id=call_id)],
    })


@tool("mark_refund_submitted")
def crashing(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
    """A bug: raises KeyError."""
    return {}["missing"]


_STATE = "program state: refund_stage becomes 'submitted'"
_PAIRS = "the model: one ToolMessage answers the same tool call id"

def answer_from(body):
    """A mark_refund_submitted tool whose body is ``body()`` (for the contract test's hostile answers)."""

    @tool("mark_refund_submitted")
    def hostile(request_id: str, runtime: ToolRuntime[SupportContext]) -> Command:
        """Record that the refund request was submitted."""
        return body()

    return hostile


MARK_SUBMITTED = AnswerSet(
    solutions={"Command with a ToolMessage": solution},
    wrong={
        "returns text": KnownWrong(wrong_returns_text, fails=(_STATE,)),
        "state only": KnownWrong(wrong_state_only, fails=(_PAIRS,)),
        "message only": KnownWrong(wrong_message_only, fails=(_STATE,)),
        "hard-coded tool_call_id": KnownWrong(wrong_hard_coded_id, fails=(_PAIRS,)),
        "another stage name": KnownWrong(wrong_stage_value, fails=(_STATE,)),
        "vague message": KnownWrong(wrong_vague_message, fails=("the ToolMessage tells the model the request id",),
                                    status="fail"),
        "user id from the model": KnownWrong(wrong_user_id_argument, fails=("the model fills only request_id",)),
        "goto END": KnownWrong(wrong_goto_end, fails=("the Command does not route (no goto): the model speaks next",),
                               status="fail"),
        "two ToolMessages": KnownWrong(wrong_two_messages, fails=(_PAIRS,), status="fail"),
        "return_direct": KnownWrong(
            wrong_return_direct, fails=("end to end in create_agent: stage submitted, the model gets the last word",),
            status="fail"),
        "the call id read from the state": KnownWrong(wrong_id_from_the_state,
                                                      fails=("agrees with the reference on generated replies",),
                                                      status="fail"),
    },
    crashing={"KeyError": crashing},
    # the notebook's stub is annotated ToolRuntime[SupportContext]; the checker's context has the same shape
    stub_names={"SupportContext": SupportContext},
    answer_from=answer_from,
)
