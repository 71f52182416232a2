"""Exercises of notebook 13 (streaming tool calls).

``RUNNABLE_CALLS`` checks the guard a streaming application needs before it runs tool calls::

    runnable_calls(message: AIMessage) -> list[ToolCall]

Each hidden case builds a fresh stream of one of the three integrations the course teaches
(``ChatOpenAI`` chat.completions, ``ChatOpenAI`` with the Responses API, ``ChatAnthropic``), as that
integration yields it (:mod:`helpers.exercises.nb13_streams`; compared with the real integrations in
``tests/test_provider_streams.py``), adds the chunks up with ``+`` as an application does, and calls the
answer on the merged message. The named cases: a complete reply of each integration (its calls may
run), a reply cut off at the token limit in each (``finish_reason="length"``, ``status="incomplete"``,
``stop_reason="max_tokens"``: ``parse_partial_json`` made a valid call of the cut arguments), one the
provider filtered, one Anthropic cut at the context window, a stream that stopped before its stop
signal arrived, a complete reply that also holds an invalid call, and a text reply. The generated inputs
(:data:`helpers.exercises.nb13_streams.GENERATED`) cover every stop value each API documents.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessageChunk

from ..i18n import _
from .core import Case, Exercise
from .nb13_streams import CallSpec, StreamSpec, merged, runnable_result
from .results import shown

__all__ = ["RUNNABLE_CALLS"]

_LOOKUP = CallSpec("lookup_order", "call_Zq7", (("order_id", "A1024"),))
_REFUND = CallSpec("refund", "call_A0b", (("order_id", "A1024"), ("amount", 49.5)))
#: ``'{"order_id": "A1024", "amount": 49'``: the refund's arguments cut after 34 characters.
_CUT = 34


def _anthropic(call: CallSpec) -> CallSpec:
    return CallSpec(call.name, call.id.replace("call_", "toolu_"), call.arguments, call.raw)


def _names(calls: list) -> list:
    return [c.get("name") if isinstance(c, dict) else c for c in calls]


def _all_calls_run(answer: Any, spec: StreamSpec, why: str) -> None:
    message = merged(spec)
    got = runnable_result(answer, message)
    assert got == message.tool_calls, _(
        "{why}: all its calls may run, expected {names} (the dicts of message.tool_calls, in order), got {got}"
    ).format(why=why, names=_names(message.tool_calls), got=shown(got))


def _runs_nothing(answer: Any, message: AIMessageChunk, why: str) -> None:
    """``answer(message)`` must be ``[]``; ``why`` says why the reply did not end normally."""
    got = runnable_result(answer, message)
    assert got == [], _("{why}. Run nothing; got {names}").format(why=why, names=shown(_names(got)))


def _complete_reply_runs(answer: Any) -> None:
    _all_calls_run(answer, StreamSpec("chat_completions", "tool_calls", calls=(_LOOKUP, _REFUND)),
                   _("a complete chat.completions reply (finish_reason='tool_calls')"))


def _cut_reply_runs_nothing(answer: Any) -> None:
    message = merged(StreamSpec("chat_completions", "length", calls=(_REFUND,), cut=_CUT))
    got = runnable_result(answer, message)
    assert got == [], (
        _("the reply stopped at the token limit (finish_reason='length'); the merged message still holds "
          "{args} because parse_partial_json completed the cut JSON. Run nothing: got {got}").format(
              args=message.tool_calls[0]['args'], got=shown(got)))


def _filtered_reply_runs_nothing(answer: Any) -> None:
    _runs_nothing(answer, merged(StreamSpec("chat_completions", "content_filter", calls=(_LOOKUP, _REFUND))),
                  _("the provider stopped the reply (finish_reason='content_filter'): it did not end normally, even "
                    "though its calls look complete. Allow only 'tool_calls' and 'stop' rather than refusing only "
                    "'length'"))


def _dropped_stream_runs_nothing(answer: Any) -> None:
    _runs_nothing(answer, merged(StreamSpec("chat_completions", "tool_calls", calls=(_LOOKUP, _REFUND), dropped=2)),
                  _("this stream stopped before the chunk that carries finish_reason (a dropped connection), so "
                    "response_metadata has no finish_reason at all: nothing says the reply finished "
                    "(message.response_metadata.get('finish_reason') gives None here)"))


def _invalid_calls_never_run(answer: Any) -> None:
    invalid = CallSpec("refund", "call_x9K", None, '{"order_id": A1024}')
    message = merged(StreamSpec("chat_completions", "tool_calls", calls=(_LOOKUP, invalid)))
    got = runnable_result(answer, message)
    assert got == message.tool_calls and len(got) == 1, (
        _("a complete reply with one valid call and one invalid call (arguments that are not JSON): only the "
          "valid call may run, expected {expected}, got {names}. invalid_tool_calls are never run").format(
              expected=_names(message.tool_calls), names=shown(_names(got))))


def _text_reply_stop(answer: Any) -> None:
    message = merged(StreamSpec("chat_completions", "stop", text="A1024 was delivered."))
    got = runnable_result(answer, message)
    assert got == [], _("a text reply that ended with 'stop' has no tool calls to run: expected [], got {got}").format(
        got=shown(got))


def _responses_complete_runs(answer: Any) -> None:
    _all_calls_run(answer, StreamSpec("responses", "completed", calls=(_LOOKUP, _REFUND)),
                   _("a complete Responses API reply (status='completed'; it has no finish_reason)"))


def _responses_cut_runs_nothing(answer: Any) -> None:
    spec = StreamSpec("responses", "incomplete", "max_output_tokens", calls=(_REFUND,), cut=_CUT)
    _runs_nothing(answer, merged(spec),
                  _("the Responses API stopped at the token limit: status='incomplete', incomplete_details "
                    "{{'reason': 'max_output_tokens'}}, and no finish_reason at all. Allow only status 'completed'"))


def _anthropic_complete_runs(answer: Any) -> None:
    _all_calls_run(answer, StreamSpec("anthropic", "tool_use", calls=(_anthropic(_LOOKUP), _anthropic(_REFUND))),
                   _("a complete ChatAnthropic reply (stop_reason='tool_use'; it has no finish_reason)"))


def _anthropic_cut_runs_nothing(answer: Any) -> None:
    _runs_nothing(answer, merged(StreamSpec("anthropic", "max_tokens", calls=(_anthropic(_REFUND),), cut=_CUT)),
                  _("ChatAnthropic stopped at the token limit: stop_reason='max_tokens' (no finish_reason), and "
                    "parse_partial_json made a valid refund of the cut arguments. Allow only stop_reason "
                    "'tool_use' and 'end_turn'"))


def _anthropic_context_window_runs_nothing(answer: Any) -> None:
    spec = StreamSpec("anthropic", "model_context_window_exceeded", calls=(_anthropic(_REFUND),), cut=_CUT)
    _runs_nothing(answer, merged(spec),
                  _("ChatAnthropic stopped because the reply filled the context window "
                    "(stop_reason='model_context_window_exceeded'): a cut reply too. A list of the bad reasons "
                    "misses the ones you did not think of; allow the good ones instead"))


RUNNABLE_CALLS = Exercise(
    "13.1",
    "the tool calls a streamed reply may run",
    [
        Case("a complete reply: both calls", _complete_reply_runs),
        Case("cut off at the token limit", _cut_reply_runs_nothing),
        Case("filtered by the provider", _filtered_reply_runs_nothing),
        Case("a stream without its finish_reason", _dropped_stream_runs_nothing),
        Case("an invalid call never runs", _invalid_calls_never_run),
        Case("a text reply", _text_reply_stop),
        Case("Responses API: a complete reply", _responses_complete_runs),
        Case("Responses API: cut at max_output_tokens", _responses_cut_runs_nothing),
        Case("ChatAnthropic: a complete reply", _anthropic_complete_runs),
        Case("ChatAnthropic: cut at max_tokens", _anthropic_cut_runs_nothing),
        Case("ChatAnthropic: cut by the context window", _anthropic_context_window_runs_nothing),
    ],
    probe=lambda answer: answer(merged(StreamSpec("chat_completions", "tool_calls", calls=(_LOOKUP, _REFUND)))),
)
