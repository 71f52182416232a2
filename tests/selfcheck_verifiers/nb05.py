"""Verifiers of notebook 05's self-check questions (``helpers/selfcheck/nb05.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def verify_who_reads_it(q):
    from langchain.messages import ToolMessage
    from langchain.tools import tool
    from langchain_core.messages.tool import ToolOutputMixin
    from langgraph.graph import END, START, StateGraph
    from langgraph.prebuilt import ToolNode

    ns = context_namespace("05")

    def one_node(tools):
        graph = StateGraph(ns["RefundState"])
        graph.add_node("tools", ToolNode(tools))
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        return graph.compile()

    state = {"messages": [ns["ai_calls"](("quote_refund", {"order_id": "A1024"}, "call_1"))], "refund_stage": "new"}
    assert one_node([ns["quote_refund"]]).invoke(state)["refund_stage"] == "new"  # a dict changes no state
    state = {"messages": [ns["ai_calls"](("advance_refund", {"stage": "quoted"}, "call_1"))], "refund_stage": "new"}
    after = one_node([ns["advance_refund"]]).invoke(state)  # a Command sets the field and answers the call
    assert after["refund_stage"] == "quoted" and isinstance(after["messages"][-1], ToolMessage)
    assert after["messages"][-1].tool_call_id == "call_1"

    class Flag(ToolOutputMixin):
        pass

    @tool
    def quote_flag(order_id: str) -> Flag:
        """Quote (returns a home-made marker object)."""
        return Flag()

    state = {"messages": [ns["ai_calls"](("quote_flag", {"order_id": "A1024"}, "call_1"))], "refund_stage": "new"}
    with pytest.raises(TypeError, match="returned unexpected type"):
        one_node([quote_flag]).invoke(state)
    return pick(q, "A Command")
