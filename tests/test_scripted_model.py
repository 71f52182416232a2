"""The scripted chat model: replies, ids, recorded requests, provider rules, streaming."""

from __future__ import annotations

import asyncio

import pytest
from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage

from helpers import (
    ProviderRuleError,
    ScriptedChatModel,
    ScriptExhaustedError,
    invalid_tool_call,
    reply,
    tool_call,
)


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id}: delivered"


@tool
def lookup_refund_policy(product_type: str) -> str:
    """Look up a refund policy."""
    return f"{product_type}: 30 days"


def ask(text: str = "where is A1024?") -> dict:
    return {"messages": [{"role": "user", "content": text}]}


# -- replies and ids ---------------------------------------------------------------------


def test_text_steps_play_in_order():
    model = ScriptedChatModel(script=["one", "two"])
    assert model.invoke("a").content == "one"
    assert model.invoke("b").content == "two"
    assert model.steps_left == 0


def test_tool_call_ids_are_deterministic_and_sequential():
    model = ScriptedChatModel(script=[
        [tool_call("lookup_order", {"order_id": "A1"}), tool_call("lookup_order", {"order_id": "A2"})],
        [tool_call("lookup_order", {"order_id": "A3"}, id="fixed")],
        [tool_call("lookup_order", {"order_id": "A4"})],
    ]).bind_tools([lookup_order])
    first = model.invoke("x")
    assert [c["id"] for c in first.tool_calls] == ["call_1", "call_2"]
    history = [HumanMessage("x"), first] + [ToolMessage("ok", tool_call_id=c["id"]) for c in first.tool_calls]
    second = model.invoke(history)
    assert [c["id"] for c in second.tool_calls] == ["fixed"]
    third = model.invoke(history + [second, ToolMessage("ok", tool_call_id="fixed")])
    assert [c["id"] for c in third.tool_calls] == ["call_3"]
    assert (first.id, second.id, third.id) == ("ai-1", "ai-2", "ai-3")


def test_two_runs_of_the_same_script_give_identical_messages():
    def run():
        model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "done"])
        result = create_agent(model, [lookup_order]).invoke(ask())
        return [(type(m).__name__, m.content, getattr(m, "tool_calls", None), getattr(m, "tool_call_id", None))
                for m in result["messages"]]

    assert run() == run()


def test_callable_step_sees_messages_and_bound_tools():
    seen = {}

    def decide(request):
        seen["names"] = request.tool_names
        seen["last"] = request.last_message.content
        return [tool_call("lookup_refund_policy", {"product_type": "electronics"})]

    model = ScriptedChatModel(script=[decide, "ok"])
    result = create_agent(model, [lookup_order, lookup_refund_policy]).invoke(ask("policy?"))
    assert seen == {"names": ["lookup_order", "lookup_refund_policy"], "last": "policy?"}
    assert result["messages"][2].content == "electronics: 30 days"


def test_bad_step_type_is_a_clear_error():
    model = ScriptedChatModel(script=[42])
    with pytest.raises(TypeError, match="script step 1 is an int"):
        model.invoke("x")


# -- recorded requests: what the model sees ---------------------------------------------


