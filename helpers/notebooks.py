"""Execute course notebooks in place with nbclient, so committed outputs are reproducible.

Usage::

    python -m helpers.notebooks                      # every notebooks/NN_*.ipynb
    python -m helpers.notebooks notebooks/01_function_to_tool.ipynb

Each notebook runs top to bottom in a fresh kernel, offline: ``COURSE_MODEL``,
``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` are removed from the kernel's environment, so
the scripted model is used. Outputs are stored the way strict nbval compares them:

* no widget state (``store_widget_state=False``) and no timing metadata (``record_timing=False``);
* cell ids are renumbered ``cell-001``, ``cell-002``, ... so diffs stay small;
* a cell may raise only if it is tagged ``raises-exception`` or contains ``NBVAL_RAISES_EXCEPTION``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
OFFLINE_UNSET = ("COURSE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY")

__all__ = ["NOTEBOOK_DIR", "course_notebooks", "execute_notebook", "main"]


def course_notebooks(folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The course notebooks (``NN_*.ipynb``) in order."""
    return sorted(p for p in folder.glob("[0-9][0-9]_*.ipynb"))


def _mark_allowed_errors(nb: nbformat.NotebookNode) -> None:
    for cell in nb.cells:
        if cell.cell_type == "code" and "NBVAL_RAISES_EXCEPTION" in cell.source:
            tags = cell.metadata.setdefault("tags", [])
            if "raises-exception" not in tags:
                tags.append("raises-exception")


def execute_notebook(path: Path, *, timeout: int = 600, offline: bool = True, output: Path | None = None,
                     allow_errors: bool = False) -> nbformat.NotebookNode:
    """Execute one notebook (see the module docstring for what is normalised).

    Args:
        path: the notebook to run; its folder is the kernel's working directory.
        timeout: seconds allowed per cell.
        offline: remove the real-model variables from the kernel's environment (default).
            ``False`` keeps them, to try the notebook against a configured model.
        output: where to write the executed notebook; default: in place.
        allow_errors: record errors as outputs and go on instead of stopping.

    Returns:
        the executed notebook.

    Raises:
        nbclient.exceptions.CellExecutionError: an unmarked cell raised (unless ``allow_errors``);
            nothing is written.
    """
    path = Path(path).resolve()
    nb = nbformat.read(path, as_version=4)
    _mark_allowed_errors(nb)
    env = {k: v for k, v in os.environ.items() if not (offline and k in OFFLINE_UNSET)}
    old_env = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
            store_widget_state=False,
            record_timing=False,
            allow_errors=allow_errors,
        )
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old_env)
    nb.metadata.pop("widgets", None)
    for number, cell in enumerate(nb.cells, start=1):
        cell["id"] = f"cell-{number:03d}"
        cell.metadata.pop("execution", None)
    nbformat.validate(nb)
    nbformat.write(nb, output or path)
    return nb


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: execute the given notebooks (default: all). Returns an exit status."""
    args = sys.argv[1:] if argv is None else argv
    paths = [Path(a) for a in args] or course_notebooks()
    failed = 0
    for path in paths:
        print(f"executing {path.name} ...", flush=True)
        try:
            execute_notebook(path)
        except CellExecutionError as exc:
            failed += 1
            print(f"FAILED {path.name}: {str(exc).splitlines()[-1] if str(exc) else exc}", file=sys.stderr)
    print(f"executed {len(paths) - failed} of {len(paths)} notebooks")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
