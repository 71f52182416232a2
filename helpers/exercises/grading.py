"""Grade one exercise answer in a fresh kernel, from the course's files: what the autograded cells of the
nbgrader export run (``tooling/nbgrader_export.py``; docs/teaching.md, "Grading with nbgrader").

nbgrader runs a whole submission in one kernel, so a cell of the submission can replace what a later
cell calls: ``nb00.TOOL_CALL_IDS.evaluate = ...`` before the graded cell, and every check "passes".
The autograded cell therefore does not judge the answer in that kernel. It runs::

    python -m helpers.exercises.grading 00.1 00_start_here.ipynb

which starts a **fresh kernel** (nbclient 0.11, kernel ``python3``, in the notebook's folder) and runs
there, in order:

1. the course's own code cells above the exercise's answer cell, as exported: read from
   :data:`CONTEXT_FILE` beside the notebook (the export writes it; ``nbgrader autograde`` copies the
   teacher's version over the learner's, as it does every file of ``source/`` that is not a notebook);
2. :func:`arm`: the exercise's checker and ``Exercise.evaluate`` are taken now, and what the checks are
   made of is noted (every module ``helpers.exercises.*``, each of its classes, the exercise and its
   cases, ``builtins`` and ``json``);
3. the learner's answer cell, as saved in the notebook file (the cell whose nbgrader ``grade_id`` is
   ``ex00_1_answer``), and nothing else of the submission;
4. :func:`verdict`: the hidden checks, with the evaluate taken in step 2, and a report that says
   "not graded" when the answer (its cell, or its code while the checks ran) changed anything noted in
   step 2.

It prints the feedback as Markdown and, when every hidden check passed, a last line
``exercise 00.1: passed (NONCE)`` with the value of :data:`NONCE_VARIABLE` (a random value the
autograded cell passes and then looks for, so a stand-in program that prints a fixed "passed" does not
count); exit status 0 when passed, 1 when not, 2 for a usage error.

What this cannot stop: code in the submission's other cells still runs in nbgrader's own kernel, where
it can replace anything the autograded cell uses (``subprocess``, ``sys.executable``, Python's
builtins), and an answer cell can change the checker in ways the notes of step 2 do not cover (the
objects of other packages, a state the checks read). docs/teaching.md says what to do about it.
"""

from __future__ import annotations

import argparse
import builtins
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from ..i18n import _
from .registry import EXERCISES, get

__all__ = ["CONTEXT_FILE", "CONTEXT_FORMAT", "NONCE_VARIABLE", "Graded", "arm", "answer_grade_id", "grade", "main",
           "passed_line", "verdict"]

#: The file beside an exported notebook that holds, per exercise, the course's code cells above its answer
#: cell: ``{"format": CONTEXT_FORMAT, "exercises": {"00.1": {"answer": "tool_call_ids", "cells": [...]}}}``.
CONTEXT_FILE = "course_grading.json"
#: The version of :data:`CONTEXT_FILE`'s shape.
CONTEXT_FORMAT = 1
#: The environment variable that carries the autograded cell's random value (see the module docstring).
NONCE_VARIABLE = "COURSE_GRADING_NONCE"
#: Seconds one cell of the fresh kernel may run (the course's cells above an answer take a few seconds).
CELL_TIMEOUT = 240
#: What the verdict cell prints before its JSON, so the runner finds it among the cell's outputs.
_MARKER = "course-grading-verdict "
#: What IPython and ipykernel put into ``builtins`` for each cell (new objects each time; ``input`` asks the
#: front end): not what the checks are made of.
_IPYTHON_BUILTINS = frozenset({"display", "get_ipython", "exit", "quit", "copyright", "credits", "license", "help",
                               "input", "raw_input"})
#: The answer cell of the nbgrader export, by exercise id (``00.1`` -> ``ex00_1_answer``).
_ANSWER_ID = "ex{}_answer"


def answer_grade_id(exercise_id: str) -> str:
    """The nbgrader ``grade_id`` of the answer cell of ``exercise_id``: ``"00.1"`` -> ``"ex00_1_answer"``."""
    return _ANSWER_ID.format(exercise_id.replace(".", "_"))


