"""Execute course notebooks in place with nbclient, so committed outputs are reproducible.

Usage::

    python -m tooling.notebooks                      # every notebooks/NN_*.ipynb
    python -m tooling.notebooks notebooks/01_function_to_tool.ipynb --timeout 120

Each notebook runs top to bottom in a fresh kernel, offline: the real-model variables
(:data:`OFFLINE_UNSET`) are removed from the kernel's environment, so the scripted model is used.
So are every other secret-looking variable (``ANTHROPIC_API_KEY``, ``GITHUB_TOKEN``, ...: see
:func:`removed_variables`), LangSmith's tracing variables, and the learner's own state
(:data:`LEARNER_STATE`: ``COURSE_PROGRESS_FILE``, ``COURSE_WORKSPACE``), so a course run neither
reads nor writes the learner's progress. Anything a notebook starts in the kernel's process group
is ended with the kernel (a child process left running would outlive the run). A cell whose
outputs exceed :data:`MAX_CELL_OUTPUT` characters fails the notebook: outputs are committed.
Outputs are stored the way strict nbval compares them:

* no widget state (``store_widget_state=False``) and no timing metadata (``record_timing=False``);
* a widget's view is stored with an empty model id (its random comm id names no stored model), so
  re-executing a notebook that nothing changed changes no byte;
* cell ids ``cell-NNN`` are kept (a translation is keyed by them); a cell without one gets the next free number;
* a cell may raise only if it is tagged ``raises-exception`` or contains ``NBVAL_RAISES_EXCEPTION``.

A notebook that fails is never written (not even half): the executed notebook is written to a
temporary file beside the target and moved over it only when every cell succeeded. The command
line reports one line per notebook (``ok 01_x.ipynb`` or ``FAILED 01_x.ipynb: cell 7 ("..."): Type:
message``, without ANSI codes or tracebacks), goes on with the next notebook after any failure
(a missing file, a file that is not a notebook, a kernel that dies, a cell past its timeout, a cell
that raises or does not compile, a folder the result cannot be written to) and exits with status 1
at the end if any notebook failed.

The kernel's own stdout and stderr (ipykernel 7.4 warns "Kernel is running over TCP without
encryption" at every start, and logs a ZMQ traceback when it is stopped after a timeout) go to a
temporary file, not to the terminal: the report stays one line per notebook. When the kernel dies
or does not start, the last line it wrote there (e.g. ``ModuleNotFoundError: ...``) is added to
the failure line, so a real error stays visible.
"

The runner is three floors: :mod:`tooling.kernel_env` (the kernel's environment),
:mod:`tooling.notebook_files` (reading, normalising and writing a notebook; the failure report)
and this module (running the kernel, the command line); every public name is importable from here.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

from .kernel_env import LEARNER_STATE, OFFLINE_UNSET, kernel_env, removed_variables
from .notebook_files import (
    FailureKind,
    NotebookFailure,
    _mark_allowed_errors,
    _normalise,
    _one_line,
    _write_atomically,
    read_notebook,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
#: Seconds allowed per cell unless ``--timeout`` / ``timeout=`` says otherwise.
DEFAULT_TIMEOUT = 600
#: The most output one cell may leave, in characters of its JSON (the course's largest is about
#: 3,600): a cell over it fails the notebook, so a runaway print is never committed.
MAX_CELL_OUTPUT = 100_000

__all__ = [
    "DEFAULT_TIMEOUT",
    "LEARNER_STATE",
    "MAX_CELL_OUTPUT",
    "NOTEBOOK_DIR",
    "OFFLINE_UNSET",
    "FailureKind",
    "NotebookFailure",
    "course_notebooks",
    "execute_notebook",
    "kernel_env",
    "main",
    "read_notebook",
    "removed_variables",
    "run_notebook",
]


# Lines the kernel writes to its stderr at every start: noise, never the reason for a failure.
_KERNEL_NOISE = ("Kernel is running over TCP without encryption",)


def course_notebooks(folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The course notebooks (``NN_*.ipynb``) in ``folder``, in order."""
    return sorted(p for p in Path(folder).glob("[0-9][0-9]_*.ipynb"))


@dataclass
class _Tracker:
    """Which cell is running (nbclient's ``on_cell_start`` hook)."""

    index: int | None = None

    on_start: Callable[[int], None] | None = None

    def start(self, cell: Any, cell_index: int) -> None:
        self.index = cell_index
        if self.on_start is not None:
            self.on_start(cell_index)


