"""The loopback OpenAI stand-in's Responses API (``POST /v1/responses``): the reply it plans and its event stream.

:class:`helpers.model.loopback_openai.LoopbackOpenAI` answers ``/v1/responses`` with these functions, so a
real ``ChatOpenAI(use_responses_api=True)`` can stream from it on 127.0.0.1. The reply is planned by the same
model as the chat.completions endpoint (:func:`helpers.model.loopback_replies.plan_reply`), on a
chat.completions view of the Responses body (:func:`chat_view`), then written in the Responses API's shapes:

* an output item per part of the reply: a ``message`` item with one ``output_text`` part for text, a
  ``function_call`` item (``call_id``, ``name``, ``arguments``) per tool call, in that order; when the request
  names a reasoning model (:func:`plays_reasoning`) and the reply calls tools, a ``reasoning`` item (an empty
  ``summary``) comes first, as a reasoning model's output does (notebook 14, section 8);
* ids numbered by the request's answer number ``N``: ``resp_lb_N``, ``rs_lb_N``, ``msg_lb_N``, ``fc_lb_N`` (a
  further parallel call ``fc_lb_N_2``, ...); call ids come from the reply planner (``call_lb_N``,
  ``call_lb_N_2``, ...);
* streamed as the semantic events of the Responses API (``response.created``, ``response.in_progress``,
  ``response.output_item.added``, ``response.output_text.delta`` / ``response.function_call_arguments.delta``
  pieces, the ``.done`` events, ``response.output_item.done``), each ``event: <type>`` + ``data: <json>``
  with an increasing ``sequence_number`` and no ``[DONE]`` line; the last event is ``response.completed``
  or, for a reply cut off at ``max_output_tokens``, ``response.incomplete``, whose response has
  ``"status": "incomplete"`` and ``"incomplete_details": {"reason": "max_output_tokens"}`` (the item that was
  cut has ``"status": "incomplete"``);
* not streamed, the same response object as one JSON body.

Shapes from the OpenAI SDK's types (openai 3.57.0: ``openai/types/responses/response.py`` ``Response``,
``IncompleteDetails.reason``, ``response_incomplete_event.py``, ``response_function_call_arguments_delta_event.py``)
and OpenAI's reference "Responses streaming events". What is modelled: the Responses API streams parallel
function calls one item after the other here (no interleaving); a reasoning item is streamed as its
``response.output_item.added`` and ``.done`` events only (no summary, no encrypted content), counted as 4
``reasoning_tokens``; which models reason (:func:`plays_reasoning`). What a later request must send back with
those items, and OpenAI's 400s when it does not, are :mod:`helpers.model.responses_rules`'.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .loopback_replies import _text
from .responses_rules import input_items

__all__ = ["REASONING_MODELS", "RESPONSES_PIECE", "chat_view", "output_items", "plays_reasoning", "response_object",
           "response_stream_events"]

#: Characters per streamed text or arguments piece (the chat.completions stream uses 12 too).
RESPONSES_PIECE = 12

#: Model name prefixes answered as a reasoning model (OpenAI's reasoning families; ``-chat`` models excluded).
REASONING_MODELS = ("gpt-5", "o1", "o3", "o4")

#: ``usage.output_tokens_details.reasoning_tokens`` of a reply with a reasoning item (modelled).
REASONING_TOKENS = 4


def plays_reasoning(body: Mapping[str, Any]) -> bool:
    """True when ``body`` asks a reasoning model: its ``model`` starts with one of :data:`REASONING_MODELS`, is not
    a ``-chat`` model, and ``reasoning.effort`` is not ``"none"`` (the same test langchain-openai 1.7.4 applies
    before it drops ``temperature`` for gpt-5 models: ``langchain_openai/chat_models/base.py``
    ``_construct_responses_api_payload``)."""
    model = str(body.get("model") or "").lower()
    reasoning = body.get("reasoning") if isinstance(body.get("reasoning"), Mapping) else {}
    return model.startswith(REASONING_MODELS) and "chat" not in model and reasoning.get("effort") != "none"


def chat_view(body: Mapping[str, Any]) -> dict[str, Any]:
    """A chat.completions body that asks what the Responses ``body`` asks (for the shared reply planner).

    ``input`` items become messages (``message`` -> its role and text, ``function_call`` -> an assistant turn
    with the call, ``function_call_output`` -> a ``tool`` message), flat ``function`` tools become
    ``{"type": "function", "function": {...}}``, ``tool_choice`` ``{"type": "function", "name": n}`` names
    the function the same way, and ``max_output_tokens`` becomes ``max_tokens``.
    """
    messages: list[dict[str, Any]] = []
    for item in input_items(body):
        kind = item.get("type", "message")
        if kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": item.get("call_id"), "content": _text(item.get("output"))})
        elif kind == "function_call":
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": item.get("call_id"), "type": "function",
                 "function": {"name": item.get("name"), "arguments": item.get("arguments") or ""}}]})
        elif kind == "message":
            messages.append({"role": item.get("role"), "content": _text(item.get("content"))})
    tools = [{"type": "function", "function": {"name": tool.get("name"), "description": tool.get("description") or "",
                                               "parameters": tool.get("parameters") or {}}}
             for tool in body.get("tools") or [] if isinstance(tool, Mapping) and tool.get("type") == "function"]
    tool_choice = body.get("tool_choice")
    if isinstance(tool_choice, Mapping) and tool_choice.get("type") == "function":
        tool_choice = {"type": "function", "function": {"name": tool_choice.get("name")}}
    view: dict[str, Any] = {"model": body.get("model"), "messages": messages or [{"role": "user", "content": ""}],
                            "tools": tools, "tool_choice": tool_choice,
                            "parallel_tool_calls": body.get("parallel_tool_calls")}
    if body.get("max_output_tokens") is not None:
        view["max_tokens"] = body["max_output_tokens"]
    return view


def output_items(body: Mapping[str, Any], message: Mapping[str, Any], finish: str, number: int) -> list[dict[str, Any]]:
    """The ``output`` items of planned reply number ``number`` (ids in the module docstring).

    Args:
        body: the Responses request body (its ``model`` decides whether a reasoning item comes first).
        message: the planned chat.completions message (``content``, ``tool_calls``).
        finish: its chat.completions ``finish_reason``; ``"length"`` makes the last item ``incomplete``.
        number: the answer's number on this server (1, 2, ...).

    Returns:
        ``[reasoning?, message?, function_call...]``: the reasoning item only for a reasoning model's reply that
        calls tools.
    """
    items: list[dict[str, Any]] = []
    calls = message.get("tool_calls") or []
    if calls and plays_reasoning(body):
        items.append({"type": "reasoning", "id": f"rs_lb_{number:04d}", "summary": []})
    if message.get("content"):
        items.append({"type": "message", "id": f"msg_lb_{number:04d}", "role": "assistant", "status": "completed",
                      "content": [{"type": "output_text", "text": message["content"], "annotations": []}]})
    for index, call in enumerate(calls, start=1):
        suffix = "" if index == 1 else f"_{index}"
        items.append({"type": "function_call", "id": f"fc_lb_{number:04d}{suffix}", "call_id": call["id"],
                      "name": call["function"]["name"], "arguments": call["function"]["arguments"],
                      "status": "completed"})
    if finish == "length" and items:
        items[-1]["status"] = "incomplete"
    return items


def response_object(body: Mapping[str, Any], message: Mapping[str, Any], finish: str, number: int,
                    *, done: bool = True) -> dict[str, Any]:
    """The Responses API ``response`` object for a planned reply (``done=False``: as created, no output yet).

    Args:
        body: the Responses request body (its ``model``, ``tools``, ``tool_choice``, ``parallel_tool_calls``
            and ``max_output_tokens`` are echoed).
        message: the planned chat.completions message (``content``, ``tool_calls``).
        finish: its chat.completions ``finish_reason``; ``"length"`` makes the response ``incomplete``.
        number: the answer's number on this server; the response id is ``resp_lb_NNNN``.

    Returns:
        ``{"id", "object": "response", "status", "incomplete_details", "output", "usage", ...}``.
    """
    cut = finish == "length"
    status = ("incomplete" if cut else "completed") if done else "in_progress"
    output = output_items(body, message, finish, number) if done else []
    usage = None
    if done:
        reasoning = REASONING_TOKENS if any(item["type"] == "reasoning" for item in output) else 0
        prompt = max(1, len(json.dumps(body.get("input", ""))) // 4)
        completion = max(1, len(json.dumps(output)) // 4) + reasoning
        usage = {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": completion,
                 "output_tokens_details": {"reasoning_tokens": reasoning}, "total_tokens": prompt + completion}
    return {
        "id": f"resp_lb_{number:04d}", "object": "response", "created_at": 0, "status": status, "model": body.get("model"),
        "error": None, "incomplete_details": {"reason": "max_output_tokens"} if cut and done else None,
        "instructions": None, "max_output_tokens": body.get("max_output_tokens"), "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls") is not False,
        "tool_choice": body.get("tool_choice") or "auto",
        "tools": [{**tool, "strict": tool.get("strict")} for tool in body.get("tools") or []
                  if isinstance(tool, Mapping)],
        "temperature": None, "top_p": None, "usage": usage,
    }


def _pieces(text: str) -> list[str]:
    return [text[start:start + RESPONSES_PIECE] for start in range(0, len(text), RESPONSES_PIECE)]


def response_stream_events(body: Mapping[str, Any], message: Mapping[str, Any], finish: str,
                           number: int) -> Iterator[dict[str, Any]]:
    """The Responses API stream of a planned reply: event dicts, each with ``type`` and ``sequence_number``.

    Written as SSE by the server (``event: <type>`` then ``data: <json>``). The last event is
    ``response.completed``, or ``response.incomplete`` when ``finish`` is ``"length"``.
    """
    sequence = 0

    def event(kind: str, **fields: Any) -> dict[str, Any]:
        nonlocal sequence
        sequence += 1
        return {"type": kind, "sequence_number": sequence - 1, **fields}

    created = response_object(body, message, finish, number, done=False)
    yield event("response.created", response=created)
    yield event("response.in_progress", response=created)
    for index, item in enumerate(output_items(body, message, finish, number)):
        if item["type"] == "reasoning":
            yield event("response.output_item.added", output_index=index, item=item)
        elif item["type"] == "message":
            text = item["content"][0]["text"]
            yield event("response.output_item.added", output_index=index,
                        item={**item, "status": "in_progress", "content": []})
            part = {"type": "output_text", "text": "", "annotations": []}
            yield event("response.content_part.added", item_id=item["id"], output_index=index, content_index=0,
                        part=part)
            for piece in _pieces(text):
                yield event("response.output_text.delta", item_id=item["id"], output_index=index, content_index=0,
                            delta=piece, logprobs=[])
            yield event("response.output_text.done", item_id=item["id"], output_index=index, content_index=0,
                        text=text, logprobs=[])
            yield event("response.content_part.done", item_id=item["id"], output_index=index, content_index=0,
                        part={**part, "text": text})
        else:
            yield event("response.output_item.added", output_index=index,
                        item={**item, "arguments": "", "status": "in_progress"})
            for piece in _pieces(item["arguments"]):
                yield event("response.function_call_arguments.delta", item_id=item["id"], output_index=index,
                            delta=piece)
            yield event("response.function_call_arguments.done", item_id=item["id"], output_index=index,
                        arguments=item["arguments"], name=item["name"])
        yield event("response.output_item.done", output_index=index, item=item)
    final = response_object(body, message, finish, number)
    yield event("response.incomplete" if finish == "length" else "response.completed", response=final)
