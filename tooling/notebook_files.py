"""A notebook file in and out: read and validate it (:func:`read_notebook`), store outputs the way
strict nbval compares them (course cell ids kept, new cells numbered, streams merged, no widget state, widget
model ids or timing), write it atomically; and :class:`NotebookFailure`, the one-line failure a run reports.

One floor of :mod:`tooling.notebooks` (which re-exports its public names).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path
from typing import Literal

import nbformat

#: Why a notebook failed (the closed set the runner reports).
FailureKind = Literal["missing", "not a notebook", "cell error", "timeout", "kernel died", "kernel error",
                      "output too large", "not written"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# IPython compiles each cell under a random file name ("3956648022.py"): keep the line, drop the name.
_CELL_FILE = re.compile(r"\(\d+\.py, (line \d+)\)")


def _one_line(text: str, limit: int = 300) -> str:
    text = _CELL_FILE.sub(r"(\1)", _ANSI.sub("", text))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class NotebookFailure(Exception):
    """A notebook could not be executed to its end; :meth:`line` is the one-line report.

    Attributes:
        path: the notebook.
        kind: one of :data:`FailureKind`.
        reason: what went wrong, one line, no ANSI codes (e.g. ``ValueError: boom``).
        cell: index of the failing cell in ``nb.cells`` (0-based, as ``nbtool.py list`` counts),
            or ``None`` when no cell was running.
        first_line: the first line of that cell's source (for the report).
    """

    def __init__(self, path: Path, kind: FailureKind, reason: str, *, cell: int | None = None,
                 first_line: str = "") -> None:
        self.path, self.kind, self.reason, self.cell, self.first_line = Path(path), kind, reason, cell, first_line
        super().__init__(self.line())

    def line(self) -> str:
        """``FAILED NN_x.ipynb: cell 7 ("first line"): reason`` (one line)."""
        where = ""
        if self.cell is not None:
            where = f"cell {self.cell}" + (f' ("{_one_line(self.first_line, 60)}")' if self.first_line else "") + ": "
        return f"FAILED {self.path.name}: {where}{self.reason}"


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read and validate a notebook file (nbformat 4).

    Raises:
        NotebookFailure: ``missing`` (no such file, or a folder) or ``not a notebook`` (not JSON,
            or JSON that is not a valid notebook).
    """
    path = Path(path)
    if not path.is_file():
        raise NotebookFailure(path, "missing", "no such file" if not path.exists() else "not a file")
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as exc:  # noqa: BLE001 - nbformat raises many types for a bad file
        reason = _one_line(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 160)
        raise NotebookFailure(path, "not a notebook", f"not a readable notebook ({reason})") from exc
    return nb


def _mark_allowed_errors(nb: nbformat.NotebookNode) -> None:
    for cell in nb.cells:
        if cell.cell_type == "code" and "NBVAL_RAISES_EXCEPTION" in cell.source:
            tags = cell.metadata.setdefault("tags", [])
            if "raises-exception" not in tags:
                tags.append("raises-exception")


def _coalesce_streams(outputs: list) -> list:
    """Merge consecutive ``stream`` outputs of the same name (stdout/stderr), as nbconvert's
    ``coalesce_streams`` does: nbclient stores one ``print`` as one or several chunks depending on
    timing, and nbval merges them before comparing, so merging keeps committed diffs stable."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream" and previous.get("name") == output.get("name")):
            previous["text"] = "".join(previous["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


_COURSE_ID = re.compile(r"cell-(\d{3,})")


#: The mimetype of a widget's view in an output (ipywidgets 8): ``{"model_id": ..., "version_major": 2, ...}``.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _normalise(nb: nbformat.NotebookNode) -> None:
    nb.metadata.pop("widgets", None)
    _number_cells(nb.cells)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
            for output in cell.outputs:
                _forget_widget_model(output)


def _forget_widget_model(output: dict) -> None:
    """Store a widget's view without its model id (``"model_id": ""``).

    The id is the widget's comm id, a random ``uuid4().hex`` per run (ipywidgets 8.1 ``Widget.open``,
    comm 0.2 ``BaseComm``), and the notebook stores no widget state, so the id names a model no
    reader of the file has: it would change every committed notebook on every run for nothing.
    An empty id is the widget manager's own "this view is gone" (jupyterlab_widgets 3.0's
    ``WidgetRenderer.renderModel`` hides such an output instead of writing "Error displaying
    widget: model not found"), and strict nbval never compares this mimetype (nbval 0.11's
    ``skip_compare``). The output's ``text/plain`` and every other output (the self-check's static
    questions) are kept; running the cell shows the live widget as before.
    """
    view = output.get("data", {}).get(WIDGET_VIEW)
    if isinstance(view, dict) and "model_id" in view:
        view["model_id"] = ""


def _number_cells(cells: list) -> None:
    """Keep every course cell id (``cell-NNN``, unique in the notebook): translations and the
    notebook split of issue 17 are keyed by them. A cell without one (a random id from JupyterLab,
    or a repeat) gets the next number above the notebook's highest, so no id is ever reused."""
    seen: set[str] = set()
    keep = []
    for cell in cells:
        found = _COURSE_ID.fullmatch(str(cell.get("id", "")))
        keep.append(bool(found) and cell["id"] not in seen)
        if keep[-1]:
            seen.add(cell["id"])
    top = max((int(i[5:]) for i in seen), default=0)
    for cell, kept in zip(cells, keep):
        if not kept:
            top += 1
            cell["id"] = f"cell-{top:03d}"


def _write_atomically(nb: nbformat.NotebookNode, target: Path) -> None:
    """Write ``nb`` to a temporary file beside ``target``, then move it over ``target``."""
    target = Path(target)
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            nbformat.write(nb, handle)
        os.chmod(tmp, mode)  # mkstemp makes 0o600; keep the notebook's own mode
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
