"""The contract every registered exercise keeps (``helpers.exercises.registry.EXERCISES``).

For each exercise: every reference solution passes; every known-wrong answer fails the cases it
names; every crashing answer becomes ERROR feedback (never an exception); the stub in the notebook
itself (its definition is taken from the notebook's cells) says "not solved yet"; the references
still pass after every wrong answer ran (each check works on fresh data). Across the course: a
notebook that calls an unregistered exercise fails, and so does a registered exercise that its
notebook never checks or a checker module whose exercise is not registered.

Generated inputs (issue 27, ``helpers/exercises/generated.py``): for every exercise that declares
``generated``, each reference solution in ``tests/solutions`` gives the checker's reference outcome
on at least :data:`CONTRACT_INPUTS` generated inputs, and at least one known-wrong answer passes
every named case and is caught only by the generated inputs. The time of a check of each reference
is printed (``-s``), never asserted.

Exercise-specific behaviour (particular feedback texts) stays in ``tests/test_exercises_nbNN.py``.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib
import json
import pkgutil
import threading
import time
from pathlib import Path

import pytest

import helpers.exercises
from helpers.exercises import Exercise
from helpers.exercises import deadline
from helpers.exercises.registry import EXERCISES, AnswerSet, ExerciseEntry, KnownWrong, get
from helpers.workspace import NOTEBOOK_DIR

ENTRIES = {e.id: e for e in EXERCISES}


@pytest.fixture(autouse=True)
def _a_failing_reference_is_reported_once(request, failed_in_this_process):
    """One mistake in a reference solution, one failure: ``test_reference_solution_passes`` (earlier in
    this file, so earlier on the same worker) names the case and its feedback; a test marked
    ``needs_reference`` (it runs the reference again after something else) is then skipped with a
    pointer to that failure instead of failing for the same reason."""
    if request.node.get_closest_marker("needs_reference") is None:
        return
    entry = request.node.callspec.params["entry"]
    prefix = f"{request.node.nodeid.split('::')[0]}::test_reference_solution_passes[{entry.id}-"
    failed = sorted(nodeid for nodeid in failed_in_this_process if nodeid.startswith(prefix))
    if failed:
        pytest.skip(f"a reference solution of exercise {entry.id} fails its own checks, reported once by "
                    f"{failed[0]}; this test needs it to pass")


def _cases(kind: str) -> list:
    """One parameter per answer of ``kind``. An exercise whose answers cannot be loaded gets no
    parameters here: ``test_entry_points_at_its_checker_and_answers`` fails for it with the reason,
    and every other exercise's contract still runs (no collection error)."""
    params = []
    for e in EXERCISES:
        try:
            answers = e.answer_set()
        except LookupError:
            continue
        for name in getattr(answers, kind):
            params.append(pytest.param(e, name, id=f"{e.id}-{name}"))
    return params


# -- the registry itself ---------------------------------------------------------------------


def test_ids_are_unique_and_match_their_notebook():
    ids = [e.id for e in EXERCISES]
    assert len(ids) == len(set(ids))
    for e in EXERCISES:
        number, _, k = e.id.partition(".")
        assert len(number) == 2 and number.isdigit() and k.isdigit(), e.id
        assert e.notebook_key == number and e.notebook.endswith(".ipynb"), e
        assert e.module_name == f"nb{number}", e


@pytest.mark.parametrize("entry", EXERCISES, ids=lambda e: e.id)
def test_entry_points_at_its_checker_and_answers(entry: ExerciseEntry):
    exercise = entry.exercise()
    assert isinstance(exercise, Exercise)
    assert (exercise.id, exercise.title) == (entry.id, entry.title), "the registry's title is the checker's title"
    answers = entry.answer_set()
    assert isinstance(answers, AnswerSet)
    assert answers.solutions and answers.wrong and answers.crashing, "every exercise has all three kinds of answer"
    names = set(exercise.check_names)
    for label, wrong in answers.wrong.items():
        assert isinstance(wrong, KnownWrong) and wrong.fails, label
        unknown = [n for n in wrong.fails if n not in names]
        assert not unknown, f"{entry.id} {label!r} names cases that do not exist: {unknown}"


