"""Notebook 11's fixture: a scripted support policy that plays the refund agent's model.

The policy is no language model: it matches keywords, and each move can be read. For each request the model
would receive (a :class:`helpers.model.RecordedRequest`: the messages and the bound tools) it decides the next
move the way a careful support agent would:

1. the customer says yes to a quote shown **earlier** -> submit that quote (once more if the outcome was
   ``unknown``: the reply was lost), then report the result;
2. otherwise find the order id in what they said (none: ask for it) and look the order up; an error -> tell
   the customer the contract's line for its code;
3. a question about a refund -> get a quote, explain it **and ask for confirmation**; any other question ->
   answer from the lookup.

``wait_for_confirmation=False`` gives the careless variant, which submits as soon as it has a quote.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from .error_contract import ErrorView, read_error, view_for
from .model import scripted_model, tool_call

__all__ = ["answers", "facts", "policy_model", "support_policy"]

ORDER_ID = re.compile(r"\b[A-Z]\d{4}\b")
YES = ("yes", "go ahead", "please do", "i confirm")
ABOUT_REFUNDS = ("refund", "money back", "get back")
#: The script's length: a budget no conversation of notebook 11 needs; a policy stuck in a loop stops
#: there with ``ScriptExhaustedError`` instead of running forever.
STEPS = 40


def answers(messages: list, name: str) -> list[ToolMessage]:
    """The ToolMessages in ``messages`` that answer calls of tool ``name`` (paired by ``tool_call_id``)."""
    ids = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls if c["name"] == name}
    return [m for m in messages if isinstance(m, ToolMessage) and m.tool_call_id in ids]


def facts(message: ToolMessage) -> dict:
    """A tool result as data: its JSON object, or ``{"text": <content>}``."""
    return json.loads(message.content) if message.content.startswith("{") else {"text": message.content}


def support_policy(request: Any, *, contract: Mapping[str, ErrorView], wait_for_confirmation: bool = True) -> Any:
    """The next move of a careful (or careless) support agent, decided from the conversation.

    Args:
        request: what the model receives (``request.messages``).
        contract: the error contract whose customer line is said for an error result.
        wait_for_confirmation: False gives the careless variant (submits as soon as it has a quote).

    Returns:
        a script step: a list with one tool call, or the text of the reply.
    """
    messages = request.messages
    last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
    said, this_turn = messages[last].content, messages[last:]
    quoted = [facts(m) for m in answers(messages[:last], "quote_refund") if m.status != "error"]
    if quoted and any(word in said.lower() for word in YES):  # 1. a yes to an earlier quote
        return _submit_or_report(quoted[-1], answers(this_turn, "submit_refund_request"), contract)
    match = ORDER_ID.search(said)
    if match is None:
        return "Which order is it about? Please give me its order id (for example A1024)."
    return _about_order(match.group(), said.lower(), this_turn, contract, wait_for_confirmation)


def policy_model(contract: Mapping[str, ErrorView], *, wait_for_confirmation: bool = True):
    """A scripted model whose every step (:data:`STEPS` of them) is :func:`support_policy`."""

    def step(request: Any) -> Any:
        return support_policy(request, contract=contract, wait_for_confirmation=wait_for_confirmation)

    return scripted_model([step] * STEPS)


def _customer_line(message: ToolMessage, contract: Mapping[str, ErrorView]) -> str:
    """What the customer is told about an error result: the contract's line for its code."""
    return view_for(read_error(message)["error"], contract).user


def _submit_or_report(quote: dict, attempts: list, contract: Mapping[str, ErrorView]) -> Any:
    """Step 1: submit ``quote``; once more if the outcome was unknown; otherwise report the last attempt."""
    unknown = [m for m in attempts if (read_error(m) or {}).get("outcome") == "unknown"]
    if not attempts or (len(attempts) == 1 and unknown):
        args = {"order_id": quote["order_id"], "amount": quote["refundable_amount"]}
        return [tool_call("submit_refund_request", args)]
    last = attempts[-1]
    return _customer_line(last, contract) if read_error(last) else facts(last)["text"]


def _about_order(order_id: str, said: str, this_turn: list, contract: Mapping[str, ErrorView],
                 wait_for_confirmation: bool) -> Any:
    """Steps 2 and 3: look the order up, then answer a status question, or quote and ask."""
    lookups = answers(this_turn, "lookup_order")
    if not lookups:  # 2. look it up
        return [tool_call("lookup_order", {"order_id": order_id})]
    if read_error(lookups[-1]):
        return _customer_line(lookups[-1], contract)
    order = facts(lookups[-1])
    if not any(word in said for word in ABOUT_REFUNDS):  # 3b. any other question
        return (f"Your order {order_id} ({order['product']}) is {order['status']}; "
                f"refunded so far: {order['refunded_amount']:.2f}.")
    quotes = answers(this_turn, "quote_refund")
    if not quotes:  # 3a. a refund question: get a quote
        return [tool_call("quote_refund", {"order_id": order_id})]
    if read_error(quotes[-1]):
        return _customer_line(quotes[-1], contract)
    quote = facts(quotes[-1])
    if not wait_for_confirmation:  # the careless variant
        return _submit_or_report(quote, answers(this_turn, "submit_refund_request"), contract)
    amount = quote["refundable_amount"]
    return (f"Your {order['product']} ({order_id}) can be refunded up to {amount:.2f}. "
            f"{quote['policy']} Shall I submit a refund request for {amount:.2f}?")
