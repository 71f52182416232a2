"""Verifiers of notebook 06's self-check questions (``helpers/selfcheck/nb06.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import contextlib
import io

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import (
    context_namespace,
    notebook_cells_namespace,
)


def verify_list_answers_once(q):
    from langchain.messages import ToolMessage
    from langchain.tools import ToolRuntime, tool
    from langgraph.types import Command

    ns = context_namespace("06")

    @tool
    def stage_then_answer(order_id: str, runtime: ToolRuntime) -> list:
        """Stage first, answer second."""
        return [Command(update={"refund_stage": "confirmed"}),
                Command(update={"messages": [ToolMessage("confirmed", tool_call_id=runtime.tool_call_id)]})]

    @tool
    def answered_twice(order_id: str, runtime: ToolRuntime) -> list:
        """Both answer."""
        return [Command(update={"refund_stage": "confirmed",
                                "messages": [ToolMessage("stage set", tool_call_id=runtime.tool_call_id)]}),
                Command(update={"messages": [ToolMessage("confirmed", tool_call_id=runtime.tool_call_id)]})]

    @tool
    def stage_no_answer(order_id: str, runtime: ToolRuntime) -> list:
        """No answer."""
        return [Command(update={"refund_stage": "confirmed"})]

    accepted = []
    for list_tool in (stage_then_answer, answered_twice, stage_no_answer):
        state = {"messages": [ns["ai_calls"]((list_tool.name, {"order_id": "A1024"}, "call_1"))], "refund_stage": "quoted"}
        try:
            ns["tools_graph"]([list_tool]).invoke(state)
        except ValueError as exc:
            assert "expected exactly one terminating ToolMessage" in str(exc)
        else:
            accepted.append(list_tool.name)
    assert accepted == ["stage_then_answer"]
    return pick(q, "the call's ToolMessage in the second")


def verify_goto_adds_a_target(q):
    ns = notebook_cells_namespace("06", "    ProviderRuleError,", "def tools_graph",
                                  "def escalate_refund", "def routing_graph", "def run_steps")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ns["run_steps"](ns["routing_graph"](static_edge_to_notify=True), "escalate_refund", {"reason": "above 1000"})
    assert "step 1: tools | step 2: human_review, notify_user " in out.getvalue(), out.getvalue()
    return pick(q, "in the same step")


def verify_parent_not_checked(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage
    from langchain.tools import tool
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Command

    ns = context_namespace("06")

    @tool
    def hand_to_human(reason: str) -> Command:
        """Hand the case to the parent's human review (without answering the call)."""
        return Command(graph=Command.PARENT, goto="human_review", update={"refund_stage": "needs_review"})

    reviewed = []

    def human_review(state) -> dict:
        reviewed.append(state["refund_stage"])
        return {"messages": [AIMessage("A colleague will review your refund today.")], "refund_stage": "in_review"}

    parent = StateGraph(ns["RefundState"])
    parent.add_node("model_turn", lambda state: {"messages": [ns["ai_calls"](("hand_to_human", {"reason": "big"}, "call_1"))]})
    parent.add_node("support", ns["tools_graph"]([hand_to_human]), destinations=("human_review",))
    parent.add_node("human_review", human_review)
    parent.add_edge(START, "model_turn")
    parent.add_edge("model_turn", "support")
    parent.add_edge("support", END)
    parent.add_edge("human_review", END)
    final = parent.compile().invoke({"messages": [HumanMessage("Refund A1029.")], "refund_stage": "quoted"})
    assert reviewed == ["needs_review"] and final["refund_stage"] == "in_review"
    assert not [m for m in final["messages"] if isinstance(m, ToolMessage)]  # call_1 has no answer
    return pick(q, "goes on to human_review")
