"""The loopback OpenAI server itself: answers, streaming, OpenAI's 400s, recording, the process mode;
and the schema -> value generator on schemas like the course's tools."""

from __future__ import annotations

import datetime
import enum
import json
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Annotated, Literal, Optional

import jsonschema
import pytest
from langchain.tools import ToolRuntime, tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field, conint, constr

from helpers.model.rules import OPENAI_ERRORS, ProviderRule
from helpers.workspace import COURSE_ROOT
from tests.loopback_openai import LoopbackOpenAI, find_request_error, loopback_openai  # noqa: F401 - a fixture
from tests.schema_values import arguments_for, string_for_pattern

LOOKUP = {"type": "function", "function": {"name": "lookup_order", "description": "Look up an order by its id.",
                                           "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}},
                                                          "required": ["order_id"]}}}
POLICY = {"type": "function", "function": {"name": "lookup_refund_policy", "description": "Refund policy of a product type.",
                                           "parameters": {"type": "object", "properties": {
                                               "product_type": {"type": "string", "enum": ["electronics", "clothing"]}},
                                               "required": ["product_type"]}}}


def post(server: LoopbackOpenAI, body: dict, path: str = "/v1/chat/completions") -> tuple[int, dict | str]:
    request = urllib.request.Request(server.base_url.removesuffix("/v1") + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer sk-test"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read().decode()
            return response.status, raw if body.get("stream") else json.loads(raw)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def calls(*ids: str, name: str = "lookup_order") -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": i, "type": "function", "function": {"name": name, "arguments": "{}"}} for i in ids]}


def answer(call_id: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": "delivered"}


# -- answers ----------------------------------------------------------------------------------


def test_a_question_with_tools_gets_a_tool_call_that_fits_and_uses_the_order_id(loopback_openai):
    status, body = post(loopback_openai, {"model": "m", "messages": [user("Where is my order A1030?")],
                                          "tools": [POLICY, LOOKUP]})
    assert status == 200
    message = body["choices"][0]["message"]
    assert body["choices"][0]["finish_reason"] == "tool_calls" and message["content"] is None
    (call,) = message["tool_calls"]
    assert call["function"]["name"] == "lookup_order", "the tool whose words match the question"
    assert json.loads(call["function"]["arguments"]) == {"order_id": "A1030"}
    assert call["id"] == "call_lb_0001" and body["usage"]["total_tokens"] > 0


def test_the_prompt_tokens_count_the_tool_schemas_as_providers_bill_them(loopback_openai):
    question = {"model": "m", "messages": [user("Hello?")]}
    _, bare = post(loopback_openai, question)
    _, one = post(loopback_openai, {**question, "tools": [LOOKUP], "tool_choice": "none"})
    _, two = post(loopback_openai, {**question, "tools": [LOOKUP, POLICY], "tool_choice": "none"})
    prompts = [body["usage"]["prompt_tokens"] for body in (bare, one, two)]
    assert prompts[0] < prompts[1] < prompts[2], prompts
    schema_tokens = prompts[2] - prompts[1]
    assert abs(schema_tokens - len(json.dumps(POLICY)) // 4) <= 1, "about 4 characters a token"


def test_tool_choice_names_the_tool_and_none_forbids_calls(loopback_openai):
    _, forced = post(loopback_openai, {"model": "m", "messages": [user("Where is A1030?")], "tools": [LOOKUP, POLICY],
                                       "tool_choice": {"type": "function", "function": {"name": "lookup_refund_policy"}}})
    (call,) = forced["choices"][0]["message"]["tool_calls"]
    assert call["function"]["name"] == "lookup_refund_policy"
    assert json.loads(call["function"]["arguments"]) == {"product_type": "electronics"}
    _, none = post(loopback_openai, {"model": "m", "messages": [user("Where is A1030?")], "tools": [LOOKUP],
                                     "tool_choice": "none"})
    assert "tool_calls" not in none["choices"][0]["message"]


def test_after_a_tool_result_the_answer_is_text(loopback_openai):
    status, body = post(loopback_openai, {"model": "m", "tools": [LOOKUP], "messages": [
        user("Where is A1024?"), calls("call_1"), answer("call_1")]})
    assert status == 200 and body["choices"][0]["finish_reason"] == "stop"
    assert body["choices"][0]["message"]["content"] == "Here is what I found: delivered"


def test_without_tools_the_answer_is_text(loopback_openai):
    _, body = post(loopback_openai, {"model": "m", "messages": [user("hi")]})
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "Hello from the loopback model."}


def test_streaming_sends_sse_chunks_with_tool_call_deltas_and_a_usage_chunk(loopback_openai):
    status, raw = post(loopback_openai, {"model": "m", "stream": True, "stream_options": {"include_usage": True},
                                         "messages": [user("Where is A1024?")], "tools": [LOOKUP]})
    assert status == 200
    events = [line.removeprefix("data: ") for line in raw.split("\n\n") if line]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"}
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    deltas = [c["choices"][0]["delta"]["tool_calls"][0] for c in chunks if c["choices"] and "tool_calls" in c["choices"][0]["delta"]]
    assert deltas[0]["id"] == "call_lb_0001" and deltas[0]["function"]["name"] == "lookup_order"
    assert len(deltas) > 2, "the arguments arrive in pieces"
    assert json.loads("".join(d["function"]["arguments"] for d in deltas)) == {"order_id": "A1024"}
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "tool_calls"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["total_tokens"] > 0


def test_streaming_without_include_usage_sends_no_usage_chunk(loopback_openai):
    _, raw = post(loopback_openai, {"model": "m", "stream": True, "messages": [user("hi")]})
    chunks = [json.loads(line.removeprefix("data: ")) for line in raw.split("\n\n") if line and "[DONE]" not in line]
    assert all(c["choices"] for c in chunks)
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks) == "Hello from the loopback model."


def test_chat_openai_streams_and_invokes_against_it(loopback_openai):
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="m", api_key="sk-test", base_url=loopback_openai.base_url, max_retries=0).bind_tools([LOOKUP])
    invoked = model.invoke("Where is A1024?")
    assembled = None
    for chunk in model.stream("Where is A1024?"):
        assembled = chunk if assembled is None else assembled + chunk
    assert invoked.tool_calls[0]["args"] == assembled.tool_calls[0]["args"] == {"order_id": "A1024"}
    assert [b["stream"] for b in loopback_openai.bodies] == [False, True]


