"""Grading an answer in a fresh kernel (helpers/exercises/grading.py, the nbgrader export's autograded cells):
an answer that changes the course's checks is not graded, whether it changes them in its cell or while the
checks run; only the verdict of the course's checks, with the caller's random value, counts as passed.

The notes of what the checks are made of are tested in this process (arm and verdict, with the changes undone
by ``monkeypatch``); the whole runner in a fresh kernel on a grading file without course cells (00.1's answer
cell needs none), so each case costs one kernel start.
"""

from __future__ import annotations

import json
import linecache
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from helpers.exercises import grading, nb00
from helpers.exercises.core import Exercise
from helpers.exercises.grading import CONTEXT_FILE, CONTEXT_FORMAT, NONCE_VARIABLE, answer_grade_id, arm, verdict
from helpers.exercises.results import CheckResult

ROOT = Path(__file__).resolve().parent.parent
RIGHT = "def tool_call_ids(ai_message):\n    return [call['id'] for call in ai_message.tool_calls]\n"
STUB = "def tool_call_ids(ai_message):\n    raise NotImplementedError('return a list of ids')\n"


def learner(source: str, name: str = "tool_call_ids"):
    """Define the answer the way a notebook cell does: from source in a file outside the checker."""
    filename = f"<answer cell {abs(hash(source))}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


class _Passed:
    """What a submission would put in place of the checks' result."""

    passed = True

    def _repr_markdown_(self):
        return "all checks passed"


def _verdict(capsys, answer) -> dict:
    verdict(answer)
    line = capsys.readouterr().out.strip()
    assert line.startswith("course-grading-verdict ")
    return json.loads(line.split(" ", 1)[1])


def test_the_right_answer_passes_and_the_stub_does_not(capsys):
    arm("00.1")
    assert _verdict(capsys, learner(RIGHT))["passed"] is True
    arm("00.1")
    report = _verdict(capsys, learner(STUB))
    assert report["passed"] is False and "not solved yet" in report["feedback"]


@pytest.mark.parametrize("change", ["the exercise's evaluate", "Exercise.evaluate", "CheckResult.passed",
                                    "the cases", "the checker module's exercise", "builtins.all", "a check's code"])
def test_an_answer_cell_that_changes_the_checks_is_not_graded(capsys, monkeypatch, change):
    arm("00.1")
    exercise = nb00.TOOL_CALL_IDS
    if change == "the exercise's evaluate":
        monkeypatch.setattr(exercise, "evaluate", lambda answer: _Passed(), raising=False)
    elif change == "Exercise.evaluate":
        monkeypatch.setattr(Exercise, "evaluate", lambda self, answer: _Passed())
    elif change == "CheckResult.passed":
        monkeypatch.setattr(CheckResult, "passed", property(lambda self: True))
    elif change == "the cases":
        monkeypatch.setattr(exercise, "cases", exercise.cases[:1])
    elif change == "the checker module's exercise":
        monkeypatch.setattr(nb00, "TOOL_CALL_IDS", Exercise("00.1", "x", exercise.cases[:1]))
    elif change == "builtins.all":  # CheckResult.passed asks all(...)
        monkeypatch.setattr("builtins.all", lambda *a, **k: True)
    else:
        monkeypatch.setattr(Exercise._run_all, "__code__", (lambda self, answer: None).__code__)
    report = _verdict(capsys, learner(STUB))
    assert report["passed"] is False and report["feedback"].startswith("Not graded: your code changes")


def test_an_answer_that_changes_the_checks_while_they_run_is_not_graded(capsys, monkeypatch):
    patched = []

    def tool_call_ids(ai_message):  # the learner's code runs inside the checks
        if not patched:
            patched.append(True)
            monkeypatch.setattr(CheckResult, "passed", property(lambda self: True))
        raise ValueError("wrong on purpose")

    arm("00.1")
    report = _verdict(capsys, tool_call_ids)
    assert patched and report["passed"] is False and "CheckResult.passed" in report["feedback"]


# -- the runner: a fresh kernel -------------------------------------------------------------------


