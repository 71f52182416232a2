"""Export the course's exercises in nbgrader's layout, graded by the course's own hidden checks.

``python -m tooling.nbgrader_export OUT`` (or ``make nbgrader-export OUT=...``) writes a course
folder that nbgrader 0.9 (``requirements-instructor.txt``) uses unchanged::

    OUT/nbgrader_config.py                      # code_stub: the course's stub stays the learner's start
    OUT/source/NN_name/NN_name.ipynb            # one assignment per notebook that has exercises

Each source notebook is the course notebook ``notebooks/NN_name.ipynb`` with, per exercise:

* the stub cell (the one defining the name the check is called with) as an nbgrader **solution
  cell**: the course's stub unchanged, then a ``### BEGIN SOLUTION`` / ``### END SOLUTION`` region
  holding a reference solution from ``tests/solutions/nbNN.py`` (its source and the helpers and
  imports it uses), which ``nbgrader generate_assignment`` removes from the release;
* the course's ``nbNN.NAME.check(answer)`` call replaced by an **autograded test cell** worth
  :data:`POINTS` points that calls ``nbNN.NAME.evaluate(answer)`` (the same hidden checks, with
  their deadline: an endless loop or a crash in the answer becomes feedback and no points, and the
  grading run goes on) and asserts that every check passed. ``evaluate`` records nothing, so a grading
  run never writes a learner's progress file.

The exercises come from :data:`helpers.exercises.registry.EXERCISES` (no list to edit), so it runs
from a course checkout (it imports ``tests.solutions``).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nbformat

from helpers.exercises.registry import EXERCISES, ExerciseEntry

__all__ = ["CODE_STUB", "POINTS", "ExportError", "export", "reference_source", "source_notebook"]

#: Points of one exercise (all or nothing: every hidden check passes, or none counts).
POINTS = 1

#: What ``generate_assignment`` leaves where a solution region was: a comment, so the release cell is
#: the course's own stub cell (nbgrader's default, ``raise NotImplementedError()``, would break it).
CODE_STUB = "# YOUR ANSWER: replace the stub above (the course's hidden checks grade it)"

_CONFIG = f'''"""nbgrader configuration written by `python -m tooling.nbgrader_export` (see docs/teaching.md).\nRun nbgrader in this folder."""

c = get_config()  # noqa: F821 (provided by nbgrader)
# The release keeps the course's stub; the solution region becomes this comment.
c.ClearSolutions.code_stub = {{"python": {CODE_STUB!r}}}
# The course's checks stop an endless loop themselves (5 s per check); this bounds a whole cell.
c.ExecutePreprocessor.timeout = 300
'''

_ROOT = Path(__file__).resolve().parent.parent


class ExportError(ValueError):
    """An exercise cannot be exported (its check call, stub cell or reference source is not found)."""


def _nbgrader(cell: dict, grade_id: str, *, solution: bool, points: int | None = None) -> None:
    meta = {"grade": points is not None, "grade_id": grade_id, "locked": points is not None,
            "schema_version": 3, "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    cell.setdefault("metadata", {})["nbgrader"] = meta


def _top_level(module_source: str) -> tuple[list[ast.stmt], dict[str, ast.stmt]]:
    """The module's statements and ``{name: statement}`` for every name a statement binds."""
    tree = ast.parse(module_source)
    binds: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds[node.name] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                binds[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        binds[name.id] = node
    return tree.body, binds


def _segment(lines: list[str], node: ast.stmt) -> str:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "".join(lines[first - 1:node.end_lineno]).rstrip()


def reference_source(entry: ExerciseEntry) -> tuple[str, str]:
    """A reference solution of ``entry`` as code: ``(source, name)``.

    The first solution of its :class:`~helpers.exercises.registry.AnswerSet` that the solutions module
    binds to a top-level name, with every top-level statement of that module it needs (helpers,
    constants, imports; ``from __future__`` and the registry's own import left out), in file order.

    Raises:
        ExportError: no solution is bound to a top-level name of ``tests/solutions/nbNN.py``.
    """
    answers = entry.answer_set()
    module = sys.modules[entry.answers.partition(":")[0]]
    text = inspect.getsource(module)
    body, binds = _top_level(text)
    for answer in answers.solutions.values():
        name = next((k for k, v in vars(module).items() if v is answer and k in binds), None)
        if name is not None:
            break
    else:
        raise ExportError(f"exercise {entry.id}: no reference solution is a top-level name of "
                          f"{entry.answers.partition(':')[0].replace('.', '/')}.py, so it has no source to export")
    needed: set[int] = set()
    todo = [binds[name]]
    while todo:
        node = todo.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        for used in ast.walk(node):
            if isinstance(used, ast.Name) and used.id in binds and id(binds[used.id]) not in needed:
                todo.append(binds[used.id])
    lines = text.splitlines(keepends=True)
    kept = [n for n in body if id(n) in needed
            and not (isinstance(n, ast.ImportFrom) and n.module in ("__future__", "helpers.exercises.registry"))]
    parts = []
    for i, node in enumerate(kept):
        imports = isinstance(node, (ast.Import, ast.ImportFrom))
        after_import = i > 0 and isinstance(kept[i - 1], (ast.Import, ast.ImportFrom))
        parts.append(("" if i == 0 else "\n" if imports and after_import else "\n\n\n") + _segment(lines, node))
    return "".join(parts), name


def _answer_name(check_source: str, entry: ExerciseEntry) -> str:
    found = re.search(rf"\b{entry.module_name}\.{entry.attribute}\.check\((\w+)\)", check_source)
    if found is None:
        raise ExportError(f"exercise {entry.id}: {entry.notebook} has no cell calling "
                          f"{entry.module_name}.{entry.attribute}.check(answer)")
    return found.group(1)


def _defines(source: str, name: str) -> bool:
    return re.search(rf"^(?:async\s+)?def {name}\(|^{name}\s*=", source, re.MULTILINE) is not None


def _without_check(source: str, entry: ExerciseEntry) -> str:
    pattern = rf"^{entry.module_name}\.{entry.attribute}\.check\(\w+\)\s*$"
    return re.sub(pattern, "", source, flags=re.MULTILINE).rstrip()


def _test_cell_source(entry: ExerciseEntry, answer: str, points: int) -> str:
    return (f"# Autograded by nbgrader ({points} point{'s' if points != 1 else ''}): exercise {entry.id}, "
            f"{entry.title}.\n"
            "# The course's hidden checks grade the answer; evaluate() records nothing in your progress.\n"
            f"from helpers.exercises import {entry.module_name}\n\n"
            f"_result = {entry.module_name}.{entry.attribute}.evaluate({answer})\n"
            "display(_result)\n"
            "assert _result.passed, _result.summary()\n")


def source_notebook(notebook: Path, entries: Iterable[ExerciseEntry], points: int = POINTS) -> Any:
    """The nbgrader source notebook of the course notebook ``notebook`` for its exercises ``entries``.

    Args:
        notebook: a course notebook, ``notebooks/NN_name.ipynb``.
        entries: its exercises (from the registry).
        points: points of each exercise.

    Returns:
        an ``nbformat`` notebook (version 4): the course notebook with a solution cell and an autograded
        test cell per exercise (module docstring).

    Raises:
        ExportError: a check call, its stub cell or a reference source is not found.
    """
    nb = nbformat.read(notebook, as_version=4)
    for entry in entries:
        label = f"ex{entry.id.replace('.', '_')}"
        at = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                   and f"{entry.module_name}.{entry.attribute}.check(" in c.source), None)
        if at is None:
            raise ExportError(f"exercise {entry.id}: {notebook.name} has no cell calling "
                              f"{entry.module_name}.{entry.attribute}.check(answer)")
        answer = _answer_name(nb.cells[at].source, entry)
        stub_at = next((i for i in range(at, -1, -1) if nb.cells[i].cell_type == "code"
                        and _defines(nb.cells[i].source, answer)), None)
        if stub_at is None:
            raise ExportError(f"exercise {entry.id}: no cell of {notebook.name} above the check defines {answer}")
        code, name = reference_source(entry)
        if name != answer:
            code += f"\n\n\n{answer} = {name}"
        stub = nb.cells[stub_at]
        stub.source = (_without_check(stub.source, entry) + "\n\n\n### BEGIN SOLUTION\n"
                       f"# A reference solution (tests/solutions/{entry.module_name}.py): it replaces the stub.\n"
                       f"{code}\n### END SOLUTION\n")
        _nbgrader(stub, f"{label}_answer", solution=True)
        test = nbformat.v4.new_code_cell(_test_cell_source(entry, answer, points))
        test.id = f"{label}-autograded"
        _nbgrader(test, f"{label}_autograded", solution=False, points=points)
        if stub_at == at:
            nb.cells.insert(at + 1, test)
        else:
            rest = _without_check(nb.cells[at].source, entry)
            if rest.strip():
                nb.cells[at].source = rest
                nb.cells.insert(at + 1, test)
            else:
                nb.cells[at] = test
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


