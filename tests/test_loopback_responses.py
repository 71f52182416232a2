"""The loopback stand-in's Responses API endpoint: a reasoning model's reply, OpenAI's 400s for reasoning items
and tool outputs, and a real ChatOpenAI(use_responses_api=True) against it (notebook 14, section 8)."""

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
from helpers.model.loopback_responses import ReasoningLedger, find_responses_error, plan_output


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    return f"{order_id}: delivered"


def item(kind: str, **fields) -> dict:
    return {"type": kind, **fields}


QUESTION = item("message", role="user", content="Where is my order A1024?")
TOOLS = [{"type": "function", "name": "lookup_order", "description": "Look up the status of one order.",
          "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}]


def issued() -> tuple[ReasoningLedger, list[dict]]:
    """A ledger that issued one reasoning item and one call, and that output."""
    ledger = ReasoningLedger()
    output = plan_output({"model": "m", "input": [QUESTION], "tools": TOOLS}, 1)
    ledger.record(output)
    return ledger, output


def test_a_question_with_tools_gets_a_reasoning_item_then_the_call():
    _, output = issued()
    assert [(o["type"], o["id"]) for o in output] == [("reasoning", "rs_lb_0001"), ("function_call", "fc_lb_0001")]
    assert output[1]["call_id"] == "call_lb_0001" and json.loads(output[1]["arguments"]) == {"order_id": "A1024"}


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


def test_streaming_and_broken_bodies_are_refused():
    with LoopbackOpenAI() as server:
        assert post(server, {"model": "m", "input": "hi", "stream": True})[0] == 400
        status, body = post(server, b"{not json")
        assert status == 400 and "parse" in body["error"]["message"]
        status, body = post(server, {"model": "m", "input": "hi"})
        assert status == 200 and body["output"][0]["type"] == "message"


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