def test_json_schema_response_format_gets_fitting_json(loopback_openai):
    schema = {"type": "object", "properties": {"setup": {"type": "string"}, "rating": {"type": "integer", "minimum": 1,
                                                                                         "maximum": 5}},
              "required": ["setup", "rating"]}
    _, body = post(loopback_openai, {"model": "m", "messages": [user("a joke")],
                                     "response_format": {"type": "json_schema", "json_schema": {"name": "J", "schema": schema}}})
    jsonschema.validate(json.loads(body["choices"][0]["message"]["content"]), schema)


def test_every_request_is_recorded_with_its_authorization(loopback_openai):
    post(loopback_openai, {"model": "m", "messages": [user("hi")]})
    post(loopback_openai, {"model": "m", "messages": []})
    assert [(r.path, r.status, r.authorization) for r in loopback_openai.requests] == [
        ("/v1/chat/completions", 200, "Bearer sk-test"), ("/v1/chat/completions", 400, "Bearer sk-test")]
    assert loopback_openai.bodies[0]["messages"] == [user("hi")]
    assert loopback_openai.env()["OPENAI_BASE_URL"] == loopback_openai.base_url
    loopback_openai.reset()
    assert loopback_openai.requests == []


def test_unknown_paths_and_non_json_bodies(loopback_openai):
    assert post(loopback_openai, {"model": "m"}, path="/v1/embeddings")[0] == 404
    request = urllib.request.Request(loopback_openai.base_url + "/chat/completions", data=b"{not json")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 400
    assert "could not parse the JSON body" in json.loads(caught.value.read())["error"]["message"]


def test_an_overloaded_server_answers_503_after_n_requests(loopback_openai):
    from helpers.model.loopback_openai import OVERLOADED_MESSAGE

    question = {"model": "m", "messages": [user("Where is A1024?")], "tools": [LOOKUP]}
    loopback_openai.overloaded_after = 1
    assert post(loopback_openai, question)[0] == 200
    for _ in range(2):
        status, body = post(loopback_openai, question)
        assert status == 503
        assert body == {"error": {"message": OVERLOADED_MESSAGE, "type": "server_error", "param": None, "code": None}}
    # a history OpenAI refuses is still refused with its 400, not hidden behind the outage
    assert post(loopback_openai, {"model": "m", "messages": []})[0] == 400
    assert [r.status for r in loopback_openai.requests] == [200, 503, 503, 400]
    loopback_openai.overloaded_after = None
    assert post(loopback_openai, question)[0] == 200


