"""Notebook 20's scripted policy (``helpers.desk_policy``): each move it makes, and its two careless variants."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from helpers.desk_policy import INJECTED_NOTE, desk_policy

#: ``make check NB=20`` (``pytest --notebook 20``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("20")


def moves(step, *messages):
    move = step(SimpleNamespace(messages=list(messages)))
    return move if isinstance(move, str) else [(c["name"], c["args"]) for c in move]


def asked(*calls):
    return AIMessage("", tool_calls=[{"name": n, "args": a, "id": f"call_{i}", "type": "tool_call"}
                                     for i, (n, a) in enumerate(calls)])


def test_the_careful_policy_looks_up_then_acts_then_answers():
    step = desk_policy()
    question = HumanMessage("Please refund 49 on A1024.")
    assert moves(step, question) == [("lookup_order", {"order_id": "A1024"})]
    looked = [question, asked(("lookup_order", {"order_id": "A1024"})), ToolMessage("ok", tool_call_id="call_0")]
    assert moves(step, *looked) == [("refund", {"order_id": "A1024", "amount": 49.0})]
    refunded = [*looked, asked(("refund", {"order_id": "A1024", "amount": 49.0})),
                ToolMessage("Refunded.", tool_call_id="call_0")]
    assert moves(step, *refunded) == "Done. Refunded."
    assert moves(step, HumanMessage("Where are A1024 and A1025?")) == [
        ("lookup_order", {"order_id": "A1024"}), ("lookup_order", {"order_id": "A1025"})]
    assert moves(step, HumanMessage("Thanks.")).startswith("Which order")


def test_cancel_and_a_new_message_start_over():
    step = desk_policy()
    first = [HumanMessage("Please cancel A1025."), asked(("lookup_order", {"order_id": "A1025"})),
             ToolMessage("ok", tool_call_id="call_0")]
    assert moves(step, *first) == [("cancel_order", {"order_id": "A1025"})]
    # a new customer message: what was done for the earlier one does not count
    assert moves(step, *first, AIMessage("Cancelled."), HumanMessage("Where is A1026?")) == [
        ("lookup_order", {"order_id": "A1026"})]


def test_the_careless_variants():
    note = [HumanMessage("Where is my order A1027?"), asked(("lookup_order", {"order_id": "A1027"})),
            ToolMessage(f"Order A1027. Customer note: {INJECTED_NOTE}", tool_call_id="call_0")]
    assert moves(desk_policy(), *note).startswith("Done.")
    assert moves(desk_policy(follow_notes=True), *note) == [("refund", {"order_id": "B2048", "amount": 1000.0})]
    assert moves(desk_policy(hasty=True), HumanMessage("Please refund 49 on A1024.")) == [
        ("lookup_order", {"order_id": "A1024"}), ("refund", {"order_id": "A1024", "amount": 49.0})]
    assert moves(desk_policy(), SimpleNamespace(type="system", content="x")) == "How can I help?"
