"""Verifiers of notebook 07's self-check questions (``helpers/selfcheck/nb07.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import asyncio
import json
import operator
from typing import Annotated, TypedDict

import pytest

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import notebook_cells_namespace


def verify_plain_key_two_writes(q):
    from langgraph.errors import InvalidUpdateError
    from langgraph.graph import START, StateGraph

    class CheckState(TypedDict):
        last_checked: str

    builder = StateGraph(CheckState)
    builder.add_node("node_a", lambda state: {"last_checked": "order A1024"})
    builder.add_node("node_b", lambda state: {"last_checked": "policy electronics"})
    builder.add_edge(START, "node_a")
    builder.add_edge(START, "node_b")
    with pytest.raises(InvalidUpdateError, match="Can receive only one value per step"):
        builder.compile().invoke({"last_checked": ""})
    return pick(q, "InvalidUpdateError")


def verify_applied_in_task_order(q):
    from langchain.agents import AgentState, create_agent
    from langchain.messages import ToolMessage
    from langchain.tools import ToolRuntime, tool
    from langgraph.types import Command

    from helpers import scripted_model, tool_call

    class LookupState(AgentState):
        checked: Annotated[list[str], operator.add]

    finished = []

    @tool
    async def lookup(order_id: str, runtime: ToolRuntime) -> Command:
        """Look up an order (A1030 slowly)."""
        await asyncio.sleep(0.05 if order_id == "A1030" else 0.0)
        finished.append(order_id)
        return Command(update={"checked": [order_id],
                               "messages": [ToolMessage(f"{order_id}: found", tool_call_id=runtime.tool_call_id)]})

    calls = [tool_call("lookup", {"order_id": "A1030"}), tool_call("lookup", {"order_id": "A1024"})]
    agent = create_agent(scripted_model([calls, "Done."]), [lookup], state_schema=LookupState)
    result = asyncio.run(agent.ainvoke({"messages": [("user", "Check both")]}))
    # whichever finished first (``finished``), the writes are applied in the order of the calls
    return next(c for c in q.choices if c == json.dumps(result["checked"]))


def verify_replace_by_id(q):
    from langchain.messages import AIMessage, HumanMessage
    from langgraph.graph.message import add_messages

    history = [HumanMessage("hi", id="1"), AIMessage("draft", id="2")]
    merged = add_messages(history, [AIMessage("final", id="2")])
    count = {2: "two", 3: "three"}[len(merged)]
    return pick(q, f"{count} messages: " + ", ".join(m.content for m in merged))


def verify_order_independent_merge(q):
    ns = notebook_cells_namespace("07", "import operator", "def merge_first_seen", "def merge_audit")
    a = [{"key": "refund-A1024", "event": "requested"}]
    b = [{"key": "refund-A1030", "event": "requested"}, {"key": "refund-A1024", "event": "approved"}]
    merge_audit, merge_first_seen = ns["merge_audit"], ns["merge_first_seen"]
    assert merge_audit(merge_audit([], a), b) == merge_audit(merge_audit([], b), a)           # order-independent
    assert merge_first_seen(merge_first_seen([], a), b) != merge_first_seen(merge_first_seen([], b), a)
    assert operator.add(a, a) == a + a                                                          # keeps the retry
    return pick(q, "whichever write is applied first")


def verify_exclusive_field(q):
    from langchain.messages import AIMessage, ToolMessage
    from langchain.tools import ToolRuntime, tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode
    from langgraph.types import Command

    class StageState(MessagesState):
        refund_stage: Annotated[str, lambda old, new: new]   # keeps the last value

    def stage_tool(name: str, stage: str):
        @tool(name)
        def set_stage(order_id: str, runtime: ToolRuntime) -> Command:
            """Move the refund stage."""
            return Command(update={"refund_stage": stage,
                                   "messages": [ToolMessage(stage, tool_call_id=runtime.tool_call_id)]})
        return set_stage

    graph = StateGraph(StageState)
    graph.add_node("tools", ToolNode([stage_tool("submit_refund", "submitted"), stage_tool("cancel_refund", "cancelled")]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    calls = [{"name": n, "args": {"order_id": "A1024"}, "id": f"call_{i}", "type": "tool_call"}
             for i, n in enumerate(["submit_refund", "cancel_refund"], 1)]
    out = graph.compile().invoke({"messages": [AIMessage("", tool_calls=calls)], "refund_stage": "quoted"})
    assert out["refund_stage"] == "cancelled"  # no error; the call listed last
    return pick(q, "No error")
