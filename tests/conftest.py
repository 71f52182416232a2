"""Shared test set-up: the tests run offline whatever the developer's environment says, and prove it.

* Every test sees no real-model configuration (the autouse ``_offline_env`` fixture), and at
  start-up this process's environment loses what the runner's kernels lose
  (:func:`tooling.notebooks.removed_variables`: the real-model variables, other secrets, the
  learner's ``COURSE_PROGRESS_FILE`` / ``COURSE_WORKSPACE``), so strict nbval's kernels are too.
* **The offline guard.** At start-up each test process (the one pytest process, or each
  pytest-xdist worker) puts ``tests/offline_guard/`` first on ``PYTHONPATH`` and names its own log
  file in ``COURSE_NET_GUARD_LOG``: ``<guard folder>/main.jsonl``, or ``gw0.jsonl``, ``gw1.jsonl``
  ... in one folder the session owns. Every Python process started from a test process inherits
  both, so its ``sitecustomize`` (``tests/offline_guard/sitecustomize.py``) refuses and logs any
  connection or name lookup that is not loopback: the kernels of strict nbval and of nbclient, and
  the processes they start. The test processes themselves are not guarded (tests may start
  127.0.0.1 servers; nothing here connects out); under xdist the controller exports nothing, so the
  workers it starts are not guarded either.
* **The offline proof** (``tests/test_offline_guard.py::test_no_notebook_connected_out``, marked
  ``offline_proof``) runs after everything else. In one process it is the last item. Under xdist no
  worker can see the others' kernels, so the workers leave it out, and the controller runs it after
  every worker finished (:class:`_ControllerProof`): it reads every worker's log together and
  reports the result under the test's own name. It fails when a worker handed back no record or its
  log is missing or was not started by that worker, so a crashed worker cannot make it pass.
* **Order and grouping for xdist** (``make test`` runs ``-n 3``; :func:`pytest_xdist_make_scheduler`):
  the cells of one notebook under strict nbval share one kernel and stay on one worker in order;
  so do the tests of one module (module-scoped fixtures, e.g. one JupyterLab for the diagram
  test), except the files in :data:`SPREAD`, whose tests are each long (a notebook executed live, a
  JupyterLab session in a browser) and are spread one by one. The longest work goes first
  (:data:`HEAVY_FIRST`), so the workers finish together instead of one waiting for a straggler.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tooling.notebooks import OFFLINE_UNSET, removed_variables

#: The folder whose ``sitecustomize.py`` is the guard.
GUARD_DIR = Path(__file__).resolve().parent / "offline_guard"
#: The environment variable naming the guard's log file (one JSON object per line).
GUARD_LOG_VARIABLE = "COURSE_NET_GUARD_LOG"
#: The key under which the controller hands its guard folder to each xdist worker (``workerinput``)
#: and each worker hands back its record (``workeroutput``).
XDIST_KEY = "course_offline_guard"
#: The offline proof's test id (the controller reports under it).
PROOF_NODEID = "tests/test_offline_guard.py::test_no_notebook_connected_out"
#: Test files whose tests are long and independent: spread over the workers one test at a time.
SPREAD = ("tests/test_live_track.py", "tests/test_lab_browser.py", "tests/test_lab_browser_07.py",
          "tests/test_lab_browser_08.py", "tests/test_lab_browser_10.py", "tests/test_lab_browser_13.py",
          "tests/test_lab_browser_14.py", "tests/test_lab_browser_zh.py")
#: Test files split by exercise: all the tests about one exercise (parameter ids ``[09.1]``, ``[09.1-...]``)
#: stay on one worker in their order (a known-wrong answer's check is cached for the test after it, a
#: test that needs the reference skips when the reference failed in this process), and the exercises
#: spread over the workers (the exercise contract alone is about 330 worker-seconds: as one unit it was
#: the last to finish).
BY_EXERCISE = ("tests/test_exercise_contract.py",)
_EXERCISE_ID = re.compile(r"\[(\d\d\.\d)(?:[-\]])")
#: Work scheduled first, longest first (the rest keeps pytest's order): browser sessions, then the
#: live track, then the notebooks under strict nbval, then the tests that start kernels.
HEAVY_FIRST = ("tests/test_lab_browser", "tests/test_live_track.py", "tests/test_scaffold.py", "notebooks/", "tests/test_notebook_runner.py",
               "tests/test_postgres_notebook.py", "tests/test_offline_guard.py", "tests/test_packaging.py",
               "tests/test_selfcheck_questions.py", "tests/test_postgres_desk.py", "tests/test_postgres_server.py",
               "tests/test_nbgrader_export.py", "tests/test_exercise_grading.py",
               "tests/test_checkout_imports.py")


@dataclass
class OfflineGuard:
    """A test process's guard: its log, the guard folder, and the notebooks strict nbval executed here."""

    log: Path
    folder: Path | None = None
    worker: str = "main"
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
        """This process's log entries."""
        return self.read(self.log)

    @staticmethod
    def check(logs: dict[str, Path | None], notebook_count: int) -> list[str]:
        """The offline proof over every test process's log: what is wrong, one line each (empty: proven).

        Args:
            logs: each test process's log by worker id (``main``; ``gw0``, ``gw1``, ...; ``controller``),
                ``None`` for a worker that handed back no record (it crashed or was stopped).
            notebook_count: how many course notebooks must have run in guarded kernels.

        Checks: every log exists and starts with its own worker's ``session.start`` line; together
        they hold at least ``notebook_count`` guarded kernel starts; no refused connection or lookup.
        """
        problems, entries = [], []
        for worker, log in sorted(logs.items()):
            if log is None:
                problems.append(f"worker {worker} handed back no guard record (it crashed or was stopped): "
                                "its kernels' connections cannot be checked")
                continue
            lines = OfflineGuard.read(log)
            if not lines or lines[0].get("event") != "session.start" or lines[0].get("worker") != worker:
                problems.append(f"the guard log of {worker} ({log.name}) is missing or was not started by it")
            entries += lines
        kernels = [e for e in entries if e["event"] == "guard.start" and "ipykernel_launcher" in " ".join(e["argv"])]
        if len(kernels) < notebook_count:
            problems.append(f"only {len(kernels)} guarded kernels for {notebook_count} notebooks")
        problems += [f"connection out of the machine while the notebooks ran offline: {e['event']} {e['target']} "
                     f"from pid {e['pid']} ({' '.join(e['argv'])}) in {e['cwd']}"
                     for e in entries if e["event"] not in ("guard.start", "session.start")]
        return problems

    @staticmethod
    def notebooks() -> list[Path]:
        """The notebooks the proof covers: every course notebook of both editions (``notebooks/`` and
        the Chinese ``notebooks/zh/``)."""
        from tooling.notebooks import NOTEBOOK_DIR, course_notebooks

        return course_notebooks(NOTEBOOK_DIR) + course_notebooks(NOTEBOOK_DIR / "zh")

    def prove(self, logs: dict[str, Path | None] | None = None, done: set[Path] | None = None) -> list[str]:
        """Execute, guarded (logging to this process's log) and not in place, every notebook of
        :meth:`notebooks` strict nbval did not run in the session (``done``, default: those run in
        this process), then
        :meth:`check` ``logs`` (default: this process's log) plus this process's log."""
        import nbformat

        from tooling.notebooks import kernel_env, run_notebook

        done = self.nbval_notebooks if done is None else done
        notebooks = self.notebooks()
        for path in notebooks:
            if path.resolve() not in done:
                nb = nbformat.read(path, as_version=4)
                run_notebook(nb, path=path, cwd=path.parent, timeout=600, allow_errors=True,
                             env=kernel_env(extra=self.env(self.log)))
        return self.check({**(logs or {}), self.worker: self.log}, len(notebooks))