def test_every_exercise_in_a_checker_module_is_registered():
    found = set()
    for info in pkgutil.iter_modules(helpers.exercises.__path__):
        if not info.name.startswith("nb"):
            continue
        module = importlib.import_module(f"helpers.exercises.{info.name}")
        for attribute, value in vars(module).items():
            if isinstance(value, Exercise):
                found.add(f"helpers.exercises.{info.name}:{attribute}")
    registered = {e.checker for e in EXERCISES}
    assert found - registered == set(), (
        "exercises the registry does not see: write them at module level as NAME = Exercise(\"NN.k\", \"title\", ...)")


def test_get_names_the_known_ids():
    assert get("03.1").attribute == "RUN_TOOL_CALLS"
    with pytest.raises(KeyError, match="no exercise '99.1' is registered"):
        get("99.1")


# -- the notebooks ----------------------------------------------------------------------------


def _code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    sources = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        # IPython magics and shell lines are not Python: keep the line numbers, drop the lines
        sources.append("\n".join("pass" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()))
    return sources


def _exercise_calls(tree: ast.AST) -> list[tuple[str, str, str, ast.Call]]:
    """``(module, ATTRIBUTE, method, call)`` for every ``nbNN.ATTRIBUTE.check(...)`` / ``.evaluate(...)``."""
    calls = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("check", "evaluate") and isinstance(node.func.value, ast.Attribute)
                and isinstance(node.func.value.value, ast.Name) and node.func.value.value.id.startswith("nb")):
            calls.append((node.func.value.value.id, node.func.value.attr, node.func.attr, node))
    return calls


NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_calls_only_registered_exercises(path: Path):
    registered = {(e.module_name, e.attribute) for e in EXERCISES}
    for source in _code_cells(path):
        for module, attribute, method, _ in _exercise_calls(ast.parse(source)):
            assert (module, attribute) in registered, (
                f"{path.name} calls {module}.{attribute}.{method}(...), which no helpers/exercises/nbNN.py defines")


@pytest.mark.parametrize("entry", EXERCISES, ids=lambda e: e.id)
def test_a_registered_exercise_is_checked_in_its_notebook(entry: ExerciseEntry):
    path = NOTEBOOK_DIR / entry.notebook
    assert path.is_file(), f"{entry.id} is registered for {entry.notebook}, which does not exist"
    _stub_source(entry)  # raises with a clear message when there is no learner's check cell


def _stub_source(entry: ExerciseEntry) -> tuple[str, list[str]]:
    """The notebook's definition of the answer the learner's ``.check(name)`` cell passes, and the
    notebook's import statements up to that cell."""
    cells = _code_cells(NOTEBOOK_DIR / entry.notebook)
    trees = [ast.parse(source) for source in cells]
    for index, tree in enumerate(trees):
        for module, attribute, method, call in _exercise_calls(tree):
            if (module, attribute, method) != (entry.module_name, entry.attribute, "check"):
                continue
            if len(call.args) != 1 or not isinstance(call.args[0], ast.Name):
                continue  # a demo call on a lambda, not the learner's own answer
            name = call.args[0].id
            imports, definition = [], None
            for source, cell_tree in zip(cells[: index + 1], trees[: index + 1]):
                for statement in cell_tree.body:
                    if isinstance(statement, (ast.Import, ast.ImportFrom)):
                        imports.append(ast.get_source_segment(source, statement))
                    elif _defines(statement, name):
                        definition = _segment(source, statement)
            assert definition, f"{entry.notebook}: no cell before the check defines {name!r}"
            return definition, imports
    raise AssertionError(f"{entry.notebook} never calls {entry.module_name}.{entry.attribute}.check(<the learner's answer>)")


