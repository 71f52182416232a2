"""Notebook 08's self-check: every "predict the output" snippet prints its right answer on the pins."""

from __future__ import annotations

import contextlib
import io

import pytest

from helpers.selfcheck import questions_for

PREDICT = [q for q in questions_for("08") if q.kind == "predict"]


def test_notebook_08_has_predict_questions():
    assert len(PREDICT) >= 2


@pytest.mark.parametrize("question", PREDICT, ids=lambda q: q.id)
def test_snippet_prints_the_answer(question):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(question.code, f"<selfcheck 08 {question.id}>", "exec"), {"__name__": "selfcheck_snippet"})
    assert printed.getvalue().strip() == question.answer
