"""helpers.bug_answer: a bug in a tool is answered with internal_error, so a checkpointed thread stays usable."""

import json

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command, interrupt

from helpers import ProviderRuleError, scripted_model, tool_call
from helpers.bug_answer import answer_bugs, bug_answer
from helpers.domain import PermissionDenied
from helpers.error_contract import error_mapping


@tool
def buggy(order_id: str) -> str:
    """A tool with a bug."""
    return {}["missing"]


@tool
def refused(order_id: str) -> str:
    """A tool whose service refuses."""
    raise PermissionDenied(f"order {order_id} does not belong to user-42", order_id=order_id)


@tool
def asks(order_id: str) -> str:
    """A tool that pauses for a person."""
    return f"answer: {interrupt({'order_id': order_id})}"


def _agent(the_tool, middleware, replies=("Sorry.", "Hello again.")):
    call = tool_call(the_tool.name, {"order_id": "A1024"})
    return create_agent(scripted_model([[call], *replies]), [the_tool], middleware=middleware,
                        checkpointer=InMemorySaver())


def test_a_bug_is_answered_logged_and_the_thread_stays_usable():
    log = []
    agent = _agent(buggy, [answer_bugs(log=log), error_mapping()])
    config = {"configurable": {"thread_id": "t"}}
    out = agent.invoke({"messages": [HumanMessage("where is A1024?")]}, config)
    answer = out["messages"][2]
    assert answer.status == "error" and json.loads(answer.content)["error"] == "internal_error"
    assert "missing" not in answer.content and answer.content == bug_answer()
    assert log[0]["code"] is None and log[0]["exception"] == "KeyError: 'missing'"
    out = agent.invoke({"messages": [HumanMessage("hello?")]}, config)
    assert out["messages"][-1].content == "Hello again."


def test_without_it_the_thread_is_broken_for_the_next_message():
    agent = _agent(buggy, [error_mapping()])
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(KeyError):
        agent.invoke({"messages": [HumanMessage("where is A1024?")]}, config)
    with pytest.raises(ProviderRuleError):
        agent.invoke({"messages": [HumanMessage("hello?")]}, config)


def test_refusals_are_left_to_the_error_mapping_and_interrupts_pass_through():
    agent = _agent(refused, [answer_bugs(), error_mapping()])
    out = agent.invoke({"messages": [HumanMessage("refund A1024")]}, {"configurable": {"thread_id": "r"}})
    assert json.loads(out["messages"][2].content)["error"] == "permission_denied"
    with pytest.raises(PermissionDenied):   # answer_bugs alone does not answer a refusal
        _agent(refused, [answer_bugs()]).invoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": "r"}})
    agent = _agent(asks, [answer_bugs()])
    config = {"configurable": {"thread_id": "i"}}
    out = agent.invoke({"messages": [HumanMessage("x")]}, config, version="v2")
    assert [i.value for i in out.interrupts] == [{"order_id": "A1024"}]
    out = agent.invoke(Command(resume="yes"), config, version="v2")
    assert out.value["messages"][2].content == "answer: yes"
