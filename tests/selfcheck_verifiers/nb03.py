"""Verifiers of notebook 03's self-check questions (``helpers/selfcheck/nb03.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def verify_wrong_id_accepted(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage
    from langchain.tools import tool

    from helpers import scripted_model, tool_call
    from helpers.domain import OrderStore
    store = OrderStore()

    @tool
    def lookup_order(order_id: str) -> dict:
        """Look up one order of the current customer by id (e.g. A1024): product and amount paid."""
        order = store.get_order(order_id, user_id="user-42")
        return {"order_id": order.order_id, "product": order.product, "amount": order.amount}

    ai = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "A1024"}, id="call_1"),
                                   tool_call("lookup_order", {"order_id": "A1030"}, id="call_2")])
    results = [lookup_order.invoke(call) for call in ai.tool_calls]
    swapped = [ToolMessage(results[1].content, tool_call_id="call_1", name="lookup_order"),
               ToolMessage(results[0].content, tool_call_id="call_2", name="lookup_order")]
    model = scripted_model(["Both orders found."])
    model.invoke([HumanMessage("A1024 and A1030?"), ai, *swapped])  # accepted: no error
    sent = {m["tool_call_id"]: m["content"] for m in model.last_request.payload()["messages"] if m["role"] == "tool"}
    assert "Winter jacket" in sent["call_1"]
    return pick(q, "accepts it")


def verify_unanswered_call(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError, scripted_model, tool_call
    ns = context_namespace("03")
    ai = AIMessage("", tool_calls=[tool_call("quote_refund", {"order_id": "A1024"}, id="call_1"),
                                   tool_call("quote_refund", {"order_id": "A1030"}, id="call_2")])
    history = [HumanMessage("Refunds for A1024 and A1030?"), ai, ns["quote_refund"].invoke(ai.tool_calls[0])]
    with pytest.raises(ProviderRuleError, match="unanswered_tool_call"):
        scripted_model(["never used"]).invoke(history)
    skipped = ToolMessage("Error not_executed: this call was not run (timeout).", tool_call_id="call_2",
                          name="quote_refund", status="error")
    scripted_model(["ok"]).invoke([*history, skipped])  # accepted
    return pick(q, "refuses the request")
