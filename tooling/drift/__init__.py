"""Drift: how the notebooks' outputs change on the newest releases of the course's direct dependencies.

``make drift`` (``python -m tooling.drift``) builds a separate venv (``.drift/venv``) with the newest
release the package registry serves of every direct dependency in ``requirements.txt`` (the block
headed ``# Direct dependencies``), re-executes every notebook there (offline, guarded, not in
place), and compares each executed notebook with the committed one cell by cell, the way strict
nbval compares them. It writes ``.drift/report.md`` (a readable diff per changed cell, notebook by
notebook, by cell id) and ``.drift/report.json`` (the same data). It is not part of ``make test``:
it needs the registry and takes minutes.

* :mod:`tooling.drift.compare`: the comparison and the report (pure functions; tested on recorded
  notebook pairs in ``tests/drift_fixtures/``).
* :mod:`tooling.drift.upgrade`: the direct dependencies, the newest releases, building the venv.
* :mod:`tooling.drift.__main__`: the command line.
"""

from .compare import CellChange, NotebookDrift, compare_notebooks, output_lines, render_json, render_markdown
from .upgrade import DirectPin, PackageMove, direct_pins

__all__ = [
    "CellChange",
    "DirectPin",
    "NotebookDrift",
    "PackageMove",
    "compare_notebooks",
    "direct_pins",
    "output_lines",
    "render_json",
    "render_markdown",
]