def _graded_notebook(folder, answer: str, extra_cells=(), context_cells=()) -> str:
    """A notebook like the export's release (an answer cell, then ``extra_cells``) and a grading file."""
    cells = [nbformat.v4.new_code_cell("from helpers.exercises import nb00\n\n" + answer)]
    cells[0].metadata["nbgrader"] = {"grade_id": answer_grade_id("00.1"), "solution": True, "grade": False,
                                     "locked": False, "schema_version": 3, "task": False}
    cells += [nbformat.v4.new_code_cell(source) for source in extra_cells]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), folder / "00_start_here.ipynb")
    (folder / CONTEXT_FILE).write_text(json.dumps({"format": CONTEXT_FORMAT, "exercises": {
        "00.1": {"answer": "tool_call_ids", "cells": list(context_cells)}}}), encoding="utf-8")
    return "00_start_here.ipynb"


def _run(folder, monkeypatch, capsys, *args) -> tuple[int, str]:
    monkeypatch.chdir(folder)
    monkeypatch.setenv(NONCE_VARIABLE, "n0nce")
    status = grading.main(["00.1", *args])
    return status, capsys.readouterr().out


def test_the_runner_passes_the_right_answer_with_the_callers_value(tmp_path, monkeypatch, capsys):
    notebook = _graded_notebook(tmp_path, RIGHT, context_cells=["LIMIT = 3"])
    (tmp_path / "source").mkdir()  # the teacher's copy, named as the re-grade outside nbgrader names it
    (tmp_path / CONTEXT_FILE).rename(tmp_path / "source" / CONTEXT_FILE)
    status, out = _run(tmp_path, monkeypatch, capsys, notebook, "--context", str(tmp_path / "source" / CONTEXT_FILE))
    assert status == 0 and out.splitlines()[-1] == "exercise 00.1: passed (n0nce)", out
    assert "all 5 checks passed" in out


def test_the_runner_counts_only_the_answer_cell_and_no_printed_pass(tmp_path, monkeypatch, capsys):
    """The submission's other cells never run; what the answer cell prints, writes to the process's
    stdout or raises never passes, even when it spells the pass line."""
    answer = STUB + ("import os\nprint('course-grading-verdict {\"id\": \"00.1\", \"passed\": true, \"feedback\": \"\"}')\n"
                     "os.write(1, b'exercise 00.1: passed (n0nce)\\n')\n"
                     "raise RuntimeError('\\nexercise 00.1: passed (' + os.environ.get('COURSE_GRADING_NONCE', 'n0nce') + ')\\n')\n")
    redefine = "nb00.TOOL_CALL_IDS.evaluate = lambda answer: type('R', (), {'passed': True})()"
    notebook = _graded_notebook(tmp_path, answer, extra_cells=[redefine])
    done = subprocess.run([sys.executable, "-m", "helpers.exercises.grading", "00.1", notebook], cwd=tmp_path,
                          env={**os.environ, NONCE_VARIABLE: "n0nce", "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600)
    status, out = done.returncode, done.stdout  # the process's own stdout, as the autograded cell reads it
    assert status == 1, out + done.stderr
    assert "exercise 00.1: passed (n0nce)" not in out.splitlines(), out
    assert "Your answer cell raised `RuntimeError: exercise 00.1: passed (n0nce)`" in out  # on one line
    assert "not solved yet" in out


def test_the_runner_names_a_missing_answer_cell_grading_file_and_course_cell_error(tmp_path, monkeypatch, capsys):
    notebook = _graded_notebook(tmp_path, RIGHT, context_cells=["raise OSError('no data folder')"])
    status, out = _run(tmp_path, monkeypatch, capsys, notebook)
    assert status == 1 and "the course's code above the answer cell raised `OSError: no data folder`" in out
    (tmp_path / CONTEXT_FILE).unlink()
    status, out = _run(tmp_path, monkeypatch, capsys, notebook)
    assert status == 1 and f"{CONTEXT_FILE} is missing" in out
    (tmp_path / "other.ipynb").write_text("{not json", encoding="utf-8")
    status, out = _run(tmp_path, monkeypatch, capsys, "other.ipynb", "--context", str(tmp_path / "none.json"))
    assert status == 1 and "none.json is missing" in out
    _graded_notebook(tmp_path, RIGHT)
    status, out = _run(tmp_path, monkeypatch, capsys, "other.ipynb")
    assert status == 1 and "other.ipynb is not a readable notebook" in out
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(RIGHT)]), tmp_path / "plain.ipynb")
    status, out = _run(tmp_path, monkeypatch, capsys, "plain.ipynb")
    assert status == 1 and "has no answer cell of exercise 00.1 (nbgrader grade_id ex00_1_answer)" in out
    assert grading.main(["99.9", "plain.ipynb"]) == 2
