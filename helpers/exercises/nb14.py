"""Exercises of notebook 14 (wire formats and bind_tools).

``UNANSWERED_CALLS`` (14.1): write ``unanswered_calls(body) -> list[str]``, the ids of the tool calls
in a request body that no tool result in the same body answers, in the order the calls appear, for
the three wire formats of the notebook's section 1. No payload builder checks the pairing
(langchain-openai 1.7.4, langchain-anthropic 1.7.10): only the provider refuses a body with an
unanswered call, so an application that wants to know before it sends has to read the body.

The hidden checks build fresh bodies in the shapes the integrations produce
(``ChatOpenAI._get_request_payload`` with and without ``use_responses_api=True``,
``ChatAnthropic._get_request_payload``): only the fields the exercise reads, plus the ones around
them that a careless answer trips over (a system message, text content, an assistant text turn).
The generated check compares the answer with :func:`unanswered_calls` (the reference) on bodies
of the three formats with one to three rounds of calls, ids whose alphabetical order is not their
call order, answers lost and answers out of order, and text next to calls and results.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["UNANSWERED_CALLS", "anthropic_body", "chat_completions_body", "generated_body", "responses_body",
           "unanswered_calls"]

#: One call: ``(call id, order id)``.
Call = tuple[str, str]


def chat_completions_body(calls: list[Call], answered: list[str]) -> dict[str, Any]:
    """A chat.completions body: system, user, one assistant turn with ``calls``, then one
    ``role: "tool"`` message per id in ``answered`` (in that order), then a user follow-up."""
    return {"model": "gpt-4o-mini", "stream": False, "messages": [
        {"content": "You are the refund desk's assistant.", "role": "system"},
        {"content": "Where are my orders?", "role": "user"},
        {"content": None, "role": "assistant", "tool_calls": [
            {"type": "function", "id": call_id,
             "function": {"name": "lookup_order", "arguments": json.dumps({"order_id": order})}}
            for call_id, order in calls]},
        *({"content": f"result of {call_id}", "role": "tool", "tool_call_id": call_id} for call_id in answered),
        {"content": "And?", "role": "user"},
    ]}


def responses_body(calls: list[Call], answered: list[str]) -> dict[str, Any]:
    """A Responses API body: ``input`` items, one ``function_call`` per call, one
    ``function_call_output`` per id in ``answered``, then an assistant text item."""
    return {"model": "gpt-4o-mini", "stream": False, "input": [
        {"content": "You are the refund desk's assistant.", "role": "system", "type": "message"},
        {"content": "Where are my orders?", "role": "user", "type": "message"},
        *({"type": "function_call", "name": "lookup_order", "arguments": json.dumps({"order_id": order}),
           "call_id": call_id} for call_id, order in calls),
        *({"type": "function_call_output", "output": f"result of {call_id}", "call_id": call_id}
          for call_id in answered),
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]},
    ]}


def anthropic_body(calls: list[Call], answered: list[str], *, with_text: bool = False) -> dict[str, Any]:
    """An Anthropic body: top-level ``system``; an assistant turn of ``tool_use`` blocks; one user
    message holding a ``tool_result`` per id in ``answered`` (and a text block after them when
    ``with_text``, as ``_merge_messages`` merges a human message next to the results)."""
    results: list[dict[str, Any]] = [
        {"type": "tool_result", "content": f"result of {call_id}", "tool_use_id": call_id, "is_error": False}
        for call_id in answered]
    if with_text:
        results.append({"type": "text", "text": "And?"})
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Where are my orders?"},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Let me look."},
            *({"type": "tool_use", "name": "lookup_order", "input": {"order_id": order}, "id": call_id}
              for call_id, order in calls)]},
    ]
    if results:
        messages.append({"role": "user", "content": results})
    return {"model": "claude-sonnet-4-5", "max_tokens": 64000, "messages": messages,
            "system": "You are the refund desk's assistant."}


_CALLS: list[Call] = [("call_A", "A1024"), ("call_B", "A1099"), ("call_C", "A1030")]


def _expect(answer: Any, body: dict[str, Any], want: list[str], hint: str) -> None:
    got = answer(body)
    assert isinstance(got, list), _("return a list of call ids, got {type}: {got}").format(
        type=type(got).__name__, got=shown(got))
    assert all(isinstance(call_id, str) for call_id in got), _("return call ids (strings), got {got}").format(
        got=shown(got))
    # compared as a plain list of plain strings: a list or str subclass cannot decide the comparison itself
    assert [str.__str__(call_id) for call_id in got] == want, _("expected {want}, got {got}. {hint}").format(
        want=want, got=shown(got), hint=hint)


def _chat_all_answered(answer: Any) -> None:
    _expect(answer, chat_completions_body(_CALLS, ["call_A", "call_B", "call_C"]), [],
            _("Every call of the assistant's tool_calls has a role 'tool' message with its tool_call_id."))


def _chat_one_missing(answer: Any) -> None:
    _expect(answer, chat_completions_body(_CALLS, ["call_A", "call_C"]), ["call_B"],
            _("chat.completions: the calls are in an assistant message's tool_calls (each has an 'id'); "
            "the answers are messages with role 'tool' and a 'tool_call_id'."))


def _chat_out_of_order(answer: Any) -> None:
    _expect(answer, chat_completions_body(_CALLS, ["call_C", "call_A"]), ["call_B"],
            _("The answers came back in another order than the calls: pair them by id, not by position."))


def _chat_two_rounds(answer: Any) -> None:
    first = chat_completions_body(_CALLS[:2], ["call_A"])
    second = chat_completions_body(_CALLS[2:], [])
    body = {**first, "messages": [*first["messages"], *second["messages"][2:]]}
    _expect(answer, body, ["call_B", "call_C"],
            _("This history has two assistant turns with tool_calls (call_A and call_B, later call_C): read "
            "every turn, not only the first or the last one."))


def _responses_missing(answer: Any) -> None:
    _expect(answer, responses_body(_CALLS, ["call_B"]), ["call_A", "call_C"],
            _("Responses API: the body has 'input', not 'messages'; calls are items of type 'function_call', "
            "answers 'function_call_output', both with a 'call_id'. List the ids in call order."))


def _anthropic_missing(answer: Any) -> None:
    _expect(answer, anthropic_body(_CALLS, ["call_C", "call_A"], with_text=True), ["call_B"],
            _("Anthropic: a message's content is a string or a list of blocks; calls are 'tool_use' blocks "
            "('id'), answers 'tool_result' blocks ('tool_use_id'), and a user message may mix results with "
            "text."))


def _anthropic_none_answered(answer: Any) -> None:
    _expect(answer, anthropic_body(_CALLS[:2], []), ["call_A", "call_B"],
            _("Anthropic: with no user message after the assistant's tool_use blocks, no call is answered."))


# -- the reference and the generated bodies ------------------------------------------------------------


def unanswered_calls(body: dict[str, Any]) -> list[str]:
    """The reference: the ids of the calls in ``body`` that no tool result in it answers, in call order.

    Reads the three formats: chat.completions (an assistant message's ``tool_calls`` ``id``; a
    ``role: "tool"`` message's ``tool_call_id``), Responses (``function_call`` / ``function_call_output``
    items' ``call_id``) and Anthropic (``tool_use`` blocks' ``id``; ``tool_result`` blocks'
    ``tool_use_id``, in a content that may also be a plain string)."""
    calls: list[str] = []
    answered: set[str] = set()
    for item in body.get("input") or body.get("messages") or []:
        if item.get("type") == "function_call":
            calls.append(item["call_id"])
        if item.get("type") == "function_call_output":
            answered.add(item["call_id"])
        for call in item.get("tool_calls") or []:
            calls.append(call["id"])
        if item.get("role") == "tool":
            answered.add(item["tool_call_id"])
        blocks = item.get("content") if isinstance(item.get("content"), list) else []
        for block in blocks:
            if block.get("type") == "tool_use":
                calls.append(block["id"])
            if block.get("type") == "tool_result":
                answered.add(block["tool_use_id"])
    return [call_id for call_id in calls if call_id not in answered]


#: The three formats, by the name the learner reads in the notebook.
FORMATS = ("chat.completions", "Responses", "Anthropic")
#: Id suffixes in an order that is not alphabetical (each format adds its own prefix).
_SUFFIXES = ("k2", "b7", "q1", "a9", "m4", "z3", "c8")
_PREFIX = {"chat.completions": "call_", "Responses": "fc_", "Anthropic": "toolu_"}


@st.composite
def _rounds(draw: Any) -> tuple[tuple[tuple[str, ...], tuple[str, ...], bool], ...]:
    """One to three rounds ``(calls, answered, with_text)``: distinct ids, each round's answers a
    subset of its calls in any order, and whether text sits next to the calls and results."""
    order = draw(st.permutations(_SUFFIXES))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    rounds, start = [], 0
    for size in sizes:
        calls = tuple(order[start:start + size])
        start += size
        kept = draw(st.lists(st.sampled_from(calls), unique=True, max_size=size))
        rounds.append((calls, tuple(kept), draw(st.booleans())))
    return tuple(rounds)


#: A generated body's spec: ``(format, rounds, a closing text turn)``.
BODIES = st.tuples(st.sampled_from(FORMATS), _rounds(), st.booleans())


def generated_body(spec: tuple) -> dict[str, Any]:
    """A fresh request body in the spec's format (:data:`BODIES`), as the integrations build it."""
    fmt, rounds, closing = spec
    prefix = _PREFIX[fmt]
    if fmt == "Responses":
        items: list[dict[str, Any]] = [{"content": "Where are my orders?", "role": "user", "type": "message"}]
        for calls, answered, text in rounds:
            if text:
                items.append({"type": "message", "role": "assistant",
                              "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]})
            items += [{"type": "function_call", "name": "lookup_order", "arguments": json.dumps({"order_id": c}),
                       "call_id": prefix + c} for c in calls]
            items += [{"type": "function_call_output", "output": f"result of {prefix + c}", "call_id": prefix + c}
                      for c in answered]
        if closing:
            items.append({"type": "message", "role": "assistant",
                          "content": [{"type": "output_text", "text": "Done.", "annotations": []}]})
        return {"model": "gpt-4o-mini", "stream": False, "input": items}
    if fmt == "chat.completions":
        messages: list[dict[str, Any]] = [{"content": "You are the refund desk's assistant.", "role": "system"},
                                          {"content": "Where are my orders?", "role": "user"}]
        for calls, answered, text in rounds:
            messages.append({"content": "Let me look." if text else None, "role": "assistant", "tool_calls": [
                {"type": "function", "id": prefix + c,
                 "function": {"name": "lookup_order", "arguments": json.dumps({"order_id": c})}} for c in calls]})
            messages += [{"content": f"result of {prefix + c}", "role": "tool", "tool_call_id": prefix + c}
                         for c in answered]
        if closing:
            messages.append({"content": "And?", "role": "user"})
        return {"model": "gpt-4o-mini", "stream": False, "messages": messages}
    messages = [{"role": "user", "content": "Where are my orders?"}]
    for calls, answered, text in rounds:
        messages.append({"role": "assistant", "content": [
            *([{"type": "text", "text": "Let me look."}] if text else []),
            *({"type": "tool_use", "name": "lookup_order", "input": {"order_id": c}, "id": prefix + c}
              for c in calls)]})
        results: list[dict[str, Any]] = [{"type": "tool_result", "content": f"result of {prefix + c}",
                                          "tool_use_id": prefix + c, "is_error": False} for c in answered]
        if results:
            messages.append({"role": "user", "content": [*results, *([{"type": "text", "text": "And?"}] if text
                                                                      else [])]})
    if closing:
        messages.append({"role": "assistant", "content": "Done."})
    return {"model": "claude-sonnet-4-5", "max_tokens": 64000, "messages": messages,
            "system": "You are the refund desk's assistant."}


def _describe_body(spec: tuple) -> str:
    fmt, rounds, closing = spec
    prefix = _PREFIX[fmt]

    def ids(values: tuple[str, ...]) -> str:
        return ", ".join(prefix + v for v in values) or _("none")

    turns = "; ".join(_("turn {n} calls {calls}, results for {answered}").format(
        n=n, calls=ids(calls), answered=ids(answered)) + (_(" (with text)") if text else "")
        for n, (calls, answered, text) in enumerate(rounds, 1))
    return _("a {format} body: {turns}").format(format=fmt, turns=turns)


def _unanswered_outcome(answer: Any, spec: tuple) -> Any:
    return answer(generated_body(spec))


UNANSWERED_CALLS = Exercise(
    "14.1",
    "unanswered tool calls in any of the three wire formats",
    [
        Case("chat.completions, every call answered", _chat_all_answered),
        Case("chat.completions, one answer lost", _chat_one_missing),
        Case("chat.completions, answers out of order", _chat_out_of_order),
        Case("chat.completions, two rounds of calls", _chat_two_rounds),
        Case("Responses API, two answers lost", _responses_missing),
        Case("Anthropic, results merged with text, out of order", _anthropic_missing),
        Case("Anthropic, no results at all", _anthropic_none_answered),
    ],
    probe=lambda answer: answer(chat_completions_body(_CALLS, ["call_A"])),
    generated=Generated(
        "agrees with the reference on generated bodies", BODIES, _unanswered_outcome, unanswered_calls,
        _describe_body, hint=N_("list the ids of the calls no result answers, in the order the calls appear in the "
                               "body (not sorted: ids are not in call order), across every turn")),
)
