"""The Responses API side of the loopback OpenAI stand-in: ``POST /v1/responses``, playing a reasoning model.

Notebook 14 points a real ``ChatOpenAI(use_responses_api=True, base_url=...)`` at
:class:`helpers.model.loopback_openai.LoopbackOpenAI` to show what happens to the **reasoning items** a
reasoning model returns with its tool calls when the application sends the history back. This module holds
the rules and the replies; the server routes ``/v1/responses`` here.

The replies (:func:`plan_output`): the question and the bound tools go through the same planning as the
chat.completions endpoint (:func:`helpers.model.loopback_replies.plan_reply`, on :func:`as_chat_body`'s
translation), so a question about an order gets a call of the tool that fits, and a history that ends with a
``function_call_output`` gets a text answer. A reply that calls tools starts with a ``reasoning`` item
(``rs_lb_NNNN``, an empty ``summary``), then one ``function_call`` item per call (``fc_lb_NNNN``, its
``call_id`` ``call_lb_NNNN``), as a reasoning model's output does. The stand-in remembers which reasoning
item came with which items (:class:`ReasoningLedger`): that is what the rules below check on later requests.

The rules (:func:`find_responses_error`), in the order they are checked, walking ``input``:

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
  reasoned about afresh; a text reply without a reasoning item; ``store``, ``previous_response_id`` and
  ``include`` are not read (a real ``"store": false`` request cannot refer to stored items at all, and needs
  ``reasoning.encrypted_content`` to send reasoning back). No streaming.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .loopback_replies import _text, plan_reply
from .openai_error import OpenAIError

__all__ = ["RESPONSES_ERRORS", "ReasoningLedger", "as_chat_body", "find_responses_error", "input_items",
           "plan_output", "response_body"]

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


def as_chat_body(body: Mapping[str, Any]) -> dict[str, Any]:
    """The Responses body as a chat.completions body, for the shared reply planning (reasoning items dropped)."""
    messages: list[dict[str, Any]] = []
    for item in input_items(body):
        kind = item.get("type", "message")
        if kind == "message":
            messages.append({"role": item.get("role", "user"), "content": _text(item.get("content"))})
        elif kind == "function_call":
            call = {"id": item.get("call_id"), "type": "function",
                    "function": {"name": item.get("name"), "arguments": item.get("arguments", "{}")}}
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": item.get("call_id"), "content": _text(item.get("output"))})
    tools = [{"type": "function", "function": {"name": tool.get("name"), "description": tool.get("description", ""),
                                               "parameters": tool.get("parameters") or {}}}
             for tool in body.get("tools") or [] if isinstance(tool, Mapping) and tool.get("type") == "function"]
    choice = body.get("tool_choice")
    if isinstance(choice, Mapping) and choice.get("type") == "function":
        choice = {"type": "function", "function": {"name": choice.get("name")}}
    chat = {"model": body.get("model"), "messages": messages or [{"role": "user", "content": ""}], "tools": tools}
    if choice is not None:
        chat["tool_choice"] = choice
    if "parallel_tool_calls" in body:
        chat["parallel_tool_calls"] = body["parallel_tool_calls"]
    return chat


def plan_output(body: Mapping[str, Any], number: int) -> list[dict[str, Any]]:
    """The ``output`` items of the stand-in's answer number ``number`` (ids ``rs_lb_``/``fc_lb_``/``msg_lb_``).

    A reply that calls tools: one ``reasoning`` item, then one ``function_call`` item per call (``call_id``
    ``call_lb_NNNN``, further parallel calls ``call_lb_NNNN_2``, ...). Otherwise one assistant ``message``.
    """
    message, _ = plan_reply(as_chat_body(body), f"call_lb_{number:04d}")
    calls = message.get("tool_calls") or []
    if not calls:
        text = {"type": "output_text", "text": message.get("content") or "", "annotations": []}
        return [{"type": "message", "id": f"msg_lb_{number:04d}", "role": "assistant", "status": "completed",
                 "content": [text]}]
    output: list[dict[str, Any]] = [{"type": "reasoning", "id": f"rs_lb_{number:04d}", "summary": []}]
    for index, call in enumerate(calls, 1):
        suffix = "" if index == 1 else f"_{index}"
        output.append({"type": "function_call", "id": f"fc_lb_{number:04d}{suffix}", "call_id": call["id"],
                       "name": call["function"]["name"], "arguments": call["function"]["arguments"],
                       "status": "completed"})
    return output


def response_body(body: Mapping[str, Any], output: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """The ``response`` object the stand-in answers with (what the OpenAI SDK parses into ``Response``)."""
    words = sum(len(_text(item.get("content")).split()) for item in input_items(body))
    return {"id": f"resp_lb_{number:04d}", "object": "response", "created_at": 0, "model": body.get("model"),
            "status": "completed", "output": output, "parallel_tool_calls": body.get("parallel_tool_calls", True),
            "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
            "usage": {"input_tokens": max(1, words), "output_tokens": 8, "total_tokens": max(1, words) + 8,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 4 if len(output) > 1 else 0}}}
