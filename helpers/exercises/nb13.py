"""Exercises of notebook 13 (streaming tool calls).

``RUNNABLE_CALLS`` checks the guard a streaming application needs before it runs tool calls::

    runnable_calls(message: AIMessage) -> list[ToolCall]

Each hidden case streams a fresh scripted reply (:func:`helpers.model.script.streamed`), adds
the chunks up with ``+`` as an application does, and calls the answer on the merged message: a
complete reply (its calls may run), one cut off at the token limit (``finish_reason="length"``,
whose arguments ``parse_partial_json`` completed into a valid call), one the provider filtered
(``"content_filter"``), a stream that stopped before its last chunk (no ``finish_reason``), a
complete reply that also holds an invalid call, and a text reply that ended with ``"stop"``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.tools import tool

from ..i18n import _
from ..model.live import scripted_model
from ..model.script import FinishReason, invalid_tool_call, reply, streamed, tool_call
from .core import Case, Exercise
from .results import shown

__all__ = ["RUNNABLE_CALLS"]

CUT = '{"order_id": "A1024", "amount": 49'


@tool("refund")
def _refund(order_id: str, amount: float) -> str:
    """Send a refund of `amount` on an order."""
    return f"refunded {amount} on {order_id}"


@tool("lookup_order")
def _lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}"


def _merged(step: Any, *, drop_last: bool = False) -> AIMessageChunk:
    """A fresh scripted stream of ``step``, added up with ``+`` (without its last chunk if ``drop_last``)."""
    chunks = list(scripted_model([step]).bind_tools([_refund, _lookup_order]).stream("Refund 49.50 on A1024."))
    if drop_last:
        chunks = chunks[:-1]
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def _two_calls(finish_reason: FinishReason | None = None) -> Any:
    return streamed([tool_call("lookup_order", {"order_id": "A1024"}), tool_call("refund", {"order_id": "A1024",
                                                                                            "amount": 49.5})],
                    [(0, '{"order_id": '), (1, '{"order_id": "A1024", '), (0, '"A1024"}'), (1, '"amount": 49.5}')],
                    finish_reason=finish_reason)


def _runnable(answer: Any, message: AIMessage) -> Any:
    before = message.model_dump()
    got = answer(message)
    assert isinstance(got, list), _("return a list of tool calls (dicts from message.tool_calls), got {got}").format(
        got=shown(got))
    assert message.model_dump() == before, _("leave the message as it is: return a new list, change nothing in it")
    assert all(isinstance(call, dict) for call in got), (
        _("return the tool calls themselves (the dicts of message.tool_calls), got {got}").format(got=shown(got)))
    # compared as a plain list of plain dicts: a list or dict subclass cannot decide the comparison itself
    return [dict(dict.items(call)) for call in got]


def _names(calls: list) -> list:
    return [c.get("name") if isinstance(c, dict) else c for c in calls]


def _complete_reply_runs(answer: Any) -> None:
    message = _merged(_two_calls())
    got = _runnable(answer, message)
    assert got == message.tool_calls, (
        _("a complete reply (finish_reason={finish_reason!r}) may run all its calls: expected {names} (the "
          "dicts of message.tool_calls, in order), got {got}").format(
              finish_reason=message.response_metadata['finish_reason'], names=_names(message.tool_calls), got=shown(got)))


def _cut_reply_runs_nothing(answer: Any) -> None:
    message = _merged(streamed(reply("", invalid_tool_call("refund", CUT)), finish_reason="length"))
    got = _runnable(answer, message)
    assert got == [], (
        _("the reply stopped at the token limit (finish_reason='length'); the merged message still holds "
          "{args} because parse_partial_json completed the cut JSON. Run nothing: got {got}").format(
              args=message.tool_calls[0]['args'], got=shown(got)))


def _runs_nothing(answer: Any, message: AIMessageChunk, why: str) -> None:
    """``answer(message)`` must be ``[]``; ``why`` says why the reply did not end normally."""
    got = _runnable(answer, message)
    assert got == [], _("{why}. Run nothing; got {names}").format(why=why, names=shown(_names(got)))


def _filtered_reply_runs_nothing(answer: Any) -> None:
    _runs_nothing(answer, _merged(_two_calls("content_filter")),
                  _("the provider stopped the reply (finish_reason='content_filter'): it did not end normally, even "
                  "though its calls look complete. Allow only 'tool_calls' and 'stop' rather than refusing only "
                  "'length'"))


def _dropped_stream_runs_nothing(answer: Any) -> None:
    _runs_nothing(answer, _merged(_two_calls(), drop_last=True),
                  _("this stream stopped before its last chunk (a dropped connection), so response_metadata has no "
                  "finish_reason at all: nothing says the reply finished (message.response_metadata.get("
                  "'finish_reason') gives None here)"))


def _invalid_calls_never_run(answer: Any) -> None:
    step = streamed(reply("", tool_call("lookup_order", {"order_id": "A1024"}),
                          invalid_tool_call("refund", '{"order_id": A1024}')), finish_reason="tool_calls")
    message = _merged(step)
    got = _runnable(answer, message)
    assert got == message.tool_calls and len(got) == 1, (
        _("a complete reply with one valid call and one invalid call (arguments that are not JSON): only the "
          "valid call may run, expected {expected}, got {names}. invalid_tool_calls are never run").format(
              expected=_names(message.tool_calls), names=shown(_names(got))))


def _text_reply_stop(answer: Any) -> None:
    message = _merged(streamed("A1024 was delivered.", finish_reason="stop"))
    got = _runnable(answer, message)
    assert got == [], _("a text reply that ended with 'stop' has no tool calls to run: expected [], got {got}").format(
        got=shown(got))


RUNNABLE_CALLS = Exercise(
    "13.1",
    "the tool calls a streamed reply may run",
    [
        Case("a complete reply: both calls", _complete_reply_runs),
        Case("cut off at the token limit", _cut_reply_runs_nothing),
        Case("filtered by the provider", _filtered_reply_runs_nothing),
        Case("a stream without its last chunk", _dropped_stream_runs_nothing),
        Case("an invalid call never runs", _invalid_calls_never_run),
        Case("a text reply", _text_reply_stop),
    ],
    probe=lambda answer: answer(_merged(_two_calls())),
)
