"""Verifiers of notebook 19's self-check questions (``helpers/selfcheck/nb19.py``): see
``tests/selfcheck_verifiers/__init__.py``. Each runs the notebook's own cells (setup, the desk's tools, the
scripted models) and the middleware the question asks about."""

import json

from langchain.agents import create_agent
from langchain.agents.middleware import (
    ClearToolUsesEdit,
    ContextEditingMiddleware,
    HumanInTheLoopMiddleware,
    LLMToolSelectorMiddleware,
    ToolCallLimitMiddleware,
)
from langchain_core.messages import HumanMessage
from langgraph.errors import GraphRecursionError

from helpers import scripted_model, tool_call
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import notebook_cells_namespace

_SETUP = ("def library_line(", "def order_history(", "def other_team_tool(", "alone = count_tokens_approximately")


def verify_what_the_selector_reads(q):
    ns = notebook_cells_namespace("19", *_SETUP, "def selection(")
    selector = scripted_model([ns["selection"]("lookup_order")] * 2)
    model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})], "Delivered."])
    agent = create_agent(model, ns["GROWN"], middleware=[LLMToolSelectorMiddleware(model=selector)])
    agent.invoke({"messages": [HumanMessage("Where is my order A1024?")]})
    assert len(selector.requests) == 2, "a selection before each of the two model calls"
    second = selector.requests[1]
    assert [m.type for m in second.messages] == ["system", "human"]
    assert second.messages[1].text == "Where is my order A1024?"
    assert any(m.type == "tool" for m in model.requests[1].messages), "the agent's model did get the result"
    return pick(q, "last human message only")


def verify_what_stays_of_a_cleared_call(q):
    ns = notebook_cells_namespace("19", *_SETUP, "def read_histories(")
    model = scripted_model(ns["read_histories"]("A1024", "A1025", "A1026"))
    editing = ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=400, keep=1)])
    result = create_agent(model, ns["DESK"], middleware=[editing]).invoke(
        {"messages": [HumanMessage("What happened to A1024, A1025 and A1026?")]})
    body = model.requests[-1].payload()["messages"]
    assert body[1]["tool_calls"][0]["id"] == "call_1"
    assert body[2] == {"content": "[cleared]", "role": "tool", "tool_call_id": "call_1"}
    assert result["messages"][2].text.startswith("Order A1024"), "the state keeps the full result"
    assert json.dumps(body).count("[cleared]") == 2
    return pick(q, "[cleared]")


def verify_what_stops_the_loop(q):
    ns = notebook_cells_namespace("19", *_SETUP, "def never_stops(")
    model = scripted_model([ns["never_stops"]] * 30)
    agent = create_agent(model, ns["DESK"], middleware=[ToolCallLimitMiddleware(run_limit=3)])
    try:
        agent.invoke({"messages": [HumanMessage("Tell me when A1024 ships.")]}, {"recursion_limit": 20})
    except GraphRecursionError:
        pass
    else:
        raise AssertionError("the run should end at the recursion limit")
    assert len(model.requests) > 4, "the model was asked again after the limit"
    errors = [m for m in model.requests[-1].messages if m.type == "tool" and m.status == "error"]
    assert errors and "Tool call limit exceeded" in errors[0].text
    return pick(q, "Only the recursion limit")


def verify_approval_inside_a_program(q):
    ns = notebook_cells_namespace("19", *_SETUP, "from langchain_quickjs import", "class BlockRefunds")
    ns["paid"].clear()
    model = scripted_model([[tool_call("eval", {"code": ns["refund_program"]})], "Done."])
    agent = create_agent(model, [ns["refund"]], context_schema=ns["Ctx"], checkpointer=ns["InMemorySaver"](),
                         middleware=[ns["CodeInterpreterMiddleware"](ptc=["refund"], timeout=ns["TIMEOUT"]),
                                     HumanInTheLoopMiddleware(interrupt_on={"refund": True})])
    out = agent.invoke({"messages": [HumanMessage("Refund me.")]}, context=ns["Ctx"]("c7"), version="v2",
                       config={"configurable": {"thread_id": "verify"}})
    assert out.interrupts == ()
    assert ns["paid"] == [("A1024", 1000.0)], "the program's refund ran without a pause"
    return pick(q, "None: the calls run inside eval")
