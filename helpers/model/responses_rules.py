"""The Responses API's rules for reasoning items and tool outputs: what OpenAI refuses, in its words.

:class:`helpers.model.loopback_openai.LoopbackOpenAI` checks every ``POST /v1/responses`` body with
:func:`find_responses_error` before it answers (streamed or not). A reasoning model's reply that calls tools
starts with a ``reasoning`` item (:mod:`helpers.model.loopback_responses` writes the replies); the stand-in
remembers which reasoning item came with which items (:class:`ReasoningLedger`), and that is what the rules
check on later requests. Notebook 14 (section 8) shows the refusal an application gets when it keeps a call
and drops its reasoning item.

The rules, in the order they are checked, walking ``input``:

* a ``reasoning`` item the stand-in issued must be followed by the item that followed it in that output:
  ``Item 'rs_...' of type 'reasoning' was provided without its required following item.``;
* a ``function_call`` item sent with an ``id`` the stand-in issued after a reasoning item needs that reasoning
  item earlier in ``input``: ``Item 'fc_...' of type 'function_call' was provided without its required
  'reasoning' item: 'rs_...'.``;
* a ``function_call_output`` needs a ``function_call`` with its ``call_id`` earlier in ``input``:
  ``No tool call found for function call output with call_id call_....``;
* then every ``function_call`` needs a ``function_call_output`` with its ``call_id``:
  ``No tool output found for function call call_....``.

What is verified and what is modelled:

* **verified**: the four messages' wording, ``"param": "input"`` and ``"code": null`` in the
  ``invalid_request_error`` body with HTTP 400, as quoted from OpenAI's answers in public reports
  (continuedev/continue issues 8933, 9927, 10018 and 10880, cline/cline 12242, openai/openai-agents-python
  1660, and langchain-ai/langchainjs PR 11437); and that a function call whose item id came with a reasoning
  item is refused when the reasoning item is not sent back with it (the same reports: an application that
  kept the call and dropped the reasoning).
* **modelled**: the order of the checks; "earlier in ``input``" for a reasoning item (the reports show it
  missing, not misplaced); that a call sent without an ``id`` (rebuilt from ``tool_calls``) is accepted and
  reasoned about afresh; ``store``, ``previous_response_id`` and ``include`` are not read (a real
  ``"store": false`` request cannot refer to stored items at all, and needs ``reasoning.encrypted_content``
  to send reasoning back).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .openai_error import OpenAIError

__all__ = ["RESPONSES_ERRORS", "ReasoningLedger", "find_responses_error", "input_items"]

#: OpenAI's wording for the Responses API rules (verified: see the module docstring).
RESPONSES_ERRORS: Mapping[str, str] = {
    "reasoning_without_follower": "Item '{reasoning}' of type 'reasoning' was provided without its required "
                                  "following item.",
    "call_without_reasoning": "Item '{item}' of type 'function_call' was provided without its required "
                              "'reasoning' item: '{reasoning}'.",
    "output_without_call": "No tool call found for function call output with call_id {call_id}.",
    "call_without_output": "No tool output found for function call {call_id}.",
}


@dataclass
class ReasoningLedger:
    """The reasoning items the stand-in issued, and which output items came with each (thread-safe).

    Attributes:
        follower: reasoning item id -> the id of the item right after it in the same output.
        reasoning_of: item id -> the id of the reasoning item it came with.
    """

    follower: dict[str, str] = field(default_factory=dict)
    reasoning_of: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, output: list[dict[str, Any]]) -> None:
        """Remember the reasoning items of one response's ``output`` and the items that followed them."""
        with self._lock:
            current = None
            for before, item in zip([None, *output], output):
                if item.get("type") == "reasoning":
                    current = item["id"]
                    continue
                if current is not None:
                    if before is not None and before.get("id") == current:
                        self.follower[current] = item["id"]
                    self.reasoning_of[item["id"]] = current

    def lookup(self, item_id: Any) -> tuple[str | None, str | None]:
        """``(reasoning id this item came with, the item that must follow it if it is a reasoning item)``."""
        with self._lock:
            return self.reasoning_of.get(item_id), self.follower.get(item_id)


def input_items(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The body's ``input`` as a list of items (a string is one user message; anything else no items)."""
    raw = body.get("input")
    if isinstance(raw, str):
        return [{"type": "message", "role": "user", "content": raw}]
    return [item for item in raw if isinstance(item, Mapping)] if isinstance(raw, list) else []


def find_responses_error(body: Mapping[str, Any], ledger: ReasoningLedger) -> OpenAIError | None:
    """The 400 OpenAI answers for a ``POST /v1/responses`` body, or ``None`` when it is acceptable.

    Args:
        body: the request body (``input``: a string or a list of items).
        ledger: what the stand-in issued before (reasoning items and the items that came with them).

    Returns:
        the first broken rule's error (``"param": "input"``), in the order of the module docstring.
    """
    items = input_items(body)
    seen_ids: set[Any] = set()
    called: set[Any] = set()
    for position, item in enumerate(items):
        kind, item_id = item.get("type", "message"), item.get("id")
        reasoning, follower = ledger.lookup(item_id)
        after = items[position + 1].get("id") if position + 1 < len(items) else None
        if kind == "reasoning" and follower is not None and after != follower:
            return OpenAIError(RESPONSES_ERRORS["reasoning_without_follower"].format(reasoning=item_id), "input")
        if kind == "function_call" and reasoning is not None and reasoning not in seen_ids:
            return OpenAIError(RESPONSES_ERRORS["call_without_reasoning"].format(item=item_id, reasoning=reasoning),
                               "input")
        if kind == "function_call_output" and item.get("call_id") not in called:
            return OpenAIError(RESPONSES_ERRORS["output_without_call"].format(call_id=item.get("call_id")), "input")
        if kind == "function_call":
            called.add(item.get("call_id"))
        seen_ids.add(item_id)
    answered = {item.get("call_id") for item in items if item.get("type") == "function_call_output"}
    for item in items:
        if item.get("type") == "function_call" and item.get("call_id") not in answered:
            return OpenAIError(RESPONSES_ERRORS["call_without_output"].format(call_id=item.get("call_id")), "input")
    return None
