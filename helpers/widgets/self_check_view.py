"""The self-check view: an ``ipywidgets.VBox`` around :class:`SelfCheckEngine` ("Check yourself").

Every control calls one engine method; the view only renders. Handlers never ``print``.

Choices are ticks (:class:`ChoicePicker`), not ``RadioButtons``: ipywidgets 8.1 draws a radio
option's label as plain text, so a choice such as "`live_model` asks your model" would show its
backticks, while a ``Checkbox`` description may be HTML (``description_allow_html``, sanitised by
the front end). The label is escaped and its `backticks` become ``<code>``, exactly as in a prompt.
A checkbox label does not wrap (ipywidgets gives it ``white-space: nowrap`` and the 28px line
height of an input row), and a description is inserted into it as it is; so the view's header
carries :data:`CHOICE_CSS`, a ``<style>`` scoped to ``.course-self-check .course-choices``, that
lets a long choice wrap at :data:`~helpers.widgets.style.LINE_HEIGHT`, the tick beside its first line.
The same style draws each tick as a round radio button (one answer per question; the header says so),
and stops a label's text from showing its own ``title``: ipywidgets 8.1 sets the description span's
``title`` to the raw description, so hovering a choice showed ``<code>`` tags as a tooltip.

**A Check carries the ticks the page showed.** Each tick box and the Check button are different
widget models, and ipywidgets 8 can deliver a tick after the click that follows it: the kernel then
checked (and counted, if it was the first answer) the choice the learner had just moved away from.
A click on Check comes through the view's page part (:class:`~helpers.widgets.page_clicks.PageClicks`)
with the question's tick states as the page showed them, and the view checks that choice
(:meth:`SelfCheck.on_page_message`); a click made before the kernel cleared the picks (Clear picks,
:meth:`SelfCheck.answer` from code) or while two choices still showed ticked checks nothing and says so.

**Readable without running.** Displayed in a notebook (:meth:`SelfCheck._ipython_display_`), the
view shows two outputs: first a static rendering of the questions and their choices (HTML and plain
text, no answers, :func:`static_view`), then the widget. A committed notebook stores no widget state,
so GitHub, nbviewer and JupyterLab before the cell runs show the static questions; once the widget
renders, :data:`STATIC_HIDE_CSS` hides the static output next to it (a ``:has()`` rule scoped to the
output area that holds both), so the widget replaces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from ..i18n import N_, _
from ..progress.store import score_line
from ..selfcheck import notebook_number, questions_for
from ..selfcheck.format import Question
from .engines.self_check import CheckedAnswer, Recorder, SelfCheckEngine
from .page_clicks import UNPLACED_CLICK, PageButton, PageClicks, page_click, refusal
from .style import LINE_HEIGHT, badge, block, box, muted
from .text import html_text, inline_code

__all__ = ["CHOICE_CSS", "FIRST_ANSWER_COUNTS", "STATIC_CLASS", "STATIC_HIDE_CSS", "ChoicePicker", "SelfCheck",
           "static_view"]

#: The note for a click on Check made while the page showed two ticks (the kernel had not yet cleared one).
TWO_TICKS = N_("Two choices were ticked when you pressed Check, so nothing was checked. Keep one ticked and "
               "press Check again.")
#: Shown under a question once it has a first answer.
FIRST_ANSWER_COUNTS = N_("Your first answer counts; you can still explore the others.")
#: The verdict words of :class:`helpers.widgets.outcomes.Answer`, marked for the catalog.
_VERDICT_WORDS = (N_("RIGHT"), N_("WRONG"))

#: The class of the static rendering's outer ``<div>`` (:func:`static_view`).
STATIC_CLASS = "course-self-check-static"

_TICK = ".course-self-check .course-choices label.widget-label-basic input[type='checkbox']"

#: How choice labels wrap: scoped to the self-check, overriding ipywidgets 8.1's checkbox label
#: (``.widget-checkbox``: ``height: 28px``; ``.widget-label-basic``: ``white-space: nowrap``,
#: ``overflow: hidden``; its ``input``: ``flex-grow: 1``, ``align-self: center``). Each tick is
#: drawn as a radio button (one answer per question); the description span ignores the pointer, so
#: its raw-HTML ``title`` never shows (a click on the text still reaches the ``<label>``, which
#: ticks the box).
CHOICE_CSS = ("<style>"
              ".course-self-check .course-choices .widget-checkbox {height: auto; width: auto}"
              ".course-self-check .course-choices label.widget-label-basic {display: flex; align-items: baseline; "
              "white-space: normal; overflow: visible; " + LINE_HEIGHT + "; padding: 2px 0; cursor: pointer}"
              ".course-self-check .course-choices label.widget-label-basic > span {pointer-events: none}"
              f"{_TICK} {{flex: none; align-self: baseline; appearance: none; -webkit-appearance: none; "
              "width: 14px; height: 14px; margin: 0 8px 0 2px; border: 1.5px solid #57606a; border-radius: 50%; "
              "background: #ffffff; cursor: pointer; position: relative; top: 2px}"
              f"{_TICK}:checked {{border-color: #0969da; "
              "background: radial-gradient(circle, #0969da 0 40%, #ffffff 45%)}"
              f"{_TICK}:focus-visible {{outline: 2px solid #0969da; outline-offset: 2px}}"
              "</style>")

#: Hides the static rendering (:data:`STATIC_CLASS`) in the JupyterLab output area where the widget
#: rendered (the static output comes first, the widget after it); carried by the widget's header.
STATIC_HIDE_CSS = (f"<style>.jp-OutputArea-child:has(.{STATIC_CLASS}):has(~ .jp-OutputArea-child "
                   ".course-self-check) {display: none}</style>")


def static_view(notebook: str, questions: Sequence[Question], choices: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """The questions as static output: what a reader sees before the widget runs (no answers).

    Args:
        notebook: the notebook number, e.g. ``"03"``.
        questions: the questions, in the order shown.
        choices: question id -> its choices in the order the widget shows them.

    Returns:
        a display bundle ``{"text/html": ..., "text/plain": ...}``: a numbered list of each prompt, its
        code (for a "predict the output" question) and its choices with an empty radio mark, under a
        line that says to run the cell to answer. No answer, explanation or ``why_not`` is in it.
    """
    head = _("Check yourself (notebook {notebook}, {count} questions): run this cell to answer them "
             "in the widget, one answer per question. Answers are not shown here.").format(
                 notebook=notebook, count=len(questions))
    items, lines = [], [head]
    for number, question in enumerate(questions, 1):
        code = block(question.code, css_class="course-code") if question.kind == "predict" else ""
        marks = "".join(f"<li>&#9675; {inline_code(choice, quote=False)}</li>" for choice in choices[question.id])
        items.append(f"<li style='margin: 6px 0'><p style='margin: 2px 0; {LINE_HEIGHT}'>{inline_code(question.prompt)}"
                     f"</p>{code}<ul style='list-style: none; padding-left: 0.5em; margin: 2px 0'>{marks}</ul></li>")
        lines.append(f"{number}. {question.prompt}")
        lines += [f"   | {line}".rstrip() for line in question.code.splitlines()] if code else []
        lines += [f"   ( ) {choice}" for choice in choices[question.id]]
    title = _("<b>Check yourself</b> · notebook {notebook} · {count} questions: run this cell to answer them in "
              "the widget (one answer per question). Answers are not shown here.").format(
                  notebook=html_text(notebook), count=len(questions))
    html = (f"<div class='{STATIC_CLASS}'><p style='margin: 4px 0; {LINE_HEIGHT}'>{title}</p>"
            f"<ol>{''.join(items)}</ol></div>")
    return {"text/html": html, "text/plain": "\n".join(lines)}


class ChoicePicker(widgets.VBox):
    """One question's choices, one tick each; at most one is ticked. ``value`` is the ticked choice.

    Like ``RadioButtons`` (``options``, ``value``; ``None`` when nothing is ticked), but each label
    renders `code` (:func:`~helpers.widgets.text.inline_code`) and wraps. Ticking a choice unticks the others; unticking the
    ticked one leaves nothing picked.

    Args:
        choices: the choices, in the order shown.

    Attributes:
        options: the choices. boxes: one ``Checkbox`` per choice, in that order.

    Raises:
        traitlets.TraitError: ``value`` set to something that is not a choice (or ``None``).
    """

    value = traitlets.Unicode(None, allow_none=True)

    def __init__(self, choices: Sequence[str]):
        self.options = tuple(choices)
        self.boxes = [widgets.Checkbox(value=False, indent=False, description_allow_html=True,
                                       description=inline_code(choice, quote=False),
                                       layout=widgets.Layout(width="auto", height="auto"))
                      for choice in self.options]
        super().__init__(self.boxes)
        self.add_class("course-choices")
        for choice, tick in zip(self.options, self.boxes):
            tick.observe(lambda change, choice=choice: self._on_tick(choice, change["new"]), names="value")

    @traitlets.validate("value")
    def _valid(self, proposal):
        value = proposal["value"]
        if value is not None and value not in self.options:
            raise traitlets.TraitError(f"{value!r} is not one of the choices")
        return value

    @traitlets.observe("value")
    def _show(self, change) -> None:
        for choice, tick in zip(self.options, self.boxes):
            tick.value = choice == change["new"]

    def _on_tick(self, choice: str, ticked: bool) -> None:
        if ticked:
            self.value = choice
        elif self.value == choice:
            self.value = None


class SelfCheck(widgets.VBox):
    """"Check yourself": one block per question (prompt, code, choices, a Check button, the verdict).

    An ``ipywidgets.VBox``; its plain methods: :meth:`answer` (pick and check, as a click does),
    :meth:`reset`; :meth:`on_page_message` is a click on Check in the page (see the module
    docstring). Build it with :func:`helpers.selfcheck.self_check`. The first answer to a
    question counts (the score says "right on first try"); later ones are shown as attempts.

    Args:
        notebook: the notebook number, e.g. ``"02"``.
        questions: the questions.
        recorder: passed to the engine (default: ``helpers.progress`` when available).

    Attributes:
        engine: the :class:`SelfCheckEngine`. pickers, check_buttons, feedback_views: question id ->
        its :class:`ChoicePicker`, ``Button`` and ``HTML``. score_view, reset_button. click_note: why a
        click from the page checked nothing (empty otherwise). clicks: the page part, invisible.
    """

    def __init__(self, notebook: str, questions: Sequence[Question], *, recorder: Recorder | None = None):
        self.engine = SelfCheckEngine(notebook, questions, recorder=recorder)
        self.pickers: dict[str, ChoicePicker] = {}
        self.check_buttons: dict[str, widgets.Button] = {}
        self.feedback_views: dict[str, widgets.HTML] = {}
        blocks = []
        for number, question in enumerate(self.engine.questions, 1):
            code = block(question.code, css_class="course-code") if question.kind == "predict" else ""
            prompt = widgets.HTML(f"<p style='margin: 4px 0; {LINE_HEIGHT}'><b>{number}.</b> "
                                  f"{inline_code(question.prompt)}</p>{code}")
            picker = ChoicePicker(self.engine.choices[question.id])
            picker.add_class(f"course-field-choices-{number}")  # where the page part reads the ticks
            button = PageButton(f"check-{number}", description=_("Check"), tooltip=_("Check your answer"),
                                unplaced=lambda: self._refuse(_(UNPLACED_CLICK)))
            feedback = widgets.HTML()
            picker.observe(lambda change, qid=question.id: self._on_pick(qid), names="value")
            button.on_click(lambda _button, qid=question.id: self._check(qid))
            self.pickers[question.id], self.check_buttons[question.id] = picker, button
            self.feedback_views[question.id] = feedback
            blocks.append(widgets.VBox([prompt, picker, button, feedback]).add_class("course-question"))
        self.score_view = widgets.HTML()
        self.reset_button = widgets.Button(
            description=_("Clear picks"),
            tooltip=_("Clear your picks to go through again (your first answers still count)"))
        self.reset_button.on_click(lambda _button: self.reset())
        self.click_note = widgets.HTML()
        # The page part: a click on Check arrives as one message with the render and the ticks the page showed.
        self.clicks = PageClicks("course-self-check")
        self.clicks.on_msg(lambda _widget, content, _buffers: self.on_page_message(content))
        super().__init__([
            widgets.HTML(CHOICE_CSS + STATIC_HIDE_CSS + _(
                "<b>Check yourself</b> · notebook {notebook} · {count} questions: pick one answer per question, "
                "press Check. Your first answer to each question counts.").format(
                    notebook=html_text(notebook), count=len(self.engine.questions))),
            *blocks, widgets.HBox([self.reset_button]), self.click_note, self.score_view, self.clicks,
        ])
        self.add_class("course-self-check")
        self._render()

    # -- plain methods: what the mouse does ---------------------------------------------------

    def answer(self, question_id: str, choice: str | int) -> CheckedAnswer:
        """Pick a choice (its text, or its 0-based position as shown) and press Check; returns the answer.

        Raises:
            ValueError: an unknown question or choice.
        """
        checked = self.engine.answer(question_id, choice)
        self.pickers[question_id].value = checked.choice
        self._render(moved=True)
        return checked

    def reset(self) -> None:
        """Clear every pick and shown verdict; the first answers (and the score) stay."""
        self.engine.reset()
        for picker in self.pickers.values():
            picker.value = None
        self._render(moved=True)

    def on_page_message(self, content: Any) -> CheckedAnswer | None:
        """A message from the page part: a click on a question's Check in the page (tests send the same).

        Args:
            content: ``{"event": "action", "action": "check-<n>", "render": <int>, "clicks": <int>,
                "fields": {"choices-<n>": [<bool per choice, in the order shown>], ...}}`` for question
                ``n`` (1-based, as numbered), as ``page_clicks.js`` sends it
                (:func:`~helpers.widgets.page_clicks.page_click`).

        Returns:
            the answer checked: the one choice the page showed ticked (ticks the page did not send:
            the picker's own value); ``None`` when nothing was checked: a message that is not such a
            click (ignored), no choice ticked, or a click refused (made on an earlier render, with
            two choices ticked, or with ticks in another shape than the page part sends):
            :attr:`click_note` says why.
        """
        questions = self.engine.questions
        click = page_click(content, [f"check-{number}" for number in range(1, len(questions) + 1)])
        if click is None:
            return None
        number = int(click.action.removeprefix("check-"))
        question_id = questions[number - 1].id
        picker = self.pickers[question_id]
        note = refusal(click, self.clicks.render, ticks={f"choices-{number}": len(picker.options)})
        if note:
            self._refuse(note)
            return None
        ticks = click.ticks(f"choices-{number}", len(picker.options))
        if ticks is None:
            choice = picker.value
        elif sum(ticks) > 1:
            self._refuse(_(TWO_TICKS))
            return None
        else:
            choice = picker.options[ticks.index(True)] if any(ticks) else None
        if choice is None:
            self._render()
            return None
        checked = self.engine.answer(question_id, choice)
        picker.value = choice
        self._render()
        return checked

    # -- rendering ------------------------------------------------------------------------------

    def _on_pick(self, question_id: str) -> None:
        self._render()

    def _refuse(self, note: str) -> None:
        """Say why a click from the page checked nothing; everything else stays as shown."""
        self.click_note.value = muted(note, css_class="course-click-note")

    def _check(self, question_id: str) -> None:
        choice = self.pickers[question_id].value
        if choice is not None:
            self.engine.answer(question_id, choice)
        self._render()

    def _feedback(self, checked: CheckedAnswer) -> str:
        verdict, first = checked.verdict, self.engine.first_verdict(checked.question.id) or checked.verdict
        attempt = "" if checked.first_try else _("attempt {number}: ").format(number=checked.attempt)
        shown = box(f"{html_text(attempt)}{badge(verdict.word, verdict.tone)} {inline_code(checked.feedback)}",
                    verdict.tone, css_class="course-verdict",
                    data={"verdict": verdict, "attempt": str(checked.attempt), "first": first})
        counts = _(FIRST_ANSWER_COUNTS) if checked.first_try else \
            _("Your first answer ({verdict}) counts; you can still explore the others.").format(verdict=_(first.word))
        return shown + muted(counts, css_class="course-first-counts")

    def _render(self, *, moved: bool = False) -> None:
        """Show the picks, verdicts and score. ``moved``: the kernel changed the ticks the learner sees, so
        the render number moves on and a click made on what the page showed before is refused."""
        self.click_note.value = ""
        self._render_questions()
        if moved:  # last: the page holds the new number only once it has drawn every part above
            self.clicks.render += 1

    def _render_questions(self) -> None:
        for question in self.engine.questions:
            picked = self.pickers[question.id].value
            button = self.check_buttons[question.id]
            button.disabled = picked is None
            button.button_style = "" if picked is None else "primary"  # a disabled button is grey
            checked = self.engine.answers.get(question.id)
            view = self.feedback_views[question.id]
            if checked is None:
                first = self.engine.first_verdict(question.id)
                view.value = "" if first is None else muted(
                    _("Your first answer ({verdict}) counts; you can still explore the others.").format(
                        verdict=_(first.word)),
                    css_class="course-first-counts")
            elif picked is not None and picked != checked.choice:
                view.value = muted(_("You changed your pick: press Check again."), css_class="course-changed")
            else:
                view.value = self._feedback(checked)
        right, answered, total = self.engine.score()
        note = f" ({self.engine.record_note})" if self.engine.record_note else ""
        score = _("{score}.").format(score=score_line(right, answered, total))
        self.score_view.value = (f"<p class='course-score' data-right='{right}' data-answered='{answered}' "
                                 f"style='margin: 2px 0; {LINE_HEIGHT}'>{score}"
                                 f"<small style='color: #546e7a'>{html_text(note)}</small></p>")

    def _ipython_display_(self, **kwargs) -> None:
        """Display the static questions (:func:`static_view`), then the widget: two outputs.

        The static output is what a reader of the committed notebook sees; the widget's own style
        hides it once the widget renders (:data:`STATIC_HIDE_CSS`).
        """
        from IPython.display import display

        engine = self.engine
        display(static_view(engine.notebook, engine.questions, engine.choices), raw=True)
        display(self._repr_mimebundle_(), raw=True)

    def __repr__(self) -> str:
        return _("Check yourself (notebook {notebook}, {count} questions): run this cell to answer them").format(
            notebook=self.engine.notebook, count=len(self.engine.questions))


def self_check(notebook: Any) -> Any:
    """The self-check widget for one notebook: the last value of a "Check yourself" cell.

    Args:
        notebook: its number, e.g. ``"02"``.

    Returns:
        a :class:`helpers.widgets.SelfCheck` for :func:`questions_for` ``(notebook)``.

    Raises:
        ValueError: as :func:`questions_for`.
    """
    number = notebook_number(notebook)
    return SelfCheck(number, questions_for(number))