def _last_kernel_line(log: Any) -> str:
    """The last meaningful line the kernel wrote to its captured stdout/stderr ("" if none).

    Reads at most the last 8 KB; skips the start-up warnings in :data:`_KERNEL_NOISE` and blank lines.
    """
    try:
        log.flush()
        size = log.seek(0, os.SEEK_END)
        log.seek(max(0, size - 8192))
        tail = log.read().decode("utf-8", "replace")
    except (OSError, ValueError):
        return ""
    for line in reversed(tail.splitlines()):
        if line.strip() and not any(noise in line for noise in _KERNEL_NOISE):
            return _one_line(line, 160)
    return ""


def run_notebook(nb: nbformat.NotebookNode, *, path: Path, cwd: Path, timeout: int = DEFAULT_TIMEOUT,
                 env: Mapping[str, str] | None = None, allow_errors: bool = False,
                 on_cell_start: Callable[[NotebookClient, int], None] | None = None,
                 on_cell_executed: Callable[[NotebookClient, int], None] | None = None,
                 max_cell_output: int | None = MAX_CELL_OUTPUT) -> nbformat.NotebookNode:
    """Execute ``nb`` in a fresh ``python3`` kernel (nbclient 0.11) and return it; writes nothing.

    Args:
        nb: the notebook (changed in place: outputs, execution counts, ``raises-exception`` tags).
        path: the notebook's file, only used in failure reports.
        cwd: the kernel's working directory.
        timeout: seconds allowed per cell.
        env: the kernel's environment (default: :func:`kernel_env`).
        allow_errors: record errors as outputs and go on instead of stopping.
        on_cell_start: called as ``f(client, cell_index)`` before each code cell runs.
        on_cell_executed: called as ``f(client, cell_index)`` after each code cell, while the
            kernel is still running (the benchmark reads the kernel's memory there).
        max_cell_output: the most characters (of its outputs' JSON) one cell may leave; ``None``: no limit.

    After the kernel is shut down, whatever is left in its process group (jupyter_client 8 starts
    the kernel in a session of its own: a ``subprocess.Popen`` from a cell, say) is killed, so no
    child process outlives the run. A process that started a session of its own is not reached.

    The kernel process's stdout and stderr go to a temporary file (see the module docstring);
    its last line is added to a ``kernel died`` / ``kernel error`` reason.

    Raises:
        NotebookFailure: ``cell error`` (an unmarked cell raised or did not compile), ``timeout``
            (a cell ran past ``timeout``), ``kernel died``, ``kernel error`` (the kernel did not start),
            ``output too large`` (a cell's outputs exceed ``max_cell_output``).
    """
    _mark_allowed_errors(nb)
    tracker = _Tracker()
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd)}},
        store_widget_state=False,
        record_timing=False,
        allow_errors=allow_errors,
        on_cell_start=tracker.start,
    )
    if on_cell_start is not None:
        tracker.on_start = lambda cell_index: on_cell_start(client, cell_index)
    groups: list[int] = []

    def kernel_started(**_: Any) -> None:
        pgid = getattr(getattr(client.km, "provisioner", None), "pgid", None)
        if isinstance(pgid, int) and pgid > 1 and pgid != os.getpgrp():
            groups.append(pgid)

    def cell_executed(cell: Any, cell_index: int, execute_reply: Any) -> None:
        if max_cell_output is not None:
            size = len(json.dumps(cell.get("outputs", []), default=str))
            if size > max_cell_output:
                raise failure("output too large",
                              f"the cell's output is {size:,} characters, more than the {max_cell_output:,} a "
                              "committed cell may hold: print a summary (a count, the first lines) instead")
        if on_cell_executed is not None:
            on_cell_executed(client, cell_index)

    client.on_notebook_start = kernel_started
    client.on_cell_executed = cell_executed

    def failure(kind: FailureKind, reason: str, kernel_log: Any = None) -> NotebookFailure:
        cell = tracker.index
        first = ""
        if cell is not None and cell < len(nb.cells):
            first = (nb.cells[cell].source.strip().splitlines() or [""])[0]
        said = _last_kernel_line(kernel_log) if kernel_log is not None else ""
        if said:
            reason = f"{reason}; the kernel's last words: {said}"
        return NotebookFailure(path, kind, reason, cell=cell, first_line=first)

    # jupyter_client 8 passes start_kernel()'s stdout/stderr on to the kernel's Popen.
    with tempfile.TemporaryFile(prefix="kernel-", suffix=".log") as kernel_log:
        try:
            client.execute(env=dict(env if env is not None else kernel_env()), stdout=kernel_log, stderr=kernel_log)
        except CellExecutionError as exc:
            reason = f"{exc.ename}: {exc.evalue}" if exc.evalue else exc.ename
            raise failure("cell error", _one_line(reason)) from exc
        except CellTimeoutError as exc:
            raise failure("timeout", f"the cell ran longer than the timeout ({timeout} s)") from exc
        except DeadKernelError as exc:
            raise failure("kernel died", "the kernel died (it crashed, ran out of memory or was killed)",
                          kernel_log) from exc
        except (RuntimeError, OSError, asyncio.TimeoutError) as exc:
            # jupyter_client raises RuntimeError("Kernel died before replying to kernel_info") and
            # friends when the kernel does not start at all.
            kind: FailureKind = "kernel died" if tracker.index is not None else "kernel error"
            raise failure(kind, _one_line(f"{type(exc).__name__}: {exc}"), kernel_log) from exc
        finally:
            _forget_kernel(client)
            _end_process_groups(groups)
    return nb


