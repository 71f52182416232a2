"""The view of the reducer playground (notebook 07): an ``ipywidgets.VBox`` around :class:`ReducerPlaygroundEngine`.

Every control calls one engine method; the view only renders. Handlers never ``print``.

A click on "Run in parallel" in the page comes through the view's page part
(:class:`~helpers.widgets.page_clicks.PageClicks`) with the reducer and the two writes the page
showed at that moment, and the view runs exactly those (:meth:`ReducerPlayground.on_page_message`):
ipywidgets 8 sends each box's new text as a message of another widget model, which can reach the
kernel after the click. A click made before the kernel changed the inputs under the learner (Start
again, a method called from code) runs nothing and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from ..i18n import N_, _
from .engines.reducer_playground import (
    DEFAULT_A,
    DEFAULT_B,
    PlaygroundResult,
    Reducer,
    ReducerPlaygroundEngine,
)
from .outcomes import PlaygroundOutcome
from .page_clicks import UNPLACED_CLICK, PageButton, PageClicks, page_click, refusal
from .style import WRAP, badge, block, box, history, muted
from .text import html_text, sendable, value_text

__all__ = ["ReducerPlayground"]

_NOTES = {
    PlaygroundOutcome.AGREE: N_("Both write orders give the same value, so for these two writes the result does "
                                "not depend on which node's write LangGraph applies first."),
    PlaygroundOutcome.DIFFER: N_("The value depends on which write is applied first. LangGraph's order is fixed "
                                 "(node names here, tool-call positions in an agent), so a run is repeatable, but "
                                 "the result is an accident of naming, not a rule (sections 2 and 5)."),
    PlaygroundOutcome.INVALID_UPDATE: N_("A plain key takes one value per step. Two writes in one step fail the "
                                         "whole step with InvalidUpdateError, in both orders and even for equal "
                                         "values (section 1)."),
    PlaygroundOutcome.REDUCER_ERROR: N_("The reducer raised: these values do not fit it (for example operator.add "
                                        "on two JSON objects, or merge_audit on entries without a \"key\"). The "
                                        "run stopped."),
    PlaygroundOutcome.INVALID_JSON: N_("Your text is still in the box."),
}
_START = N_("Not run yet: press Run in parallel.")


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (the joining words translated)."""
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=_(", ").join(items[:-1]), last=items[-1])


def changed_inputs(ran_with: tuple[str, Mapping[str, str]] | None, reducer: str,
                   writes: Mapping[str, str]) -> list[str]:
    """What differs from the inputs of the result on show, in the words the controls use.

    Args:
        ran_with: ``(reducer name, {"a": text, "b": text})`` of the last run, or ``None`` before one.
        reducer: the reducer chosen now.
        writes: the write texts now, keyed ``"a"`` and ``"b"``.

    Returns:
        e.g. ``["the reducer", "write B"]`` (in the edition's language); empty when nothing changed or
        nothing ran yet.
    """
    if ran_with is None:
        return []
    old_reducer, old_writes = ran_with
    changed = [_("the reducer")] if reducer != old_reducer else []
    return changed + [_("write {node}").format(node=node.upper()) for node in ("a", "b")
                      if writes[node] != old_writes[node]]


