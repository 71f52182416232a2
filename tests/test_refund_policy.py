"""helpers.refund_policy: notebook 11's scripted support policy decides each move from the conversation."""

import json
from types import SimpleNamespace

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from helpers import tool_call
from helpers.error_contract import CONTRACT
from helpers.refund_policy import answers, policy_model, support_policy


@tool("lookup_order")
def _lookup_order(order_id: str) -> str:
    """Look up an order."""
    return order_id


ORDER = {"order_id": "A1024", "product": "Wireless headphones", "status": "delivered", "refunded_amount": 0.0}
QUOTE = {"order_id": "A1024", "refundable_amount": 499.0, "policy": "Refund within 30 days."}


def _move(*messages, careful=True):
    return support_policy(SimpleNamespace(messages=list(messages)), contract=CONTRACT,
                          wait_for_confirmation=careful)


def _turn_one():
    return [HumanMessage("My headphones A1024 broke. Can I get a refund?"),
            AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "A1024"}, "c1")]),
            ToolMessage(json.dumps(ORDER), tool_call_id="c1"),
            AIMessage("", tool_calls=[tool_call("quote_refund", {"order_id": "A1024"}, "c2")]),
            ToolMessage(json.dumps(QUOTE), tool_call_id="c2")]


def test_a_refund_question_is_looked_up_then_quoted():
    assert [c["name"] for c in _move(HumanMessage("Refund A1024 please"))] == ["lookup_order"]
    assert [c["name"] for c in _move(*_turn_one()[:3])] == ["quote_refund"]


def test_the_careful_policy_asks_and_the_careless_one_submits():
    assert _move(*_turn_one()).endswith("Shall I submit a refund request for 499.00?")
    careless = _move(*_turn_one(), careful=False)
    assert [(c["name"], c["args"]) for c in careless] == [
        ("submit_refund_request", {"order_id": "A1024", "amount": 499.0})]


def test_a_yes_to_an_earlier_quote_submits_it_and_an_error_gets_the_contract_line():
    assert [c["name"] for c in _move(*_turn_one(), AIMessage("Shall I?"), HumanMessage("Yes, go ahead."))] == [
        "submit_refund_request"]
    refused = ToolMessage(json.dumps({"error": "permission_denied", "outcome": "refused"}), tool_call_id="c1",
                          status="error")
    lookup = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "B2048"}, "c1")])
    assert _move(HumanMessage("Refund B2048"), lookup, refused) == CONTRACT["permission_denied"].user


def test_answers_pairs_by_tool_call_id_and_the_model_plays_the_policy():
    messages = _turn_one()
    assert [m.tool_call_id for m in answers(messages, "quote_refund")] == ["c2"]
    model = policy_model(CONTRACT, wait_for_confirmation=True).bind_tools([_lookup_order])
    reply = model.invoke([HumanMessage("Where is my order A1025?")])
    assert [(c["name"], c["args"]) for c in reply.tool_calls] == [("lookup_order", {"order_id": "A1025"})]
