"""The progress modules are floors of one house (issue 18, "A house with rooms").

* :mod:`helpers.progress.store` (the file: format, lock, parse, write) and :mod:`helpers.filelock`
  import nothing of the course but :mod:`helpers.files` (the store also its format,
  :mod:`helpers.progress.format`, which imports nothing of the course);
* no progress module is in an import cycle (before: progress -> exercises registry -> exercises core
  -> progress, and progress -> selfcheck -> widgets -> engines -> progress, broken at run time by
  imports inside functions): ``tests/test_import_graph.py`` checks every module of ``helpers/``,
  counting imports inside functions too;
* ``from helpers.progress import progress_report``, the first cell of notebook 00, loads neither
  LangChain nor LangGraph nor an exercise checker (its cost is measured by ``python -X importtime``,
  never asserted here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.test_import_graph import import_graph

ROOT = Path(__file__).resolve().parent.parent


def test_the_store_imports_nothing_of_the_course():
    graph = import_graph()
    # helpers.workspace: the package the renumbering's data lives in, which imports none of its modules
    assert graph["helpers.progress.store"] <= {"helpers.files", "helpers.filelock", "helpers.progress.format",
                                              "helpers.workspace.renumbering", "helpers.workspace"}
    assert graph["helpers.workspace"] == graph["helpers.progress"] == {"helpers.lazy"}
    assert graph["helpers.lazy"] == set()
    assert graph["helpers.workspace.renumbering"] == set()
    assert graph["helpers.progress.format"] <= {"helpers.i18n"}  # the message catalog: a leaf
    assert graph["helpers.i18n"] == set()
    assert graph["helpers.filelock"] <= {"helpers.files"}
    assert graph["helpers.files"] == set()


def test_the_progress_cell_loads_no_langchain_and_no_checker():
    probe = ("import sys, json; from helpers.progress import progress_report; "
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('langchain_core', 'langgraph', 'langchain', 'ipywidgets') or m.startswith('helpers.exercises.nb') "
             "or m in ('helpers.exercises.core', 'helpers.display.trace', 'helpers.model'))))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == []
