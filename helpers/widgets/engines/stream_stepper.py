"""The engine of the stream stepper (notebook 13): a streamed reply, one chunk at a time.

Plain Python, no ipywidgets. It holds named streams (lists of ``AIMessageChunk``), a position
(how many chunks have arrived) and, at every position, what the chunks add up to with ``+``: the
merged ``tool_call_chunks``, the ``tool_calls`` and ``invalid_tool_calls`` langchain-core re-derives
from them (``AIMessageChunk.init_tool_calls`` with ``parse_partial_json``, langchain-core 1.8.3),
the ``finish_reason`` once the last chunk is in, and what an application would run if the stream
stopped here: one that runs the merged ``tool_calls`` as they are, and one that first checks
``finish_reason`` (notebook 13, section 3). :class:`helpers.widgets.StreamStepper` is its view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessageChunk

from ...i18n import _

__all__ = ["RUNS_WHEN", "StreamPosition", "StreamStepperEngine", "StreamVerdict"]

#: What the stream means for an application at a position.
StreamVerdict = Literal["nothing_yet", "in_flight", "finished", "cut_off"]

#: The finish reasons after which a reply's tool calls may run (exercise 13.1).
RUNS_WHEN = ("tool_calls", "stop")


@dataclass(frozen=True)
class StreamPosition:
    """The stream after ``received`` chunks.

    Attributes:
        stream: the stream's name.
        received: how many chunks have arrived (0 to ``total``).
        total: how many chunks the whole stream has.
        last: the chunk that arrived last (``None`` before the first).
        merged: the sum of the chunks so far with ``+`` (``None`` before the first).
        finish_reason: ``merged.response_metadata["finish_reason"]``, or ``None`` while no chunk
            has carried one (the stream is still arriving, or it was cut before its last chunk).
        naive_runs: the merged ``tool_calls``: what an application that trusts them would run.
        guarded_runs: what an application that checks ``finish_reason`` first would run.
        verdict: :data:`StreamVerdict`.
    """

    stream: str
    received: int
    total: int
    last: AIMessageChunk | None
    merged: AIMessageChunk | None
    finish_reason: str | None
    naive_runs: list[dict[str, Any]]
    guarded_runs: list[dict[str, Any]]
    verdict: StreamVerdict

    @property
    def headline(self) -> str:
        """One line: what an application would run if the stream stopped here."""
        def names(calls: list[dict[str, Any]]) -> str:
            return ", ".join(f"{c['name']}({_args(c['args'])})" for c in calls) or _("nothing")

        if self.verdict == "nothing_yet":
            return _("No chunk yet: nothing to run.")
        if self.verdict == "finished":
            return _("The reply finished ({reason}): both applications run {runs}.").format(
                reason=self.finish_reason, runs=names(self.guarded_runs))
        if self.verdict == "cut_off":
            text = _("Stopped here, the reply was cut off (finish_reason {reason}). Trusting tool_calls runs {runs}; "
                     "the guard runs nothing.")
        else:
            text = _("Stopped here, no finish_reason yet: if the stream stopped here, nothing says the reply "
                     "finished. Trusting tool_calls runs {runs}; the guard runs nothing.")
        return text.format(reason=repr(self.finish_reason), runs=names(self.naive_runs))


def _args(args: Any) -> str:
    if isinstance(args, Mapping):
        return ", ".join(f"{k}={v!r}" for k, v in args.items())
    return repr(args)


def _add_up(name: str, chunks: Sequence[AIMessageChunk]) -> AIMessageChunk:
    """``chunks[0] + chunks[1] + ...``; ``ValueError`` naming the chunk that ``+`` refuses (checked up front,
    so that stepping never fails half-way through a stream)."""
    merged = chunks[0]
    for number, chunk in enumerate(chunks[1:], start=2):
        try:
            merged = merged + chunk
        except (TypeError, ValueError) as exc:
            raise ValueError(f"stream {name!r}: chunk {number} cannot be added to the chunks before it "
                             f"({type(exc).__name__}: {exc}); pass the chunks of one reply") from exc
    return merged


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
            _add_up(str(name), chunks)
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

    def position(self) -> StreamPosition:
        """The stream as it stands (see :class:`StreamPosition`)."""
        chunks = self.streams[self.stream][: self.received]
        merged = _add_up(self.stream, chunks) if chunks else None
        finish = merged.response_metadata.get("finish_reason") if merged is not None else None
        naive = [dict(c) for c in merged.tool_calls] if merged is not None else []
        if merged is None:
            verdict: StreamVerdict = "nothing_yet"
        elif finish is None:
            verdict = "in_flight"
        else:
            verdict = "finished" if finish in RUNS_WHEN else "cut_off"
        return StreamPosition(self.stream, self.received, self.total, chunks[-1] if chunks else None, merged,
                              finish, naive, naive if verdict == "finished" else [], verdict)