def _defines(statement: ast.stmt, name: str) -> bool:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name == name
    if isinstance(statement, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
    return False


def _segment(source: str, statement: ast.stmt) -> str:
    """The statement's lines, decorators included."""
    first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", []))])
    return "\n".join(source.splitlines()[first - 1: statement.end_lineno])


@pytest.mark.parametrize("entry", EXERCISES, ids=lambda e: e.id)
def test_the_notebooks_own_stub_says_not_solved_yet(entry: ExerciseEntry):
    definition, imports = _stub_source(entry)
    used = {node.id for node in ast.walk(ast.parse(definition)) if isinstance(node, ast.Name)}
    namespace: dict = {}
    for statement in imports:  # only the imports the stub uses (a notebook may import its own temp modules)
        bound = {(alias.asname or alias.name).split(".")[0] for alias in ast.parse(statement).body[0].names}
        if bound & used:
            exec(statement, namespace)
    namespace.update(entry.answer_set().stub_names)
    try:
        exec(compile(definition, f"<{entry.notebook} stub>", "exec"), namespace)
    except NameError as exc:
        pytest.fail(f"the stub needs a name the notebook defines elsewhere ({exc}): add it to stub_names in "
                    f"{entry.answers.split(':')[0]}")
    stub = namespace[_stub_name(definition)]
    problem = stub_problem(entry.notebook, _stub_name(definition), entry.exercise().evaluate(stub))
    assert problem is None, problem


def stub_problem(notebook: str, name: str, result) -> str | None:
    """Why the notebook's stub ``name`` (checked as ``result``) is not a stub that says "not solved yet"."""
    if not result.solved and "not solved yet" in result.summary():
        return None
    how = "returns an answer instead of raising" if result.solved else "is not recognised as a stub"
    return (f"{notebook}: the stub {name!r} that the learner edits {how}: its body must be "
            f"raise NotImplementedError(...), so that its committed check says 'not solved yet'\n{result.text()}")


def _stub_name(definition: str) -> str:
    statement = ast.parse(definition).body[0]
    return statement.name if hasattr(statement, "name") else statement.targets[0].id


# -- the answers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("entry, name", _cases("solutions"))
def test_reference_solution_passes(entry: ExerciseEntry, name: str, record_property):
    """Also the benchmark of a check (a learner's check must take about 2 s or less): its time is
    printed (``pytest tests/test_exercise_contract.py -k reference_solution_passes -s -p no:xdist``)
    and recorded as a property, never asserted."""
    exercise = entry.exercise()
    start = time.perf_counter()
    result = exercise.evaluate(entry.answer_set().solutions[name])
    seconds = time.perf_counter() - start
    record_property("check_seconds", round(seconds, 3))
    print(f"\n{entry.id} {name!r}: a check takes {seconds:.2f} s ({len(exercise.cases)} named cases, "
          f"{sum(g.examples for g in exercise.generated)} generated inputs)")
    assert result.passed, result.text()


def _named_cases_only(exercise: Exercise) -> Exercise:
    """The exercise without its generated checks (a shallow copy)."""
    named = copy.copy(exercise)
    named.generated = []
    return named


@functools.cache
def _wrong_result(exercise_id: str, label: str):
    """The check of a known-wrong answer, once per process (two tests read it). Its generated checks run
    only when the answer names one of them in ``fails``: elsewhere they would search for nothing, the named
    cases being what is judged (the generated path meets every hostile answer below)."""
    entry = ENTRIES[exercise_id]
    exercise, wrong = entry.exercise(), entry.answer_set().wrong[label]
    if not set(wrong.fails) & {g.name for g in exercise.generated}:
        exercise = _named_cases_only(exercise)
    return exercise.evaluate(wrong.answer)


@pytest.mark.parametrize("entry, name", _cases("wrong"))
def test_known_wrong_answer_fails_its_case(entry: ExerciseEntry, name: str):
    wrong = entry.answer_set().wrong[name]
    result = _wrong_result(entry.id, name)
    assert result.solved and not result.passed, result.text()
    verdicts = {r.name: r.status for r in result.results}
    passed = [case for case in wrong.fails if verdicts.get(case) == "pass"]
    assert not passed, f"{name!r} should fail {passed}:\n{result.text()}"
    if wrong.status is not None:
        other = {case: verdicts[case] for case in wrong.fails if verdicts[case] != wrong.status}
        assert not other, f"{name!r} should be {wrong.status!r} in {other}:\n{result.text()}"


@pytest.mark.parametrize("entry, name", _cases("crashing"))
def test_crashing_answer_becomes_feedback(entry: ExerciseEntry, name: str):
    result = _named_cases_only(entry.exercise()).evaluate(entry.answer_set().crashing[name])
    assert result.solved and not result.passed, result.text()
    assert any(r.status == "error" and r.feedback.startswith("your code raised ") for r in result.results), result.text()
    assert "not solved yet" not in result.text()


@pytest.mark.needs_reference
@pytest.mark.parametrize("entry", EXERCISES, ids=lambda e: e.id)
def test_references_still_pass_after_every_wrong_answer(entry: ExerciseEntry):
    """An answer that edits the checker's data in place must not break the next attempt."""
    exercise, answers = entry.exercise(), entry.answer_set()
    for label in answers.wrong:
        _wrong_result(entry.id, label)  # run in this process (here, or earlier by the test above)
    for crashing in answers.crashing.values():
        _named_cases_only(exercise).evaluate(crashing)
    for name, solution in answers.solutions.items():
        result = exercise.evaluate(solution)
        assert result.passed, f"{name}: {result.text()}"


# -- generated inputs (issue 27) ------------------------------------------------------------------------

#: Distinct generated inputs on which every reference solution must give the checker's reference outcome.
CONTRACT_INPUTS = 200
#: Exercises that do not declare generated inputs (issue 27 converted every one: a new exercise declares them from
#: the start, and this stays empty).
WITHOUT_GENERATED: set[str] = set()


def _with_generated(kind: str) -> list:
    return [p for p in _cases(kind) if p.values[0].exercise().generated]


def test_every_exercise_declares_generated_inputs_or_is_listed_as_not_yet():
    without = {e.id for e in EXERCISES if not e.exercise().generated}
    assert without == WITHOUT_GENERATED, (
        f"declare generated= for {sorted(without - WITHOUT_GENERATED)}; remove {sorted(WITHOUT_GENERATED - without)} "
        "from WITHOUT_GENERATED")


@pytest.mark.parametrize("entry, name", _with_generated("solutions"))
def test_each_reference_solution_agrees_with_the_checkers_reference_on_generated_inputs(entry: ExerciseEntry,
                                                                                        name: str):
    solution = entry.answer_set().solutions[name]
    for generated in entry.exercise().generated:
        report = generated.search(solution, examples=CONTRACT_INPUTS + CONTRACT_INPUTS // 4)
        assert not report.differs, (
            f"{generated.name}: {generated.describe(report.spec)}: the checker's reference gives {report.expected!r}, "
            f"{name!r} gives {report.got!r}" + (f" (it raised {report.error!r})" if report.error else ""))
        assert report.inputs >= CONTRACT_INPUTS, f"{generated.name}: only {report.inputs} distinct inputs were drawn"


@pytest.mark.parametrize("entry", [e for e in EXERCISES if e.exercise().generated], ids=lambda e: e.id)
def test_a_wrong_answer_that_passes_every_named_case_fails_on_generated_inputs(entry: ExerciseEntry):
    """The generated inputs earn their place: some known-wrong answer is caught by them alone."""
    exercise, answers = entry.exercise(), entry.answer_set()
    generated = {g.name for g in exercise.generated}
    named = {case.name for case in exercise.cases}
    only = {label: wrong for label, wrong in answers.wrong.items() if set(wrong.fails) <= generated}
    assert only, f"{entry.id}: add a KnownWrong that passes every named case and fails {sorted(generated)}"
    for label in only:
        verdicts = {r.name: r.status for r in _wrong_result(entry.id, label).results}
        missed = {case: verdicts[case] for case in named if verdicts[case] != "pass"}
        assert not missed, f"{label!r} is meant to pass every named case, but: {missed}"


# -- the scanner itself ---------------------------------------------------------------------------


def test_the_scanner_finds_checks_and_evaluates_and_ignores_other_calls():
    source = ("nb09.NEW_ONE.check(answer)\n"
              "nb00.TOOL_CALL_IDS.evaluate(lambda m: [])\n"
              "result.check(x)\n"
              "helpers.nb01.REFUND_TOOL.check(y)\n")
    found = [(m, a, k) for m, a, k, _ in _exercise_calls(ast.parse(source))]
    assert sorted(found) == [("nb00", "TOOL_CALL_IDS", "evaluate"), ("nb09", "NEW_ONE", "check")]


def _notebook(tmp_path: Path, *sources: str) -> Path:
    cells = [{"cell_type": "code", "source": s, "metadata": {}, "outputs": [], "execution_count": None} for s in sources]
    path = tmp_path / "09_x.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    return path


def test_a_notebook_without_the_learners_check_is_reported(tmp_path):
    path = _notebook(tmp_path, "from helpers.exercises import nb09\n", "nb09.NEW_ONE.evaluate(lambda: 1)\n")
    fake = ExerciseEntry("09.1", str(path), "new", "helpers.exercises.nb09:NEW_ONE", "tests.solutions.nb09:NEW_ONE")
    with pytest.raises(AssertionError, match=r"never calls nb09.NEW_ONE.check\(<the learner's answer>\)"):
        _stub_source(fake)


def test_the_stub_is_taken_from_the_cells_before_the_check(tmp_path):
    path = _notebook(tmp_path, "%matplotlib inline\nimport json\n",
                     "@decorate\ndef answer(x):\n    raise NotImplementedError\n",
                     "nb09.NEW_ONE.check(answer)\n")
    fake = ExerciseEntry("09.1", str(path), "new", "helpers.exercises.nb09:NEW_ONE", "tests.solutions.nb09:NEW_ONE")
    definition, imports = _stub_source(fake)
    assert definition == "@decorate\ndef answer(x):\n    raise NotImplementedError"
    assert imports == ["import json"]


# -- hostile answers ----------------------------------------------------------------------------------
#
# Every exercise meets the same hostile bodies, in its own answer shape (``AnswerSet.answer_from``):
# each check ends with feedback (no hang), leaves no thread behind, writes no stop traceback to
# stderr, and the reference solution passes right after it (issue 12, "Exercise core").


class _LoopingStr(Exception):
    def __str__(self):
        while True:
            pass


class _LoopingValue:
    """A result whose repr, str and == never return."""

    def __repr__(self):
        while True:
            pass

    __str__ = __repr__

    def __eq__(self, other):
        while True:
            pass

    __hash__ = object.__hash__


def _spin():
    while True:
        pass


def _loop():
    _spin()


def _catch_exception_loop():
    while True:
        try:
            _spin()
        except Exception:  # noqa: BLE001 - the learner's broad except
            pass


def _raise_looping_str():
    raise _LoopingStr()


def _leave_a_thread():
    threading.Thread(target=_spin, name="hostile-spinner", daemon=True).start()


#: ``name -> (body, seconds the exercise gets, text the report must hold)``; ``"reentrant"`` is built per exercise.
HOSTILE = {
    "endless loop": (_loop, 0.25, "It was stopped."),
    "loop that catches Exception": (_catch_exception_loop, 0.25, "It was stopped."),
    "exception whose __str__ loops": (_raise_looping_str, 0.25, "It was stopped."),
    "result whose repr, str and == loop": (lambda: _LoopingValue(), 0.25, ""),
    "a huge result": (lambda: list(range(300_000)), 5.0, ""),
    "leaves a thread running": (_leave_a_thread, 5.0, "your code left a thread running (hostile-spinner)"),
    "reentrant": (None, 5.0, "a check cannot run inside another check"),
}


def test_every_exercise_can_build_hostile_answers():
    missing = [e.id for e in EXERCISES if e.answer_set().answer_from is None]
    assert not missing, f"AnswerSet.answer_from is missing for {missing}"


@pytest.mark.needs_reference
@pytest.mark.parametrize("behaviour", HOSTILE)
@pytest.mark.parametrize("entry", EXERCISES, ids=lambda e: e.id)
def test_a_hostile_answer_leaves_no_thread_and_the_reference_still_passes(entry: ExerciseEntry, behaviour: str,
                                                                          monkeypatch, capfd):
    exercise, answers = entry.exercise(), entry.answer_set()
    reference_name, reference = next(iter(answers.solutions.items()))
    body, seconds, expected = HOSTILE[behaviour]
    if body is None:
        def body():
            return exercise.evaluate(reference)
    capfd.readouterr()
    before = threading.enumerate()
    with monkeypatch.context() as patch:
        patch.setattr(exercise, "timeout", seconds)
        # A thread left running is given LEFTOVER_GRACE (0.2 s) to end on its own before it is
        # stopped, once per case; the spinner never ends, so here that wait only costs time.
        patch.setattr(deadline, "LEFTOVER_GRACE", 0.02)
        result = exercise.evaluate(answers.answer_from(body))
    left = [t.name for t in threading.enumerate() if t not in before]
    assert left == [], f"threads left running: {left}\n{result.text()}"
    assert result.solved and not result.passed, result.text()
    assert expected in result.text(), result.text()
    assert len(result._repr_markdown_()) < 8_000 and len(result.text()) < 6_000
    assert "CheckTimeout" not in capfd.readouterr().err, "the stop's traceback reached stderr"
    # an answer stopped before any case ran (a notice) never reached the generated checks: the named cases prove
    # the reference still passes after it
    after = (exercise if result.results else _named_cases_only(exercise)).evaluate(reference)
    assert after.passed, f"{reference_name} after {behaviour}: {after.text()}"


# -- discovery by file name and its messages ----------------------------------------------------------


def test_exercises_are_found_in_files_named_after_their_notebook(tmp_path):
    from helpers.exercises.registry import discover

    (tmp_path / "helpers" / "exercises").mkdir(parents=True)
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "12_streaming.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "helpers" / "exercises" / "nb12.py").write_text(
        'SECOND = Exercise("12.2", "two", [])\nFIRST = Exercise(id="12.1", title="one", cases=[])\n'
        'def helper():\n    INNER = Exercise("12.9", "not module level", [])\n', encoding="utf-8")
    found = discover(tmp_path)
    assert [(e.id, e.notebook, e.title, e.checker, e.answers) for e in found] == [
        ("12.1", "12_streaming.ipynb", "one", "helpers.exercises.nb12:FIRST", "tests.solutions.nb12:FIRST"),
        ("12.2", "12_streaming.ipynb", "two", "helpers.exercises.nb12:SECOND", "tests.solutions.nb12:SECOND")]
    (tmp_path / "helpers" / "exercises" / "nb12.py").write_text('X = Exercise(ID, "t", [])\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"nb12.py, line 1: write the exercise's id and title as string literals"):
        discover(tmp_path)


def test_a_missing_answers_file_names_the_file_to_create():
    fake = ExerciseEntry("99.1", "99_x.ipynb", "new", "helpers.exercises.nb00:TOOL_CALL_IDS", "tests.solutions.nb99:NEW")
    with pytest.raises(LookupError, match=r"exercise 99.1 has no answers: tests/solutions/nb99.py does not exist; "
                                          r"create it with NEW = AnswerSet\("):
        fake.answer_set()
    fake = ExerciseEntry("00.9", "00_x.ipynb", "new", "helpers.exercises.nb00:TOOL_CALL_IDS", "tests.solutions.nb00:NEW")
    with pytest.raises(LookupError, match="tests/solutions/nb00.py defines no NEW"):
        fake.answer_set()


def test_a_stub_that_returns_instead_of_raising_is_named():
    exercise = get("00.1").exercise()

    def raising(ai_message):
        raise NotImplementedError("return a list of ids")

    assert stub_problem("00_start_here.ipynb", "tool_call_ids", exercise.evaluate(raising)) is None
    problem = stub_problem("00_start_here.ipynb", "tool_call_ids", exercise.evaluate(lambda ai_message: []))
    assert problem.startswith("00_start_here.ipynb: the stub 'tool_call_ids' that the learner edits returns an "
                              "answer instead of raising: its body must be raise NotImplementedError(...)")
