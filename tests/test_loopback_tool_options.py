"""The loopback server honours ``tool_choice`` and ``parallel_tool_calls`` (issue 19), and notebook 14's
live cell runs to its end against a provider that ignores both (``behaviour="ignores_tool_options"``).

The unit tests call :func:`helpers.model.loopback_openai.plan_reply` on chat.completions bodies as
``ChatOpenAI.bind_tools(..., tool_choice=..., parallel_tool_calls=...)`` sends them (langchain-openai
1.7.4: a tool name becomes ``{"type": "function", "function": {"name": ...}}``; ``parallel_tool_calls``
is sent only when given); one test goes through the real ``ChatOpenAI`` over HTTP.
"""

from __future__ import annotations

import json

from helpers.model.loopback_openai import LoopbackOpenAI, plan_reply
from tooling.notebooks import course_notebooks
from tests.live_notebooks import execute_notebook_live, output_text

LOOKUP = {"type": "function", "function": {
    "name": "lookup_order", "description": "Look up one order by id, e.g. A1024.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}}
POLICY = {"type": "function", "function": {
    "name": "lookup_refund_policy", "description": "The refund policy of a product type.",
    "parameters": {"type": "object", "properties": {"product_type": {"type": "string"}},
                   "required": ["product_type"]}}}
TWO_ORDERS = [{"role": "user", "content": "Where are my orders A1024 and A1030?"}]


def planned(behaviour="calls_tools", **options):
    message, finish = plan_reply({"model": "m", "messages": TWO_ORDERS, "tools": [LOOKUP, POLICY], **options},
                                 "call_lb_0001", behaviour)
    calls = [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
             for c in message.get("tool_calls") or []]
    return calls, finish


def test_parallel_tool_calls_true_gets_one_call_per_order_id():
    calls, finish = planned(parallel_tool_calls=True)
    assert finish == "tool_calls"
    assert calls == [("call_lb_0001", "lookup_order", {"order_id": "A1024"}),
                     ("call_lb_0001_2", "lookup_order", {"order_id": "A1030"})]


def test_parallel_tool_calls_false_or_unset_gets_one_call():
    assert planned(parallel_tool_calls=False)[0] == [("call_lb_0001", "lookup_order", {"order_id": "A1024"})]
    assert planned()[0] == [("call_lb_0001", "lookup_order", {"order_id": "A1024"})]


def test_a_forced_tool_is_called_even_when_the_words_match_another():
    forced = {"type": "function", "function": {"name": "lookup_refund_policy"}}
    calls, _ = planned(tool_choice=forced, parallel_tool_calls=True)
    assert [name for _, name, _ in calls] == ["lookup_refund_policy"]  # no order_id: one call
    assert planned(tool_choice="none", parallel_tool_calls=True) == ([], "stop")


def test_a_provider_that_ignores_the_options():
    forced = {"type": "function", "function": {"name": "lookup_refund_policy"}}
    calls, _ = planned("ignores_tool_options", tool_choice=forced, parallel_tool_calls=False)
    assert [(name, args) for _, name, args in calls] == [("lookup_order", {"order_id": "A1024"}),
                                                         ("lookup_order", {"order_id": "A1030"})]


def test_chat_openai_bind_tools_options_reach_the_server_and_are_honoured():
    from langchain_core.messages import HumanMessage
    from langchain_openai import ChatOpenAI

    with LoopbackOpenAI() as server:
        client = ChatOpenAI(model="m", api_key="placeholder", base_url=server.base_url, max_retries=0)
        counts = {}
        for parallel in (True, False):
            bound = client.bind_tools([LOOKUP, POLICY], tool_choice="lookup_order", parallel_tool_calls=parallel)
            counts[parallel] = len(bound.invoke([HumanMessage(TWO_ORDERS[0]["content"])]).tool_calls)
        sent = [(b["tool_choice"], b["parallel_tool_calls"]) for b in server.bodies]
    assert counts == {True: 2, False: 1}
    assert sent == [({"type": "function", "function": {"name": "lookup_order"}}, flag) for flag in (True, False)]


def test_notebook_14_runs_to_its_end_when_the_provider_ignores_the_options(tmp_path):
    (path,) = [p for p in course_notebooks() if p.name.startswith("14_")]
    with LoopbackOpenAI(behaviour="ignores_tool_options") as server:
        errors, bodies = execute_notebook_live(path, server, tmp_path, timeout=120)
        statuses = [r.status for r in server.requests]
    assert errors == [], f"{path.name} stopped against a provider that ignores the options: {errors}"
    assert any(body.get("parallel_tool_calls") is False for body in bodies)
    assert set(statuses) == {200}
    assert "your provider ignored parallel_tool_calls=False" in output_text(tmp_path / path.name)
