"""Self-checks: the question format, every notebook's question set, the engine and the view, headless."""

from __future__ import annotations

import sys
import types

import pytest

from helpers.selfcheck import Question, available_notebooks, questions_for, self_check
from helpers.selfcheck.format import check_questions
from helpers.selfcheck.order import shown_choices
from helpers.widgets import Answer, SelfCheck
from helpers.widgets.engines import SelfCheckEngine
from helpers.widgets.engines import self_check as self_check_engine
from helpers.widgets.engines.self_check import record_with_progress
from helpers.widgets.self_check_view import CHOICE_CSS, ChoicePicker
from helpers.widgets.text import inline_code


def q(id="q1", **changes) -> Question:
    fields = dict(id=id, prompt="What runs?", choices=("nothing", "the tool"), answer="nothing",
                  explanation="A tool call is a request.", section="section 3, Nothing has run yet")
    fields.update(changes)
    return Question(**fields)


class Recorded(list):
    """A recorder that keeps every call: (notebook, question_id, correct)."""

    def __call__(self, notebook, question_id, correct):
        self.append((notebook, question_id, correct))
        return ""


# -- the question format -----------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "message"), [
    ({"id": "Has Spaces"}, "the id must be a slug"),
    ({"choices": ("only one",), "answer": "only one"}, "give 2 to 5 choices, got 1"),
    ({"choices": tuple("abcdef"), "answer": "a"}, "give 2 to 5 choices, got 6"),
    ({"choices": ("same", "same"), "answer": "same"}, "the choices must be different"),
    ({"answer": "everything"}, "the answer 'everything' is not one of the choices"),
    ({"explanation": ""}, "explanation must be a non-empty text"),
    ({"explanation": "two\nlines"}, "the explanation is one line"),
    ({"section": " "}, "section must be a non-empty text"),
    ({"why_not": {"nothing": "the right one"}}, "why_not keys must be wrong choices"),
])
def test_a_malformed_question_is_refused_when_it_is_written(changes, message):
    with pytest.raises(ValueError, match=message):
        q(**changes)


def test_kind_and_frozen():
    assert q().kind == "choice" and q(code="print(1)").kind == "predict"
    with pytest.raises(AttributeError):
        q().answer = "the tool"
    with pytest.raises(TypeError):
        q(why_not={"the tool": "why"}).why_not["the tool"] = "changed"


def test_a_question_set_has_3_to_5_questions_with_unique_ids():
    with pytest.raises(ValueError, match="3 to 5 questions, got 2"):
        check_questions("99", [q("a"), q("b")])
    with pytest.raises(ValueError, match="repeated: a"):
        check_questions("99", [q("a"), q("a"), q("b")])


@pytest.mark.parametrize("notebook", available_notebooks())
def test_every_notebooks_questions_are_well_formed(notebook):
    questions = questions_for(notebook)
    assert 3 <= len(questions) <= 5
    for question in questions:
        assert question.section.startswith("section"), question.id
        assert len(question.explanation) <= 200, question.id


def test_notebooks_02_and_07_have_questions_and_others_say_so():
    assert {"02", "07"} <= set(available_notebooks())
    assert questions_for(2) == questions_for("02")
    with pytest.raises(ValueError, match="notebook 99 has no self-check questions yet"):
        questions_for("99")
    with pytest.raises(ValueError, match="a notebook is given by its number"):
        questions_for("02_tool_calls")


# -- the engine --------------------------------------------------------------------------------


def test_right_and_wrong_answers_with_feedback_and_a_record_each():
    recorded = Recorded()
    engine = SelfCheckEngine("03", [q("a"), q("b", why_not={"the tool": "It only looks that way."})],
                             recorder=recorded)
    right = engine.answer("a", "nothing")
    assert right.verdict is Answer.RIGHT and right.correct
    assert right.feedback == "A tool call is a request. (see section 3, Nothing has run yet)"
    wrong = engine.answer("b", engine.choices["b"].index("the tool"))  # by its position as shown
    assert wrong.verdict == "wrong" and wrong.choice == "the tool" and wrong.attempt == 1 and wrong.first_try
    assert wrong.feedback == "It only looks that way. A tool call is a request. (see section 3, Nothing has run yet)"
    assert engine.score() == (1, 2, 2)
    assert recorded == [("03", "a", True), ("03", "b", False)]