def test_requests_record_messages_and_openai_tool_schemas():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "done"])
    create_agent(model, [lookup_order]).invoke(ask())
    assert len(model.requests) == 2
    first, second = model.requests
    assert first.tools == [{
        "type": "function",
        "function": {
            "name": "lookup_order",
            "description": "Look up an order.",
            "parameters": {"properties": {"order_id": {"type": "string"}}, "required": ["order_id"], "type": "object"},
        },
    }]
    assert [type(m).__name__ for m in second.messages] == ["HumanMessage", "AIMessage", "ToolMessage"]
    payload = second.payload()
    assert payload["messages"][1]["tool_calls"][0]["function"] == {"name": "lookup_order", "arguments": '{"order_id": "A1024"}'}
    assert payload["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "order A1024: delivered"}
    assert model.last_request is second


def test_recorded_messages_are_copies():
    model = ScriptedChatModel(script=["ok"])
    message = HumanMessage("original")
    model.invoke([message])
    message.content = "changed later"
    assert model.last_request.messages[0].content == "original"


def test_last_request_before_any_request():
    with pytest.raises(LookupError, match="has not received a request"):
        ScriptedChatModel(script=["x"]).last_request


# -- provider rules, one test per violation ---------------------------------------------


def _call_message(*ids: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1"}, "id": i, "type": "tool_call"} for i in ids])


def test_rule_unanswered_tool_call_before_next_user_message():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_9"), HumanMessage("never mind")]
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke(history)
    assert caught.value.rule == "unanswered_tool_call"
    assert caught.value.tool_call_id == "call_9"
    assert str(caught.value).startswith("[unanswered_tool_call] tool call 'call_9' (lookup_order)")


def test_rule_unanswered_tool_call_at_end_of_history():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1", "call_2"), ToolMessage("ok", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"\[unanswered_tool_call\] tool call 'call_2'"):
        model.invoke(history)


def test_rule_orphan_tool_message():
    model = ScriptedChatModel(script=["never"])
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke([HumanMessage("a"), ToolMessage("result", tool_call_id="call_404")])
    assert caught.value.rule == "orphan_tool_message"
    assert "call_404" in str(caught.value)


def test_rule_duplicate_tool_message():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1"), ToolMessage("x", tool_call_id="call_1"),
               ToolMessage("y", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"^\[duplicate_tool_message\] tool call 'call_1'"):
        model.invoke(history)


def test_rule_tool_not_bound():
    model = ScriptedChatModel(script=[[tool_call("delete_everything", {})]]).bind_tools([lookup_order])
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke("x")
    assert caught.value.rule == "tool_not_bound"
    assert "delete_everything" in str(caught.value) and "call_1" in str(caught.value)
    assert "lookup_order" in str(caught.value)


def test_rule_tool_not_bound_when_nothing_is_bound():
    with pytest.raises(ProviderRuleError, match="bound tools are: none"):
        ScriptedChatModel(script=[[tool_call("lookup_order", {})]]).invoke("x")


def test_unbound_tool_allowed_when_strict_tool_names_is_off():
    model = ScriptedChatModel(script=[[tool_call("nope", {})], "sorry"], strict_tool_names=False)
    result = create_agent(model, [lookup_order]).invoke(ask())
    tool_message = result["messages"][2]
    assert tool_message.status == "error" and tool_message.tool_call_id == "call_1"
    assert "nope is not a valid tool" in tool_message.content


def test_answered_history_passes_the_rules():
    model = ScriptedChatModel(script=["fine"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1", "call_2"),
               ToolMessage("2", tool_call_id="call_2"), ToolMessage("1", tool_call_id="call_1")]
    assert model.invoke(history).content == "fine"


def test_rule_violation_does_not_consume_a_step():
    model = ScriptedChatModel(script=["fine"])
    with pytest.raises(ProviderRuleError):
        model.invoke([ToolMessage("x", tool_call_id="call_1")])
    assert model.steps_left == 1
    assert model.invoke("ok").content == "fine"


# -- end of script ------------------------------------------------------------------------


def test_running_past_the_script_names_the_step_count():
    model = ScriptedChatModel(script=["one", "two"])
    model.invoke("a")
    model.invoke("b")
    with pytest.raises(ScriptExhaustedError, match="script has 2 steps and all were used; request 3 has no reply"):
        model.invoke("c")


def test_agent_that_loops_past_the_script_gets_the_clear_error_not_stopiteration():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1"})]])
    with pytest.raises(ScriptExhaustedError, match="script has 1 step and all were used"):
        create_agent(model, [lookup_order]).invoke(ask())


# -- streaming ---------------------------------------------------------------------------


def test_stream_messages_mode_assembles_the_same_tool_calls():
    script = [[tool_call("lookup_order", {"order_id": "A1024"}), tool_call("lookup_refund_policy", {"product_type": "electronics"})],
              "Both looked up."]
    invoked = create_agent(ScriptedChatModel(script=script), [lookup_order, lookup_refund_policy]).invoke(ask())
    streaming_model = ScriptedChatModel(script=script)
    agent = create_agent(streaming_model, [lookup_order, lookup_refund_policy])
    chunks = [c for c, _meta in agent.stream(ask(), stream_mode="messages") if isinstance(c, AIMessageChunk)]
    first_turn = [c for c in chunks if c.id == "ai-1"]
    assert len(first_turn) > 2, "tool calls should arrive in several chunks"
    assert any(c.tool_call_chunks and c.tool_call_chunks[0]["args"] and not c.tool_call_chunks[0]["name"] for c in first_turn)
    assembled = first_turn[0]
    for chunk in first_turn[1:]:
        assembled = assembled + chunk
    assert assembled.tool_calls == invoked["messages"][1].tool_calls
    text = "".join(c.content for c in chunks if c.id == "ai-2")
    assert text == "Both looked up."


def test_stream_of_invalid_arguments_assembles_into_invalid_tool_calls():
    model = ScriptedChatModel(script=[reply("", invalid_tool_call("lookup_order", '{"order_id": A1}'))]).bind_tools([lookup_order])
    assembled = None
    for chunk in model.stream("x"):
        assembled = chunk if assembled is None else assembled + chunk
    assert assembled.tool_calls == []
    assert assembled.invalid_tool_calls[0]["args"] == '{"order_id": A1}'
    assert assembled.invalid_tool_calls[0]["id"] == "call_1"


def test_async_invoke_works():
    model = ScriptedChatModel(script=["async hello"])
    assert asyncio.run(model.ainvoke("x")).content == "async hello"


def test_a_second_model_on_the_same_thread_does_not_overwrite_earlier_replies():
    from langgraph.checkpoint.memory import InMemorySaver

    saver, cfg = InMemorySaver(), {"configurable": {"thread_id": "t1"}}
    first = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "A1024 is delivered."])
    create_agent(first, [lookup_order], checkpointer=saver).invoke(ask(), cfg)
    second = ScriptedChatModel(script=["Anything else?"])
    result = create_agent(second, [lookup_order], checkpointer=saver).invoke(ask("Thanks"), cfg)
    assert [m.content for m in result["messages"]] == [
        "where is A1024?", "", "order A1024: delivered", "A1024 is delivered.", "Thanks", "Anything else?"]
    assert [m.id for m in result["messages"] if isinstance(m, AIMessage)] == ["ai-1", "ai-2", "ai-3"]


def test_payload_includes_invalid_tool_calls_like_chat_openai():
    model = ScriptedChatModel(script=["ok"]).bind_tools([lookup_order])
    bad = AIMessage("", invalid_tool_calls=[{"name": "lookup_order", "args": "{x", "id": "call_5", "error": None, "type": "invalid_tool_call"}])
    model.invoke([HumanMessage("a"), bad, ToolMessage("bad args", tool_call_id="call_5", status="error")])
    payload = model.bound.last_request.payload()
    assert payload["messages"][1]["tool_calls"] == [{"type": "function", "id": "call_5", "function": {"name": "lookup_order", "arguments": "{x"}}]


def test_content_blocks_stream_as_text():
    model = ScriptedChatModel(script=[AIMessage(content=[{"type": "text", "text": "Hello from blocks"}])])
    assert "".join(c.content for c in model.stream("x")) == "Hello from blocks"


def test_a_step_may_call_the_model_again_without_deadlock():
    inner = {}

    def step(request):
        inner["steps_left"] = model.steps_left
        return "fine"

    model = ScriptedChatModel(script=[step])
    assert model.invoke("x").content == "fine"
    assert inner == {"steps_left": 0}
