"""What the model sees, exactly: a recorded request's payload() is the body ChatOpenAI sends.

Each history is sent twice: to the scripted model (which records it) and, by ``ChatOpenAI``
(langchain-openai 1.7.4), to the loopback server (which records the body it received). The two
bodies must be equal: same messages, same tools, same ``model`` / ``stream`` / ``tool_choice``.
"""

from __future__ import annotations

import pytest
from langchain.tools import tool
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from helpers import ScriptedChatModel, invalid_tool_call, reply, tool_call
from tests.loopback_openai import loopback_openai  # noqa: F401 - a pytest fixture


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}: delivered"


@tool
def quote_refund(order_id: str, amount: float) -> str:
    """Quote a refund."""
    return "499.0"


def _call(*ids: str, text: str = "") -> AIMessage:
    return AIMessage(text, tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": i, "type": "tool_call"}
                                       for i in ids])


HISTORIES = {
    "a question": [HumanMessage("Where is A1024?")],
    "system prompt and a question": [SystemMessage("You are a refund desk."), HumanMessage("Where is A1024?")],
    "a tool call and its answer": [HumanMessage("Where is A1024?"), _call("call_1"),
                                   ToolMessage("delivered", tool_call_id="call_1", name="lookup_order")],
    "text next to a tool call": [HumanMessage("Where is A1024?"), _call("call_1", text="Let me check."),
                                 ToolMessage("delivered", tool_call_id="call_1")],
    "two calls answered out of order": [HumanMessage("a"), _call("call_1", "call_2"),
                                        ToolMessage("2", tool_call_id="call_2"), ToolMessage("1", tool_call_id="call_1")],
    "an error result": [HumanMessage("a"), _call("call_1"),
                        ToolMessage("Error: not found", tool_call_id="call_1", status="error")],
    "an invalid tool call answered": [HumanMessage("a"), AIMessage("", invalid_tool_calls=[
        {"name": "lookup_order", "args": '{"order_id": A1}', "id": "call_5", "error": None, "type": "invalid_tool_call"}]),
        ToolMessage("bad arguments", tool_call_id="call_5", status="error")],
    "a multi-turn conversation": [HumanMessage("hi"), AIMessage("Hello!"), HumanMessage("Where is A1024?")],
    "content blocks": [HumanMessage([{"type": "text", "text": "Where is "}, {"type": "text", "text": "A1024?"}])],
    "a tool result as a dict": [HumanMessage("a"), _call("call_1"),
                                ToolMessage([{"type": "text", "text": '{"status": "delivered"}'}], tool_call_id="call_1")],
}


def _scripted_payload(history, tools, *, stream=False, **bind):
    model = ScriptedChatModel(script=["ok"])
    runnable = model.bind_tools(tools, **bind) if tools else model
    if stream:
        list(runnable.stream(history))
    else:
        runnable.invoke(history)
    return model.last_request.payload()


def _chat_openai_body(server, history, tools, *, stream=False, **bind):
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="scripted", api_key="sk-test", base_url=server.base_url, max_retries=0)
    runnable = model.bind_tools(tools, **bind) if tools else model
    if stream:
        list(runnable.stream(history))
    else:
        runnable.invoke(history)
    return server.bodies[-1]


@pytest.mark.parametrize("name", list(HISTORIES))
@pytest.mark.parametrize("tools", [[lookup_order, quote_refund], []], ids=["tools", "no-tools"])
def test_payload_is_the_body_chat_openai_sends(loopback_openai, name, tools):
    history = HISTORIES[name]
    assert _scripted_payload(history, tools) == _chat_openai_body(loopback_openai, history, tools)


@pytest.mark.parametrize("bind", [{"tool_choice": "any"}, {"tool_choice": "lookup_order"}, {"tool_choice": "auto"},
                                  {"parallel_tool_calls": False}, {"strict": True}],
                         ids=["any", "by-name", "auto", "no-parallel", "strict"])
def test_bound_options_appear_as_chat_openai_sends_them(loopback_openai, bind):
    history = HISTORIES["a question"]
    tools = [lookup_order, quote_refund]
    assert _scripted_payload(history, tools, **bind) == _chat_openai_body(loopback_openai, history, tools, **bind)


def test_a_streamed_request_has_stream_true_like_chat_openai(loopback_openai):
    history = HISTORIES["a tool call and its answer"]
    scripted = _scripted_payload(history, [lookup_order], stream=True)
    assert scripted["stream"] is True
    assert scripted == _chat_openai_body(loopback_openai, history, [lookup_order], stream=True)


def test_a_tool_call_reply_carries_content_null():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "done"]).bind_tools([lookup_order])
    first = model.invoke("Where is A1024?")
    model.invoke([HumanMessage("Where is A1024?"), first, ToolMessage("delivered", tool_call_id="call_1")])
    payload = model.bound.last_request.payload()
    assert payload["model"] == "scripted" and payload["stream"] is False
    assert payload["messages"][1] == {"content": None, "role": "assistant", "tool_calls": [
        {"type": "function", "id": "call_1", "function": {"name": "lookup_order", "arguments": '{"order_id": "A1024"}'}}]}


def test_the_payload_model_name_follows_the_model(loopback_openai):
    model = ScriptedChatModel(script=["a", "b"], model="qwen-plus")
    model.invoke("x")
    assert model.last_request.payload()["model"] == "qwen-plus"
    model.invoke("y", model="override")
    assert model.last_request.payload()["model"] == "override"
    assert model.last_request.model_name == "override"


def test_payload_returns_a_new_dict_each_time():
    model = ScriptedChatModel(script=["ok"])
    model.invoke("x")
    first = model.last_request.payload()
    first["messages"].clear()
    assert model.last_request.payload()["messages"] == [{"content": "x", "role": "user"}]


def test_a_reply_with_text_and_an_invalid_call_round_trips():
    model = ScriptedChatModel(script=[reply("Checking.", invalid_tool_call("lookup_order", "{x"))]).bind_tools([lookup_order])
    message = model.invoke("a")
    assert message.content == "Checking." and message.invalid_tool_calls[0]["id"] == "call_1"
