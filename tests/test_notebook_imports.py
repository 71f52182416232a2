"""Every ``helpers`` import a notebook has ever shown keeps working (issue 28, "The layout shows who uses what").

A learner's edited notebook in ``workspace/`` keeps the imports of the course version it was copied from, so
moving a module must not break any of them. ``tests/notebook_imports.txt`` lists each one (one imported name a
line), collected from the committed notebooks and every version of them in git history; the first test proves
the list holds every import of the notebooks committed now (so the list grows with the course), the second runs
every line in a fresh interpreter against this checkout.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISTED = ROOT / "tests" / "notebook_imports.txt"


def listed() -> list[str]:
    """The import statements of ``notebook_imports.txt`` (comments and blank lines left out)."""
    lines = LISTED.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def helpers_imports(source: str) -> set[str]:
    """Each ``helpers`` import in one cell's code, one imported name each: ``from helpers.domain import
    OrderStore``, ``import helpers.progress``. IPython magics and shell lines are left out before parsing."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "helpers":
            found |= {f"from {node.module} import {alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {f"import {alias.name}" for alias in node.names if alias.name.split(".")[0] == "helpers"}
    return found


def test_the_reader_splits_an_import_into_one_line_per_name():
    cell = "%load_ext autoreload\nfrom helpers import (show,\n    tool_call)\nimport helpers.progress\nimport json\n"
    assert helpers_imports(cell) == {"from helpers import show", "from helpers import tool_call",
                                     "import helpers.progress"}


def test_the_list_holds_every_import_of_the_committed_notebooks():
    shown = {}
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                for line in helpers_imports("".join(cell["source"])):
                    shown.setdefault(line, path.relative_to(ROOT).as_posix())
    missing = sorted(f"{line}    ({where})" for line, where in shown.items() if line not in set(listed()))
    assert not missing, f"add these lines to {LISTED.relative_to(ROOT)}:\n" + "\n".join(missing)


def test_every_import_a_notebook_has_shown_still_works():
    """All lines in one fresh interpreter whose import path starts at this checkout, as a kernel's does."""
    probe = ("import json, sys\nfailed = {}\nfor line in json.loads(sys.argv[1]):\n"
             "    try:\n        exec(line, {})\n    except Exception as exc:\n"
             "        failed[line] = f'{type(exc).__name__}: {exc}'\nprint(json.dumps(failed))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", probe, json.dumps(listed())], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(listed()) > 80
    failed = json.loads(run.stdout)
    assert not failed, "imports a notebook has shown that no longer work:\n" + "\n".join(
        f"{line}: {why}" for line, why in failed.items())