# -- OpenAI's 400s ------------------------------------------------------------------------------


def test_unanswered_call_gets_openai_s_400(loopback_openai):
    status, body = post(loopback_openai, {"model": "m", "messages": [user("a"), calls("call_1", "call_2"), answer("call_1"),
                                                                     user("b")]})
    assert status == 400
    assert body == {"error": {
        "message": "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                   "'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
        "type": "invalid_request_error", "param": "messages.[3].role", "code": None}}


def test_orphan_tool_message_gets_openai_s_400(loopback_openai):
    status, body = post(loopback_openai, {"model": "m", "messages": [user("a"), answer("call_404")]})
    assert status == 400
    assert body["error"]["message"] == ("Invalid parameter: messages with role 'tool' must be a response to a "
                                        "preceeding message with 'tool_calls'.")
    assert body["error"]["param"] == "messages.[1].role" and body["error"]["type"] == "invalid_request_error"


def test_a_second_answer_to_one_call_gets_openai_s_400(loopback_openai):
    status, body = post(loopback_openai, {"model": "m", "messages": [user("a"), calls("call_1"), answer("call_1"),
                                                                     answer("call_1")]})
    assert status == 400
    assert body["error"]["message"] == ("Invalid parameter: Duplicate value for 'tool_call_id' of 'call_1', in "
                                        "messages[2] and messages[3].")


@pytest.mark.parametrize("messages, tools, rule", [
    ([], None, ProviderRule.EMPTY_MESSAGES),
    ([user("a")], [{"type": "function", "function": {"name": "lookup order", "parameters": {}}}], ProviderRule.INVALID_TOOL_NAME),
    ([user("a"), {"role": "assistant", "content": None, "tool_calls": [{"type": "function", "function": {"name": "x", "arguments": "{}"}}]}],
     None, ProviderRule.TOOL_CALL_WITHOUT_ID),
    ([user("a"), calls("call_1", "call_1"), answer("call_1")], None, ProviderRule.UNANSWERED_TOOL_CALL),
    ([user("a"), calls("call_1"), answer("call_1"), calls("call_1"), answer("call_1")], None,
     ProviderRule.DUPLICATE_TOOL_MESSAGE),
])
def test_other_histories_no_provider_accepts(loopback_openai, messages, tools, rule):
    body = {"model": "m", "messages": messages, **({"tools": tools} if tools else {})}
    status, answer_body = post(loopback_openai, body)
    assert status == 400
    template = OPENAI_ERRORS[rule]
    assert answer_body["error"]["message"].startswith(template.split("{")[0])


def test_a_tool_call_id_longer_than_40_characters_gets_openai_s_400(loopback_openai):
    long_id = "portkey-6aa6db90-1b84-4155-9f32-f658c97d6b1b"  # 44 characters, a gateway's id (Portkey-AI/gateway#1062)
    status, body = post(loopback_openai, {"model": "m", "messages": [user("a"), calls("call_1", long_id),
                                                                     answer("call_1"), answer(long_id)]})
    assert status == 400
    assert body == {"error": {
        "message": "Invalid 'messages[1].tool_calls[1].id': string too long. Expected a string with maximum length 40, "
                   "but got a string with length 44 instead.",
        "type": "invalid_request_error", "param": "messages[1].tool_calls[1].id", "code": "string_above_max_length"}}
    forty = "c" * 40
    assert find_request_error({"messages": [user("a"), calls(forty), answer(forty)]}) is None


def test_a_tool_name_longer_than_64_characters():
    error = find_request_error({"messages": [user("a")], "tools": [{"type": "function", "function": {"name": "x" * 65}}]})
    assert error.code == "string_above_max_length" and "maximum length 64" in error.message


def test_an_accepted_history_passes_the_checks():
    assert find_request_error({"messages": [{"role": "system", "content": "s"}, user("a"), calls("c1", "c2"), answer("c2"),
                                            answer("c1"), {"role": "assistant", "content": "done"}, user("b")]}) is None


