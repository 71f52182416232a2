"""The progress modules are floors of one house (issue 18, "A house with rooms").

* :mod:`helpers.progress_store` (the file: format, lock, parse, write) and :mod:`helpers.filelock`
  import nothing of the course but :mod:`helpers.files`;
* no progress module is in an import cycle (before: progress -> exercises registry -> exercises core
  -> progress, and progress -> selfcheck -> widgets -> engines -> progress, broken at run time by
  imports inside functions), counting imports inside functions too;
* ``from helpers.progress import progress_report``, the first cell of notebook 00, loads neither
  LangChain nor LangGraph nor an exercise checker (its cost is measured by ``python -X importtime``,
  never asserted here).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "helpers"
PROGRESS = ("helpers.progress", "helpers.progress_record", "helpers.progress_store")


def _modules() -> dict[str, Path]:
    found = {}
    for path in HELPERS.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(name: str, modules: dict[str, Path]) -> set[str]:
    """The course modules ``name`` imports anywhere in its code (not under ``if TYPE_CHECKING``),
    with the packages each import runs on the way (``a.b.c`` runs ``a`` and ``a.b``)."""
    path = modules[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}
    targets = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            targets |= {f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                        for alias in node.names}
        elif isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
    ran = set()
    for target in targets:
        parts = target.split(".")
        ran |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return {module for module in ran if module in modules and module != name}


def _reaches(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_the_store_imports_nothing_of_the_course():
    modules = _modules()
    assert _imports("helpers.progress_store", modules) <= {"helpers", "helpers.files", "helpers.filelock"}
    assert _imports("helpers.filelock", modules) <= {"helpers", "helpers.files"}
    assert _imports("helpers.files", modules) <= {"helpers"}


def test_no_progress_module_is_in_an_import_cycle():
    modules = _modules()
    graph = {name: _imports(name, modules) for name in modules}
    cycles = {name: sorted(m for m in _reaches(name, graph) if name in _reaches(m, graph))
              for name in PROGRESS}
    assert cycles == {name: [] for name in PROGRESS}


def test_the_progress_cell_loads_no_langchain_and_no_checker():
    probe = ("import sys, json; from helpers.progress import progress_report; "
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('langchain_core', 'langgraph', 'langchain', 'ipywidgets') or m.startswith('helpers.exercises.nb') "
             "or m in ('helpers.exercises.core', 'helpers.display', 'helpers.model'))))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == []
