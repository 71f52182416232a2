"""The engine of the stream stepper (notebook 13): a streamed reply, one chunk at a time.

Plain Python, no ipywidgets. It holds named streams (lists of ``AIMessageChunk``), a position
(how many chunks have arrived) and, at every position, what the chunks add up to with ``+``: the
merged ``tool_call_chunks``, the ``tool_calls`` and ``invalid_tool_calls`` langchain-core re-derives
from them (``AIMessageChunk.init_tool_calls`` with ``parse_partial_json``, langchain-core 1.8.3),
the stop signal once the chunk that carries it is in (``finish_reason``, or the Responses API's ``status``,
or Anthropic's ``stop_reason``), and what an application would run if the stream stopped here: one that
runs the merged ``tool_calls`` as they are, and one that first checks the stop signal against its
integration's allow-list (notebook 13, section 3). :class:`helpers.widgets.StreamStepper` is its view.

A move costs about the same at any length of the stream: the merged prefix is kept every
:data:`CHECKPOINT_EVERY` chunks (built once, when the streams are given), and a position merges at most
that many chunks onto the checkpoint before it, in one ``add_ai_message_chunks`` call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessageChunk
from langchain_core.messages.ai import add_ai_message_chunks

from ...i18n import _
from ...model.provider_streams import ENDED_NORMALLY

__all__ = ["CHECKPOINT_EVERY", "RUNS_WHEN", "StreamPosition", "StreamStepperEngine", "StreamVerdict", "stop_signal"]

#: What the stream means for an application at a position.
StreamVerdict = Literal["nothing_yet", "in_flight", "finished", "cut_off"]

#: Per stop signal (``response_metadata`` key), the values after which a reply's tool calls may run: ``finish_reason``
#: (chat.completions), ``status`` (Responses API), ``stop_reason`` (Anthropic), as exercise 13.1's reference.
RUNS_WHEN = ENDED_NORMALLY

#: Merged prefixes are kept every this many chunks, so a move merges at most this many chunks.
CHECKPOINT_EVERY = 32


def stop_signal(message: AIMessageChunk) -> tuple[str, Any] | None:
    """The first stop signal ``(key, value)`` in ``message.response_metadata`` (see :data:`RUNS_WHEN`), or ``None``."""
    metadata = message.response_metadata
    return next(((key, metadata[key]) for key in RUNS_WHEN if metadata.get(key) is not None), None)


@dataclass(frozen=True)
class StreamPosition:
    """The stream after ``received`` chunks.

    Attributes:
        stream: the stream's name.
        received: how many chunks have arrived (0 to ``total``).
        total: how many chunks the whole stream has.
        last: the chunk that arrived last (``None`` before the first).
        merged: the sum of the chunks so far with ``+`` (``None`` before the first).
        signal: the merged stop signal ``(key, value)`` (``("finish_reason", "length")``,
            ``("stop_reason", "max_tokens")``, ...: :func:`stop_signal`), or ``None`` while no chunk has carried
            one (the stream is still arriving, or it was cut before the chunk that carries it).
        naive_runs: the merged ``tool_calls``: what an application that trusts them would run.
        guarded_runs: what an application that checks the stop signal against :data:`RUNS_WHEN` first would run.
        verdict: :data:`StreamVerdict`.
    """

    stream: str
    received: int
    total: int
    last: AIMessageChunk | None
    merged: AIMessageChunk | None
    signal: tuple[str, Any] | None
    naive_runs: list[dict[str, Any]]
    guarded_runs: list[dict[str, Any]]
    verdict: StreamVerdict

    @property
    def finish_reason(self) -> Any:
        """The stop signal's value (``finish_reason``, ``status`` or ``stop_reason``), or ``None``."""
        return self.signal[1] if self.signal else None

    @property
    def signal_text(self) -> str:
        """The stop signal as ``key='value'``, or ``""``."""
        return f"{self.signal[0]}={self.signal[1]!r}" if self.signal else ""

    @property
    def headline(self) -> str:
        """One line: what an application would run if the stream stopped here."""
        def names(calls: list[dict[str, Any]]) -> str:
            return ", ".join(f"{c['name']}({_args(c['args'])})" for c in calls) or _("nothing")

        if self.verdict == "nothing_yet":
            return _("No chunk yet: nothing to run.")
        if self.verdict == "finished":
            return _("The reply finished ({reason}): both applications run {runs}.").format(
                reason=self.signal_text, runs=names(self.guarded_runs))
        if self.verdict == "cut_off":
            text = _("Stopped here, the reply did not end normally ({reason}). Trusting tool_calls runs {runs}; "
                     "the guard runs nothing.")
        else:
            text = _("Stopped here, no stop signal yet: if the stream stopped here, nothing says the reply "
                     "finished. Trusting tool_calls runs {runs}; the guard runs nothing.")
        return text.format(reason=self.signal_text, runs=names(self.naive_runs))


