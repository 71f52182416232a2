"""How the loopback OpenAI model answers: the reply it plans for a chat.completions body, and its stream.

:func:`plan_reply` picks a tool call (the tool ``tool_choice`` names, else the best word match, with arguments
that fit its schema; one call per order id for parallel calls), a structured answer for ``response_format``
(:func:`structured_content`) or a text answer, and cuts it at ``max_completion_tokens``; ``_stream_events``
turns a planned message into Server-Sent Events chunks. The server that uses them is
:class:`helpers.model.loopback_openai.LoopbackOpenAI` (its docstring describes the behaviour in full).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from .schema_values import arguments_for, value_for

__all__ = ["CHARS_PER_TOKEN", "Behaviour", "plan_reply", "structured_content", "without_response_format"]

_ORDER_ID = re.compile(r"\bA\d{4}\b")
_AMOUNT = re.compile(r"(?<![\w.])\d+\.\d+\b")

#: How the loopback model answers a user question while tools are bound.
Behaviour = Literal["calls_tools", "answers_in_text", "ignores_tool_options"]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content if isinstance(part, Mapping))
    return ""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")))


def _pick_tool(tools: Sequence[Mapping[str, Any]], tool_choice: Any, question: str) -> Mapping[str, Any] | None:
    functions = [t.get("function", {}) for t in tools if isinstance(t, Mapping)]
    if isinstance(tool_choice, Mapping):
        wanted = (tool_choice.get("function") or {}).get("name")
        return next((f for f in functions if f.get("name") == wanted), None)
    asked = _words(question)
    scored = [(len(asked & (_words(f.get("name", "")) | _words(f.get("description", "")))), -n, f)
              for n, f in enumerate(functions)]
    return max(scored, key=lambda item: (item[0], item[1]))[2] if scored else None


def _fitting_arguments(function: Mapping[str, Any], question: str) -> dict[str, Any]:
    """Arguments that fit the schema; an order id named in the question fills ``order_id``, and a decimal
    amount named in it (``49.50``) fills a number field ``amount``, when the result still validates."""
    parameters = function.get("parameters") or {}
    arguments = arguments_for(parameters)
    for field, pattern, kind in (("order_id", _ORDER_ID, str), ("amount", _AMOUNT, float)):
        mentioned = pattern.search(question)
        if not mentioned or field not in arguments or isinstance(arguments[field], bool):
            continue
        if kind is float and not isinstance(arguments[field], (int, float)):
            continue
        if kind is str and not isinstance(arguments[field], str):
            continue
        candidate = {**arguments, field: kind(mentioned.group(0))}
        try:
            import jsonschema

            jsonschema.validate(candidate, parameters)
            arguments = candidate
        except Exception:  # noqa: BLE001 - keep the schema-derived value
            pass
    return arguments


#: Characters per token when the loopback model honours ``max_completion_tokens`` (a rough English average).
CHARS_PER_TOKEN = 4


def _token_limit(body: Mapping[str, Any]) -> int | None:
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None


def _cut_to_limit(message: dict[str, Any], finish: str, limit: int | None) -> tuple[dict[str, Any], str]:
    """The reply cut off after ``limit`` tokens (text first, then each call's arguments), ``"length"`` if cut."""
    if limit is None:
        return message, finish
    left = limit * CHARS_PER_TOKEN
    text = message.get("content") or ""
    if len(text) > left:
        return {"role": "assistant", "content": text[:left]}, "length"
    left -= len(text)
    calls = []
    for call in message.get("tool_calls") or []:
        arguments = call["function"]["arguments"]
        if len(arguments) > left:
            calls.append({**call, "function": {**call["function"], "arguments": arguments[:left]}})
            return {**message, "tool_calls": calls}, "length"
        calls.append(call)
        left -= len(arguments)
    return message, finish


def _tool_calls_for(body: Mapping[str, Any], function: Mapping[str, Any], question: str, call_id: str,
                    behaviour: Behaviour) -> list[dict[str, Any]]:
    """The tool calls of one reply, honouring ``parallel_tool_calls`` (or not, for ``"ignores_tool_options"``).

    One call with :func:`_fitting_arguments`; but when parallel calls are allowed (the body says
    ``"parallel_tool_calls": true``, or the behaviour ignores the option), the function takes an
    ``order_id`` and the question names several order ids, one call per order id, with ids
    ``call_id``, ``call_id + "_2"``, ... (OpenAI's default is to allow parallel calls; this server
    makes them only when asked, so notebooks that do not ask see one call as before).
    """
    arguments = _fitting_arguments(function, question)
    order_ids = list(dict.fromkeys(_ORDER_ID.findall(question)))
    parallel = body.get("parallel_tool_calls") is True or behaviour == "ignores_tool_options"
    if parallel and len(order_ids) > 1 and arguments.get("order_id") in order_ids:
        argument_sets = [{**arguments, "order_id": order_id} for order_id in order_ids[:3]]
    else:
        argument_sets = [arguments]
    return [{"id": call_id if number == 1 else f"{call_id}_{number}", "type": "function",
             "function": {"name": function["name"], "arguments": json.dumps(each)}}
            for number, each in enumerate(argument_sets, start=1)]


def structured_content(body: Mapping[str, Any]) -> str | None:
    """The JSON text a model that honours ``response_format`` answers with, or ``None`` without one.

    Args:
        body: a chat.completions request body.

    Returns:
        for ``{"type": "json_schema", "json_schema": {"schema": ...}}`` a JSON object that
        validates against the schema (:func:`helpers.model.schema_values.value_for`, local ``$ref``
        s resolved), for ``{"type": "json_object"}`` ``'{"answer": "ok"}'``, else ``None`` (also for
        ``{"type": "text"}``). This is what ``create_agent(..., response_format=ProviderStrategy(...))``
        (langchain 1.5.2) parses as its structured response, also after a tool result.
    """
    response_format = body.get("response_format")
    if not isinstance(response_format, Mapping):
        return None
    if response_format.get("type") == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema") or {}
        return json.dumps(value_for(schema))
    if response_format.get("type") == "json_object":
        return json.dumps({"answer": "ok"})
    return None


def without_response_format(body: Mapping[str, Any]) -> dict[str, Any]:
    """``body`` without ``response_format``: what a provider that ignores the option answers to."""
    return {key: value for key, value in body.items() if key != "response_format"}


def plan_reply(body: Mapping[str, Any], call_id: str,
               behaviour: Behaviour = "calls_tools") -> tuple[dict[str, Any], str]:
    """What the loopback model answers: ``(assistant message dict, finish_reason)``.

    Args:
        body: an acceptable chat.completions request body.
        call_id: the id to give a tool call, if the reply makes one; parallel calls get
            ``<call_id>_2``, ``<call_id>_3``, ...
        behaviour: ``"answers_in_text"`` never calls a tool; ``"ignores_tool_options"`` ignores
            ``tool_choice`` and ``parallel_tool_calls`` (see :func:`_tool_calls_for`).

    Returns:
        the message and its ``finish_reason``: ``"length"`` when ``max_completion_tokens`` /
        ``max_tokens`` cut it (see :func:`_cut_to_limit`).
    """
    message, finish = _plan_whole_reply(body, call_id, behaviour)
    return _cut_to_limit(message, finish, _token_limit(body))


def _plan_whole_reply(body: Mapping[str, Any], call_id: str, behaviour: Behaviour) -> tuple[dict[str, Any], str]:
    messages = body["messages"]
    last = messages[-1]
    tools = body.get("tools") or []
    tool_choice = body.get("tool_choice")
    if last.get("role") == "tool":
        structured = structured_content(body)
        if structured is not None:
            return {"role": "assistant", "content": structured}, "stop"
        said = " ".join(_text(last.get("content")).split())
        said = said if len(said) <= 160 else said[:159] + "…"
        return {"role": "assistant", "content": f"Here is what I found: {said}"}, "stop"
    question = next((_text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), "")
    if behaviour == "ignores_tool_options":
        tool_choice = None
    if behaviour != "answers_in_text" and tools and tool_choice != "none" and (last.get("role") == "user" or tool_choice in ("required", "any")
                                            or isinstance(tool_choice, Mapping)):
        function = _pick_tool(tools, tool_choice, question)
        if function is not None:
            calls = _tool_calls_for(body, function, question, call_id, behaviour)
            return {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
    structured = structured_content(body)
    if structured is not None:
        return {"role": "assistant", "content": structured}, "stop"
    return {"role": "assistant", "content": "Hello from the loopback model."}, "stop"


def _usage(body: Mapping[str, Any], message: Mapping[str, Any]) -> dict[str, int]:
    """The ``usage`` of a reply, about 4 characters a token (an approximation, not a tokenizer).

    The prompt counts everything the model reads, as providers bill it: the messages, the tool schemas and
    the response format (tool definitions are input tokens); the completion counts the reply message.
    """
    read = {key: body[key] for key in ("messages", "tools", "response_format") if key in body}
    prompt = max(1, len(json.dumps(read)) // 4)
    completion = max(1, len(json.dumps(message)) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _stream_events(body: Mapping[str, Any], message: Mapping[str, Any], finish: str, response_id: str) -> Iterator[dict]:
    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {"id": response_id, "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    yield chunk({"role": "assistant", "content": ""})
    text = message.get("content") or ""
    for start in range(0, len(text), 12):
        yield chunk({"content": text[start:start + 12]})
    calls = message.get("tool_calls") or []
    pieces = [[arguments[start:start + 12] for start in range(0, len(arguments), 12)]
              for arguments in (call["function"]["arguments"] for call in calls)]
    for index, call in enumerate(calls):
        yield chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                     "function": {"name": call["function"]["name"], "arguments": ""}}]})
    # one piece of each call in turn (index 0, 1, 0, 1, ...): parallel calls arrive interleaved
    for round_ in range(max((len(p) for p in pieces), default=0)):
        for index, call_pieces in enumerate(pieces):
            if round_ < len(call_pieces):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": call_pieces[round_]}}]})
    yield chunk({}, finish)
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {"id": response_id, "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
               "choices": [], "usage": _usage(body, message)}