def passed_line(exercise_id: str, nonce: str) -> str:
    """The last line printed for a passed answer: ``exercise 00.1: passed (NONCE)``."""
    return f"exercise {exercise_id}: passed ({nonce})"


# -- inside the fresh kernel ------------------------------------------------------------------------


def _identity(value: Any) -> tuple[int, int]:
    """What changes when ``value`` is replaced, or its function's code is (``f.__code__ = ...``)."""
    function = getattr(value, "__func__", value)
    return id(value), id(getattr(function, "__code__", None))


def _state(exercise: Any) -> dict[str, tuple[str, tuple[int, int]]]:
    """``{"where": (kind, identity)}`` of what the checks are made of (step 2 of the module docstring).

    ``kind`` says how a later difference counts: ``"module"`` (a name added later is fine: packages
    load names on first use), ``"fixed"`` (added, replaced or removed all count).
    """
    noted: dict[str, tuple[str, tuple[int, int]]] = {}
    modules = [(name, module) for name, module in list(sys.modules.items())
               if module is not None and (name == "helpers.exercises" or name.startswith("helpers.exercises."))]
    for name, module in [*modules, ("builtins", builtins), ("json", json)]:
        for key, value in list(vars(module).items()):
            if key.startswith("__") or (module is builtins and (key in _IPYTHON_BUILTINS or key.startswith("_"))):
                continue
            noted[f"{name}.{key}"] = ("module", _identity(value))
            if isinstance(value, type) and value.__module__ == name:
                for attribute, member in list(vars(value).items()):
                    noted[f"{name}.{key}.{attribute}"] = ("fixed", _identity(member))
    parts: list[tuple[str, Any]] = [("the exercise", exercise)]
    for attribute, value in list(vars(exercise).items()):
        if isinstance(value, (list, tuple)):  # its cases (and generated checks): each one, and what it holds
            parts += [(f"the exercise.{attribute}[{i}]", item) for i, item in enumerate(value)]
    for where, obj in parts:
        noted[where] = ("fixed", _identity(obj))
        for attribute, value in list(getattr(obj, "__dict__", {}).items()):
            noted[f"{where}.{attribute}"] = ("fixed", _identity(value))
    return noted


def _changed(before: dict[str, tuple[str, tuple[int, int]]], after: dict[str, tuple[str, tuple[int, int]]],
             *, instances: bool = True) -> list[str]:
    """What differs between two :func:`_state` notes (names, sorted); ``instances=False`` leaves the
    exercise object's own attributes out (the checks may keep what they computed there), not what its
    lists hold (its cases)."""
    def counted(where: str) -> bool:
        return instances or "[" in where or not where.startswith("the exercise.")
    changed = {where for where, (kind, identity) in before.items() if counted(where) and after.get(where, (kind, None))[1] != identity}
    changed |= {where for where, (kind, _identity) in after.items() if kind == "fixed" and counted(where) and where not in before}
    return sorted(changed)


@dataclass
class _Armed:
    """What :func:`arm` took: the checker, its evaluate and the notes of what the checks are made of."""

    exercise_id: str
    exercise: Any
    evaluate: Any
    noted: dict[str, tuple[str, tuple[int, int]]]


_ARMED: list[_Armed] = []


def arm(exercise_id: str) -> None:
    """Step 2 of the module docstring, in the fresh kernel, just before the learner's answer cell runs.

    Raises:
        KeyError: no exercise has this id.
    """
    exercise = get(exercise_id).exercise()
    _ARMED[:] = [_Armed(exercise_id, exercise, type(exercise).evaluate, _state(exercise))]


