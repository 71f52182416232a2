"""Every self-check question holds on the pinned stack, and every notebook with questions shows them.

Covers each ``helpers/selfcheck/nbNN.py`` found by name (:func:`helpers.selfcheck.available_notebooks`):

* a "predict the output" question's ``code`` is run (after the module's ``CODE_CONTEXT``: the
  notebook's definitions the snippet uses) in a fresh namespace, and what it prints must be its
  ``answer`` exactly;
* a question whose truth needs more than one print (a "which of these happens" question, or a
  predict question whose answer describes a value) has a verifier, ``verify_<id>`` in
  ``tests/selfcheck_verifiers/nbNN.py`` (found by name, see that package): it runs the behaviour
  and returns the choice that is true, which must be the ``answer``. A choice question without one
  fails, and so does a predict question without either: every answer is proven on the pins;
* the section a question points to exists in its notebook, and the notebook has a
  "## Check yourself" section (``self_check("NN")``, committed as its one-line text) just before
  "## Recap".

Answering through the engine with ``COURSE_PROGRESS_FILE`` set shows up in the progress table.
"""

import re
from pathlib import Path
from typing import Any

import pytest

from helpers.selfcheck import available_notebooks, questions_for
from tests.selfcheck_verifiers import function_name, verifiers_of
from tests.selfcheck_verifiers.snippets import (
    cells,
    context_namespace,
    context_of,
    notebook_path,
    run_snippet,
    source,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SELFCHECK_DIR = ROOT / "helpers" / "selfcheck"
ALL = [(number, question) for number in available_notebooks() for question in questions_for(number)]


def _id(value: Any) -> str:
    return value if isinstance(value, str) else getattr(value, "id", str(value))


#: (notebook number, verifier function name) -> verifier, from ``tests/selfcheck_verifiers/nbNN.py``.
VERIFIERS = {(number, name): function for number in available_notebooks()
             for name, function in verifiers_of(number).items()}


# -- the tests ---------------------------------------------------------------------------------


def test_question_modules_are_found_by_name():
    names = sorted(p.name for p in SELFCHECK_DIR.glob("nb*.py"))
    assert names == [f"nb{n}.py" for n in available_notebooks()], "question modules are named nbNN.py (two digits)"
    for number in available_notebooks():
        notebook_path(number)
    assert {"01", "02", "03", "04", "05", "06", "07"} <= set(available_notebooks())


def test_every_verifier_belongs_to_a_question():
    known = {(number, function_name(q.id)) for number, q in ALL}
    stray = sorted(f"tests/selfcheck_verifiers/nb{n}.py: {name}" for n, name in set(VERIFIERS) - known)
    assert not stray, f"verifiers whose name matches no question id (verify_<id with _ for ->): {stray}"


@pytest.mark.parametrize(("number", "question"), ALL, ids=_id)
def test_the_answer_is_true_on_the_pins(number, question):
    verifier = VERIFIERS.get((number, function_name(question.id)))
    if verifier is not None:
        assert verifier(question) == question.answer
    elif question.kind == "predict":
        context = context_of(number)
        assert context is not None, (
            f"nb{number}.{question.id}: no test runs this snippet; give helpers/selfcheck/nb{number}.py a CODE_CONTEXT "
            f"(the notebook's definitions it uses) or add {function_name(question.id)}(question) to "
            f"tests/selfcheck_verifiers/nb{number}.py")
        namespace = context_namespace(number)
        printed = run_snippet(question.code, namespace, f"nb{number}.{question.id}").strip()
        assert printed == question.answer, f"nb{number}.{question.id} prints {printed!r}"
    else:
        pytest.fail(f"nb{number}.{question.id}: no verifier proves this choice question on the pins; add "
                    f"{function_name(question.id)}(question) to tests/selfcheck_verifiers/nb{number}.py: it runs "
                    "the behaviour and returns the true choice (pick(question, 'fragment'))")


def _headings(number: str) -> set[str]:
    """Section numbers of notebook ``number``'s ``## N.`` / ``### Na.`` headings, and ``pitfall N``."""
    found = set()
    for cell in cells(number):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        found |= {f"section {m}" for m in re.findall(r"^#{2,3} (\d+[a-z]?)\.", text, re.MULTILINE)}
        found |= {f"pitfall {m}" for m in re.findall(r"^\*\*(\d+)\. ", text, re.MULTILINE)}
    return found


@pytest.mark.parametrize(("number", "question"), ALL, ids=_id)
def test_the_sections_a_question_points_to_exist(number, question):
    named = {f"{kind} {n}" for kind, n in re.findall(r"\b(section|pitfall)s? (\d+[a-z]?)", question.section)}
    assert named, f"{question.id}: the section names no 'section N'"
    missing = named - _headings(number)
    assert not missing, f"nb{number}.{question.id} points to {sorted(missing)}, not in the notebook"


def check_yourself_problems(number: str, nb: list[dict], count: int) -> list[str]:
    """What is wrong with notebook ``number``'s "Check yourself" section (cells ``nb``, ``count``
    questions), each as a sentence that says how to fix it; empty when nothing is."""
    starts = [i for i, c in enumerate(nb) if c["cell_type"] == "markdown" and source(c).startswith("## Check yourself")]
    if len(starts) != 1:
        return [f"notebook {number}: one '## Check yourself' Markdown cell is needed, found {len(starts)}"]
    start = starts[0]
    heading, widget = nb[start], nb[start + 1] if start + 1 < len(nb) else None
    recaps = [i for i, c in enumerate(nb) if c["cell_type"] == "markdown" and source(c).startswith("## Recap")]
    problems = []
    if source(heading).strip() == "## Check yourself":
        problems.append(f"notebook {number}: a one-line intro follows the '## Check yourself' heading in its cell")
    if widget is None or widget["cell_type"] != "code" or f'self_check("{number}")' not in source(widget):
        problems.append(f"notebook {number}: the cell after '## Check yourself' must be the code cell "
                        f"'from helpers.selfcheck import self_check' / 'self_check(\"{number}\")'")
    else:
        texts = ["".join(o.get("data", {}).get("text/plain", "")) for o in widget["outputs"]]
        want = f"Check yourself (notebook {number}, {count} questions): run this cell to answer them"
        static = "".join(widget["outputs"][0].get("data", {}).get("text/html", "")) if widget["outputs"] else ""
        if len(texts) != 2 or texts[1] != want or "course-self-check-static" not in static:
            problems.append(f"notebook {number}: the self-check cell's committed outputs are {texts!r}, not the "
                            f"static questions (issue 17) followed by {want!r}; "
                            f"it is stale: re-execute the notebook (python -m tooling.notebooks "
                            f"{notebook_path(number).relative_to(ROOT)}) and commit it")
    if recaps != [start + 2]:
        between = [source(c).splitlines()[0] if source(c) else "(empty cell)" for c in nb[start + 2:(recaps or [len(nb)])[0]]]
        problems.append(f"notebook {number}: '## Recap' must follow the self-check cell directly"
                        + (f"; move these cells above '## Check yourself': {between}" if between and recaps
                           else "; add a '## Recap' Markdown cell there"))
    return problems


@pytest.mark.parametrize("number", available_notebooks())
def test_the_notebook_has_its_check_yourself_just_before_the_recap(number):
    problems = check_yourself_problems(number, cells(number), len(questions_for(number)))
    assert not problems, "\n".join(problems)


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "source": text, "metadata": {}}


