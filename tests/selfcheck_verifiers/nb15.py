"""Verifiers of notebook 15's self-check questions (``helpers/selfcheck/nb15.py``): see
``tests/selfcheck_verifiers/__init__.py``. Each runs the behaviour on the pins: the scripted model
inside ``create_agent``, and the real ``ChatOpenAI`` against an in-memory ``httpx`` transport (no
socket), as notebook 15's sections 4 and 5.4 do."""

import json

import httpx
import pytest
from langchain_core.messages import AIMessage, ToolMessage

from helpers.model.loopback_openai import LOOPBACK_KEY
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace

DECISION = {"order_id": "A1024", "approve": True, "amount": 49.5}


def verify_where_the_run_ends(q):
    ns = context_namespace("15")
    model = ns["scripted_model"]([[ns["tool_call"]("RefundDecision", DECISION)]])
    agent = ns["create_agent"](model, tools=[ns["lookup_order"]],
                               response_format=ns["ToolStrategy"](ns["RefundDecision"]))
    messages = agent.invoke({"messages": [ns["question"]]})["messages"]
    call = messages[1].tool_calls[0]
    assert isinstance(messages[-1], ToolMessage) and messages[-1].tool_call_id == call["id"]
    assert messages[-1].text.startswith("Returning structured response")
    assert len(model.requests) == 1  # not asked once more
    return pick(q, "agent wrote itself")


def verify_provider_strategy_prose(q):
    ns = context_namespace("15")
    model = ns["scripted_model"](["I would refund 49.50.", "never played"])
    agent = ns["create_agent"](model, tools=[ns["lookup_order"]],
                               response_format=ns["ProviderStrategy"](ns["RefundDecision"]))
    with pytest.raises(ns["StructuredOutputValidationError"]):
        agent.invoke({"messages": [ns["question"]]})
    assert len(model.requests) == 1
    return pick(q, "raises StructuredOutputValidationError")


def _stand_in(reply, bodies=None):
    """A real ChatOpenAI whose provider is ``reply(body) -> (message, finish_reason)``, in memory
    (an ``httpx.MockTransport``; no socket); each request body is appended to ``bodies``."""
    from langchain_openai import ChatOpenAI

    def answer(request):
        body = json.loads(request.content)
        if bodies is not None:
            bodies.append(body)
        message, finish_reason = reply(body)
        choice = {"index": 0, "finish_reason": finish_reason, "message": {"role": "assistant", **message}}
        return httpx.Response(200, json={"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                                         "choices": [choice],
                                         "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}})

    return ChatOpenAI(model="gpt-4.1", api_key=LOOPBACK_KEY, max_retries=0,
                      http_client=httpx.Client(transport=httpx.MockTransport(answer)))


def _cut_provider(message):
    return _stand_in(lambda body: (message, "length"))


def verify_cut_function_calling(q):
    import openai

    ns = context_namespace("15")
    cut = '{"order_id": "A1024", "approve": true, "amount": 4'
    call = {"id": "call_1", "type": "function", "function": {"name": "RefundDecision", "arguments": cut}}
    structured = _cut_provider({"content": None, "tool_calls": [call]}).with_structured_output(
        ns["RefundDecision"], method="function_calling", include_raw=True)
    out = structured.invoke("Decide on the refund for order A1024.")
    assert out["parsed"] is None and out["parsing_error"] is None
    assert isinstance(out["raw"], AIMessage) and out["raw"].invalid_tool_calls
    # the tempting wrong choice: json_schema does raise
    as_json = _cut_provider({"content": cut}).with_structured_output(
        ns["RefundDecision"], method="json_schema", include_raw=True)
    with pytest.raises(openai.LengthFinishReasonError):
        as_json.invoke("Decide on the refund for order A1024.")
    return pick(q, "no error anywhere")


def verify_strict_flags(q):
    ns = context_namespace("15")
    bodies = []
    model = _stand_in(lambda body: ({"content": json.dumps(DECISION)}, "stop"), bodies)
    agent = ns["create_agent"](model, tools=[ns["lookup_order"]],
                               response_format=ns["ProviderStrategy"](ns["RefundDecision"]))
    result = agent.invoke({"messages": [ns["question"]]})
    assert result["structured_response"] == ns["RefundDecision"](**DECISION)
    assert [t["function"].get("strict") for t in bodies[0]["tools"]] == [True]
    assert bodies[0]["response_format"]["json_schema"]["strict"] is False
    return pick(q, "Only the function tool")
