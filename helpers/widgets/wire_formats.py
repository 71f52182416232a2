"""The wire-format view (notebook 14): an ``ipywidgets.VBox`` around :class:`WireFormatsEngine`.

One dropdown per tool call (answered, answered with an error, answer dropped), a ``tool_choice``
dropdown and a ``parallel_tool_calls`` checkbox; below them the three request bodies side by side,
re-rendered at every change. Every control calls one engine method; the view only renders. Handlers
never ``print``.

The ``tool_choice`` dropdown's "not given" entry has the value :data:`NOT_GIVEN`, not ``None``: ipywidgets
(8.1) reads a ``None`` value as "nothing selected" and shows an empty box (``Dropdown._validate_value`` and
``_propagate_value`` in ``ipywidgets/widgets/widget_selection.py``), so the picker was blank when nothing was
forced. The view maps it to the engine's ``None``. The lines each change rewrites (the answers' error flags,
the options as sent) are in the body's own type size, not ``<small>``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from ..i18n import N_, _
from .engines.wire_formats import ANSWER_STATES, BodyView, WireFormatsEngine
from .style import badge, block, box
from .text import MAX_SHOWN, html_text, shorten

__all__ = ["NOT_GIVEN", "WireFormatsView"]

#: The ``tool_choice`` picker's value for "no tool_choice" (never a tool name: names match ``^[a-zA-Z0-9_-]+$``).
NOT_GIVEN = "(not given)"

_LABELS = {"answered": N_("answered"), "error": N_('answered, status="error"'), "dropped": N_("answer dropped")}


#: The most characters one message of a body shows (a huge ToolMessage is cut, not sent whole three times).
MAX_ITEM = 600


def _flag(flag: bool | None) -> str:
    return _("no error field") if flag is None else f"is_error={str(flag).lower()}"


def body_html(view: BodyView) -> str:
    """One column: the verdict on pairing and the error flag, the options as sent, then the body's items."""
    if view.body is None:
        raised = html_text(_("bind_tools raised"))
        return box(f"{badge(N_('REFUSED'), 'bad')} <b>{html_text(view.name)}</b>: {raised}"
                   + block(shorten(view.error), css_class="course-error"), "bad", css_class="course-body",
                   data={"format": view.name, "verdict": "refused"})
    if view.unanswered:
        verdict = badge(N_("PROVIDER REFUSES"), "bad") + " " + _(
            "built without error, but no result answers {calls}: only the provider would say so").format(
                calls=html_text(", ".join(view.unanswered)))
        tone, data = "bad", "unanswered"
    else:
        verdict = badge(N_("PAIRED"), "ok") + " " + html_text(_("every call answered by its id"))
        tone, data = "ok", "paired"
    answers = "; ".join(f"{html_text(call_id)}: {_flag(flag)}" for call_id, flag in view.answers) or _("none")
    options = ", ".join(f"{key}={html_text(json.dumps(value))}"
                        for key, value in (view.options or {}).items()) or _("none sent")
    answers = _("answers: {answers}").format(answers=answers)
    options = _("options: {options}").format(options=options)
    return box(
        f"<b>{html_text(view.name)}</b><br>{verdict}"
        f"<div class='course-answers'>{answers}</div>"
        f"<div class='course-options'>{options}</div>"
        + block(shorten("\n".join(shorten(item, MAX_ITEM) for item in view.items()), MAX_SHOWN),
                css_class="course-items"),
        tone, css_class="course-body", data={"format": view.name, "verdict": data})


