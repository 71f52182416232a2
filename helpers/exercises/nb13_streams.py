"""Exercise 13.1's inputs: streamed replies of the three integrations, generated, merged, and the reference's verdict.

The hidden checks of ``RUNNABLE_CALLS`` (:mod:`helpers.exercises.nb13`) call the learner's ``runnable_calls(message)``
on a message merged from a stream. This module describes such a stream as a plain, immutable
:class:`StreamSpec` (which integration, its stop signal's value, the reply's text and calls, where a token
limit cut the last call's arguments, how many chunks at the end never arrived), builds the chunks that
integration yields for it (:func:`helpers.model.provider_streams.provider_stream`, compared with the real
``ChatOpenAI`` / ``ChatAnthropic`` in ``tests/test_provider_streams.py``) and merges them with ``+``, as an
application does. Every call builds fresh objects.

For the generated-input check (issue 27): :data:`STREAM_SPECS` is the Hypothesis strategy of the input space,
:func:`run_on` the outcome of an answer on one input, :func:`reference_runnable_calls` the reference, and
:func:`describe` an input in the learner's words; :data:`GENERATED` holds them under the names of
``helpers.exercises.generated.Generated``'s arguments.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AIMessageChunk

from ..i18n import N_, _, ngettext
from ..model.provider_streams import (ENDED_NORMALLY, INCOMPLETE_REASONS, PROVIDERS, STOP_SIGNALS, Provider,
                                      provider_stream)
from .results import shown

__all__ = ["ENDED_NORMALLY", "GENERATED", "STREAM_SPECS", "CallSpec", "StreamSpec", "chunks_of", "describe", "merged",
           "reference_runnable_calls", "run_on", "runnable_result"]

#: How the learner knows each integration.
INTEGRATION_NAMES: dict[Provider, str] = {"chat_completions": "ChatOpenAI (chat.completions)",
                                          "responses": "ChatOpenAI (Responses API)", "anthropic": "ChatAnthropic"}


@dataclass(frozen=True)
class CallSpec:
    """One tool call of a generated reply.

    Attributes:
        name: the tool's name.
        id: the call's id.
        arguments: the arguments as ``(name, value)`` pairs, in order; ``None`` for an invalid call.
        raw: an invalid call's argument text (not JSON); ``""`` for a valid call.
    """

    name: str
    id: str
    arguments: tuple[tuple[str, Any], ...] | None
    raw: str = ""

    def text(self) -> str:
        """The argument text the provider streams."""
        return self.raw if self.arguments is None else json.dumps(dict(self.arguments))


@dataclass(frozen=True)
class StreamSpec:
    """One streamed reply, as plain values.

    Attributes:
        provider: the integration (:data:`helpers.model.provider_streams.PROVIDERS`).
        stop: its stop signal's value (any value the provider's API documents).
        incomplete_reason: Responses API only: ``incomplete_details.reason``, or ``None``.
        text: the reply's text before its calls.
        calls: the tool calls, in order.
        cut: the last call's argument text keeps only this many characters (a token limit); ``None``: whole.
        dropped: how many chunks at the end of the stream never arrived (a dropped connection).
        piece: characters per streamed piece.
    """

    provider: Provider
    stop: str
    incomplete_reason: str | None = None
    text: str = ""
    calls: tuple[CallSpec, ...] = ()
    cut: int | None = None
    dropped: int = 0
    piece: int = 12


def chunks_of(spec: StreamSpec) -> list[AIMessageChunk]:
    """The chunks the integration yields for ``spec`` (without the ``dropped`` ones; at least one is left)."""
    calls = [(call.name, call.id, call.text()) for call in spec.calls]
    if spec.cut is not None and calls:
        name, call_id, raw = calls[-1]
        calls[-1] = (name, call_id, raw[:spec.cut])
    chunks = provider_stream(spec.provider, text=spec.text, calls=calls, stop=spec.stop,
                             incomplete_reason=spec.incomplete_reason, piece=spec.piece, message_id="run-1")
    return chunks[:max(1, len(chunks) - spec.dropped)]


def merged(spec: StreamSpec) -> AIMessageChunk:
    """``spec``'s chunks added up with ``+``: the message the application (and the answer) gets."""
    chunks = chunks_of(spec)
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def reference_runnable_calls(message: AIMessage) -> list:
    """The reference: every tool call when the reply's stop signal is on its integration's allow-list, else ``[]``.

    The signal is ``finish_reason`` (chat.completions), ``status`` (Responses API) or ``stop_reason``
    (Anthropic); a message with none (a stream cut before its signal) or with a value off the list runs nothing.
    """
    metadata = message.response_metadata
    signs = {key: metadata.get(key) for key in ENDED_NORMALLY if metadata.get(key) is not None}
    finished = bool(signs) and all(value in ENDED_NORMALLY[key] for key, value in signs.items())
    return list(message.tool_calls) if finished else []


def runnable_result(answer: Any, message: AIMessage) -> list[dict]:
    """``answer(message)`` as a plain list of plain dicts; ``AssertionError`` (the checker's) for a result of the
    wrong shape or a message the answer changed."""
    before = message.model_dump()
    got = answer(message)
    assert isinstance(got, list), _("return a list of tool calls (dicts from message.tool_calls), got {got}").format(
        got=shown(got))
    assert message.model_dump() == before, _("leave the message as it is: return a new list, change nothing in it")
    assert all(isinstance(call, dict) for call in got), (
        _("return the tool calls themselves (the dicts of message.tool_calls), got {got}").format(got=shown(got)))
    # compared as a plain list of plain dicts: a list or dict subclass cannot decide the comparison itself
    return [dict(dict.items(call)) for call in got]


