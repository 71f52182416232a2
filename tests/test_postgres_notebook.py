"""Notebook 18 runs on PostgreSQL where the course is tested, and on its SQLite fallback where PostgreSQL is missing.

* The committed outputs of both editions came from PostgreSQL: a notebook executed where the server could
  not start (its first line says SQLite) must not be committed; strict nbval would then also fail in CI,
  which runs on PostgreSQL (``.ci/run`` installs it).
* The fallback is real: the notebook executed with ``COURSE_POSTGRES=off`` runs to its end without an
  error, says so in its first output, and prints the same invariants as the PostgreSQL run wherever the
  engine does not matter (the lost turn, the race, the 1,000 customers).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tooling.notebooks import kernel_env, read_notebook, run_notebook

#: ``make check NB=18`` (``pytest --notebook 18``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("18")

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = sorted((ROOT / "notebooks").glob("18_*.ipynb"))
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("18_*.ipynb"))
FIRST_LINE = {"en": "engine: PostgreSQL, ", "zh": "引擎：PostgreSQL，"}
#: Cells whose printed invariants do not depend on the engine (the lost turn, the lock, the race, the sim).
SAME_ON_BOTH = ("u-0100", "u-0101", "check, then insert", "runs queued")


def _first_output(nb: nbformat.NotebookNode) -> str:
    for cell in nb.cells:
        if cell.cell_type == "code" and "course_database()" in cell.source:
            return "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")
    raise AssertionError("no cell calls course_database()")


def _text(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")


@pytest.mark.parametrize("path", ENGLISH + CHINESE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_committed_outputs_came_from_postgresql(path):
    edition = "zh" if path.parent.name == "zh" else "en"
    first = _first_output(read_notebook(path))
    assert first.startswith(FIRST_LINE[edition]), (
        f"{path.name} was executed on the SQLite fallback ({first.splitlines()[0] if first else 'no output'}): "
        "re-execute it where PostgreSQL runs (python -m helpers.postgres where)")


def test_notebook_18_runs_to_its_end_on_the_sqlite_fallback(tmp_path):
    (source,) = ENGLISH
    committed = read_notebook(source)
    nb = read_notebook(source)
    run_notebook(nb, path=tmp_path / source.name, cwd=source.parent, timeout=600,
                 env=kernel_env(extra={"COURSE_POSTGRES": "off"}))
    errors = [(c.id, o.get("ename")) for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.get("output_type") == "error"]
    assert not errors, errors
    first = _first_output(nb).splitlines()
    assert first[0] == "engine: SQLite, the embedded fallback: PostgreSQL is turned off here (COURSE_POSTGRES=off)"
    assert first[1].startswith("what differs from the PostgreSQL run stored in this notebook")
    by_id = {c.id: c for c in committed.cells}
    compared = 0
    for cell in nb.cells:
        if cell.cell_type == "code" and any(marker in cell.source for marker in SAME_ON_BOTH):
            assert _text(cell) == _text(by_id[cell.id]), f"{cell.id} differs on the fallback"
            compared += 1
    assert compared >= len(SAME_ON_BOTH)  # u-0100 also names the forks cell
