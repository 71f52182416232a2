"""The loopback stand-in's Responses API endpoint: a reasoning model's reply, OpenAI's 400s for reasoning items
and tool outputs, and a real ChatOpenAI(use_responses_api=True) against it, streamed and not (notebook 14,
section 8). The reply shapes of a plain model and the cut-off stream are tests/test_provider_streams.py's."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import openai
import pytest
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import tool
from langchain_openai import ChatOpenAI

from helpers.model.loopback_openai import LoopbackOpenAI
from helpers.model.loopback_replies import plan_reply
from helpers.model.loopback_responses import chat_view, output_items, plays_reasoning, response_stream_events
from helpers.model.responses_rules import ReasoningLedger, find_responses_error


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    return f"{order_id}: delivered"


def item(kind: str, **fields) -> dict:
    return {"type": kind, **fields}


QUESTION = item("message", role="user", content="Where is my order A1024?")
TOOLS = [{"type": "function", "name": "lookup_order", "description": "Look up the status of one order.",
          "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}]


def planned(model: str, number: int = 1) -> tuple[dict, dict, str]:
    """The body asking ``model`` the question with the tool bound, and the reply the stand-in plans for it."""
    body = {"model": model, "input": [QUESTION], "tools": TOOLS}
    message, finish = plan_reply(chat_view(body), f"call_lb_{number:04d}")
    return body, message, finish


def issued() -> tuple[ReasoningLedger, list[dict]]:
    """A ledger that issued one reasoning item and one call, and that output."""
    ledger = ReasoningLedger()
    output = output_items(*planned("gpt-5-mini"), 1)
    ledger.record(output)
    return ledger, output


def test_a_question_with_tools_gets_a_reasoning_item_then_the_call():
    _, output = issued()
    assert [(o["type"], o["id"]) for o in output] == [("reasoning", "rs_lb_0001"), ("function_call", "fc_lb_0001")]
    assert output[1]["call_id"] == "call_lb_0001" and json.loads(output[1]["arguments"]) == {"order_id": "A1024"}


def test_only_a_reasoning_model_reasons():
    assert [plays_reasoning({"model": m}) for m in ("gpt-5-mini", "o3", "o4-mini", "gpt-5-chat-latest",
                                                   "gpt-4o-mini", "loopback-model", None)] == [
        True, True, True, False, False, False, False]
    assert not plays_reasoning({"model": "gpt-5", "reasoning": {"effort": "none"}})
    assert [o["type"] for o in output_items(*planned("gpt-4o-mini"), 1)] == ["function_call"]
    # a text reply has no reasoning item, whatever the model
    body = {"model": "gpt-5-mini", "input": "Hello there"}
    message, finish = plan_reply(chat_view(body), "call_lb_0001")
    assert [o["type"] for o in output_items(body, message, finish, 1)] == ["message"]


def test_the_stream_carries_the_reasoning_item_before_the_call():
    events = list(response_stream_events(*planned("gpt-5-mini"), 1))
    added = [(e["output_index"], e["item"]["type"], e["item"]["id"]) for e in events
             if e["type"] == "response.output_item.added"]
    assert added == [(0, "reasoning", "rs_lb_0001"), (1, "function_call", "fc_lb_0001")]
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    assert events[-1]["type"] == "response.completed"
    assert [o["type"] for o in events[-1]["response"]["output"]] == ["reasoning", "function_call"]
    assert events[-1]["response"]["usage"]["output_tokens_details"] == {"reasoning_tokens": 4}


def test_the_whole_history_passes_and_every_missing_piece_is_named_in_openai_s_words():
    ledger, (reasoning, call) = issued()
    out = item("function_call_output", call_id="call_lb_0001", output="delivered")
    assert find_responses_error({"input": [QUESTION, reasoning, call, out]}, ledger) is None
    cases = {
        "Item 'fc_lb_0001' of type 'function_call' was provided without its required 'reasoning' item: "
        "'rs_lb_0001'.": [QUESTION, call, out],
        "Item 'rs_lb_0001' of type 'reasoning' was provided without its required following item.":
            [QUESTION, reasoning, out],
        "No tool call found for function call output with call_id call_lb_0001.": [QUESTION, out],
        "No tool output found for function call call_lb_0001.": [QUESTION, reasoning, call],
    }
    for message, items in cases.items():
        error = find_responses_error({"input": items}, ledger)
        assert error is not None and error.body() == {"error": {
            "message": message, "type": "invalid_request_error", "param": "input", "code": None}}


def test_a_call_without_an_item_id_needs_no_reasoning():
    ledger, (_, call) = issued()
    rebuilt = {key: value for key, value in call.items() if key != "id"}
    out = item("function_call_output", call_id="call_lb_0001", output="delivered")
    assert find_responses_error({"input": [QUESTION, rebuilt, out]}, ledger) is None
    # a string input is one user message
    assert find_responses_error({"input": "hello"}, ledger) is None


def post(server: LoopbackOpenAI, body: object) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.base_url}/responses", data=data,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_broken_body_is_refused_and_a_streamed_request_is_checked_by_the_same_rules():
    with LoopbackOpenAI() as server:
        status, body = post(server, b"{not json")
        assert status == 400 and "parse" in body["error"]["message"]
        status, body = post(server, {"model": "m", "input": "hi"})
        assert status == 200 and body["output"][0]["type"] == "message" and body["id"] == "resp_lb_0001"
        orphan = [QUESTION, item("function_call_output", call_id="call_9", output="delivered")]
        status, body = post(server, {"model": "m", "input": orphan, "stream": True})
        assert status == 400 and body["error"]["message"] == (
            "No tool call found for function call output with call_id call_9.")
        assert [r.status for r in server.requests] == [400, 200, 400]


def test_chat_openai_sends_the_reasoning_back_and_a_filtered_history_is_refused():
    with LoopbackOpenAI() as server:
        model = ChatOpenAI(model="gpt-5-mini", api_key="placeholder", base_url=server.base_url,
                           use_responses_api=True, max_retries=0)
        bound = model.bind_tools([lookup_order])
        question = HumanMessage("Where is my order A1024?")
        reply = bound.invoke([question])
        assert [block["type"] for block in reply.content] == ["reasoning", "function_call"]
        result = lookup_order.invoke(reply.tool_calls[0])
        assert isinstance(result, ToolMessage)

        assert bound.invoke([question, reply, result]).text.startswith("Here is what I found")
        sent = [(i.get("type", "message"), i.get("id")) for i in server.responses_bodies[-1]["input"]]
        assert sent == [("message", None), ("reasoning", "rs_lb_0001"), ("function_call", "fc_lb_0001"),
                        ("function_call_output", None)]

        filtered = AIMessage([b for b in reply.content if b["type"] != "reasoning"], tool_calls=reply.tool_calls)
        with pytest.raises(openai.BadRequestError, match="without its required 'reasoning' item: 'rs_lb_0001'"):
            bound.invoke([question, filtered, result])

        rebuilt = AIMessage(reply.text, tool_calls=reply.tool_calls)
        assert bound.invoke([question, rebuilt, result]).text.startswith("Here is what I found")
        assert all("id" not in i for i in server.responses_bodies[-1]["input"] if i.get("type") == "function_call")


def test_a_streamed_reasoning_reply_goes_back_whole_and_a_filtered_one_is_refused():
    with LoopbackOpenAI() as server:
        model = ChatOpenAI(model="gpt-5-mini", api_key="placeholder", base_url=server.base_url,
                           use_responses_api=True, max_retries=0, streaming=True)
        bound = model.bind_tools([lookup_order])
        question = HumanMessage("Where is my order A1024?")
        chunks = list(bound.stream([question]))
        reply = chunks[0]
        for chunk in chunks[1:]:
            reply = reply + chunk
        assert [block["type"] for block in reply.content] == ["reasoning", "function_call"]
        assert reply.response_metadata["status"] == "completed"
        result = lookup_order.invoke(reply.tool_calls[0])
        assert "".join(c.text for c in bound.stream([question, reply, result])).startswith("Here is what I found")
        filtered = AIMessage([b for b in reply.content if b["type"] != "reasoning"], tool_calls=reply.tool_calls)
        with pytest.raises(openai.BadRequestError, match="without its required 'reasoning' item: 'rs_lb_0001'"):
            list(bound.stream([question, filtered, result]))
