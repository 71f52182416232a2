"""The self-check view: an ``ipywidgets.VBox`` around :class:`SelfCheckEngine` ("Check yourself").

Every control calls one engine method; the view only renders. Handlers never ``print``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import ipywidgets as widgets

from ..selfcheck.format import Question
from .engines.self_check import CheckedAnswer, Recorder, SelfCheckEngine
from .style import badge, block, box, muted
from .text import html_text

__all__ = ["SelfCheck"]


def _inline_code(text: str) -> str:
    """Escaped text with `backticks` shown as ``<code>``."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html_text(text))


class SelfCheck(widgets.VBox):
    """"Check yourself": one block per question (prompt, code, choices, a Check button, the verdict).

    An ``ipywidgets.VBox``; its plain methods: :meth:`answer` (pick and check, as a click does),
    :meth:`reset`. Build it with :func:`helpers.selfcheck.self_check`.

    Args:
        notebook: the notebook number, e.g. ``"02"``.
        questions: the questions.
        recorder: passed to the engine (default: ``helpers.progress`` when available).

    Attributes:
        engine: the :class:`SelfCheckEngine`. pickers, check_buttons, feedback_views: question id ->
        its ``RadioButtons``, ``Button`` and ``HTML``. score_view, reset_button.
    """

    def __init__(self, notebook: str, questions: Sequence[Question], *, recorder: Recorder | None = None):
        self.engine = SelfCheckEngine(notebook, questions, recorder=recorder)
        self.pickers: dict[str, widgets.RadioButtons] = {}
        self.check_buttons: dict[str, widgets.Button] = {}
        self.feedback_views: dict[str, widgets.HTML] = {}
        blocks = []
        for number, question in enumerate(self.engine.questions, 1):
            code = block(question.code, css_class="course-code") if question.kind == "predict" else ""
            prompt = widgets.HTML(f"<p style='margin: 4px 0'><b>{number}.</b> {_inline_code(question.prompt)}</p>{code}")
            picker = widgets.RadioButtons(options=list(question.choices), value=None,
                                          layout=widgets.Layout(width="auto"))
            button = widgets.Button(description="Check", tooltip="Check your answer")
            feedback = widgets.HTML()
            picker.observe(lambda change, qid=question.id: self._on_pick(qid), names="value")
            button.on_click(lambda _button, qid=question.id: self._check(qid))
            self.pickers[question.id], self.check_buttons[question.id] = picker, button
            self.feedback_views[question.id] = feedback
            blocks.append(widgets.VBox([prompt, picker, button, feedback]).add_class("course-question"))
        self.score_view = widgets.HTML()
        self.reset_button = widgets.Button(description="Start again", tooltip="Clear your answers")
        self.reset_button.on_click(lambda _button: self.reset())
        super().__init__([
            widgets.HTML(f"<b>Check yourself</b> · notebook {html_text(notebook)} · "
                         f"{len(self.engine.questions)} questions: pick an answer, press Check."),
            *blocks, widgets.HBox([self.reset_button]), self.score_view,
        ])
        self.add_class("course-self-check")
        self._render()

    # -- plain methods: what the mouse does ---------------------------------------------------

    def answer(self, question_id: str, choice: str | int) -> CheckedAnswer:
        """Pick a choice (text or 0-based position) and press Check; returns the checked answer.

        Raises:
            ValueError: an unknown question or choice.
        """
        question = self.engine.question(question_id)
        if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(question.choices):
            choice = question.choices[choice]
        checked = self.engine.answer(question_id, choice)
        self.pickers[question_id].value = checked.choice
        self._render()
        return checked

    def reset(self) -> None:
        """Clear every answer and pick."""
        self.engine.reset()
        for picker in self.pickers.values():
            picker.value = None
        self._render()

    # -- rendering ------------------------------------------------------------------------------

    def _on_pick(self, question_id: str) -> None:
        self._render()

    def _check(self, question_id: str) -> None:
        choice = self.pickers[question_id].value
        if choice is not None:
            self.engine.answer(question_id, choice)
        self._render()

    def _render(self) -> None:
        for question in self.engine.questions:
            picked = self.pickers[question.id].value
            button = self.check_buttons[question.id]
            button.disabled = picked is None
            button.button_style = "" if picked is None else "primary"  # a disabled button is grey
            checked = self.engine.answers.get(question.id)
            view = self.feedback_views[question.id]
            if checked is None:
                view.value = ""
            elif picked is not None and picked != checked.choice:
                view.value = muted("You changed your pick: press Check again.", css_class="course-changed")
            else:
                verdict = checked.verdict
                view.value = box(f"{badge(verdict.word, verdict.tone)} {html_text(checked.feedback)}", verdict.tone,
                                 css_class="course-verdict", data={"verdict": verdict})
        right, answered, total = self.engine.score()
        note = f" ({self.engine.record_note})" if self.engine.record_note else ""
        self.score_view.value = (f"<p class='course-score' data-right='{right}' data-answered='{answered}' "
                                 f"style='margin: 2px 0'>{right} of {total} right so far, {answered} answered."
                                 f"<small style='color: #546e7a'>{html_text(note)}</small></p>")

    def __repr__(self) -> str:
        return (f"Check yourself (notebook {self.engine.notebook}, {len(self.engine.questions)} questions): "
                "run this cell to answer them")