def run_on(answer: Any, spec: StreamSpec) -> list[dict]:
    """The outcome of ``answer`` on ``spec``: what it says may run, built from a fresh merged message."""
    return runnable_result(answer, merged(spec))


# -- the learner's words ------------------------------------------------------------------------------------


def _signal_text(spec: StreamSpec) -> str:
    key = STOP_SIGNALS[spec.provider].key
    if spec.incomplete_reason is not None:
        return _("{key}={value!r}, incomplete_details reason {reason!r}").format(
            key=key, value=spec.stop, reason=spec.incomplete_reason)
    return f"{key}={spec.stop!r}"


def _call_text(call: CallSpec, cut: int | None) -> str:
    if call.arguments is None:
        text = _("{name} (id {id}) with arguments that are not JSON: {raw}").format(
            name=call.name, id=call.id, raw=call.raw)
    else:
        arguments = ", ".join(f"{name}={value!r}" for name, value in call.arguments)
        text = f"{call.name}({arguments}) (id {call.id})"
    if cut is not None:
        text += " " + _("cut after {count} characters of its arguments").format(count=cut)
    return text


def describe(spec: StreamSpec) -> str:
    """``spec`` in the learner's words: the integration, its stop signal, the text, the calls, what was cut or lost."""
    key = STOP_SIGNALS[spec.provider].key
    if spec.dropped and key not in merged(spec).response_metadata:
        parts = [ngettext("a streamed {integration} reply whose last chunk never arrived, so the merged message has "
                          "no {key}", "a streamed {integration} reply whose last {count} chunks never arrived, so the "
                          "merged message has no {key}", spec.dropped).format(
            integration=INTEGRATION_NAMES[spec.provider], count=spec.dropped, key=key)]
    else:
        parts = [_("a streamed {integration} reply, {signal}").format(
            integration=INTEGRATION_NAMES[spec.provider], signal=_signal_text(spec))]
        if spec.dropped:
            parts.append(ngettext("its last chunk never arrived (the signal had)",
                                  "its last {count} chunks never arrived (the signal had)",
                                  spec.dropped).format(count=spec.dropped))
    if spec.text:
        parts.append(_("text {text!r}").format(text=spec.text))
    if spec.calls:
        calls = [_call_text(call, spec.cut if number == len(spec.calls) else None)
                 for number, call in enumerate(spec.calls, start=1)]
        parts.append(_("calls: {calls}").format(calls="; ".join(calls)))
    else:
        parts.append(_("no tool calls"))
    return ", ".join(parts)


# -- the input space ------------------------------------------------------------------------------------------

_ORDERS = ("A1024", "B2048", "C0007")
_AMOUNTS = (12.0, 49.5, 149.5)
_ID_LETTERS = "ZqA7xb0K"


def _call(provider: Provider) -> st.SearchStrategy[CallSpec]:
    prefix = "toolu_" if provider == "anthropic" else "call_"
    ids = st.text(alphabet=_ID_LETTERS, min_size=2, max_size=3).map(lambda tail: prefix + tail)
    lookup = st.builds(lambda i, order: CallSpec("lookup_order", i, (("order_id", order),)), ids,
                       st.sampled_from(_ORDERS))
    refund = st.builds(lambda i, order, amount: CallSpec("refund", i, (("order_id", order), ("amount", amount))),
                       ids, st.sampled_from(_ORDERS), st.sampled_from(_AMOUNTS))
    invalid = st.builds(lambda i, order: CallSpec("refund", i, None, f'{{"order_id": {order}}}'), ids,
                        st.sampled_from(_ORDERS))
    return st.one_of(lookup, refund, invalid)


@st.composite
def _specs(draw: Any) -> StreamSpec:
    provider = draw(st.sampled_from(PROVIDERS))
    signal = STOP_SIGNALS[provider]
    # half the time a normal ending, so that runnable replies are as common as refused ones
    stop = draw(st.one_of(st.sampled_from(signal.ended_normally), st.sampled_from(signal.values)))
    reason = draw(st.sampled_from(INCOMPLETE_REASONS)) if provider == "responses" and stop == "incomplete" else None
    calls = draw(st.lists(_call(provider), max_size=3, unique_by=lambda call: call.id))
    text = draw(st.sampled_from(("", "On it.", "Let me check that order.")))
    cut = None
    if calls and stop in signal.cut and draw(st.booleans()):
        cut = draw(st.integers(min_value=1, max_value=max(1, len(calls[-1].text()) - 1)))
    return StreamSpec(provider=provider, stop=stop, incomplete_reason=reason, text=text, calls=tuple(calls), cut=cut,
                      dropped=draw(st.sampled_from((0, 0, 0, 1, 2, 4))), piece=draw(st.integers(3, 16)))


#: Every streamed reply the check generates: each integration, every stop value its API documents, cut and
#: complete replies, streams that lost their last chunks, invalid calls mixed in, text only, one to three calls.
STREAM_SPECS: st.SearchStrategy[StreamSpec] = _specs()

#: The arguments of ``helpers.exercises.generated.Generated`` for exercise 13.1 (``Generated(name, **GENERATED)``).
GENERATED: dict[str, Any] = {
    "inputs": STREAM_SPECS,
    "run": run_on,
    "reference": reference_runnable_calls,
    "describe": describe,
    "hint": N_("run every call of message.tool_calls only when the reply's stop signal is on its integration's "
               "allow-list (finish_reason 'tool_calls' or 'stop'; status 'completed'; stop_reason 'tool_use' or "
               "'end_turn'), else none; never an invalid call"),
    "examples": 60,
}
