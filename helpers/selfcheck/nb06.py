"""Self-check questions for notebook 06 · Command state updates."""

from __future__ import annotations

from ..i18n import N_
from .format import Question

#: The names the questions' ``code`` uses, defined as notebook 06 defines them (setup, section 6).
#: ``tests/test_selfcheck_questions.py`` runs each snippet after this and compares what it prints
#: with the answer.
CODE_CONTEXT = '''
from dataclasses import dataclass

from langchain.agents import AgentState, create_agent
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command

from helpers import scripted_model, tool_call


@dataclass
class SupportContext:
    """Who is signed in (trusted, passed at invoke time)."""
    user_id: str


class RefundState(MessagesState):
    """The conversation plus where the refund stands."""
    refund_stage: str


def ai_calls(*calls) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": n, "args": a, "id": i, "type": "tool_call"} for n, a, i in calls])


def tools_graph(tools, state_schema=RefundState):
    graph = StateGraph(state_schema)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    return graph.compile()


class SupportState(AgentState):
    refund_stage: str


@tool
def close_case(reason: str, runtime: ToolRuntime) -> Command:
    """Close the refund case."""
    return Command(goto=END, update={
        "refund_stage": "closed",
        "messages": [ToolMessage(f"Case closed: {reason}", tool_call_id=runtime.tool_call_id)],
    })


def closing_agent(closing_tool):
    model = scripted_model([[tool_call(closing_tool.name, {"reason": "duplicate request"})],
                            "Is there anything else I can help with?"])
    return model, create_agent(model, [closing_tool], state_schema=SupportState)


closing_inputs = {"messages": [HumanMessage("Please close my duplicate refund case.")], "refund_stage": "submitted"}
'''

QUESTIONS = (
    Question(
        id="custom-field-only",
        prompt=N_("A tool's `Command` updates only the custom field, with no `messages` key. `tools_graph` runs it "
                  "with `ToolNode`. What does this print?"),
        code=('@tool\n'
              'def stage_only(order_id: str, runtime: ToolRuntime[SupportContext]) -> Command:\n'
              '    """Record that the user confirmed the refund of an order."""\n'
              '    return Command(update={"refund_stage": "confirmed"})\n'
              '\n'
              'state = {"messages": [ai_calls(("stage_only", {"order_id": "A1024"}, "call_1"))], "refund_stage": "quoted"}\n'
              'try:\n'
              '    print(tools_graph([stage_only]).invoke(state)["refund_stage"])\n'
              'except ValueError as exc:\n'
              '    print(type(exc).__name__)'),
        choices=("ValueError", "confirmed", "quoted"),
        answer="ValueError",
        explanation=N_("ToolNode refuses a single Command whose dict update has no ToolMessage answering the call, "
                       "whether or not the update touches messages."),
        section=N_("section 2, When `ToolNode` refuses a Command"),
        why_not={"confirmed": N_("The update is not applied: a Command that leaves its call unanswered is refused."),
                 "quoted": N_("Nothing is dropped silently: the run stops with an error that names the tool.")},
    ),
    Question(
        id="list-answers-once",
        prompt=N_("A tool returns a list of Commands for one call. Which list does `ToolNode` accept?"),
        choices=(N_("The stage in the first Command, the call's ToolMessage in the second"),
                 N_("The stage and the call's ToolMessage in the first, and another ToolMessage for the call in the "
                    "second"),
                 N_("One Command that sets the stage, and no ToolMessage")),
        answer=N_("The stage in the first Command, the call's ToolMessage in the second"),
        explanation=N_("For a list, ToolNode counts the ToolMessages for the call across all its items: exactly one, "
                       "none required per Command."),
        section=N_("section 2, A list of Commands: one answer across the whole list"),
        why_not={N_("The stage and the call's ToolMessage in the first, and another ToolMessage for the call in the "
                    "second"): N_("Two answers to one call are refused too: 2 messages bound to the call's id."),
                 N_("One Command that sets the stage, and no ToolMessage"):
                     N_("A list with no answer for the call is refused: 0 messages bound to its id.")},
    ),
    Question(
        id="goto-adds-a-target",
        prompt=N_("The tools node has a static edge to `notify_user`, and `escalate_refund` returns "
                  "`Command(goto=\"human_review\", update=...)`. Which nodes run after the tools node?"),
        choices=(N_("human_review and notify_user, in the same step"),
                 N_("only human_review: goto replaces the static edge"),
                 N_("only notify_user: the static edge wins"),
                 N_("human_review, then notify_user one step later")),
        answer=N_("human_review and notify_user, in the same step"),
        explanation=N_("goto adds a next node and never cancels the node's static edges; to let the tool decide "
                       "alone, give the node no outgoing static edge."),
        section=N_("section 3, `Command(goto=...)` adds a next node"),
        why_not={N_("only human_review: goto replaces the static edge"):
                     N_("That is the graph without the static edge to notify_user.")},
    ),
    Question(
        id="parent-not-checked",
        prompt=N_("Inside the `support` subgraph, `hand_to_human` returns `Command(graph=Command.PARENT, "
                  "goto=\"human_review\", update={\"refund_stage\": \"needs_review\"})`: no ToolMessage. What happens "
                  "when the parent graph runs?"),
        choices=(N_("The parent goes on to human_review, and the model's call is left without an answer"),
                 N_("ToolNode raises ValueError: no matching ToolMessage in Command.update"),
                 N_("ToolNode adds a ToolMessage for the call itself")),
        answer=N_("The parent goes on to human_review, and the model's call is left without an answer"),
        explanation=N_("ToolNode skips the pairing check for a PARENT command, so answering the call is your job: "
                       "put the ToolMessage in the update."),
        section=N_("section 4, `graph=Command.PARENT`: from a subgraph to its parent; section 2, When `ToolNode` refuses a Command"),
        why_not={N_("ToolNode raises ValueError: no matching ToolMessage in Command.update"):
                     N_("That check covers Commands for the current graph; a PARENT command is handed on unchecked.")},
    ),
    Question(
        id="goto-end-in-agent",
        prompt=N_("`close_case` (section 6) returns `Command(goto=END, update={\"refund_stage\": \"closed\", "
                  "\"messages\": [its ToolMessage]})` inside `create_agent`. What does this print?"),
        code=('model, agent = closing_agent(close_case)   # scripted: call close_case, then (if asked again) text\n'
              'result = agent.invoke(closing_inputs)      # refund_stage starts as "submitted"\n'
              'print(result["refund_stage"], len(model.requests), result["messages"][-1].type)'),
        choices=("closed 2 ai", "closed 1 tool", "submitted 1 tool", "submitted 2 ai"),
        answer="closed 2 ai",
        explanation=N_("goto=END only adds END as a target: the agent's own tools -> model edge still runs, so the "
                       "model gets another turn and the last word."),
        section=N_("section 6, Ending an agent run from a tool: `goto=END` does not, `return_direct=True` does"),
        why_not={"closed 1 tool": N_("That is @tool(return_direct=True): the agent ends the run after such a tool."),
                 "submitted 1 tool": N_("The update is applied; only the end of the run is not what goto=END suggests.")},
    ),
)