def start_log(folder: Path, worker: str) -> Path:
    """Create ``folder/<worker>.jsonl`` with its ``session.start`` line (the proof checks that line:
    a log that is missing, or that another process wrote, does not count as this worker's)."""
    log = folder / f"{worker}.jsonl"
    line = {"event": "session.start", "target": "", "worker": worker, "pid": os.getpid()}
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    return log


_GUARD = pytest.StashKey[OfflineGuard]()
_SAVED_ENV = pytest.StashKey[dict]()
_PROOF_REQUESTED = pytest.StashKey[bool]()


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not _is_worker(config) and getattr(config.option, "dist", "no") != "no" and bool(
        getattr(config.option, "numprocesses", None) or getattr(config.option, "tx", None))


class _NbvalTracker:
    """Records which notebooks strict nbval executed (a plugin object: it sees items in every folder)."""

    def __init__(self, guard: OfflineGuard) -> None:
        self.guard = guard

    def pytest_runtest_call(self, item: pytest.Item) -> None:
        if type(item).__name__ == "IPyNbCell":  # nbval 0.11's cell item
            self.guard.nbval_notebooks.add(Path(item.path).resolve())


class _ControllerProof:
    """The xdist controller's part of the offline proof: it hands each worker the guard folder,
    collects each worker's record, and after the run loop (every worker finished) runs the proof
    over all logs together and reports it as :data:`PROOF_NODEID`."""

    def __init__(self, config: pytest.Config, guard: OfflineGuard) -> None:
        self.config, self.guard = config, guard
        self.records: dict[str, dict | None] = {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node) -> None:
        node.workerinput[XDIST_KEY] = str(self.guard.folder)
        self.records.setdefault(node.gateway.id, None)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        output = getattr(node, "workeroutput", None) or {}
        self.records[node.gateway.id] = None if error is not None else output.get(XDIST_KEY)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session):
        result = yield
        if any(record and record["proof_requested"] for record in self.records.values()):
            self._prove()
        return result

    def _prove(self) -> None:
        from _pytest.reports import TestReport

        started = time.monotonic()
        done = {Path(p) for record in self.records.values() if record for p in record["nbval_notebooks"]}
        logs: dict[str, Path | None] = {worker: (self.guard.folder / f"{worker}.jsonl") if record else None
                                        for worker, record in self.records.items()}
        try:
            problems = self.guard.prove(logs, done)
        except Exception as exc:  # noqa: BLE001 - reported as the proof's failure
            problems = [f"running the notebooks strict nbval did not run failed: {type(exc).__name__}: {exc}"]
        logs["controller"] = self.guard.log
        location = (PROOF_NODEID.split("::")[0], 0, PROOF_NODEID.split("::")[1])
        hook = self.config.hook
        hook.pytest_runtest_logstart(nodeid=PROOF_NODEID, location=location)
        for when in ("setup", "call", "teardown"):
            failed = when == "call" and bool(problems)
            longrepr = ("offline proof over the logs of " + ", ".join(sorted(logs)) + ":\n  "
                        + "\n  ".join(problems)) if failed else None
            hook.pytest_runtest_logreport(report=TestReport(
                PROOF_NODEID, location, {}, "failed" if failed else "passed", longrepr, when,
                duration=time.monotonic() - started if when == "call" else 0.0))
        hook.pytest_runtest_logfinish(nodeid=PROOF_NODEID, location=location)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "offline_proof: the offline proof; runs after every other test and "
                                       "notebook of the session (under xdist: in the controller, after every worker)")
    config.addinivalue_line("markers", "needs_reference: the test uses the exercise's reference solutions; it is "
                                       "skipped, pointing at the failure, when one failed test_reference_solution_passes")
    for name in removed_variables(os.environ):  # what nbval's kernels must not inherit (tooling.notebooks)
        os.environ.pop(name, None)
    names = (GUARD_LOG_VARIABLE, "PYTHONPATH")
    config.stash[_SAVED_ENV] = {name: os.environ.get(name) for name in names}
    if _is_worker(config):
        worker = config.workerinput["workerid"]
        folder = Path(config.workerinput[XDIST_KEY])
    else:
        worker = "controller" if _is_xdist_controller(config) else "main"
        folder = Path(tempfile.mkdtemp(prefix="course-net-guard-"))
    guard = OfflineGuard(start_log(folder, worker), folder, worker)
    config.stash[_GUARD] = guard
    config.stash[_PROOF_REQUESTED] = False
    if worker == "controller":  # exports nothing: the workers it starts are test processes, not guarded
        config.pluginmanager.register(_ControllerProof(config, guard), "course-offline-proof")
        return
    os.environ.update(OfflineGuard.env(guard.log))
    config.pluginmanager.register(_NbvalTracker(guard), "course-nbval-tracker")


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if _is_worker(config) and _GUARD in config.stash:
        guard = config.stash[_GUARD]
        config.workeroutput[XDIST_KEY] = {"nbval_notebooks": sorted(str(p) for p in guard.nbval_notebooks),
                                          "proof_requested": config.stash[_PROOF_REQUESTED]}


