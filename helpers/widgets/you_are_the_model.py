"""The view of "you are the model" (notebook 02): an ``ipywidgets.VBox`` around :class:`YouAreTheModelEngine`.

Every control calls one engine method; the view only renders. Handlers never ``print``.

A click on "Send tool call" in the page comes through the view's page part
(:class:`~helpers.widgets.page_clicks.PageClicks`) with the tool and the argument text the page
showed at that moment, and the view sends exactly those (:meth:`YouAreTheModel.on_page_message`):
ipywidgets 8 sends the args field's new value as a message of another widget model, which can reach
the kernel after the click. A click made before the kernel changed the fields under the learner
(a tool chosen, which resets the arguments to its skeleton; Start again; a method called from
code) sends nothing and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
from langchain_core.tools import BaseTool

from ..i18n import N_, _
from .engines.you_are_the_model import ModelTurn, YouAreTheModelEngine
from .outcomes import TurnOutcome
from .page_clicks import UNPLACED_CLICK, PageButton, PageClicks, page_click, refusal
from .style import badge, block, box, history, muted
from .text import html_text, sendable

__all__ = ["YouAreTheModel"]

_NOTES = {
    TurnOutcome.RAN: N_("The application ran the tool and answered with a ToolMessage carrying the same id."),
    TurnOutcome.ARGUMENT_ERROR: N_("The tool rejected the arguments; ToolNode answered with an error ToolMessage "
                                   "(same id), so the model can fix its call."),
    TurnOutcome.INVALID_JSON: N_("Not a JSON object: the reply holds an invalid tool call. Nothing ran, and "
                                 "create_agent would end the run here (section 5)."),
    TurnOutcome.TOOL_RAISED: N_("The tool raised. ToolNode's default error handler re-raises everything except "
                                "argument errors, so the whole run stops and the call stays unanswered "
                                "(notebook 09)."),
    TurnOutcome.REFUSED: N_("Nothing was built or sent. Fix the arguments and send again."),
}
_START = N_("No tool call sent yet: choose a tool, type its arguments, press Send tool call.")


class YouAreTheModel(widgets.VBox):
    """"You are the model": pick a bound tool, write its arguments, and see what ``ToolNode`` does.

    An ``ipywidgets.VBox`` (as ``ipywidgets.interactive`` is one), so it displays as a cell's
    value. Its plain methods call the engine (:class:`~helpers.widgets.engines.you_are_the_model.
    YouAreTheModelEngine`): :meth:`choose`, :meth:`set_arguments`, :meth:`send_tool_call` (the
    engine's ``send``; ``Widget.send`` is ipywidgets' own message method), :meth:`reset`; and
    :meth:`on_page_message`, a click on Send in the page (see the module docstring).
    The view shows the latest turn in full (green: it ran; amber: an error result; red: nothing
    ran or the run stopped) and the learner's last five turns as a history.

    Args:
        tools: the bound tools.
        question: the user message shown above the controls.

    Attributes:
        engine: the engine; ``turns`` is ``engine.turns``.
        tool_picker, arguments, send_button, reset_button, schema_view, reply_view, history_view: the controls.
        click_note: why a click from the page sent nothing (empty otherwise). clicks: the page part
        (:class:`~helpers.widgets.page_clicks.PageClicks`), invisible.

    Raises:
        ValueError: no tools given.
    """

    def __init__(self, tools: Sequence[BaseTool], *, question: str = "Where is my order A1024?"):
        self.engine = YouAreTheModelEngine(tools, question=question)
        self.tool_picker = widgets.Dropdown(options=list(self.engine.tools), value=self.engine.tool,
                                            description=_("tool:"))
        self.arguments = widgets.Textarea(value=self.engine.arguments, description=_("args (JSON):"),
                                          layout=widgets.Layout(width="95%", height="4em"))
        self.schema_view = widgets.HTML()
        self.tool_picker.add_class("course-field-tool")  # where the page part reads what is shown
        self.arguments.add_class("course-field-args")
        self.send_button = PageButton("send", description=_("Send tool call"), button_style="primary",
                                      tooltip=_("Build the AIMessage and run it through ToolNode"),
                                      unplaced=lambda: self._refuse(_(UNPLACED_CLICK)))
        self.reset_button = widgets.Button(description=_("Start again"),
                                           tooltip=_("Forget your turns; ids restart at call_1"))
        self.reply_view = widgets.HTML()
        self.history_view = widgets.HTML()
        self.click_note = widgets.HTML()
        # The page part: a click on Send arrives as one message with the render and the fields the page showed.
        self.clicks = PageClicks("course-you-are-the-model")
        self.clicks.on_msg(lambda _widget, content, _buffers: self.on_page_message(content))
        self.tool_picker.observe(self._on_pick, names="value")
        self.arguments.observe(self._on_type, names="value")
        self.send_button.on_click(lambda _button: self.send_tool_call())
        self.reset_button.on_click(lambda _button: self.reset())
        super().__init__([
            widgets.HTML(_("<b>User:</b> {question}").format(question=html_text(self.engine.question))),
            self.tool_picker, self.schema_view, self.arguments,
            widgets.HBox([self.send_button, self.reset_button]), self.click_note, self.reply_view,
            self.history_view, self.clicks,
        ])
        self.add_class("course-you-are-the-model")
        self._render()

    # -- plain methods: what the mouse does ---------------------------------------------------

    @property
    def turns(self) -> list[ModelTurn]:
        """Every turn since the last reset (the engine's)."""
        return self.engine.turns

    def choose(self, name: str) -> None:
        """Select a bound tool; the arguments reset to its skeleton. Raises ``ValueError`` if not bound."""
        self.engine.choose(name)
        self._render(moved=True)

    def set_arguments(self, text: str) -> None:
        """Type the arguments (a lone surrogate is stored as its ``\\ud800`` escape)."""
        self.engine.set_arguments(text)
        self._render(moved=True)

    def send_tool_call(self) -> ModelTurn:
        """Send the call (see :meth:`YouAreTheModelEngine.send`), show and return the turn. Never raises."""
        self.engine.set_arguments(self.arguments.value)
        turn = self.engine.send()
        self._render()
        return turn

    def reset(self) -> None:
        """Forget every turn and show the widget as it first opened (the chosen tool stays)."""
        self.engine.reset()
        self._render(moved=True)

    def on_page_message(self, content: Any) -> ModelTurn | None:
        """A message from the page part: a click on Send tool call in the page (tests send the same).

        Args:
            content: ``{"event": "action", "action": "send", "render": <int>, "clicks": <int>,
                "fields": {"tool": <position in the tool picker>, "args": <the args field's text>}}``,
                as ``page_clicks.js`` sends it (:func:`~helpers.widgets.page_clicks.page_click`).

        Returns:
            the turn sent, built from the tool and the text the page showed (a field the page did not
            find: the view's own value); ``None`` when nothing was sent: a message that is not such a
            click (ignored), a click made on an earlier render, or one whose fields have another shape
            than the page part sends (refused: :attr:`click_note` says so).
        """
        click = page_click(content, ("send",))
        if click is None:
            return None
        names = list(self.engine.tools)
        note = refusal(click, self.clicks.render, texts=("args",), indexes={"tool": len(names)})
        if note:
            self._refuse(note)
            return None
        index = click.index("tool", len(names))
        text = click.text("args")
        turn = self.engine.send(tool=None if index is None else names[index],
                                arguments=self.arguments.value if text is None else text)
        self._render()
        return turn

    # -- rendering ------------------------------------------------------------------------------

    def _on_pick(self, change: dict) -> None:
        if change["new"] != self.engine.tool:
            self.engine.choose(change["new"])
            self._render(moved=True)  # the arguments are the new tool's skeleton: a click made before sends nothing

    def _refuse(self, note: str) -> None:
        """Say why a click from the page sent nothing; everything else stays as shown."""
        self.click_note.value = muted(note, css_class="course-click-note")

    def _on_type(self, change: dict) -> None:
        clean = sendable(change["new"])
        self.engine.set_arguments(clean)
        if clean != change["new"]:
            self.arguments.value = clean

    def _render(self, *, moved: bool = False) -> None:
        """Show the engine's state. ``moved``: the kernel changed a field the learner sees (the tool, the
        arguments), so the render number moves on and a click made on what the page showed before is refused."""
        engine = self.engine
        if self.tool_picker.value != engine.tool:
            self.tool_picker.value = engine.tool
        if self.arguments.value != engine.arguments:
            self.arguments.value = engine.arguments
        self.click_note.value = ""
        self._render_reply()
        if moved:  # last: the page holds the new number only once it has drawn every part above
            self.clicks.render += 1

    def _render_reply(self) -> None:
        engine = self.engine
        summary = _("what the model sees for <code>{tool}</code>").format(tool=html_text(engine.tool))
        self.schema_view.value = (f"<details><summary>{summary}</summary>"
                                  f"{block(engine.schema_json(), css_class='course-schema')}</details>")
        if not engine.turns:
            self.reply_view.value = muted(_(_START), css_class="course-start")
            self.history_view.value = ""
            return
        turn = engine.turns[-1]
        self.reply_view.value = box(
            f"{badge(turn.outcome.word, turn.outcome.tone)} {block(turn.summary(), css_class='course-turn')}"
            f"<p class='course-outcome' data-outcome='{turn.outcome}' style='margin: 2px 0'>"
            f"{html_text(_(_NOTES[turn.outcome]))}</p>",
            turn.outcome.tone, css_class="course-reply", data={"outcome": turn.outcome})
        self.history_view.value = history(engine.history, "turn")

    def __repr__(self) -> str:
        return _("YouAreTheModel ({count} tools bound): run this cell to open the playground").format(
            count=len(self.engine.tools))
