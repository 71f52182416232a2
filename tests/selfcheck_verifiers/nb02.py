"""Verifiers of notebook 02's self-check questions (``helpers/selfcheck/nb02.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def verify_answer_by_id(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError, scripted_model, tool_call
    ns = context_namespace("02")
    call = tool_call("lookup_order", {"order_id": "A1024"}, id="call_7")
    assert ns["lookup_order"].invoke(call).tool_call_id == "call_7"
    ai = AIMessage("", tool_calls=[call, tool_call("lookup_order", {"order_id": "A1030"}, id="call_8")])
    results = [ns["lookup_order"].invoke(c) for c in ai.tool_calls]
    scripted_model(["ok"]).invoke([HumanMessage("?"), ai, *reversed(results)])  # position does not matter
    same_name_other_id = ToolMessage(results[0].content, tool_call_id="call_9", name="lookup_order")
    with pytest.raises(ProviderRuleError, match="orphan_tool_message"):  # the name does not pair it
        scripted_model(["ok"]).invoke([HumanMessage("?"), ai, *results, same_name_other_id])
    return pick(q, 'tool_call_id="call_7"')


def verify_invalid_json_ends_run(q):
    from langchain.agents import create_agent
    from langchain.messages import AIMessage

    from helpers import invalid_tool_call, reply, scripted_model
    ns = context_namespace("02")
    model = scripted_model([reply("", invalid_tool_call("lookup_order", '{"order_id": A1024}')), "never reached"])
    result = create_agent(model, ns["TOOLS"]).invoke({"messages": [("user", "Status of A1024?")]})
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and last.invalid_tool_calls and not last.tool_calls and last.text == ""
    assert ns["runs"]["lookup_order"] == 0 and len(model.requests) == 1
    return pick(q, "invalid_tool_calls")


def verify_dependent_call(q):
    from helpers import scripted_model, tool_call
    ns = context_namespace("02")
    model = scripted_model([[tool_call("quote_refund", {"order_id": "A1030"}),
                             tool_call("submit_refund_request", {"order_id": "A1030", "amount": 180.0})]])
    ai = model.bind_tools(ns["TOOLS"]).invoke("Refund A1030")
    assert ai.tool_calls[1]["args"]["amount"] == 180.0  # written in the reply ...
    assert ns["runs"]["quote_refund"] == 0              # ... before any quote existed
    return pick(q, "guessed")


def verify_tool_call_limit_continues(q):
    from langchain.agents import create_agent
    from langchain.agents.middleware import ToolCallLimitMiddleware
    from langgraph.errors import GraphRecursionError

    from helpers import scripted_model, tool_call
    ns = context_namespace("02")
    never_stops = [[tool_call("lookup_order", {"order_id": "A1024"})]] * 30   # always one more call
    limit = ToolCallLimitMiddleware(run_limit=3)
    assert limit.exit_behavior == "continue"                                  # the default
    model = scripted_model(never_stops)
    agent = create_agent(model, ns["TOOLS"], middleware=[limit])
    assert agent.config["recursion_limit"] == 9999                            # what stops it at last
    with pytest.raises(GraphRecursionError):                                  # no AI message, no limit error
        agent.invoke({"messages": [("user", "status?")]}, {"recursion_limit": 20})
    assert ns["runs"]["lookup_order"] == 3 and len(model.requests) > 4        # tool blocked, model still asked
    return pick(q, "GraphRecursionError")