def _widget(number: str, outputs: list[str]) -> dict:
    static = {"output_type": "display_data",
              "data": {"text/html": '<div class="course-self-check-static">...</div>', "text/plain": "questions"}}
    return {"cell_type": "code", "source": f'self_check("{number}")', "metadata": {},
            "outputs": ([static] if outputs else [])
            + [{"output_type": "execute_result", "data": {"text/plain": t}} for t in outputs]}


def test_check_yourself_problems_say_how_to_fix_them():
    good = "Check yourself (notebook 00, 3 questions): run this cell to answer them"
    ok = [_md("## Check yourself\nThree questions."), _widget("00", [good]), _md("## Recap\n- x")]
    assert check_yourself_problems("00", ok, 3) == []
    between = ok[:2] + [_md("## 7. A late section\ntext")] + ok[2:]
    (problem,) = check_yourself_problems("00", between, 3)
    assert "move these cells above '## Check yourself': ['## 7. A late section']" in problem
    (problem,) = check_yourself_problems("00", ok, 4)
    assert "it is stale: re-execute the notebook (python -m tooling.notebooks notebooks/00_" in problem
    (problem,) = check_yourself_problems("00", [ok[0], _widget("00", []), ok[2]], 3)
    assert "committed outputs are [], not" in problem and "re-execute" in problem
    (problem,) = check_yourself_problems("00", ok[:2], 3)
    assert "add a '## Recap' Markdown cell there" in problem


def test_answers_given_in_the_widget_reach_the_progress_table(tmp_path, monkeypatch):
    import helpers.progress.report as progress
    from helpers.widgets.engines import SelfCheckEngine

    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(tmp_path / "progress.json"))
    questions = {}
    for number in available_notebooks():
        engine = SelfCheckEngine(number, questions_for(number))
        first, second = engine.questions[:2]
        engine.answer(first.id, first.answer)
        engine.answer(second.id, next(c for c in second.choices if c != second.answer))
        assert engine.record_note == ""
        questions[number] = [q.id for q in engine.questions]
    rows = {progress.notebook_key(r.notebook): r for r in progress.progress_rows(questions=questions) if r.self_check}
    for number in available_notebooks():
        assert rows[number].self_check == f"1 of {len(questions[number])} right on first try, 2 answered"
    step = progress.next_step(questions=questions)
    assert step is not None and step.kind in {"exercise", "self-check"}
