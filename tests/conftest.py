"""Shared test set-up: the tests run offline whatever the developer's environment says, and prove it.

* Every test sees no real-model configuration (the autouse ``_offline_env`` fixture), and at
  start-up this process's environment loses what the runner's kernels lose
  (:func:`helpers.notebooks.removed_variables`: the real-model variables, other secrets, the
  learner's ``COURSE_PROGRESS_FILE`` / ``COURSE_WORKSPACE``), so strict nbval's kernels are too.
* **The offline guard.** At start-up this file puts ``tests/offline_guard/`` first on ``PYTHONPATH``
  and names a fresh log file in ``COURSE_NET_GUARD_LOG``. Every Python process started from this
  session inherits both, so its ``sitecustomize`` (``tests/offline_guard/sitecustomize.py``) refuses
  and logs any connection or name lookup that is not loopback: the kernels of strict nbval and of
  nbclient, and the processes they start. This process itself is not guarded (tests may start
  127.0.0.1 servers; nothing here connects out).
* ``tests/test_offline_guard.py::test_no_notebook_connected_out`` is marked ``run_last``: it runs
  after every other item, including the strict nbval cells of ``notebooks/``, and fails if the log
  holds any refused connection. It executes (guarded, with nbclient) only the notebooks that strict
  nbval did not run in this session, so ``make test`` executes every notebook once.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers.notebooks import OFFLINE_UNSET, removed_variables

#: The folder whose ``sitecustomize.py`` is the guard.
GUARD_DIR = Path(__file__).resolve().parent / "offline_guard"
#: The environment variable naming the guard's log file (one JSON object per line).
GUARD_LOG_VARIABLE = "COURSE_NET_GUARD_LOG"


@dataclass
class OfflineGuard:
    """The session's guard: its log, and the notebooks strict nbval executed in this session."""

    log: Path
    nbval_notebooks: set[Path] = field(default_factory=set)

    @staticmethod
    def env(log: Path) -> dict[str, str]:
        """Environment variables that guard a process (and its children), logging to ``log``."""
        rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and Path(p) != GUARD_DIR]
        return {GUARD_LOG_VARIABLE: str(log), "PYTHONPATH": os.pathsep.join([str(GUARD_DIR), *rest])}

    @staticmethod
    def read(log: Path) -> list[dict]:
        """The log's entries (``event``, ``target``, ``pid``, ``argv``, ``cwd``), oldest first."""
        if not Path(log).exists():
            return []
        return [json.loads(line) for line in Path(log).read_text(encoding="utf-8").splitlines() if line.strip()]

    def entries(self) -> list[dict]:
        """This session's log entries."""
        return self.read(self.log)


_GUARD = pytest.StashKey[OfflineGuard]()
_SAVED_ENV = pytest.StashKey[dict]()


class _NbvalTracker:
    """Records which notebooks strict nbval executed (a plugin object: it sees items in every folder)."""

    def __init__(self, guard: OfflineGuard) -> None:
        self.guard = guard

    def pytest_runtest_call(self, item: pytest.Item) -> None:
        if type(item).__name__ == "IPyNbCell":  # nbval 0.11's cell item
            self.guard.nbval_notebooks.add(Path(item.path).resolve())


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "run_last: run after every other test and notebook of the session")
    for name in removed_variables(os.environ):  # what nbval's kernels must not inherit (helpers.notebooks)
        os.environ.pop(name, None)
    names = (GUARD_LOG_VARIABLE, "PYTHONPATH")
    config.stash[_SAVED_ENV] = {name: os.environ.get(name) for name in names}
    log = Path(tempfile.mkdtemp(prefix="course-net-guard-")) / "connections.jsonl"
    log.touch()
    os.environ.update(OfflineGuard.env(log))
    guard = OfflineGuard(log)
    config.stash[_GUARD] = guard
    config.pluginmanager.register(_NbvalTracker(guard), "course-nbval-tracker")


def pytest_unconfigure(config: pytest.Config) -> None:
    guard = config.stash.get(_GUARD, None)
    if guard is not None:
        shutil.rmtree(guard.log.parent, ignore_errors=True)
    for name, value in config.stash.get(_SAVED_ENV, {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move ``run_last`` items behind everything else (the offline proof reads the whole session's log)."""
    last = [item for item in items if item.get_closest_marker("run_last")]
    if last:
        items[:] = [item for item in items if not item.get_closest_marker("run_last")] + last


@pytest.fixture
def offline_guard(request) -> OfflineGuard:
    """The session's :class:`OfflineGuard`."""
    return request.config.stash[_GUARD]


@pytest.fixture(autouse=True)
def _offline_env(monkeypatch):
    """Remove real-model configuration so every test sees the offline default."""
    for name in OFFLINE_UNSET:
        monkeypatch.delenv(name, raising=False)