def test_the_first_answer_counts_and_later_ones_are_attempts():
    """Before: a second try replaced the first, so trying each choice in turn always ended "right" (lab review 1)."""
    recorded = Recorded()
    engine = SelfCheckEngine("03", [q("a"), q("b")], recorder=recorded)
    engine.answer("b", "the tool")
    again = engine.answer("b", "nothing")                     # exploring: right, but not the first answer
    assert again.correct and again.attempt == 2 and not again.first_try
    assert engine.answers["b"] is again and engine.first_answers["b"].choice == "the tool"
    assert engine.score() == (0, 1, 2), "right on first try: none"
    assert recorded == [("03", "b", False), ("03", "b", True)]  # every answer is recorded; progress keeps the first
    engine.reset()                                            # clears what is shown, not the first answers
    assert engine.answers == {} and engine.score() == (0, 1, 2)
    assert engine.answer("b", "nothing").attempt == 3
    engine.answer("a", "nothing")
    assert engine.score() == (1, 2, 2)


def test_unknown_questions_and_choices_are_clear_errors():
    engine = SelfCheckEngine("03", [q("a")], recorder=Recorded())
    with pytest.raises(ValueError, match="no question 'zz'; questions: a"):
        engine.answer("zz", 0)
    with pytest.raises(ValueError, match="'maybe' is not a choice of question 'a'"):
        engine.answer("a", "maybe")
    with pytest.raises(ValueError, match="choices 0 to 1, got 5"):
        engine.answer("a", 5)
    with pytest.raises(ValueError, match="unique question ids"):
        SelfCheckEngine("03", [q("a"), q("a")])


def test_answers_are_recorded_with_helpers_progress_record(monkeypatch):
    calls = []
    monkeypatch.setattr(self_check_engine, "record_self_check",
                        lambda notebook, question_id, correct: calls.append((notebook, question_id, correct)) or "")
    monkeypatch.setattr(self_check_engine, "recorded_self_checks", lambda notebook: {})
    engine = SelfCheckEngine("02", questions_for("02"))
    engine.answer("nothing-ran-yet", "1 0 0")
    assert calls == [("02", "nothing-ran-yet", True)] and engine.record_note == ""


