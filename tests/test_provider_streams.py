"""The real integrations against the loopback stand-ins: each provider's stream, its stop signal, and the offline copy.

``ChatOpenAI`` (chat.completions and ``use_responses_api=True``) and ``ChatAnthropic`` stream from the stand-ins on
127.0.0.1; every chunk is compared with what :func:`helpers.model.provider_streams.provider_stream` builds for
the same reply (the exercise of notebook 13 merges those), and the scripted model's stream is compared with the
chat.completions integration's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.messages import AIMessageChunk
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from helpers.model.live import scripted_model
from helpers.model.loopback_anthropic import LoopbackAnthropic
from helpers.model.loopback_openai import LoopbackOpenAI
from helpers.model.provider_streams import STOP_SIGNALS, provider_stream
from helpers.model.script import tool_call

STOP_KEYS = ("finish_reason", "status", "incomplete_details", "stop_reason")


@tool
def lookup_order(order_id: str) -> str:
    """Look up one order by its id, e.g. A1024."""
    return order_id


@tool
def refund(order_id: str, amount: float) -> str:
    """Send a refund of `amount` on an order."""
    return order_id


@pytest.fixture(scope="module")
def stand_ins() -> Iterator[tuple[LoopbackOpenAI, LoopbackAnthropic]]:
    with LoopbackOpenAI() as openai_server, LoopbackAnthropic(plays_model=True) as anthropic_server:
        yield openai_server, anthropic_server


def _model(provider: str, stand_ins) -> object:
    openai_server, anthropic_server = stand_ins
    if provider == "anthropic":
        return ChatAnthropic(model="claude-sonnet-4-6", api_key="placeholder", base_url=anthropic_server.base_url,
                             max_retries=0)
    return ChatOpenAI(model="loopback-model", api_key="placeholder", base_url=openai_server.base_url, max_retries=0,
                      use_responses_api=provider == "responses")


def _text(content) -> str:
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if isinstance(block, dict) and block.get("type") == "text")


def _blocks(content) -> list:
    """Content blocks without the provider's ids (the copy does not invent item ids)."""
    if isinstance(content, str):
        return content
    return [{k: v for k, v in block.items() if k not in ("id", "toolset_name")} for block in content]


def _shape(chunk: AIMessageChunk) -> tuple:
    return (_blocks(chunk.content), [(c["name"], c["args"], c["id"], c["index"]) for c in chunk.tool_call_chunks],
            {k: chunk.response_metadata[k] for k in STOP_KEYS if k in chunk.response_metadata}, chunk.chunk_position)


def _merge(chunks: list[AIMessageChunk]) -> AIMessageChunk:
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def _copy_of(provider: str, chunks: list[AIMessageChunk], *, tools_bound: bool, interleave: bool = False) -> list:
    """The offline copy of the same reply: its text, calls (name, id, raw arguments) and stop signal."""
    merged = _merge(chunks)
    calls = [(c["name"], c["id"], c["args"]) for c in merged.tool_call_chunks]
    signal = STOP_SIGNALS[provider].key
    reason = (merged.response_metadata.get("incomplete_details") or {}).get("reason")
    return provider_stream(provider, text=_text(merged.content), calls=calls, stop=merged.response_metadata[signal],
                           incomplete_reason=reason, interleave=interleave, tools_bound=tools_bound)


CASES = {
    # name: (question, tools, parallel_tool_calls, max_tokens)
    "a text reply": ("Hello there", [], None, None),
    "one call": ("Refund 49.50 on A1024.", [refund], None, None),
    "two parallel calls": ("Where are A1024 and A1025?", [lookup_order], True, None),
    "a call cut at the token limit": ("Refund 49.50 on A1024.", [refund], None, 6),
}


@pytest.mark.parametrize("provider", list(STOP_SIGNALS))
@pytest.mark.parametrize("case", list(CASES))
def test_each_integrations_stream_is_the_offline_copy_chunk_for_chunk(stand_ins, provider, case):
    question, tools, parallel, limit = CASES[case]
    model = _model(provider, stand_ins)
    bound = model.bind_tools(tools, parallel_tool_calls=parallel) if tools and parallel else (
        model.bind_tools(tools) if tools else model)
    chunks = list(bound.stream(question, **({"max_tokens": limit} if limit else {})))
    copy = _copy_of(provider, chunks, tools_bound=bool(tools), interleave=bool(parallel))
    assert [_shape(c) for c in copy] == [_shape(c) for c in chunks]
    merged, merged_copy = _merge(chunks), _merge(copy)
    assert merged_copy.tool_calls == merged.tool_calls and merged_copy.invalid_tool_calls == merged.invalid_tool_calls
    assert _shape(merged_copy)[2] == _shape(merged)[2]