def export(out: Path, root: Path = _ROOT, points: int = POINTS) -> list[Path]:
    """Write every exercise notebook in nbgrader's layout under ``out`` (module docstring).

    Args:
        out: the nbgrader course folder to write (created if missing; the files it writes are replaced).
        root: the course checkout holding ``notebooks/``.
        points: points of each exercise.

    Returns:
        the source notebooks written, in course order.

    Raises:
        ExportError: as :func:`source_notebook`.
    """
    by_notebook: dict[str, list[ExerciseEntry]] = {}
    for entry in EXERCISES:
        by_notebook.setdefault(entry.notebook, []).append(entry)
    out.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(_CONFIG, encoding="utf-8")
    written = []
    for notebook, entries in by_notebook.items():
        assignment = Path(notebook).stem
        target = out / "source" / assignment / notebook
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(source_notebook(root / "notebooks" / notebook, entries, points), target)
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m tooling.nbgrader_export OUT [--points N]``: write the course for nbgrader; 0 on success."""
    parser = argparse.ArgumentParser(prog="python -m tooling.nbgrader_export",
                                     description="Write the course's exercises as an nbgrader course folder.")
    parser.add_argument("out", type=Path, help="the nbgrader course folder to write, e.g. ../course-grading")
    parser.add_argument("--points", type=int, default=POINTS, help=f"points per exercise (default {POINTS})")
    args = parser.parse_args(argv)
    if args.points < 1:
        parser.error("--points must be at least 1")
    try:
        written = export(args.out, points=args.points)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(path.relative_to(args.out))
    print(f"{len(written)} assignments in {args.out}/source; next: cd {args.out} && "
          "nbgrader generate_assignment NAME (docs/teaching.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