def _args(args: Any) -> str:
    if isinstance(args, Mapping):
        return ", ".join(f"{k}={v!r}" for k, v in args.items())
    return repr(args)


def _merge(base: AIMessageChunk | None, chunks: Sequence[AIMessageChunk]) -> AIMessageChunk:
    """``base + chunks[0] + chunks[1] + ...`` in one merge (``add_ai_message_chunks``, what ``+`` calls with a
    list: the same merge, with ``tool_calls`` re-derived once at the end instead of after every chunk)."""
    if base is None:
        base, chunks = chunks[0], chunks[1:]
    return add_ai_message_chunks(base, *chunks) if chunks else base


def _checkpoints(name: str, chunks: Sequence[AIMessageChunk]) -> list[AIMessageChunk]:
    """The merged prefixes of ``CHECKPOINT_EVERY``, 2 x ``CHECKPOINT_EVERY``, ... chunks, and of the whole stream
    (checked up front, so that stepping never fails half-way through a stream).

    Raises:
        ValueError: naming the first chunk that ``+`` refuses to add to the chunks before it.
    """
    marks: list[AIMessageChunk] = []
    for start in range(0, len(chunks), CHECKPOINT_EVERY):
        block = chunks[start:start + CHECKPOINT_EVERY]
        base = marks[-1] if marks else None
        try:
            marks.append(_merge(base, block))
        except (TypeError, ValueError):
            merged = base
            for number, chunk in enumerate(block, start=start + 1):  # find the chunk, one at a time
                try:
                    merged = chunk if merged is None else merged + chunk
                except (TypeError, ValueError) as exc:
                    raise ValueError(f"stream {name!r}: chunk {number} cannot be added to the chunks before it "
                                     f"({type(exc).__name__}: {exc}); pass the chunks of one reply") from exc
            raise
    return marks