def verdict(answer: Any, answer_error: str | None = None) -> None:
    """Step 4 of the module docstring, in the fresh kernel: print the verdict line (:data:`_MARKER`
    and JSON ``{"id", "passed", "feedback"}``, ``feedback`` in Markdown) for ``answer``.

    Args:
        answer: the value the answer cell bound to the answer's name (``None``: it bound nothing).
        answer_error: ``"Type: message"`` when the answer cell raised (shown above the checks' feedback).
    """
    armed = _ARMED[0] if _ARMED else None
    report: dict[str, Any] = {"id": armed.exercise_id if armed else None, "passed": False, "feedback": ""}
    if armed is None:
        report["feedback"] = _("Not graded: the checks were not prepared (the course's cells above the answer "
                               "cell did not run to their end).")
    else:
        changed = _changed(armed.noted, _state(armed.exercise))
        result = None
        if not changed:
            result = armed.evaluate(armed.exercise, answer)
            changed = _changed(armed.noted, _state(armed.exercise), instances=False)
        if changed:
            report["feedback"] = _("Not graded: your code changes the course's checks ({names}). Grading runs "
                                   "only your answer cell and the course's own checks; remove what changes "
                                   "them.").format(names=", ".join(changed[:5]) + (", ..." if len(changed) > 5 else ""))
        else:
            report["passed"] = bool(result.passed)
            report["feedback"] = result._repr_markdown_()
        if answer_error:
            report["feedback"] = _("Your answer cell raised {error}").format(error=f"`{answer_error}`") \
                + "\n\n" + report["feedback"]
    print(_MARKER + json.dumps(report))


# -- the runner (a plain process) --------------------------------------------------------------------


@dataclass(frozen=True)
class Graded:
    """The outcome of :func:`grade`.

    Attributes:
        passed: every hidden check passed, and nothing changed the checks.
        feedback: Markdown for the learner (what failed and why, or why it was not graded).
    """

    passed: bool
    feedback: str


def _error_line(outputs: list) -> str | None:
    for output in outputs:
        if output.get("output_type") == "error":
            text = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
            return " ".join(text.split())[:300]  # one line: the answer's own text never starts a line
    return None


def _read_context(path: Path, exercise_id: str) -> tuple[str, list[str]] | str:
    """``(answer name, course cells)`` of ``exercise_id`` in the context file ``path``, or what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entry = data["exercises"][exercise_id]
        answer, cells = entry["answer"], entry["cells"]
        if data.get("format") != CONTEXT_FORMAT or not isinstance(answer, str) or not answer.isidentifier() \
                or not (isinstance(cells, list) and all(isinstance(c, str) for c in cells)):
            raise ValueError("not the export's shape")
    except FileNotFoundError:
        return _("{file} is missing: it comes with the exported assignment (python -m tooling.nbgrader_export)"
                 ).format(file=path.name)
    except KeyError:
        return _("{file} has no exercise {id}").format(file=path.name, id=exercise_id)
    except (OSError, ValueError, TypeError) as exc:
        return _("{file} is not the export's grading file ({error})").format(file=path.name,
                                                                            error=f"{type(exc).__name__}: {exc}")
    return answer, cells


def _answer_cell(notebook: Path, exercise_id: str) -> str | None:
    """The source of the answer cell of ``exercise_id`` in ``notebook`` (by its nbgrader grade_id)."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") \
                == answer_grade_id(exercise_id):
            return cell.source
    return None