def pytest_unconfigure(config: pytest.Config) -> None:
    guard = config.stash.get(_GUARD, None)
    if guard is not None and not _is_worker(config) and guard.folder is not None:
        shutil.rmtree(guard.folder, ignore_errors=True)
    for name, value in config.stash.get(_SAVED_ENV, {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _rank(item: pytest.Item) -> int:
    """Where ``item`` goes in the run: the index of its :data:`HEAVY_FIRST` entry, or after them all."""
    path = Path(item.path).resolve()
    try:
        rel = path.relative_to(Path(__file__).resolve().parent.parent).as_posix()
    except ValueError:
        return len(HEAVY_FIRST)
    return next((i for i, prefix in enumerate(HEAVY_FIRST) if rel.startswith(prefix)), len(HEAVY_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the long work first and move the offline proof last (under xdist: out of the workers,
    into the controller)."""
    proof = [item for item in items if item.get_closest_marker("offline_proof")]
    items[:] = sorted((item for item in items if not item.get_closest_marker("offline_proof")), key=_rank)
    if _is_worker(config):
        config.stash[_PROOF_REQUESTED] = bool(proof)
    else:
        items.extend(proof)


def _scope(nodeid: str) -> str:
    """The unit of work an xdist worker takes whole: the file, the test itself in :data:`SPREAD`, or in
    :data:`BY_EXERCISE` the file's tests about one exercise (``path::09.1``; its tests without one stay
    together as the file)."""
    path = nodeid.split("::", 1)[0]
    if path in SPREAD:
        return nodeid
    if path in BY_EXERCISE and (exercise := _EXERCISE_ID.search(nodeid)):
        return f"{path}::{exercise.group(1)}"
    return path


@pytest.hookimpl(optionalhook=True)  # an xdist hook: without xdist (-p no:xdist) it is never called
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """xdist's scheduler for ``make test``: whole files per worker (a notebook's cells share one
    kernel and must run in order; module-scoped fixtures stay single), except :data:`SPREAD`, in
    the order :func:`pytest_collection_modifyitems` gave (longest first).

    (``--dist loadgroup`` with ``xdist_group`` marks would do the grouping, but pytest-xdist 3.8.0
    renames the item's ``_nodeid``, which pytest 9.2 no longer reads: the marks are silently ignored.)
    """
    if config.getvalue("dist") == "each":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class CourseScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

    config.option.loadscopereorder = False  # keep the order above, not "most tests first"
    return CourseScheduling(config, log)


_FAILED_HERE = pytest.StashKey[set]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Record the node id of every test that fails in this process (see :func:`failed_in_this_process`)."""
    report = yield
    if report.failed:
        item.config.stash.setdefault(_FAILED_HERE, set()).add(item.nodeid)
    return report


@pytest.fixture
def failed_in_this_process(request) -> set[str]:
    """Node ids of the tests that failed so far in this test process (under xdist: this worker, which
    runs a whole file in order): a test that would only repeat another's failure reads it and skips."""
    return request.config.stash.setdefault(_FAILED_HERE, set())


@pytest.fixture
def offline_guard(request) -> OfflineGuard:
    """This test process's :class:`OfflineGuard`."""
    return request.config.stash[_GUARD]


@pytest.fixture(autouse=True)
def _offline_env(monkeypatch):
    """Remove real-model configuration so every test sees the offline default."""
    for name in OFFLINE_UNSET:
        monkeypatch.delenv(name, raising=False)
