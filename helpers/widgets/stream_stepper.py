"""The view of the stream stepper (notebook 13): an ``ipywidgets.VBox`` around :class:`StreamStepperEngine`.

Every control calls one engine method; the view only renders. Handlers never ``print``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

import ipywidgets as widgets
from langchain_core.messages import AIMessageChunk

from ..i18n import N_, _
from .engines.stream_stepper import StreamPosition, StreamStepperEngine, StreamVerdict, stop_signal
from .outcomes import Tone
from .style import LINE_HEIGHT, WRAP, badge, block, box, muted
from .text import MAX_SHOWN, html_text, shorten, value_text

__all__ = ["StreamStepper"]

#: verdict -> (badge word, tone); the word is shown translated (:func:`~helpers.widgets.style.badge`)
_BADGES: dict[StreamVerdict, tuple[str, Tone]] = {
    "nothing_yet": (N_("WAITING"), "info"),
    "in_flight": (N_("NOT FINISHED"), "warn"),
    "finished": (N_("FINISHED"), "ok"),
    "cut_off": (N_("CUT OFF"), "bad"),
}

#: The names notebook 13 gives its streams (its code cell, the same in both editions): marked here for the
#: catalog, and shown translated in the picker (``_(name)``); a name the catalog lacks is shown as given.
#: ``tests/test_widgets_i18n.py`` fails when notebook 13 names a stream this list lacks.
NOTEBOOK_STREAMS = (N_("one refund call (section 1)"), N_("two calls interleaved (section 1)"),
                    N_("cut off at the token limit (section 2)"))


#: The most chunk rows the table shows (the last ones received), and the most characters of one cell.
MAX_ROWS = 40
MAX_CELL = 300


def _cell(text: str) -> str:
    return (f"<td style='padding: 1px 8px; vertical-align: top'><code style='{WRAP}'>"
            f"{html_text(shorten(text, MAX_CELL))}</code></td>")


class StreamStepper(widgets.VBox):
    """Step through a streamed reply chunk by chunk; stop it anywhere and see what an application would run.

    An ``ipywidgets.VBox``; its plain methods are the engine's (:class:`~helpers.widgets.engines.
    stream_stepper.StreamStepperEngine`): :meth:`choose_stream`, :meth:`next_chunk`, :meth:`back`,
    :meth:`cut_at`, :meth:`whole_stream`, :meth:`reset`. It shows the chunks received (the last one
    marked), what they add up to (``tool_call_chunks``, ``tool_calls``, ``invalid_tool_calls``,
    the stop signal: ``finish_reason``, ``status`` or ``stop_reason``), and what an application that trusts
    ``tool_calls`` would run next to one that checks the stop signal first.

    Args:
        streams: stream name -> its ``AIMessageChunk`` list (e.g. ``list(model.stream(...))``).

    Attributes:
        engine: the engine.
        stream_picker, back_button, next_button, whole_button, reset_button, slider, position_view,
        chunks_view, merged_view, verdict_view: the controls.

    Raises:
        ValueError: as the engine (no streams, an empty stream); TypeError: an item that is not a chunk.
    """

    def __init__(self, streams: Mapping[str, Sequence[AIMessageChunk]]):
        self.engine = StreamStepperEngine(streams)
        # a stream's name is read whole, in the edition's language (the engine keeps the names as given): the
        # picker is as wide as the longest label (a wide character, as in Chinese, takes two), not the default 300 px
        labels = [(_(name), name) for name in self.engine.names]
        widest = max(len(label) + sum(unicodedata.east_asian_width(ch) in "WF" for ch in label) for label, _name in labels)
        self.stream_picker = widgets.Dropdown(options=labels, value=self.engine.stream,
                                              description=_("stream:"), style={"description_width": "initial"},
                                              layout=widgets.Layout(width=f"min(100%, {widest + 12}ch)"))
        self.back_button = widgets.Button(description=_("Back"), tooltip=_("Undo the last chunk"))
        self.next_button = widgets.Button(description=_("Next chunk"), button_style="primary",
                                          tooltip=_("One more chunk arrives"))
        self.whole_button = widgets.Button(description=_("Whole stream"), tooltip=_("Every chunk arrives"))
        self.reset_button = widgets.Button(description=_("Start again"), tooltip=_("The first stream, no chunk yet"))
        self.slider = widgets.IntSlider(value=0, min=0, max=self.engine.total, description=_("stop after:"),
                                        continuous_update=False, style={"description_width": "initial"})
        self.position_view = widgets.HTML()
        self.chunks_view = widgets.HTML()
        self.merged_view = widgets.HTML()
        self.verdict_view = widgets.HTML()
        self.stream_picker.observe(self._on_pick, names="value")
        self.slider.observe(self._on_slide, names="value")
        self.back_button.on_click(lambda _button: self.back())
        self.next_button.on_click(lambda _button: self.next_chunk())
        self.whole_button.on_click(lambda _button: self.whole_stream())
        self.reset_button.on_click(lambda _button: self.reset())
        super().__init__([
            widgets.HTML(_("<b>Stream stepper:</b> a reply arrives chunk by chunk; stop it anywhere")),
            self.stream_picker,
            widgets.HBox([self.back_button, self.next_button, self.whole_button, self.reset_button]),
            self.slider, self.position_view, self.verdict_view, self.merged_view, self.chunks_view,
        ])
        self.add_class("course-stream-stepper")
        self._render()

    # -- plain methods: what the mouse does ---------------------------------------------------

    def position(self) -> StreamPosition:
        """The stream as it stands (the engine's :meth:`~StreamStepperEngine.position`)."""
        return self.engine.position()

    def choose_stream(self, name: str) -> StreamPosition:
        """Show stream ``name`` from its start. Raises ``ValueError`` for a name not offered."""
        return self._shown(self.engine.choose(name))

    def next_chunk(self) -> StreamPosition:
        """One more chunk arrives."""
        return self._shown(self.engine.next_chunk())

    def back(self) -> StreamPosition:
        """Undo the last chunk."""
        return self._shown(self.engine.back())

    def cut_at(self, received: int) -> StreamPosition:
        """Stop the stream after ``received`` chunks. Raises ``ValueError`` outside 0..total."""
        return self._shown(self.engine.cut_at(received))

    def whole_stream(self) -> StreamPosition:
        """Every chunk arrives."""
        return self._shown(self.engine.cut_at(self.engine.total))

    def reset(self) -> StreamPosition:
        """Back to the first stream, no chunk received."""
        return self._shown(self.engine.reset())

    # -- rendering ------------------------------------------------------------------------------

    def _shown(self, position: StreamPosition) -> StreamPosition:
        self._render()
        return position

    def _on_pick(self, change: dict) -> None:
        if change["new"] != self.engine.stream:
            self.engine.choose(change["new"])
            self._render()

    def _on_slide(self, change: dict) -> None:
        if change["new"] != self.engine.received:
            self.engine.cut_at(change["new"])
            self._render()

    def _render(self) -> None:
        at = self.engine.position()
        if self.stream_picker.value != at.stream:
            self.stream_picker.value = at.stream
        if self.slider.max != at.total:
            self.slider.max = at.total
        if self.slider.value != at.received:
            self.slider.value = at.received
        self.back_button.disabled = at.received == 0
        self.next_button.disabled = self.whole_button.disabled = at.received == at.total
        self.position_view.value = (f"<p class='course-position' style='margin: 2px 0; {LINE_HEIGHT}'>"
                                    + _("{received} of {total} chunks received").format(received=at.received,
                                                                                        total=at.total) + "</p>")
        word, tone = _BADGES[at.verdict]
        self.verdict_view.value = box(
            f"<p class='course-verdict' data-outcome='{at.verdict}' style='margin: 2px 0; {LINE_HEIGHT}'>"
            f"{badge(word, tone)} {html_text(shorten(at.headline))}</p>", tone, css_class="course-result",
            data={"outcome": at.verdict})
        self.merged_view.value = self._merged_html(at)
        self.chunks_view.value = self._chunks_html(at)

    def _chunks_html(self, at: StreamPosition) -> str:
        if at.received == 0:
            return muted(_("No chunk has arrived: press Next chunk."), css_class="course-start")
        rows = []
        first = max(1, at.received - MAX_ROWS + 1)
        if first > 1:
            earlier = _("{count} earlier chunks not shown").format(count=f"{first - 1:,}")
            rows.append(f"<tr class='course-earlier-chunks'><td colspan='4'><small>{earlier}</small></td></tr>")
        for number, chunk in enumerate(self.engine.streams[at.stream][first - 1: at.received], start=first):
            pieces = [(c["name"], c["args"], c["id"], c["index"]) for c in chunk.tool_call_chunks]
            signal = stop_signal(chunk)
            finish = f"{signal[0]}={signal[1]!r}" if signal else ""
            mark = " class='course-last-chunk' style='background: #fff8e1'" if number == at.received else ""
            rows.append(f"<tr{mark}><td style='padding: 1px 8px'>{number}</td>{_cell(repr(chunk.content))}"
                        f"{_cell(value_text(pieces, prefer_json=False) if pieces else '')}{_cell(finish)}</tr>")
        head = ("<tr><th>#</th><th>content</th><th>tool_call_chunks (name, args, id, index)</th>"
                "<th>" + _("stop signal") + "</th></tr>")
        caption = _("The chunks received, the last one marked:")
        return (f"<div><small>{caption}</small><table class='course-chunks' "
                f"style='{LINE_HEIGHT}'>{head}{''.join(rows)}</table></div>")

    @staticmethod
    def _merged_html(at: StreamPosition) -> str:
        if at.merged is None:
            return ""
        merged = at.merged
        lines = [f"content: {shorten(repr(merged.content), MAX_CELL)}"]
        lines += [_("tool_call_chunks[{index}]: {name} args text {args}").format(
                      index=c["index"], name=c["name"], args=shorten(repr(c["args"]), MAX_CELL))
                  for c in merged.tool_call_chunks]
        for kind in ("tool_calls", "invalid_tool_calls"):
            calls = [(c["name"], c["args"]) for c in getattr(merged, kind)]
            lines.append(f"{kind}: {value_text(calls, prefer_json=False)}")
        lines.append(_("stop signal: {signal}").format(signal=at.signal_text or _("none yet")))
        caption = _("The chunks added up with <code>+</code>:")
        return (f"<div><small>{caption}</small>"
                f"{block(shorten(chr(10).join(lines), 2 * MAX_SHOWN), css_class='course-merged')}</div>")

    def __repr__(self) -> str:
        return _("StreamStepper ({count} streams): run this cell to step through a streamed reply").format(
            count=len(self.engine.streams))
