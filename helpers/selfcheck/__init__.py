"""Self-checks: 3-5 questions at the end of a notebook, answered in a small widget.

A notebook's "Check yourself" section calls::

    from helpers.selfcheck import self_check
    self_check("02")

which returns a :class:`helpers.widgets.SelfCheck` (an ``ipywidgets.VBox``) for the questions in
``helpers/selfcheck/nb02.py``. Each answer says RIGHT or WRONG with a one-line explanation and
the section that teaches it, and is recorded with ``helpers.progress.record_self_check(notebook,
question_id, correct)`` when that module is available (see
:mod:`helpers.widgets.engines.self_check`). The first answer to a question counts (the score is
"right on first try"); later answers are shown as attempts. The choices are shown in a fixed
shuffled order (:func:`helpers.selfcheck.order.shown_choices`), whatever order a module lists them in.

**Two editions.** A module marks each learner-facing text of its questions with ``N_()`` (prompt,
explanation, section, the ``why_not`` lines, the choices, the answer, the ``why_not`` keys); never
``code``, ids, or a "predict" choice that is program output (what the snippet prints, which the
tests compare: it has no translation, so it is shown as written). :func:`questions_for` hands the
questions out through :func:`translated`, so the static rendering and the widget show them in the
edition's language (:mod:`helpers.i18n`); the English edition gets the texts unchanged. The choices
keep their English order and the answer stays the translated right choice, so checking and
recording an answer do not depend on the language.

To add a notebook's questions: create ``helpers/selfcheck/nbNN.py`` with
``QUESTIONS = (Question(...), ...)`` (format: :class:`Question`), then add the section to the
notebook. The file name is the registration (the course's one mechanism, like the exercises'
``helpers/exercises/nbNN.py``): :func:`available_notebooks` finds it. Each answer is proven on the
pins by ``tests/test_selfcheck_questions.py``: a "predict the output" snippet runs after the
module's ``CODE_CONTEXT``; any other question has a verifier ``verify_<id>`` in
``tests/selfcheck_verifiers/nbNN.py``. ``tests/test_widget_self_check.py`` checks every question module.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable
from typing import Any

from ..i18n import _
from ..lazy import lazy_exports
from .format import Question, QuestionKind, check_questions
from .order import shown_choices

#: The widget is built where its view lives, and loads on first use: this package, which the widget's
#: engine and view read the questions from, never imports the widget.
_EXPORTS = {"self_check": "helpers.widgets.self_check_view"}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["Question", "QuestionKind", "available_notebooks", "notebook_number", "questions_for", "self_check",
           "shown_choices", "translated"]


def notebook_number(notebook: Any) -> str:
    """A notebook's number as the files name it: ``"02"`` for ``"02"``, ``"2"`` or ``2``.

    Raises:
        ValueError: not a number of one or two digits.
    """
    text = str(notebook).strip()
    if not re.fullmatch(r"\d{1,2}", text):
        raise ValueError(f"a notebook is given by its number, e.g. '02', got {notebook!r}")
    return text.zfill(2)


def available_notebooks() -> list[str]:
    """The notebook numbers that have questions (``["02", "07"]``), from the ``nbNN.py`` files here."""
    from pathlib import Path

    return sorted(p.stem[2:] for p in Path(__file__).parent.glob("nb[0-9][0-9].py"))


def translated(question: Question, translate: Callable[[str], str] = _) -> Question:
    """``question`` with its learner-facing texts in the current edition's language.

    Args:
        question: a question as its module writes it (English, texts marked with ``N_()``).
        translate: how one text is translated; default :func:`helpers.i18n._` (the edition of the
            notebook that runs; the text unchanged in English or when the catalog lacks it).

    Returns:
        a copy (``dataclasses.replace``) whose prompt, explanation, section, choices, answer and
        ``why_not`` keys and lines are translated (one translation per text, so the answer is still
        one of the choices and each ``why_not`` key still a wrong one; a printed output has no
        translation and stays as written); ``code`` and the id stay as written. ``source`` is the
        English question, which seeds the shown order (:func:`shown_choices`).

    Raises:
        ValueError: a translation that breaks the question (two choices translated alike, a
            multi-line explanation): see :class:`Question`.
    """
    source = question.source or question
    return dataclasses.replace(
        source, source=source, prompt=translate(source.prompt), explanation=translate(source.explanation),
        section=translate(source.section), choices=tuple(map(translate, source.choices)),
        answer=translate(source.answer),
        why_not={translate(wrong): translate(why) for wrong, why in source.why_not.items()})


def questions_for(notebook: Any) -> tuple[Question, ...]:
    """The checked questions of one notebook, in the current edition's language (:func:`translated`).

    Args:
        notebook: its number, ``"02"``, ``"2"`` or ``2``.

    Raises:
        ValueError: not a notebook number, no questions for it yet, or a bad question set
            (see :func:`check_questions`).
    """
    number = notebook_number(notebook)
    try:
        module = importlib.import_module(f"{__name__}.nb{number}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.nb{number}":
            raise
        raise ValueError(f"notebook {number} has no self-check questions yet (no helpers/selfcheck/nb{number}.py)") \
            from None
    questions = check_questions(number, getattr(module, "QUESTIONS", ()))
    return tuple(translated(question) for question in questions)