def test_outside_the_workspace_answering_works_and_records_nothing(monkeypatch, tmp_path):
    monkeypatch.delenv("COURSE_PROGRESS_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    assert record_with_progress("02", "x", True) == ""
    engine = SelfCheckEngine("02", questions_for("02"))
    assert engine.answer("nothing-ran-yet", "1 1 1").verdict == "wrong" and engine.record_note == ""


def test_a_recorder_that_raises_is_a_note_not_a_crash(monkeypatch):
    def broken(notebook, question_id, correct):
        raise OSError("progress file is read-only")

    monkeypatch.setattr(self_check_engine, "record_self_check", broken)
    monkeypatch.setattr(self_check_engine, "recorded_self_checks", lambda notebook: {})
    engine = SelfCheckEngine("02", questions_for("02"))
    assert engine.answer("nothing-ran-yet", "1 0 0").correct
    assert engine.record_note == "not recorded: OSError: progress file is read-only"


# -- the view ----------------------------------------------------------------------------------


@pytest.fixture
def view():
    return SelfCheck("07", questions_for("07"), recorder=Recorded())


def test_self_check_builds_the_view_with_a_one_line_repr():
    widget = self_check("2")
    assert isinstance(widget, SelfCheck) and widget.engine.notebook == "02"
    assert widget._repr_mimebundle_()["text/plain"] == \
        "Check yourself (notebook 02, 5 questions): run this cell to answer them"


def test_the_view_opens_with_nothing_picked_and_check_disabled(view):
    for question in view.engine.questions:
        assert view.pickers[question.id].value is None
        assert view.check_buttons[question.id].disabled and view.check_buttons[question.id].button_style == ""
        assert view.feedback_views[question.id].value == ""
    assert "0 of 5 right on first try, 0 answered." in view.score_view.value
    assert "<code>last_checked: str</code>" not in view.children[1].children[0].value  # code goes in a block
    assert "class CheckState(TypedDict):" in view.children[1].children[0].value


def test_picking_and_checking_shows_right_or_wrong_in_words_and_colour(view):
    picker, button = view.pickers["replace-by-id"], view.check_buttons["replace-by-id"]
    picker.value = "three messages: hi, draft, final"
    assert not button.disabled and button.button_style == "primary"
    button.click()
    feedback = view.feedback_views["replace-by-id"].value
    assert "data-verdict='WRONG'" in feedback and "data-tone='bad'" in feedback
    assert "(see section 3, <code>add_messages</code>: the reducer behind <code>messages</code>)" in feedback
    assert "Your first answer counts; you can still explore the others." in feedback
    assert "0 of 5 right on first try, 1 answered." in view.score_view.value
    picker.value = "two messages: hi, final"
    assert "press Check again" in view.feedback_views["replace-by-id"].value  # the old verdict is not shown
    button.click()
    feedback = view.feedback_views["replace-by-id"].value
    assert "data-verdict='RIGHT'" in feedback and "data-attempt='2'" in feedback and "data-first='wrong'" in feedback
    assert "attempt 2: " in feedback and "Your first answer (WRONG) counts" in feedback
    assert "0 of 5 right on first try, 1 answered." in view.score_view.value, "a later right answer scores nothing"


def test_answer_and_reset_methods(view, capsys):
    question = view.engine.question("exclusive-field")
    checked = view.answer("exclusive-field", view.engine.choices[question.id].index(question.answer))
    assert checked.correct and view.pickers["exclusive-field"].value == checked.choice
    view.reset_button.click()
    assert view.pickers["exclusive-field"].value is None and view.engine.answers == {}
    assert "Your first answer (RIGHT) counts" in view.feedback_views["exclusive-field"].value
    assert "1 of 5 right on first try, 1 answered." in view.score_view.value, "clearing the picks keeps the score"
    assert view.check_buttons["exclusive-field"].disabled
    assert capsys.readouterr() == ("", "")


# -- the order of the choices ------------------------------------------------------------------


ALL = [(number, question) for number in available_notebooks() for question in questions_for(number)]


def test_the_right_answers_are_spread_over_the_positions_across_the_course():
    """Before: in notebooks 00-08 the right answer was the first choice of all 43 questions (lab review 1)."""
    positions = [shown_choices(number, question).index(question.answer) for number, question in ALL]
    assert len(positions) >= 40
    for place in set(positions):
        share = positions.count(place) / len(positions)
        assert share <= 0.40, f"{share:.0%} of the right answers are choice {place + 1}"
    for number in available_notebooks():  # nor one notebook with every answer in one place
        places = {shown_choices(number, q).index(q.answer) for q in questions_for(number)}
        assert len(places) > 1, f"notebook {number}: every right answer is choice {places.pop() + 1}"


def test_the_shown_order_is_fixed_and_is_what_the_view_and_the_engine_use():
    for number, question in ALL:
        shown = shown_choices(number, question)
        assert sorted(shown) == sorted(question.choices) and shown == shown_choices(number, question)
    view = SelfCheck("07", questions_for("07"), recorder=Recorded())
    for question in view.engine.questions:
        assert view.pickers[question.id].options == view.engine.choices[question.id] == shown_choices("07", question)
        assert view.engine.answer(question.id, 0).choice == shown_choices("07", question)[0]


def test_the_order_is_the_same_in_another_process_with_another_hash_seed():
    """The seed is a SHA-256 digest of notebook, id and choice, not Python's salted ``hash()``."""
    import json
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = ("import json; from helpers.selfcheck import available_notebooks, questions_for; "
            "from helpers.selfcheck.order import shown_choices; "
            "print(json.dumps({n + '/' + q.id: shown_choices(n, q) for n in available_notebooks() "
            "for q in questions_for(n)}))")
    here = {f"{n}/{q.id}": list(shown_choices(n, q)) for n, q in ALL}
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120,
                             env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": seed})
        assert out.returncode == 0, out.stderr[-2000:]
        assert json.loads(out.stdout) == here
    assert any(shown_choices(n, q) != shown_choices("99", q) for n, q in ALL), "the notebook is part of the seed"


# -- how a choice is shown ---------------------------------------------------------------------


def test_choice_labels_render_inline_code_like_prompts_and_escape_the_rest():
    """Before: RadioButtons showed a choice's backticks as typed, while the prompt showed code (lab review 1)."""
    question = q(choices=("`live_model` <b>asks</b> & `x < y`", "plain \"text\""), answer="plain \"text\"",
                 prompt="Which `cell` & <i>why</i>?")
    view = SelfCheck("99", [question, q("b"), q("c")], recorder=Recorded())
    labels = {box.description for box in view.pickers["q1"].boxes}
    assert labels == {"<code>live_model</code> &lt;b&gt;asks&lt;/b&gt; &amp; <code>x &lt; y</code>", 'plain "text"'}
    assert all(box.description_allow_html and not box.indent for box in view.pickers["q1"].boxes)
    prompt = view.children[1].children[0].value
    assert "Which <code>cell</code> &amp; &lt;i&gt;why&lt;/i&gt;?" in prompt
    assert inline_code("`a` b") == "<code>a</code> b"
    for number, question in ALL:  # the front end typesets $...$ in an HTML description as maths
        assert not any("$" in choice for choice in question.choices), (number, question.id)


def test_the_choice_picker_ticks_at_most_one_choice():
    picker = ChoicePicker(["a", "b", "c"])
    picker.boxes[1].value = True
    assert picker.value == "b" and [box.value for box in picker.boxes] == [False, True, False]
    picker.boxes[2].value = True
    assert picker.value == "c" and [box.value for box in picker.boxes] == [False, False, True]
    picker.boxes[2].value = False
    assert picker.value is None and not any(box.value for box in picker.boxes)
    picker.value = "a"
    assert [box.value for box in picker.boxes] == [True, False, False]
    import traitlets
    with pytest.raises(traitlets.TraitError, match="'d' is not one of the choices"):
        picker.value = "d"
    assert picker.value == "a"


def test_wrapping_widget_text_is_not_double_spaced():
    """Before: ipywidgets' 28px row height made every wrapped line of widget HTML look double-spaced (lab review 1)."""
    from helpers.widgets import style

    assert style.LINE_HEIGHT == "line-height: 1.4"
    for html in (style.box("x", "ok"), style.block("x"), style.muted("x"), style.WRAP,
                 style.history([types.SimpleNamespace(outcome="ran", history_line=lambda: "x")], "turn")):
        assert "line-height: 1.4" in html, html
    view = SelfCheck("07", questions_for("07"), recorder=Recorded())
    assert "line-height: 1.4" in view.children[1].children[0].value  # the prompt
    assert "line-height: 1.4" in view.score_view.value
    header = view.children[0].value
    assert header.startswith(CHOICE_CSS) and "white-space: normal" in CHOICE_CSS and "line-height: 1.4" in CHOICE_CSS
    assert all(".course-self-check .course-choices" in rule for rule in CHOICE_CSS[7:-8].split("}") if rule)


# -- one name, one thing -------------------------------------------------------------------------


def test_from_helpers_widgets_import_self_check_gives_the_function():
    """Before: ``helpers.widgets.self_check`` was the view's module, so the import gave a module (hostile 1)."""
    code = ("import types; from helpers.widgets import self_check as first; "
            "import helpers.selfcheck; widget = helpers.selfcheck.self_check('02'); "  # loads the view's module
            "from helpers.widgets import self_check as again; import helpers.widgets.engines; "
            "from helpers.widgets import self_check as third; "
            "print(first is again is third is helpers.selfcheck.self_check, type(widget).__name__)")
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "SelfCheck"]


def test_no_module_of_helpers_widgets_shares_a_name_with_what_it_exports():
    import pkgutil

    import helpers.widgets

    modules = {info.name for info in pkgutil.iter_modules(helpers.widgets.__path__)}
    assert not modules & set(helpers.widgets.__all__), modules & set(helpers.widgets.__all__)
    assert isinstance(helpers.widgets.self_check, types.FunctionType)
