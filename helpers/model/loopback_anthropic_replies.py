"""How the loopback Anthropic stand-in plays a model (``plays_model=True``): its reply and its event stream.

:class:`helpers.model.loopback_anthropic.LoopbackAnthropic` plans a reply with the same model as the OpenAI
stand-in (:func:`helpers.model.loopback_replies.plan_reply`), on a chat.completions view of the Messages API
body (:func:`chat_view`), then writes it in the Messages API's shapes:

* content blocks: a ``text`` block for text, a ``tool_use`` block (``id``, ``name``, ``input``) per tool call;
  ``stop_reason`` ``"tool_use"``, ``"end_turn"``, or ``"max_tokens"`` when ``max_tokens`` cut the reply;
* streamed as the Messages API's events (:func:`message_stream_events`): ``message_start`` (``stop_reason``
  null), per block ``content_block_start`` / ``content_block_delta`` (``text_delta``, or ``input_json_delta``
  with a piece of the arguments in ``partial_json``) / ``content_block_stop``, one ``ping``, then
  ``message_delta`` whose ``delta`` carries the ``stop_reason``, and ``message_stop``; each written as
  ``event: <type>`` + ``data: <json>``.

Shapes from the Anthropic SDK's types (anthropic 2.14.0: ``anthropic/types/stop_reason.py`` ``StopReason``,
``raw_message_delta_event.py``, ``input_json_delta.py``) and Anthropic's "Streaming messages" and "Stop reasons"
pages. Modelled: not streamed, a ``tool_use`` block that ``max_tokens`` cut is sent with ``"input": {}`` (the
pages say only that the reply may hold an incomplete tool use block), and the usage counts are rough.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .loopback_replies import _text

__all__ = ["ANTHROPIC_PIECE", "STOP_REASONS", "chat_view", "message_object", "message_stream_events"]

#: The chat.completions ``finish_reason`` of a planned reply -> the Messages API ``stop_reason``.
STOP_REASONS: Mapping[str, str] = {"tool_calls": "tool_use", "stop": "end_turn", "length": "max_tokens"}

#: Characters per streamed text or ``partial_json`` piece.
ANTHROPIC_PIECE = 12


def chat_view(body: Mapping[str, Any]) -> dict[str, Any]:
    """A chat.completions body that asks what the Messages API ``body`` asks (for the shared reply planner).

    A user message's ``tool_result`` blocks become ``tool`` messages, its text the user's question; an
    assistant message's ``tool_use`` blocks become its calls; tools ``{name, description, input_schema}``
    become functions; ``tool_choice`` ``auto`` / ``any`` / ``tool`` / ``none`` become ``"auto"`` /
    ``"required"`` / that function / ``"none"``; parallel calls are allowed unless
    ``disable_parallel_tool_use``; ``max_tokens`` is kept.
    """
    messages: list[dict[str, Any]] = []
    for message in body.get("messages") or []:
        if not isinstance(message, Mapping):
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        if message.get("role") == "assistant":
            calls = [{"id": b.get("id"), "type": "function",
                      "function": {"name": b.get("name"), "arguments": json.dumps(b.get("input") or {})}}
                     for b in blocks if isinstance(b, Mapping) and b.get("type") == "tool_use"]
            messages.append({"role": "assistant", "content": _text(content), **({"tool_calls": calls} if calls else {})})
            continue
        results = [b for b in blocks if isinstance(b, Mapping) and b.get("type") == "tool_result"]
        messages += [{"role": "tool", "tool_call_id": b.get("tool_use_id"), "content": _text(b.get("content"))}
                     for b in results]
        text = _text([b for b in blocks if isinstance(b, Mapping) and b.get("type") == "text"]) if blocks else _text(content)
        if text or not results:
            messages.append({"role": "user", "content": text})
    tools = [{"type": "function", "function": {"name": tool.get("name"), "description": tool.get("description") or "",
                                               "parameters": tool.get("input_schema") or {}}}
             for tool in body.get("tools") or [] if isinstance(tool, Mapping) and "name" in tool]
    choice = body.get("tool_choice") if isinstance(body.get("tool_choice"), Mapping) else {}
    tool_choice: Any = {"auto": "auto", "any": "required", "none": "none"}.get(choice.get("type"))
    if choice.get("type") == "tool":
        tool_choice = {"type": "function", "function": {"name": choice.get("name")}}
    return {"model": body.get("model"), "messages": messages or [{"role": "user", "content": ""}], "tools": tools,
            "tool_choice": tool_choice, "parallel_tool_calls": not choice.get("disable_parallel_tool_use", False),
            "max_tokens": body.get("max_tokens")}


def _blocks(message: Mapping[str, Any], finish: str) -> list[dict[str, Any]]:
    """The content blocks of a planned reply, each with its raw argument text under ``"_raw"`` (removed on the wire)."""
    blocks: list[dict[str, Any]] = []
    if message.get("content"):
        blocks.append({"type": "text", "text": message["content"]})
    for call in message.get("tool_calls") or []:
        raw = call["function"]["arguments"]
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = {}  # cut by max_tokens (see the module docstring)
        blocks.append({"type": "tool_use", "id": call["id"], "name": call["function"]["name"],
                       "input": parsed if isinstance(parsed, dict) else {}, "_raw": raw})
    return blocks


def _usage(body: Mapping[str, Any], blocks: list[dict[str, Any]]) -> dict[str, int]:
    return {"input_tokens": max(1, len(json.dumps(body.get("messages", []))) // 4),
            "output_tokens": max(1, len(json.dumps(blocks)) // 4)}


def message_object(body: Mapping[str, Any], message: Mapping[str, Any], finish: str, message_id: str) -> dict[str, Any]:
    """The Messages API reply object (not streamed) for a planned reply: ``{"id", "type": "message", "content",
    "stop_reason", "stop_sequence", "usage", ...}``."""
    blocks = [{k: v for k, v in block.items() if k != "_raw"} for block in _blocks(message, finish)]
    return {"id": message_id, "type": "message", "role": "assistant", "model": body.get("model"), "content": blocks,
            "stop_reason": STOP_REASONS.get(finish, "end_turn"), "stop_sequence": None, "usage": _usage(body, blocks)}


def _pieces(text: str) -> list[str]:
    return [text[start:start + ANTHROPIC_PIECE] for start in range(0, len(text), ANTHROPIC_PIECE)]


def message_stream_events(body: Mapping[str, Any], message: Mapping[str, Any], finish: str,
                          message_id: str) -> Iterator[dict[str, Any]]:
    """The Messages API stream of a planned reply: event dicts with ``type`` (see the module docstring).

    The ``stop_reason`` arrives only in ``message_delta`` near the end (``message_start`` has ``null``):
    ``"max_tokens"`` when ``finish`` is ``"length"``.
    """
    blocks = _blocks(message, finish)
    usage = _usage(body, blocks)
    yield {"type": "message_start", "message": {
        "id": message_id, "type": "message", "role": "assistant", "model": body.get("model"), "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {**usage, "output_tokens": 1}}}
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            yield {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
            deltas = [{"type": "text_delta", "text": piece} for piece in _pieces(block["text"])]
        else:
            yield {"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}
            deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in _pieces(block["_raw"])]
        if index == 0:
            yield {"type": "ping"}
        for delta in deltas:
            yield {"type": "content_block_delta", "index": index, "delta": delta}
        yield {"type": "content_block_stop", "index": index}
    yield {"type": "message_delta", "delta": {"stop_reason": STOP_REASONS.get(finish, "end_turn"),
                                              "stop_sequence": None},
           "usage": {"output_tokens": usage["output_tokens"]}}
    yield {"type": "message_stop"}