class WireFormatsView(widgets.VBox):
    """Change the conversation and the ``bind_tools`` options; see the three request bodies change.

    An ``ipywidgets.VBox``; its plain methods are the engine's (:class:`~helpers.widgets.engines.
    wire_formats.WireFormatsEngine`, which documents how the bodies are built): :meth:`set_answer`,
    :meth:`force_tool`, :meth:`set_parallel`, :meth:`reset`.

    Args:
        prefix, ai, answers, tools, clients: as for the engine.

    Attributes:
        engine: the engine; ``bodies`` is the list of :class:`BodyView` on show.
        answer_pickers: ``{call id: Dropdown}``; tool_choice_picker, parallel_box, reset_button,
        bodies_view: the controls.

    Raises:
        ValueError: as the engine.
    """

    def __init__(self, prefix: Sequence[BaseMessage], ai: AIMessage, answers: Sequence[ToolMessage],
                 tools: Sequence[Any], *, clients: Any = None):
        self.engine = WireFormatsEngine(prefix, ai, answers, tools, clients=clients)
        self.bodies: list[BodyView] = []
        options = [(_(label), state) for state, label in _LABELS.items() if state in ANSWER_STATES]
        self.answer_pickers = {
            call["id"]: widgets.Dropdown(
                options=options, value=self.engine.states[call["id"]],
                description=shorten(f"{call['id']} ({call['args'].get('order_id', call['name'])})", 60) + ":",
                style={"description_width": "initial"})
            for call in ai.tool_calls}
        self.tool_choice_picker = widgets.Dropdown(
            options=[(_("not given"), NOT_GIVEN) if c is None else (repr(c), c) for c in self.engine.tool_choices],
            value=NOT_GIVEN, description="tool_choice=", style={"description_width": "initial"})
        self.parallel_box = widgets.Checkbox(value=True, description=_("parallel tool calls allowed"),
                                             indent=False)
        self.reset_button = widgets.Button(description=_("Start again"),
                                           tooltip=_("Both calls answered as in the notebook, no options"))
        self.bodies_view = widgets.HTML()
        for call_id, picker in self.answer_pickers.items():
            picker.observe(lambda change, call_id=call_id: self._on_answer(call_id, change), names="value")
        self.tool_choice_picker.observe(self._on_choice, names="value")
        self.parallel_box.observe(self._on_parallel, names="value")
        self.reset_button.on_click(lambda _button: self.reset())
        super().__init__([
            widgets.HTML(_("<b>One conversation, three request bodies:</b> change what the application sends "
                           "back and how the tools are bound")),
            widgets.HBox(list(self.answer_pickers.values())),
            widgets.HBox([self.tool_choice_picker, self.parallel_box, self.reset_button]),
            self.bodies_view,
        ])
        self.add_class("course-wire-formats")
        self._render()

    # -- plain methods: what the mouse does ---------------------------------------------------

    def set_answer(self, call_id: str, state: str) -> None:
        """As :meth:`WireFormatsEngine.set_answer`, then re-render."""
        self.engine.set_answer(call_id, state)
        self._render()

    def force_tool(self, choice: str | None) -> None:
        """As :meth:`WireFormatsEngine.force_tool`, then re-render."""
        self.engine.force_tool(choice)
        self._render()

    def set_parallel(self, allowed: bool) -> None:
        """As :meth:`WireFormatsEngine.set_parallel`, then re-render."""
        self.engine.set_parallel(allowed)
        self._render()

    def reset(self) -> None:
        """As :meth:`WireFormatsEngine.reset`, then re-render."""
        self.engine.reset()
        self._render()

    # -- rendering ------------------------------------------------------------------------------

    def _on_answer(self, call_id: str, change: dict) -> None:
        if change["new"] != self.engine.states[call_id]:
            self.set_answer(call_id, change["new"])

    def _on_choice(self, change: dict) -> None:
        choice = None if change["new"] == NOT_GIVEN else change["new"]
        if choice != self.engine.tool_choice:
            self.force_tool(choice)

    def _on_parallel(self, change: dict) -> None:
        if (self.engine.parallel_tool_calls is None) != change["new"]:
            self.set_parallel(change["new"])

    def _render(self) -> None:
        engine = self.engine
        for call_id, picker in self.answer_pickers.items():
            if picker.value != engine.states[call_id]:
                picker.value = engine.states[call_id]
        shown = NOT_GIVEN if engine.tool_choice is None else engine.tool_choice
        if self.tool_choice_picker.value != shown:
            self.tool_choice_picker.value = shown
        if self.parallel_box.value != (engine.parallel_tool_calls is None):
            self.parallel_box.value = engine.parallel_tool_calls is None
        self.bodies = engine.bodies()
        cells = "".join(f"<td style='vertical-align: top; padding: 2px 6px; width: 33%'>{body_html(v)}</td>"
                        for v in self.bodies)
        self.bodies_view.value = (f"<table class='course-bodies' style='width: 100%; table-layout: fixed'>"
                                  f"<tr>{cells}</tr></table>")

    def __repr__(self) -> str:
        return _("WireFormatsView ({calls} tool calls, {bodies} request bodies): run this cell to open "
                 "it").format(calls=len(self.engine.call_ids), bodies=len(self.engine.clients))