def grade(exercise_id: str, notebook: Path, context: Path | None = None, *,
          timeout: int = CELL_TIMEOUT) -> Graded:
    """Grade the answer of ``exercise_id`` in ``notebook`` in a fresh kernel (the module docstring).

    Args:
        exercise_id: ``"00.1"``.
        notebook: the graded notebook file (its answer cell is read from it, as saved).
        context: the grading file (default: :data:`CONTEXT_FILE` beside ``notebook``).
        timeout: seconds each cell of the fresh kernel may run.

    Returns:
        a :class:`Graded`; never raises for a bad notebook, answer or context (the feedback says what
        was wrong), except ``KeyboardInterrupt``.
    """
    notebook = Path(notebook)
    context = notebook.parent / CONTEXT_FILE if context is None else Path(context)
    found = _read_context(context, exercise_id)
    if isinstance(found, str):
        return Graded(False, _("Not graded: {problem}.").format(problem=found))
    answer_name, course_cells = found
    try:
        answer = _answer_cell(notebook, exercise_id)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is feedback, never a traceback
        return Graded(False, _("Not graded: {file} is not a readable notebook ({error}).").format(
            file=notebook.name, error=f"{type(exc).__name__}: {str(exc)[:200]}"))
    if answer is None:
        return Graded(False, _("Not graded: {file} has no answer cell of exercise {id} (nbgrader grade_id "
                               "{grade_id}).").format(file=notebook.name, id=exercise_id,
                                                      grade_id=answer_grade_id(exercise_id)))
    cells = [nbformat.v4.new_code_cell(source) for source in course_cells]
    cells += [nbformat.v4.new_code_cell(f"import helpers.exercises.grading\n"
                                        f"helpers.exercises.grading.arm({exercise_id!r})"),
              nbformat.v4.new_code_cell(answer),
              nbformat.v4.new_code_cell("")]  # the verdict: written once the answer cell has run
    nb = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}})
    answer_at = len(cells) - 2
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(notebook.parent.resolve())}})
    # The kernel gets neither the random value (the answer could print it) nor this process's stdout.
    kernel_env = {name: value for name, value in os.environ.items() if name != NONCE_VARIABLE}
    try:
        with client.setup_kernel(env=kernel_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            for index, cell in enumerate(nb.cells):
                if index == answer_at + 1:
                    cell.source = (f"helpers.exercises.grading.verdict(globals().get({answer_name!r}), "
                                   f"{_error_line(nb.cells[answer_at].outputs)!r})")
                client.execute_cell(cell, index)
                error = _error_line(cell.outputs)
                if index < answer_at and error:
                    return Graded(False, _("Not graded: the course's code above the answer cell raised {error} "
                                           "(a problem of the grading setup, not of the answer).").format(
                                               error=f"`{error}`"))
    except (CellTimeoutError, DeadKernelError, RuntimeError, OSError) as exc:
        first = str(exc).splitlines()[0][:200] if str(exc).strip() else ""
        return Graded(False, _("Not graded: the grading kernel stopped ({error}).").format(
            error=f"{type(exc).__name__}: {first}"))
    lines = [line for output in nb.cells[-1].outputs if output.get("output_type") == "stream"
             for line in "".join(output.get("text", "")).splitlines() if line.startswith(_MARKER)]
    if len(lines) != 1:
        return Graded(False, _("Not graded: the checks gave no verdict ({error}).").format(
            error=_error_line(nb.cells[-1].outputs) or _("{count} verdict lines").format(count=len(lines))))
    report = json.loads(lines[0][len(_MARKER):])
    return Graded(report.get("passed") is True and report.get("id") == exercise_id, str(report.get("feedback", "")))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m helpers.exercises.grading EXERCISE NOTEBOOK [--context FILE]``: print the feedback
    (Markdown) and, when passed, :func:`passed_line`; exit status 0 passed, 1 not, 2 a usage error."""
    parser = argparse.ArgumentParser(prog="python -m helpers.exercises.grading",
                                     description="Grade one exercise answer in a fresh kernel (nbgrader's "
                                                 "autograded cells).")
    parser.add_argument("exercise", help="the exercise id, e.g. 00.1")
    parser.add_argument("notebook", type=Path, help="the notebook whose answer cell is graded (as saved)")
    parser.add_argument("--context", type=Path, default=None,
                        help=f"the grading file (default: {CONTEXT_FILE} beside the notebook)")
    args = parser.parse_args(argv)
    if args.exercise not in {e.id for e in EXERCISES}:
        print(f"error: no exercise {args.exercise!r} (known: {', '.join(e.id for e in EXERCISES)})", file=sys.stderr)
        return 2
    graded = grade(args.exercise, args.notebook, args.context)
    print(_("Graded in a fresh kernel: the course's cells above the answer cell, then the answer cell of {file} "
            "as saved, then the hidden checks.").format(file=args.notebook.name) + "\n\n" + graded.feedback)
    if graded.passed:
        print("\n" + passed_line(args.exercise, os.environ.get(NONCE_VARIABLE, "")))
    return 0 if graded.passed else 1


if __name__ == "__main__":
    sys.exit(main())
