"""The self-check's static rendering (issue 17): the questions readable in a committed notebook, no answers."""

from __future__ import annotations

import html

import pytest

from helpers.selfcheck import available_notebooks, questions_for, self_check
from helpers.widgets.self_check_view import CHOICE_CSS, STATIC_CLASS, STATIC_HIDE_CSS, static_view


@pytest.mark.parametrize("number", available_notebooks())
def test_the_static_view_shows_every_question_and_choice_and_no_answer(number):
    widget = self_check(number)
    bundle = static_view(number, widget.engine.questions, widget.engine.choices)
    plain, page = bundle["text/plain"], html.unescape(bundle["text/html"])
    assert f"class='{STATIC_CLASS}'" in bundle["text/html"]
    for question in widget.engine.questions:
        assert question.prompt in plain
        shown = widget.engine.choices[question.id]
        marks = [line for line in plain.splitlines() if line.startswith("   ( ) ")]
        assert all(f"   ( ) {choice}" in marks for choice in shown), "every choice, each with the same empty mark"
        for secret in (question.explanation, *question.why_not.values()):
            assert secret not in plain and secret not in page, f"{question.id}: the static view gives the answer away"
        if question.kind == "predict":
            assert all(f"   | {line}".rstrip() in plain for line in question.code.splitlines())
    assert all(line == line.rstrip() for line in plain.splitlines()), "no trailing spaces"
    order = [plain.index(q.prompt) for q in widget.engine.questions]
    assert order == sorted(order), "questions in the widget's order"


def test_displaying_the_widget_shows_the_static_questions_first_then_the_widget(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append((obj, raw)))
    widget = self_check("03")
    widget._ipython_display_()
    (static, raw_static), (view, raw_view) = shown
    assert raw_static and raw_view
    assert static == static_view("03", widget.engine.questions, widget.engine.choices)
    assert view["text/plain"] == "Check yourself (notebook 03, 5 questions): run this cell to answer them"
    assert view["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.model_id


def test_the_widget_hides_the_static_view_and_the_raw_html_tooltip_once_it_renders():
    assert f".jp-OutputArea-child:has(.{STATIC_CLASS}):has(~ .jp-OutputArea-child .course-self-check)" in \
        STATIC_HIDE_CSS
    assert STATIC_HIDE_CSS in self_check("03").children[0].value, "the widget's header carries the rule"
    assert "label.widget-label-basic > span {pointer-events: none}" in CHOICE_CSS
    assert "border-radius: 50%" in CHOICE_CSS, "single choice: the ticks are drawn as radio buttons"
