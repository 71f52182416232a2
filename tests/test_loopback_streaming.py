"""The loopback provider's parallel calls (interleaved when streamed) and replies cut off at the token limit,
through the real ChatOpenAI: what notebook 13's live cells meet offline."""

from __future__ import annotations

from langchain_openai import ChatOpenAI

from helpers.model.loopback_openai import plan_reply
from tests.loopback_openai import loopback_openai  # noqa: F401 - a fixture

REFUND = {"type": "function", "function": {
    "name": "refund", "description": "Refund an amount on an order.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}},
                   "required": ["order_id", "amount"]}}}
LOOKUP = {"type": "function", "function": {
    "name": "lookup_order", "description": "Look up an order by its id.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}}


def _model(server, **kwargs):
    return ChatOpenAI(model="m", api_key="sk-test", base_url=server.base_url, max_retries=0, **kwargs)


def _merged(stream):
    total = None
    chunks = []
    for chunk in stream:
        chunks.append(chunk)
        total = chunk if total is None else total + chunk
    return total, chunks


def test_parallel_tool_calls_true_and_two_order_ids_stream_two_interleaved_calls(loopback_openai):
    model = _model(loopback_openai).bind_tools([LOOKUP], parallel_tool_calls=True)
    merged, chunks = _merged(model.stream("Where are my orders A1024 and A1025?"))
    indexes = [c.tool_call_chunks[0]["index"] for c in chunks if c.tool_call_chunks and not c.tool_call_chunks[0]["name"]]
    assert indexes[:4] == [0, 1, 0, 1], "the argument pieces of the two calls alternate"
    assert [c["args"] for c in merged.tool_calls] == [{"order_id": "A1024"}, {"order_id": "A1025"}]
    assert len({c["id"] for c in merged.tool_calls}) == 2
    assert merged.response_metadata["finish_reason"] == "tool_calls"
    invoked = model.invoke("Where are my orders A1024 and A1025?")
    assert [c["args"] for c in invoked.tool_calls] == [c["args"] for c in merged.tool_calls]


def test_without_parallel_tool_calls_one_call_is_made():
    body = {"messages": [{"role": "user", "content": "A1024 and A1025?"}], "tools": [LOOKUP]}
    assert len(plan_reply(body, "c")[0]["tool_calls"]) == 1
    assert len(plan_reply({**body, "parallel_tool_calls": False}, "c")[0]["tool_calls"]) == 1


def test_a_token_limit_cuts_the_arguments_invoke_makes_them_invalid_and_stream_completes_them(loopback_openai):
    model = _model(loopback_openai).bind_tools([REFUND])
    question = "Refund 49.5 on order A1024"
    invoked = model.invoke(question, max_tokens=6)
    assert invoked.response_metadata["finish_reason"] == "length"
    assert invoked.tool_calls == [] and len(invoked.invalid_tool_calls[0]["args"]) == 24
    merged, _ = _merged(model.stream(question, max_tokens=6))
    assert merged.response_metadata["finish_reason"] == "length"
    assert merged.invalid_tool_calls == [] and merged.tool_calls[0]["name"] == "refund"
    body = loopback_openai.bodies[-1]
    assert body.get("max_completion_tokens", body.get("max_tokens")) == 6


def test_a_limit_the_reply_fits_in_changes_nothing():
    body = {"messages": [{"role": "user", "content": "hi"}]}
    assert plan_reply({**body, "max_completion_tokens": 100}, "c") == plan_reply(body, "c")
    message, finish = plan_reply({**body, "max_completion_tokens": 2}, "c")
    assert (message["content"], finish) == ("Hello fr", "length")