class StreamStepperEngine:
    """Step through streamed replies and see what their chunks add up to.

    Args:
        streams: stream name -> its chunks in order (e.g. ``list(model.stream(...))``); at least one
            stream, each with at least one ``AIMessageChunk``.

    Attributes:
        streams: the streams (copies of the lists).
        stream: the name of the stream on show.
        received: how many of its chunks have arrived.

    Raises:
        ValueError: no streams, an empty stream, two names that are the same text (``1`` and ``"1"``),
            or chunks that ``+`` cannot add up (e.g. a ``finish_reason`` of two types).
        TypeError: ``streams`` is not a mapping, or an item that is not an ``AIMessageChunk``.
    """

    def __init__(self, streams: Mapping[str, Sequence[AIMessageChunk]]):
        if not isinstance(streams, Mapping):
            raise TypeError("give the streams as a dict {name: [AIMessageChunk, ...]}, "
                            f"got a {type(streams).__name__}")
        if not streams:
            raise ValueError("give at least one stream: {name: [AIMessageChunk, ...]}")
        self.streams: dict[str, list[AIMessageChunk]] = {}
        self._marks: dict[str, list[AIMessageChunk]] = {}
        #: How many chunks the merges of :meth:`position` added in all (at most ``CHECKPOINT_EVERY`` per move).
        self.chunks_merged = 0
        self._last: StreamPosition | None = None
        for name, chunks in streams.items():
            chunks = list(chunks)
            if not chunks:
                raise ValueError(f"stream {name!r} has no chunks; stream a reply into a list first")
            if str(name) in self.streams:
                raise ValueError(f"two streams are named {str(name)!r}; give each stream its own name")
            for number, chunk in enumerate(chunks, start=1):
                if not isinstance(chunk, AIMessageChunk):
                    raise TypeError(f"stream {name!r}: item {number} is a {type(chunk).__name__}, not an "
                                     "AIMessageChunk (pass what model.stream(...) yields)")
            self._marks[str(name)] = _checkpoints(str(name), chunks)
            self.streams[str(name)] = chunks
        self.stream = next(iter(self.streams))
        self.received = 0

    @property
    def names(self) -> list[str]:
        """The stream names, in the order given."""
        return list(self.streams)

    @property
    def total(self) -> int:
        """How many chunks the stream on show has."""
        return len(self.streams[self.stream])

    def choose(self, name: str) -> StreamPosition:
        """Show stream ``name`` from its start. Raises ``ValueError`` for a name not offered."""
        if name not in self.streams:
            raise ValueError(f"no stream named {name!r}; the streams are {', '.join(map(repr, self.names))}")
        self.stream, self.received = name, 0
        return self.position()

    def next_chunk(self) -> StreamPosition:
        """One more chunk arrives (nothing changes at the end of the stream)."""
        return self.cut_at(min(self.received + 1, self.total))

    def back(self) -> StreamPosition:
        """Undo the last chunk (nothing changes at the start)."""
        return self.cut_at(max(self.received - 1, 0))

    def cut_at(self, received: int) -> StreamPosition:
        """Let exactly ``received`` chunks arrive (0 to ``total``): the stream stopped there.

        Raises:
            ValueError: ``received`` is not an int in that range.
        """
        if isinstance(received, bool) or not isinstance(received, int) or not 0 <= received <= self.total:
            raise ValueError(f"received must be an int from 0 to {self.total} (the chunks of {self.stream!r}), "
                             f"got {received!r}")
        self.received = received
        return self.position()

    def reset(self) -> StreamPosition:
        """Back to the first stream, no chunk received."""
        return self.choose(self.names[0])

    def merged_at(self, received: int) -> AIMessageChunk | None:
        """What the first ``received`` chunks of the stream on show add up to (``None`` for 0).

        Starts from the last checkpoint at or before ``received`` and merges the rest (fewer than
        ``CHECKPOINT_EVERY`` chunks), so a move costs about the same at any length of the stream.
        """
        if received == 0:
            return None
        marks = self._marks[self.stream]
        if received == self.total:
            return marks[-1]
        whole, rest = divmod(received, CHECKPOINT_EVERY)
        if rest == 0:
            return marks[whole - 1]
        base = marks[whole - 1] if whole else None
        chunks = self.streams[self.stream][whole * CHECKPOINT_EVERY:received]
        self.chunks_merged += len(chunks)
        return _merge(base, chunks)

    def position(self) -> StreamPosition:
        """The stream as it stands (see :class:`StreamPosition`); the same position is worked out once."""
        if self._last is not None and (self._last.stream, self._last.received) == (self.stream, self.received):
            return self._last
        self._last = self._position()
        return self._last

    def _position(self) -> StreamPosition:
        chunks = self.streams[self.stream]
        merged = self.merged_at(self.received)
        # a copy: the caller may change it; the checkpoints (which share parts with it) must stay as they are
        merged = merged.model_copy(deep=True) if merged is not None else None
        signal = stop_signal(merged) if merged is not None else None
        naive = [dict(c) for c in merged.tool_calls] if merged is not None else []
        if merged is None:
            verdict: StreamVerdict = "nothing_yet"
        elif signal is None:
            verdict = "in_flight"
        else:
            verdict = "finished" if signal[1] in RUNS_WHEN[signal[0]] else "cut_off"
        last = chunks[self.received - 1] if self.received else None
        return StreamPosition(self.stream, self.received, self.total, last, merged, signal, naive,
                              naive if verdict == "finished" else [], verdict)