# -- as a process, for a human -------------------------------------------------------------------


def test_it_runs_as_a_process_that_jupyterlab_can_be_pointed_at():
    process = subprocess.Popen([sys.executable, "-m", "tests.loopback_openai", "--port", "0"], cwd=COURSE_ROOT,
                               stdout=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        assert first.startswith("loopback OpenAI server on http://127.0.0.1:")
        base_url = first.split(" on ")[1].split(";")[0]
        assert f"OPENAI_BASE_URL={base_url}" in process.stdout.readline()
        request = urllib.request.Request(base_url + "/chat/completions", data=json.dumps(
            {"model": "m", "messages": [user("hi")]}).encode(), headers={"Content-Type": "application/json"})
        # A bound for a hang, not a speed check: the server's first answer took 19 s with two test workers beside
        # ten other processes on 2 cores (a 10 s limit failed there).
        with urllib.request.urlopen(request, timeout=120) as response:
            assert json.loads(response.read())["choices"][0]["message"]["content"] == "Hello from the loopback model."
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


# -- the schema -> value generator, on schemas like the course's tools ----------------------------


class Priority(str, enum.Enum):
    LOW = "low"
    HIGH = "high"


class Item(BaseModel):
    sku: constr(pattern=r"^SKU-\d+$")
    quantity: conint(ge=1, le=5)


class RefundRequest(BaseModel):
    """Ask for a refund."""

    order_id: str = Field(pattern=r"^A\d{4}$", description="the order id")
    amount: float = Field(gt=0, le=499.0)
    reason: constr(min_length=10, max_length=200)
    priority: Priority = Priority.LOW
    items: list[Item] = Field(min_length=1)
    tags: set[str] = Field(min_length=2)
    since: datetime.date
    contact: Optional[str] = None


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return order_id


@tool
def quote_refund(order_id: str, amount: Annotated[float, Field(ge=0.01, le=499.0)], runtime: ToolRuntime) -> str:
    """Quote a refund (the runtime is hidden from the model)."""
    return order_id


@tool(parse_docstring=True)
def search_orders(status: Literal["delivered", "shipped"], limit: Annotated[int, Field(ge=1, multiple_of=5)] = 5,
                  include_items: bool = False) -> str:
    """Search orders.

    Args:
        status: the status.
        limit: how many.
        include_items: with items.
    """
    return status


@tool(args_schema=RefundRequest)
def submit_refund_request(**kwargs) -> str:
    """Submit a refund request."""
    return "ok"


@tool
def get_contact_channel() -> str:
    """No arguments at all."""
    return "sms"


@tool
def record_ids(order_ids: list[str], weights: dict[str, int], choice: int | str, note: Optional[str]) -> str:
    """Lists, maps, unions and optionals."""
    return "ok"


@pytest.mark.parametrize("course_tool", [lookup_order, quote_refund, search_orders, submit_refund_request,
                                         get_contact_channel, record_ids], ids=lambda t: t.name)
def test_generated_arguments_fit_the_tool_schema(course_tool):
    parameters = convert_to_openai_tool(course_tool)["function"]["parameters"]
    arguments = arguments_for(parameters)
    jsonschema.validate(arguments, parameters)
    assert set(arguments) == set(parameters.get("required", [])), "every required property, nothing else"
    course_tool.tool_call_schema.model_validate(arguments)  # LangChain's own validation accepts them too


def test_generated_values_fit_the_course_data():
    arguments = arguments_for(convert_to_openai_tool(submit_refund_request)["function"]["parameters"])
    assert arguments["order_id"] == "A1024" and arguments["amount"] == 499.0
    assert arguments["items"] == [{"sku": "SKU-1", "quantity": 1}]
    assert len(set(arguments["tags"])) == len(arguments["tags"]) >= 2
    assert arguments["since"] == "2026-11-10"
    assert arguments_for(convert_to_openai_tool(search_orders)["function"]["parameters"]) == {"status": "delivered"}


@pytest.mark.parametrize("pattern", [r"^A\d{4}$", r"^user-\d+$", r"^[A-Z]{2}-[0-9]{3}$", r"^(foo|bar)_[^_]+$", r"\w+@\w+\.com"])
def test_string_for_simple_patterns(pattern):
    import re

    assert re.search(pattern, string_for_pattern(pattern))
