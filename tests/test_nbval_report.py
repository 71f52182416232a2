"""Strict nbval's failure report (``tests/nbval_report.py``, issue 28): the cell id and its position
among all cells, and a diff with ``-`` committed and ``+`` this run, on a scratch notebook whose
committed output is deliberately wrong (a real kernel, a real nbval run in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent


def _scratch_notebook(path: Path) -> None:
    """Five cells, three of them code: the second code cell is cell 3, committed with a wrong first line;
    the third raises."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# 99 · scratch", id="cell-001"),
                nbformat.v4.new_code_cell("amount = 2", id="cell-002", execution_count=1),
                nbformat.v4.new_markdown_cell("Then the refund.", id="cell-003"),
                nbformat.v4.new_code_cell("print('refund:', amount * 20)\nprint('the same line')", id="cell-004",
                                          execution_count=2,
                                          outputs=[nbformat.v4.new_output("stream", name="stdout",
                                                                          text="refund: 45\nthe same line\n")]),
                nbformat.v4.new_code_cell("{}['missing']", id="cell-005", execution_count=3)]
    nbformat.write(nb, path)


def test_a_wrong_committed_output_is_reported_by_cell_id_with_the_diff_the_right_way_round(tmp_path):
    _scratch_notebook(tmp_path / "99_scratch.ipynb")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "-p", "tests.nbval_report", "-p", "no:xdist",
                          "-p", "no:cacheprovider", "-p", "no:langsmith_plugin", "--color=no", "-q",
                          "99_scratch.ipynb"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert "1 passed" in out and "2 failed" in out, out
    assert ("cell-004, cell 3 of 5 counting every cell from 0 (nbval's \"Cell 1\" counts code cells only), "
            "in 99_scratch.ipynb: outputs differ in stdout") in out, out
    assert "  | print('refund:', amount * 20)" in out
    diff = out[out.index("Cell outputs differ in 'stdout' (- committed, + this run):"):].splitlines()
    assert diff[1:6] == ["--- committed 99_scratch.ipynb", "+++ this run", "@@ -1,2 +1,2 @@", "-refund: 45",
                         "+refund: 40"], out
    assert diff[6] == " the same line"
    assert "assert reference_output == test_output" not in out, "nbval's own reversed comparison is replaced"
    # A cell that raises: the same heading, nbval's message and the kernel's traceback (no colour codes).
    assert ("cell-005, cell 4 of 5 counting every cell from 0 (nbval's \"Cell 2\" counts code cells only), "
            "in 99_scratch.ipynb: Cell execution caused an exception") in out, out
    assert "KeyError: 'missing'" in out and "\x1b[" not in out
    assert "FAILED 99_scratch.ipynb::Cell 1 - cell-004, cell 3 of 5" in out


def test_every_run_in_the_course_has_the_report(request):
    """The root conftest.py registers it, so ``pytest notebooks/03_x.ipynb`` (which never reads
    tests/conftest.py) has it as much as ``make test``."""
    assert request.config.pluginmanager.has_plugin("tests.nbval_report")
