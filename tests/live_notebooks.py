"""Execute a course notebook live: the model factory pointed at the loopback OpenAI server.

:func:`execute_notebook_live` runs one notebook with ``COURSE_MODEL``, ``OPENAI_API_KEY`` and
``OPENAI_BASE_URL`` set for the kernel (``DASHSCOPE_API_KEY`` removed), through
``tooling.notebooks.execute_notebook(..., offline=False, allow_errors=True, output=...)``, and
returns the error outputs and the request bodies the server received meanwhile::

    from tests.loopback_openai import loopback_openai  # the fixture

    def test_notebook_runs_live(loopback_openai, tmp_path):
        errors, bodies = execute_notebook_live(NOTEBOOK_DIR / "00_start_here.ipynb", loopback_openai, tmp_path)
        assert errors == [] and bodies
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

try:
    from tests.loopback_openai import LOOPBACK_KEY, LOOPBACK_MODEL, LoopbackOpenAI
except ImportError:  # imported as a top-level module by pytest's rootdir handling
    from loopback_openai import LOOPBACK_KEY, LOOPBACK_MODEL, LoopbackOpenAI  # type: ignore[no-redef]

__all__ = ["CellError", "LiveRun", "execute_notebook_live", "output_text"]

_MODEL_VARIABLES = ("COURSE_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "DASHSCOPE_API_KEY",
                    "COURSE_MODEL_TIMEOUT", "COURSE_MODEL_MAX_RETRIES")


class CellError(NamedTuple):
    """One error output: the code cell's index in ``nb.cells``, the exception name and message."""

    cell: int
    ename: str
    evalue: str


class LiveRun(NamedTuple):
    """What :func:`execute_notebook_live` returns: ``(errors, bodies)``.

    Attributes:
        errors: every error output of the executed notebook (an empty list when it ran to its end).
        bodies: the chat.completions request bodies the server received during the run, in order.
    """

    errors: list[CellError]
    bodies: list[Any]


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in _MODEL_VARIABLES}
    for name in _MODEL_VARIABLES:
        os.environ.pop(name, None)
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def execute_notebook_live(path: Path | str, server: LoopbackOpenAI, output_dir: Path | str, *,
                          model: str = LOOPBACK_MODEL, key: str = LOOPBACK_KEY, timeout: int = 300) -> LiveRun:
    """Execute one notebook with the model factory pointed at ``server``.

    Args:
        path: the notebook.
        server: a started :class:`~tests.loopback_openai.LoopbackOpenAI` (the ``loopback_openai`` fixture).
        output_dir: where the executed copy is written (``output_dir / path.name``); the original is untouched.
        model: ``COURSE_MODEL`` for the kernel.
        key: ``OPENAI_API_KEY`` for the kernel (a fake key; check it appears in no output with
            :func:`output_text`).
        timeout: seconds allowed per cell.

    Returns:
        ``LiveRun(errors, bodies)``.
    """
    from tooling.notebooks import execute_notebook

    path = Path(path)
    output = Path(output_dir) / path.name
    first = len(server.requests)
    env = {"COURSE_MODEL": model, "OPENAI_API_KEY": key, "OPENAI_BASE_URL": server.base_url}
    with _environment(env):
        nb = execute_notebook(path, offline=False, allow_errors=True, output=output, timeout=timeout)
    errors = [CellError(index, out.get("ename", ""), out.get("evalue", ""))
              for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    bodies = [r.body for r in server.requests[first:] if r.path.endswith("/chat/completions")]
    return LiveRun(errors, bodies)


def output_text(notebook_path: Path | str) -> str:
    """Every output of an executed notebook as one JSON string (to assert that a key is absent)."""
    nb = json.loads(Path(notebook_path).read_text(encoding="utf-8"))
    return json.dumps([cell.get("outputs", []) for cell in nb["cells"]])