def _end_process_groups(groups: Sequence[int]) -> None:
    """Kill what is left of the kernels' process groups (never this process's own group)."""
    for pgid in groups:
        if pgid != os.getpgrp():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)


def _forget_kernel(client: NotebookClient) -> None:
    """Make sure no kernel outlives ``client`` and no clean-up is left for interpreter exit.

    nbclient 0.11 registers an ``atexit`` clean-up before starting the kernel and removes it only
    when execution got past the start; after a kernel that did not start it stays registered and
    prints an ``AssertionError`` traceback when the interpreter exits.
    """
    atexit.unregister(client._cleanup_kernel)
    if client.km is not None:
        with contextlib.suppress(Exception):
            client._cleanup_kernel()
        client.km = None


def execute_notebook(path: Path, *, timeout: int = DEFAULT_TIMEOUT, offline: bool = True,
                     output: Path | None = None, allow_errors: bool = False,
                     env: Mapping[str, str] | None = None) -> nbformat.NotebookNode:
    """Execute one notebook (see the module docstring for what is normalised) and write it.

    Args:
        path: the notebook to run; its folder is the kernel's working directory.
        timeout: seconds allowed per cell.
        offline: remove :data:`OFFLINE_UNSET` from the kernel's environment (default).
            ``False`` keeps them, to try the notebook against a configured model.
        output: where to write the executed notebook; default: in place.
        allow_errors: record errors as outputs and go on instead of stopping.
        env: extra environment variables for the kernel (added after ``offline`` removed its set).

    Returns:
        the executed notebook.

    Raises:
        NotebookFailure: the notebook is missing or unreadable, a cell failed, timed out or the
            kernel died (see :func:`run_notebook`); nothing is written then. ``not written``: it
            ran, but the result could not be written (a read-only folder, a full disk); the
            notebook on disk is unchanged.
    """
    path = Path(path).resolve()
    nb = read_notebook(path)
    run_notebook(nb, path=path, cwd=path.parent, timeout=timeout, allow_errors=allow_errors,
                 env=kernel_env(offline=offline, extra=env))
    _normalise(nb)
    nbformat.validate(nb)
    target = Path(output) if output is not None else path
    try:
        _write_atomically(nb, target)
    except OSError as exc:
        where = "its folder" if target.parent == path.parent else f"the folder {target.parent.name}"
        raise NotebookFailure(path, "not written", f"ran, but the result could not be written to {where} "
                              f"({exc.strerror or type(exc).__name__}); the file is unchanged") from exc
    return nb


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: execute the given notebooks (default: all) in place.

    Prints one line per notebook and a summary; returns 0 when all succeeded, else 1.
    """
    parser = argparse.ArgumentParser(prog="python -m tooling.notebooks", description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebook files (default: every notebooks/NN_*.ipynb)")
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"seconds allowed per cell (default {DEFAULT_TIMEOUT})")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    paths = args.notebooks or course_notebooks()
    failed = 0
    for path in paths:
        started = time.monotonic()
        try:
            execute_notebook(path, timeout=args.timeout)
        except NotebookFailure as exc:
            failed += 1
            print(exc.line(), flush=True)
        except Exception as exc:  # noqa: BLE001 - one line per notebook, and the next ones still run
            failed += 1
            print(f"FAILED {Path(path).name}: {_one_line(f'{type(exc).__name__}: {exc}')}", flush=True)
        else:
            print(f"ok {path.name} ({time.monotonic() - started:.1f} s)", flush=True)
    print(f"executed {len(paths) - failed} of {len(paths)} notebooks" + (f", {failed} FAILED" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