@pytest.mark.parametrize(("provider", "signal"), [
    ("chat_completions", {"finish_reason": "length"}),
    ("responses", {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}),
    ("anthropic", {"stop_reason": "max_tokens"}),
])
def test_a_cut_refund_is_a_valid_call_in_every_integration_and_only_the_stop_signal_says_so(stand_ins, provider,
                                                                                             signal):
    chunks = list(_model(provider, stand_ins).bind_tools([refund]).stream("Refund 49.50 on A1024.", max_tokens=6))
    merged = _merge(chunks)
    assert [c["args"] for c in merged.tool_calls] == [{"order_id": "A1024"}], "parse_partial_json completed the cut"
    assert merged.invalid_tool_calls == []
    assert {k: merged.response_metadata[k] for k in signal} == signal
    others = {k for k in STOP_KEYS if k in merged.response_metadata} - set(signal) - {"stop_sequence"}
    assert others == set(), f"{provider} carries only its own stop signal, not {others}"
    # where the signal sits: chat.completions puts it one chunk before the (empty) last chunk; the others on the last
    position = -2 if provider == "chat_completions" else -1
    assert STOP_SIGNALS[provider].key in chunks[position].response_metadata
    assert chunks[-1].chunk_position == "last" and [c.chunk_position for c in chunks[:-1]] == [None] * (len(chunks) - 1)


def test_not_streamed_the_stand_ins_answer_in_each_api_s_shape(stand_ins):
    """``invoke``: the Responses API's output items and Anthropic's content blocks, parsed by the real integrations;
    the amount the question names (149.50) is the call's argument, and a token limit cuts it (Responses: the
    cut arguments are an invalid call, as strict ``json.loads`` reads them)."""
    question = "Refund 149.50 on order A1024."
    for provider in ("responses", "anthropic"):
        reply = _model(provider, stand_ins).bind_tools([refund]).invoke(question)
        assert [c["args"] for c in reply.tool_calls] == [{"order_id": "A1024", "amount": 149.5}], provider
    cut = _model("responses", stand_ins).bind_tools([refund]).invoke(question, max_tokens=9)
    assert cut.tool_calls == [] and cut.invalid_tool_calls[0]["args"] == '{"order_id": "A1024", "amount": 149.'
    assert (cut.response_metadata["status"], cut.response_metadata["incomplete_details"]) == (
        "incomplete", {"reason": "max_output_tokens"})
    text = _model("anthropic", stand_ins).invoke("Hello there")
    assert text.content == "Hello from the loopback model." and text.response_metadata["stop_reason"] == "end_turn"


def test_the_anthropic_stand_in_plays_no_model_unless_asked():
    with LoopbackAnthropic() as server:
        model = ChatAnthropic(model="claude-sonnet-4-6", api_key="placeholder", base_url=server.base_url,
                              max_retries=0)
        reply = model.bind_tools([refund]).invoke("Refund 149.50 on order A1024.")
    assert reply.content == "Hello from the loopback stand-in." and reply.tool_calls == []


def test_the_scripted_model_streams_like_chat_completions(stand_ins):
    """Same reply, same split: the scripted model's chunks and ChatOpenAI's have the same shape, chunk for chunk."""
    real = list(_model("chat_completions", stand_ins).bind_tools([refund]).stream("Refund 49.50 on A1024."))
    merged = _merge(real)
    call = merged.tool_calls[0]
    scripted = list(scripted_model([[tool_call("refund", call["args"], call["id"])]], stream_chunk_chars=12)
                    .bind_tools([refund]).stream("Refund 49.50 on A1024."))
    # the scripted model writes arguments with json.dumps: the stand-in does too
    assert merged.tool_call_chunks[0]["args"] == json.dumps(call["args"])
    assert [_shape(c)[:2] + (list(_shape(c)[2]), c.chunk_position) for c in scripted] == [
        _shape(c)[:2] + (list(_shape(c)[2]), c.chunk_position) for c in real]
    assert scripted[-2].response_metadata["finish_reason"] == real[-2].response_metadata["finish_reason"]
    assert scripted[-1].response_metadata == real[-1].response_metadata == {}
    text_real = list(_model("chat_completions", stand_ins).stream("Hello there"))
    text = _text(_merge(text_real).content)
    text_scripted = list(scripted_model([text], stream_chunk_chars=12).stream("Hello there"))
    assert [_shape(c) for c in text_scripted] == [_shape(c) for c in text_real]