class ReducerPlayground(widgets.VBox):
    """Two parallel nodes write one key: pick its reducer and see both write orders side by side.

    An ``ipywidgets.VBox``; its plain methods are the engine's (:class:`~helpers.widgets.engines.
    reducer_playground.ReducerPlaygroundEngine`, which documents what the graph does):
    :meth:`choose_reducer`, :meth:`set_write`, :meth:`run`, :meth:`reset`; and :meth:`on_page_message`,
    a click on Run in the page (see the module docstring). It shows the latest
    run (both orders, each reducer call, the value or the error) and the learner's last five runs.

    Args:
        reducers: name -> reducer (``None`` = a plain key); default the functions of notebook 07.
        key: the state key's name (default ``"audit"``).
        a, b: the starting JSON text of the two writes (default: the audit writes of section 4).

    Attributes:
        engine: the engine; ``results`` is ``engine.results``.
        reducer_picker, declaration, write_a, write_b, run_button, reset_button, result_view,
        history_view: the controls. click_note: why a click from the page ran nothing (empty otherwise).
        clicks: the page part (:class:`~helpers.widgets.page_clicks.PageClicks`), invisible.

    Raises:
        ValueError: as the engine (no reducers; a bad key name).
    """

    def __init__(self, reducers: Mapping[str, Reducer | None] | None = None, *, key: str = "audit",
                 a: str = DEFAULT_A, b: str = DEFAULT_B):
        self.engine = ReducerPlaygroundEngine(reducers, key=key, a=a, b=b)
        # (label, name): a name is shown translated (NO_REDUCER), the engine gets the name itself
        self.reducer_picker = widgets.Dropdown(options=[(_(name), name) for name in self.engine.reducer_names],
                                               value=self.engine.reducer, description=_("reducer:"))
        self.declaration = widgets.HTML()
        size = widgets.Layout(width="95%", height="4.5em")
        self.write_a = widgets.Textarea(value=self.engine.writes["a"], description=_("write A (JSON):"),
                                        layout=size, style={"description_width": "initial"})
        self.write_b = widgets.Textarea(value=self.engine.writes["b"], description=_("write B (JSON):"),
                                        layout=size, style={"description_width": "initial"})
        for name, control in (("reducer", self.reducer_picker), ("a", self.write_a), ("b", self.write_b)):
            control.add_class(f"course-field-{name}")  # where the page part reads what is shown
        self.run_button = PageButton("run", description=_("Run in parallel"), button_style="primary",
                                     tooltip=_("Run the two-node graph in both write orders"),
                                     unplaced=lambda: self._refuse(_(UNPLACED_CLICK)))
        self.reset_button = widgets.Button(description=_("Start again"),
                                           tooltip=_("Back to the first reducer and the section 4 writes"))
        self.result_view = widgets.HTML()
        self.stale_view = widgets.HTML()
        self.history_view = widgets.HTML()
        self.click_note = widgets.HTML()
        # The page part: a click on Run arrives as one message with the render and the fields the page showed.
        self.clicks = PageClicks("course-reducer-playground")
        self.clicks.on_msg(lambda _widget, content, _buffers: self.on_page_message(content))
        self._ran_with: tuple[str, dict[str, str]] | None = None
        self.reducer_picker.observe(self._on_pick, names="value")
        self.write_a.observe(lambda change: self._on_type("a", change), names="value")
        self.write_b.observe(lambda change: self._on_type("b", change), names="value")
        self.run_button.on_click(lambda _button: self.run())
        self.reset_button.on_click(lambda _button: self.reset())
        super().__init__([
            widgets.HTML(_("<b>Reducer playground:</b> two parallel nodes write the key <code>{key}</code> in "
                           "the same step").format(key=html_text(self.engine.key))),
            self.reducer_picker, self.declaration, self.write_a, self.write_b,
            widgets.HBox([self.run_button, self.reset_button]), self.click_note, self.stale_view,
            self.result_view, self.history_view, self.clicks,
        ])
        self.add_class("course-reducer-playground")
        self._render()

    # -- plain methods: what the mouse does ---------------------------------------------------

    @property
    def reducer_names(self) -> list[str]:
        """The reducer names offered, in dropdown order."""
        return self.engine.reducer_names

    @property
    def results(self) -> list[PlaygroundResult]:
        """Every result since the last reset (the engine's)."""
        return self.engine.results

    def choose_reducer(self, name: str) -> None:
        """Select the reducer by name. Raises ``ValueError`` if it is not offered."""
        self.engine.choose_reducer(name)
        self._render(moved=True)

    def set_write(self, node: str, text: str) -> None:
        """Type the JSON that node ``"a"`` or ``"b"`` writes. Raises ``ValueError`` for another node."""
        self.engine.set_write(node, text)
        self._render(moved=True)

    def run(self) -> PlaygroundResult:
        """Run both write orders (see :meth:`ReducerPlaygroundEngine.run`); show and return the result."""
        ran_with = (self.engine.reducer, dict(self.engine.writes))
        result = self.engine.run()
        self._ran_with = ran_with
        self._render()
        return result

    def reset(self) -> None:
        """Forget every run; back to the first reducer and the starting writes."""
        self.engine.reset()
        self._ran_with = None
        self._render(moved=True)

    def on_page_message(self, content: Any) -> PlaygroundResult | None:
        """A message from the page part: a click on Run in parallel in the page (tests send the same).

        Args:
            content: ``{"event": "action", "action": "run", "render": <int>, "clicks": <int>,
                "fields": {"reducer": <position in the reducer picker>, "a": <write A's text>,
                "b": <write B's text>}}``, as ``page_clicks.js`` sends it
                (:func:`~helpers.widgets.page_clicks.page_click`).

        Returns:
            the result of running the reducer and the writes the page showed (a field the page did
            not find: the view's own value); ``None`` when nothing ran: a message that is not such a
            click (ignored), a click made on an earlier render, or one whose fields have another shape
            than the page part sends (refused: :attr:`click_note` says so).
        """
        click = page_click(content, ("run",))
        if click is None:
            return None
        names = self.engine.reducer_names
        note = refusal(click, self.clicks.render, texts=("a", "b"), indexes={"reducer": len(names)})
        if note:
            self._refuse(note)
            return None
        index = click.index("reducer", len(names))
        if index is not None:
            self.engine.choose_reducer(names[index])
        for node in ("a", "b"):
            text = click.text(node)
            if text is not None:
                self.engine.set_write(node, text)
        return self.run()

    # -- rendering ------------------------------------------------------------------------------

    def _on_pick(self, change: dict) -> None:
        if change["new"] != self.engine.reducer:
            self.engine.choose_reducer(change["new"])
            self._render()

    def _on_type(self, node: str, change: dict) -> None:
        clean = sendable(change["new"])
        self.engine.set_write(node, clean)
        if clean != change["new"]:
            (self.write_a if node == "a" else self.write_b).value = clean
        self._render_stale()

    def _refuse(self, note: str) -> None:
        """Say why a click from the page ran nothing; everything else stays as shown."""
        self.click_note.value = muted(note, css_class="course-click-note")

    def _render_stale(self) -> None:
        """Say which inputs changed since the result on show was run (nothing before a run)."""
        changed = changed_inputs(self._ran_with, self.engine.reducer, self.engine.writes)
        self.stale_view.value = "" if not changed else muted(
            _("Changed since the run below: {changed}. Press Run in parallel to run them.").format(
                changed=_listed(changed)),
            css_class="course-stale")

    def _render(self, *, moved: bool = False) -> None:
        """Show the engine's state. ``moved``: the kernel changed an input the learner sees (the reducer, a
        write), so the render number moves on and a click made on what the page showed before is refused."""
        engine = self.engine
        if self.reducer_picker.value != engine.reducer:
            self.reducer_picker.value = engine.reducer
        for box_widget, node in ((self.write_a, "a"), (self.write_b, "b")):
            if box_widget.value != engine.writes[node]:
                box_widget.value = engine.writes[node]
        self.declaration.value = block(engine.declaration(), css_class="course-declaration")
        self.click_note.value = ""
        self._render_results()
        if moved:  # last: the page holds the new number only once it has drawn every part above
            self.clicks.render += 1

    def _render_results(self) -> None:
        engine = self.engine
        self._render_stale()
        if not engine.results:
            self.result_view.value = muted(_(_START), css_class="course-start")
            self.history_view.value = ""
            return
        self.result_view.value = self._result_html(engine.results[-1])
        self.history_view.value = history(engine.history, "run")

    @staticmethod
    def _result_html(result: PlaygroundResult) -> str:
        outcome = result.outcome
        parts = [f"<p class='course-verdict' data-outcome='{outcome}' style='margin: 2px 0'>"
                 f"{badge(outcome.word, outcome.tone)} <b>"
                 + html_text(_("{reducer}: {headline}.").format(reducer=_(result.reducer), headline=result.headline))
                 + f"</b> {html_text(_(_NOTES[outcome]))}</p>"]
        if outcome == PlaygroundOutcome.INVALID_JSON:
            parts.append(f"<p class='course-message' style='margin: 2px 0'>{html_text(result.message)}</p>")
        else:
            cells = []
            for run in result.runs:
                calls = "".join(
                    f"<div style='{WRAP}'><code>{html_text(result.reducer)}(current={html_text(value_text(c))}, "
                    f"update={html_text(value_text(u))})</code></div>" for c, u in run.calls) \
                    or "<i>" + html_text(_("none")) + "</i>"
                shown = (block(run.error, css_class="course-error") if run.error else
                         block(f"{result.key} = {value_text(run.value)}", css_class="course-value"))
                label = html_text(_("reducer calls:"))
                cells.append(f"<td style='vertical-align: top; padding: 4px 12px; width: 50%'>"
                             f"<b>{run.label}</b><br><small>{run.nodes}</small>"
                             f"<div><small>{label}</small> {calls}</div>{shown}</td>")
            parts.append(f"<table class='course-orders' style='width: 100%; table-layout: fixed'>"
                         f"<tr>{''.join(cells)}</tr></table>")
        return box("".join(parts), outcome.tone, css_class="course-result", data={"outcome": outcome})

    def __repr__(self) -> str:
        return _("ReducerPlayground ({count} reducers, key {key}): run this cell to open the "
                 "playground").format(count=len(self.engine.reducers), key=repr(self.engine.key))
