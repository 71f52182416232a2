"""The scripted support policy of notebook 11 (section 3): a careful or careless model that quotes, waits
for the customer's yes (or not) and submits; the hidden cases of exercise 11.1 (:mod:`helpers.exercises.nb11`)
run the learner's tool against it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain.messages import AIMessage, HumanMessage, ToolMessage

from helpers.error_contract import read_error
from helpers.model import scripted_model, tool_call

__all__ = ["support_policy"]


_TOOL_NAME = "submit_refund_request"
_ORDER_ID = re.compile(r"\b[A-Z]\d{4}\b")
_YES = ("yes", "go ahead", "please do", "i confirm")
_ABOUT_REFUNDS = ("refund", "money back", "get back")


# -- the scripted policy (notebook 11 section 3) ------------------------------------------------


def _answers(messages: list, name: str) -> list:
    """The ToolMessages in ``messages`` answering calls of tool ``name`` (paired by tool_call_id)."""
    ids = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls if c["name"] == name}
    return [m for m in messages if isinstance(m, ToolMessage) and m.tool_call_id in ids]


def _parsed(message: Any) -> tuple[bool, dict]:
    content = message.content
    data = json.loads(content) if isinstance(content, str) and content.startswith("{") else {"text": content}
    return message.status != "error", data


def _submit_then_report(quote: dict, attempts: list, call) -> Any:
    """Submit the quote; once more after an ``unknown`` outcome (a lost reply); else report the last attempt."""
    unknown = [m for m in attempts if (read_error(m) or {}).get("outcome") == "unknown"]
    if not attempts or (len(attempts) == 1 and unknown):
        return call(_TOOL_NAME, order_id=quote["order_id"], amount=quote["refundable_amount"])
    ok, result = _parsed(attempts[-1])
    return str(result.get("text")) if ok else f"Sorry, I could not submit it ({result.get('error', 'error')})."


def support_policy(request: Any, *, wait_for_confirmation: bool = True) -> Any:
    """Notebook 11's scripted policy: the next move of a careful (or careless) support agent.

    Args:
        request: the :class:`helpers.model.RecordedRequest` the model receives.
        wait_for_confirmation: False gives the careless variant, which submits as soon as it has a quote.

    Returns:
        a script step: a list with one tool call, or a text reply.
    """
    messages = request.messages
    last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
    said, turn = str(messages[last].content), messages[last:]

    def call(name: str, **args: Any) -> Any:
        return [tool_call(name, args)] if name in request.tool_names else f"({name}: not available)"

    shown = [quote for ok, quote in map(_parsed, _answers(messages[:last], "quote_refund")) if ok]
    if shown and any(word in said.lower() for word in _YES):
        return _submit_then_report(shown[-1], _answers(turn, _TOOL_NAME), call)
    match = _ORDER_ID.search(said)
    if not match:
        return "Which order is it about? Please give me its order id."
    order_id, lookups = match.group(), _answers(turn, "lookup_order")
    if not lookups:
        return call("lookup_order", order_id=order_id)
    ok, order = _parsed(lookups[-1])
    if not ok:
        return f"Sorry, I cannot help with order {order_id}."
    if not any(word in said.lower() for word in _ABOUT_REFUNDS):
        return f"Your order {order_id} is {order.get('status')}."
    quotes = _answers(turn, "quote_refund")
    if not quotes:
        return call("quote_refund", order_id=order_id)
    ok, quote = _parsed(quotes[-1])
    if not ok:
        return f"Sorry, order {order_id} cannot be refunded."
    if not wait_for_confirmation:
        return _submit_then_report(quote, _answers(turn, _TOOL_NAME), call)
    return f"Order {order_id} can be refunded up to {quote['refundable_amount']:.2f}. Shall I submit it?"


def _policy_model(wait_for_confirmation: bool = True):
    return scripted_model([lambda r: support_policy(r, wait_for_confirmation=wait_for_confirmation)] * 40)
