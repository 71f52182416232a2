"""The loopback Anthropic Messages API stand-in: its pairing rules, Anthropic's wording, and a real ChatAnthropic."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import anthropic
import pytest
from langchain.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_anthropic import ChatAnthropic

from helpers.model.loopback_anthropic import (
    LoopbackAnthropic,
    find_id_error,
    find_pairing_error,
    find_request_error,
)

UNANSWERED = ("messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
              "Each `tool_use` block must have a corresponding `tool_result` block in the next message.")


def use(call_id: str) -> dict:
    return {"type": "tool_use", "id": call_id, "name": "lookup_order", "input": {"order_id": "A1024"}}


def result(call_id: str) -> dict:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "ok"}


def body(*messages: dict) -> dict:
    return {"model": "claude-x", "max_tokens": 64, "messages": list(messages)}


QUESTION = {"role": "user", "content": "Where are A1024 and A1099?"}
TWO_CALLS = {"role": "assistant", "content": [use("call_1"), use("call_2")]}


def test_answered_calls_pass():
    assert find_pairing_error(body(QUESTION, TWO_CALLS, {"role": "user", "content": [result("call_2"),
                                                                                      result("call_1")]})) is None
    assert find_pairing_error(body(QUESTION)) is None
    assert find_pairing_error({"messages": "not a list"}) is None


def test_unanswered_tool_use_names_the_assistant_message_and_every_missing_id():
    error = find_pairing_error(body(QUESTION, TWO_CALLS, {"role": "user", "content": [result("call_1")]}))
    assert error.message == UNANSWERED.format(ids="call_2")
    # no next message at all: both ids, in the order of the tool_use blocks
    assert find_pairing_error(body(QUESTION, TWO_CALLS)).message == UNANSWERED.format(ids="call_1, call_2")
    # the answers in a later message do not count: the next message must hold them
    late = body(QUESTION, TWO_CALLS, {"role": "user", "content": "wait"},
                {"role": "user", "content": [result("call_1"), result("call_2")]})
    assert find_pairing_error(late).message == UNANSWERED.format(ids="call_1, call_2")


def test_tool_result_without_its_tool_use_is_unexpected():
    orphan = body({"role": "user", "content": [{"type": "text", "text": "hi"}, result("call_9")]})
    assert find_pairing_error(orphan).message == (
        "messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: call_9. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.")
    # an id of an earlier turn, not of the message just before, is unexpected too
    stale = body(QUESTION, {"role": "assistant", "content": [use("call_1")]},
                 {"role": "user", "content": [result("call_1")]},
                 {"role": "assistant", "content": "done"}, {"role": "user", "content": [result("call_1")]})
    assert find_pairing_error(stale).message.startswith("messages.4.content.0: unexpected `tool_use_id`")
    # the error body is Anthropic's shape, without a request id
    assert find_pairing_error(orphan).body() == {"type": "error", "error": {
        "type": "invalid_request_error", "message": find_pairing_error(orphan).message}}


def test_a_tool_use_id_outside_anthropic_s_pattern_is_refused_first():
    kimi = body(QUESTION, {"role": "assistant", "content": [{"type": "text", "text": "Let me look."},
                                                            use("functions.lookup_order:0")]},
                {"role": "user", "content": [result("functions.lookup_order:0")]})
    error = find_id_error(kimi)
    assert error.message == ("messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'")
    assert find_pairing_error(kimi) is None  # the pairing itself is fine: only the id's characters are refused
    for good in ("call_1", "toolu_01A-b_9", "call_lb_0001"):
        assert find_id_error(body(QUESTION, {"role": "assistant", "content": [use(good)]})) is None
    for bad in ("call 1", "call.1", "a:b", "", "call_1\n", 7):
        assert find_id_error(body(QUESTION, {"role": "assistant", "content": [use(bad)]})) is not None, bad
    assert find_id_error({"messages": "not a list"}) is None


@pytest.fixture
def stand_in():
    with LoopbackAnthropic() as server:
        yield server


def two_calls_history() -> list:
    calls = [{"name": "lookup_order", "args": {"order_id": o}, "id": i, "type": "tool_call"}
             for i, o in (("call_1", "A1024"), ("call_2", "A1099"))]
    return [SystemMessage("Be brief."), HumanMessage("Where are A1024 and A1099?"), AIMessage("", tool_calls=calls),
            ToolMessage("delivered", tool_call_id="call_1"),
            ToolMessage("no such order", tool_call_id="call_2", status="error")]


def test_real_chat_anthropic_gets_a_bad_request_error_for_a_broken_pairing(stand_in):
    client = ChatAnthropic(model="claude-sonnet-4-6", api_key="placeholder", base_url=stand_in.base_url,
                           max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.invoke(two_calls_history()[:4])
    assert caught.value.status_code == 400
    assert caught.value.body["error"]["message"] == UNANSWERED.format(ids="call_2")
    assert "request_id" not in caught.value.body
    # the same history with both answers (merged into one user message by ChatAnthropic) is accepted
    reply = client.invoke(two_calls_history())
    assert reply.content == "Hello from the loopback stand-in."
    sent = stand_in.bodies[-1]
    assert "system" in sent and [m["role"] for m in sent["messages"]] == ["user", "assistant", "user"]
    assert [r.status for r in stand_in.requests] == [400, 200]
    assert all(r.path == "/v1/messages" for r in stand_in.requests)


def test_real_chat_anthropic_rewrites_ids_the_pattern_refuses_so_the_stand_in_accepts_them(stand_in):
    """langchain-anthropic 1.7.10 hashes an id outside the pattern into ``toolu_<24 hex>`` for both the
    ``tool_use`` and its ``tool_result`` (``_normalize_tool_call_id``); notebook 20 relies on it."""
    import hashlib

    history = two_calls_history()
    history[2] = AIMessage("", tool_calls=[{**call, "id": f"functions.lookup_order:{n}"}
                                           for n, call in enumerate(history[2].tool_calls)])
    history[3:] = [ToolMessage(m.content, tool_call_id=f"functions.lookup_order:{n}", status=m.status)
                   for n, m in enumerate(history[3:])]
    client = ChatAnthropic(model="claude-sonnet-4-6", api_key="placeholder", base_url=stand_in.base_url,
                           max_retries=0)
    assert client.invoke(history).content == "Hello from the loopback stand-in."
    sent = stand_in.bodies[-1]["messages"]
    want = [f"toolu_{hashlib.sha256(f'functions.lookup_order:{n}'.encode()).hexdigest()[:24]}" for n in (0, 1)]
    assert [b["id"] for b in sent[1]["content"]] == want
    assert [b["tool_use_id"] for b in sent[2]["content"]] == want


def test_bad_bodies_and_paths_are_refused(stand_in):
    def post(path: str, data: bytes) -> tuple[int, dict]:
        request = urllib.request.Request(stand_in.base_url + path, data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    status, answer = post("/v1/messages", b"not json")
    assert status == 400 and answer["error"]["type"] == "invalid_request_error"
    status, answer = post("/v1/messages", b"[1, 2]")
    assert status == 400
    status, answer = post("/v1/complete", json.dumps(body(QUESTION)).encode())
    assert status == 404 and answer["error"]["type"] == "not_found_error"
    assert [r.status for r in stand_in.requests] == [400, 400, 404]


def test_the_port_is_closed_after_the_with_block():
    with LoopbackAnthropic() as server:
        host, port = server._server.server_address[:2]
    with pytest.raises(OSError), socket.create_connection((host, port), timeout=5):
        pass


def test_a_tool_id_outside_anthropic_s_pattern_is_refused_before_the_pairing():
    kimi = "functions.lookup_order:0"  # an id another provider minted (langchain-ai/langchain PR 37756)
    foreign = body(QUESTION, {"role": "assistant", "content": [use(kimi)]},
                   {"role": "user", "content": [result(kimi)]})
    assert find_request_error(foreign).message == (
        "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'")
    # a tool_result naming such an id, whatever comes before it
    assert find_id_error(body({"role": "user", "content": [result("a:b")]})).message == (
        "messages.0.content.0.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'")
    # the pairing still holds for ids that fit: valid ids, answered, pass both checks
    fine = body(QUESTION, {"role": "assistant", "content": [use("toolu_01-A_b")]},
                {"role": "user", "content": [result("toolu_01-A_b")]})
    assert find_request_error(fine) is None


def test_the_ids_as_minted_sent_by_a_client_that_does_not_rewrite_them_get_the_400(stand_in):
    """What ChatAnthropic's rewrite avoids: the Anthropic SDK with the ids another provider minted."""
    kimi = "functions.lookup_order:0"
    raw = anthropic.Anthropic(api_key="placeholder", base_url=stand_in.base_url, max_retries=0)
    history = body(QUESTION, {"role": "assistant", "content": [use(kimi)]},
                   {"role": "user", "content": [result(kimi)]})
    with pytest.raises(anthropic.BadRequestError, match=r"messages\.1\.content\.0\.tool_use\.id: String should match"):
        raw.messages.create(**history)
    assert [r.status for r in stand_in.requests] == [400]
