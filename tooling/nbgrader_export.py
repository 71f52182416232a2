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
  :data:`POINTS` points that grades the answer cell **in a fresh kernel** from the course's files
  (:mod:`helpers.exercises.grading`: the course's code cells above the answer cell, then the answer
  cell as saved, then the same hidden checks, with their deadline: an endless loop or a crash in the
  answer becomes feedback and no points, and the grading run goes on) and asserts that every check
  passed. What the submission's other cells do in nbgrader's kernel does not count, and an answer that
  changes the checks is not graded. Nothing is recorded in a learner's progress file.

Beside each source notebook, :data:`helpers.exercises.grading.CONTEXT_FILE` holds those course cells
(no solution: it is released with the notebook; ``nbgrader autograde`` puts the teacher's copy back
before grading).

**A second export never overwrites the teacher's edits.** ``OUT/.course-export.json`` records the
SHA-256 of every file the export wrote; a later export replaces a file only when it is unchanged since
then (or already equal to the new one). A file edited since (``nbgrader_config.py``, a source notebook)
or not written by the export makes it refuse, naming each file, and write nothing.

The exercises come from :data:`helpers.exercises.registry.EXERCISES` (no list to edit), so it runs
from a course checkout (it imports ``tests.solutions``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import inspect
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nbformat

from helpers.exercises.grading import CONTEXT_FILE, CONTEXT_FORMAT, NONCE_VARIABLE, answer_grade_id
from helpers.exercises.registry import EXERCISES, ExerciseEntry

__all__ = ["CODE_STUB", "MANIFEST", "POINTS", "ExportError", "export", "grading_context", "reference_source",
           "source_notebook"]

#: Points of one exercise (all or nothing: every hidden check passes, or none counts).
POINTS = 1

#: What ``generate_assignment`` leaves where a solution region was: a comment, so the release cell is
#: the course's own stub cell (nbgrader's default, ``raise NotImplementedError()``, would break it).
CODE_STUB = "# YOUR ANSWER: replace the stub above (the course's hidden checks grade it)"

_CONFIG = f'''"""nbgrader configuration written by `python -m tooling.nbgrader_export` (see docs/teaching.md).\nRun nbgrader in this folder."""

c = get_config()  # noqa: F821 (provided by nbgrader)
# The release keeps the course's stub; the solution region becomes this comment.
c.ClearSolutions.code_stub = {{"python": {CODE_STUB!r}}}
# The course's checks stop an endless loop themselves (5 s per check); this bounds a whole cell (an
# autograded cell starts a fresh kernel and runs the course's cells above the answer there first).
c.ExecutePreprocessor.timeout = 600
'''

#: What the export wrote last time, in the export's folder: ``{"format": 1, "files": {path: sha256}}``.
MANIFEST = ".course-export.json"
#: Seconds the autograded cell waits for its fresh kernel (below nbgrader's cell timeout, 600).
_GRADING_TIMEOUT = 540

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


def _test_cell_source(entry: ExerciseEntry, notebook: str, points: int) -> str:
    check = f"exercise {entry.id}: passed ({{_nonce}})"
    return (f"# Autograded by nbgrader ({points} point{'s' if points != 1 else ''}): exercise {entry.id}, "
            f"{entry.title}.\n"
            "# Graded in a fresh kernel from the course's files: the course's cells above the answer cell,\n"
            "# then that cell as saved in this notebook (save it first), then the course's hidden checks.\n"
            "# Nothing else this notebook runs counts (docs/teaching.md, \"Grading with nbgrader\").\n"
            "import os as _os, secrets as _secrets, subprocess as _subprocess, sys as _sys\n"
            "from IPython.display import Markdown as _Markdown, display as _display\n\n"
            "_nonce = _secrets.token_hex(8)\n"
            "_graded = _subprocess.run(\n"
            f"    [_sys.executable, \"-m\", \"helpers.exercises.grading\", {json.dumps(entry.id)}, {json.dumps(notebook)}],\n"
            f"    env={{**_os.environ, {json.dumps(NONCE_VARIABLE)}: _nonce}}, capture_output=True, text=True,\n"
            f"    timeout={_GRADING_TIMEOUT},\n"
            ")\n"
            "_display(_Markdown(_graded.stdout + _graded.stderr[-2000:]))\n"
            f"assert f{check!r} in _graded.stdout.splitlines(), \"exercise {entry.id}: not every check passed\"\n")


def _locate(nb: Any, entry: ExerciseEntry, notebook: Path) -> tuple[int, int, str]:
    """``(check cell, stub cell, answer name)`` of ``entry`` in the course notebook ``nb``.

    Raises:
        ExportError: no cell calls the check, or no cell at or above it defines the answer.
    """
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
    return at, stub_at, answer


def grading_context(notebook: Path, entries: Iterable[ExerciseEntry]) -> dict[str, Any]:
    """The grading file (:data:`helpers.exercises.grading.CONTEXT_FILE`) of the course notebook ``notebook``.

    Returns:
        ``{"format": 1, "exercises": {id: {"answer": name, "cells": [source, ...]}}}``: for each exercise,
        the course's code cells above its stub cell, with every exercise's ``check(...)`` line left out
        (the release has none) and no solution (the file is released with the notebook).

    Raises:
        ExportError: as :func:`source_notebook`.
    """
    nb = nbformat.read(notebook, as_version=4)
    entries = list(entries)
    exercises = {}
    for entry in entries:
        _, stub_at, answer = _locate(nb, entry, notebook)
        cells = []
        for cell in nb.cells[:stub_at]:
            if cell.cell_type == "code":
                source = cell.source
                for other in entries:
                    source = _without_check(source, other)
                if source.strip():
                    cells.append(source)
        exercises[entry.id] = {"answer": answer, "cells": cells}
    return {"format": CONTEXT_FORMAT, "exercises": exercises}


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
        at, stub_at, answer = _locate(nb, entry, notebook)
        code, name = reference_source(entry)
        if name != answer:
            code += f"\n\n\n{answer} = {name}"
        stub = nb.cells[stub_at]
        stub.source = (_without_check(stub.source, entry) + "\n\n\n### BEGIN SOLUTION\n"
                       f"# A reference solution (tests/solutions/{entry.module_name}.py): it replaces the stub.\n"
                       f"{code}\n### END SOLUTION\n")
        _nbgrader(stub, answer_grade_id(entry.id), solution=True)
        test = nbformat.v4.new_code_cell(_test_cell_source(entry, Path(notebook).name, points))
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


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _recorded(out: Path) -> dict[str, str]:
    """The files the last export wrote into ``out`` and their SHA-256 (``{}``: none, or unreadable)."""
    try:
        files = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(files, dict) else {}


def _conflicts(out: Path, planned: dict[str, bytes]) -> list[str]:
    """The planned files that exist in ``out`` with other content than planned and were edited since the
    last export wrote them (or were not written by it): replacing them would lose someone's work."""
    recorded, found = _recorded(out), []
    for relative, data in planned.items():
        target = out / relative
        if target.is_dir():
            found.append(f"{target} is a folder")
        elif target.is_file():
            current = target.read_bytes()
            if current != data and recorded.get(relative) != _sha256(current):
                found.append(f"{target} was " + ("changed since the last export" if relative in recorded
                                                 else "not written by this export"))
    return found


def export(out: Path, root: Path = _ROOT, points: int = POINTS) -> list[Path]:
    """Write every exercise notebook in nbgrader's layout under ``out`` (module docstring).

    Args:
        out: the nbgrader course folder to write (created if missing). A file the export wrote before
            is replaced only if nobody changed it since (:data:`MANIFEST`).
        root: the course checkout holding ``notebooks/``.
        points: points of each exercise.

    Returns:
        the source notebooks written, in course order.

    Raises:
        ExportError: as :func:`source_notebook`; a file in ``out`` that was edited since the last export
            or not written by it (nothing is written then); ``out`` cannot be written (the message
            names the path and the reason).
    """
    by_notebook: dict[str, list[ExerciseEntry]] = {}
    for entry in EXERCISES:
        by_notebook.setdefault(entry.notebook, []).append(entry)
    planned: dict[str, bytes] = {"nbgrader_config.py": _CONFIG.encode("utf-8")}
    notebooks = []
    for notebook, entries in by_notebook.items():
        folder = f"source/{Path(notebook).stem}"
        text = nbformat.writes(source_notebook(root / "notebooks" / notebook, entries, points))
        planned[f"{folder}/{notebook}"] = (text if text.endswith("\n") else text + "\n").encode("utf-8")
        context = grading_context(root / "notebooks" / notebook, entries)
        planned[f"{folder}/{CONTEXT_FILE}"] = (json.dumps(context, indent=1, ensure_ascii=False) + "\n").encode()
        notebooks.append(out / folder / notebook)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out} is a file, not a folder: name a new or an export folder")
    try:
        conflicts = _conflicts(out, planned) if out.is_dir() else []
        if conflicts:
            raise ExportError("not exporting, nothing written: replacing these would lose changes:\n  "
                              + "\n  ".join(conflicts) + "\nmove them away (or export into a new folder) and run "
                              "the export again")
        recorded = _recorded(out) if out.is_dir() else {}
        for relative, data in planned.items():
            target = out / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.is_file() or target.read_bytes() != data:
                target.write_bytes(data)
            recorded[relative] = _sha256(data)
        (out / MANIFEST).write_text(json.dumps({"format": 1, "files": dict(sorted(recorded.items()))}, indent=1)
                                    + "\n", encoding="utf-8")
    except OSError as exc:
        where = exc.filename or out
        raise ExportError(f"cannot write {where}: {exc.strerror or exc}") from None
    return notebooks


def main(argv: list[str] | None = None) -> int:
    """``python -m tooling.nbgrader_export OUT [--points N]``: write the course for nbgrader; 0 on success."""
    parser = argparse.ArgumentParser(prog="python -m tooling.nbgrader_export",
                                     description="Write the course's exercises as an nbgrader course folder.")
    parser.add_argument("out", help="the nbgrader course folder to write, e.g. ../course-grading")
    parser.add_argument("--points", type=int, default=POINTS, help=f"points per exercise (default {POINTS})")
    args = parser.parse_args(argv)
    if args.points < 1:
        parser.error("--points must be at least 1")
    if not args.out.strip():
        parser.error("say where: an empty folder name would export into the current folder")
    out = Path(args.out)
    try:
        written = export(out, points=args.points)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(path.relative_to(out))
    print(f"{len(written)} assignments in {out}/source; next: cd {out} && "
          "nbgrader generate_assignment NAME (docs/teaching.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
