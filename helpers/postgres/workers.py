"""Notebook 18's worker processes: separate Python processes that run the refund desk on the shared database.

A deployment runs an agent in several worker processes (on one machine or many) that share one
database and nothing else. :class:`Workers` starts such processes for the notebook: each opens the
database by its :class:`~helpers.postgres.engine.DatabaseSpec`, builds the desk agent
(:func:`~helpers.postgres.desk.build_desk_agent`) on a checkpointer of its own, and then runs the jobs
the notebook sends it, one at a time. A job is a name from :data:`JOBS` and plain arguments; the answer
is plain data (or the job's error, raised in the notebook as :class:`WorkerError`).

Processes: started from one ``forkserver`` (:mod:`multiprocessing`, Python 3.11) that imports LangChain
and LangGraph once (about 1.5 s) and then forks each worker from that state in milliseconds. They end
with the notebook: :meth:`Workers.close`, ``atexit``, or, when the kernel dies, the end of their pipe
(a worker waiting for a job reads end-of-file and exits; the forkserver exits when its kernel is gone).

Overlaps on purpose: two runs that would overlap by chance in production (two messages a second apart)
are made to overlap every time with :func:`meet`: each worker writes its arrival at a named point into a
table and waits until ``parties`` have arrived. The notebook's invariants then do not depend on timing.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

from langgraph.types import Command

from .desk import Turn, build_desk_agent, policy_model, take_turn
from .engine import DatabaseSpec, open_database
from .ledger import RefundLedger
from .queue import CLAIM_SQL, DONE_SQL

__all__ = ["JOBS", "Workers", "WorkerError", "meet"]

#: Where :func:`meet` records arrivals.
MEETINGS_TABLE = "CREATE TABLE IF NOT EXISTS meetings (point TEXT NOT NULL, party TEXT NOT NULL)"
#: Seconds a job may take before the notebook stops waiting (a bound for a busy machine).
JOB_TIMEOUT_S = 300.0
#: Seconds a worker waits at a meeting point for the others.
MEET_TIMEOUT_S = 60.0


class WorkerError(RuntimeError):
    """A job failed in its worker (the message is the worker's ``Type: message``), or the worker died."""


def meet(conn: Any, point: str, party: str, parties: int, timeout: float = MEET_TIMEOUT_S) -> None:
    """Arrive at ``point`` as ``party`` and wait until ``parties`` have arrived (the table ``meetings``).

    Raises:
        TimeoutError: the others did not come within ``timeout`` seconds.
    """
    conn.execute("INSERT INTO meetings VALUES (%s, %s)", (point, party))
    deadline = time.monotonic() + timeout
    while conn.execute("SELECT count(*) FROM meetings WHERE point = %s", (point,)).fetchone()[0] < parties:
        if time.monotonic() > deadline:
            raise TimeoutError(f"only some of {parties} workers came to {point!r} within {timeout:.0f} s")
        time.sleep(0.005)


class _Worker:
    """What one worker process holds: its connections, its ledger, its agent, its pending meeting."""

    def __init__(self, spec: DatabaseSpec) -> None:
        self.database = open_database(spec)
        self.conn = self.database.connect()  # the ledger's and the meetings' session
        self.lock_conn = self.database.connect()  # the session that holds thread locks
        self.ledger = RefundLedger(self.conn, spec.engine)
        self.meeting: tuple[str, int] | None = None
        self.agent = build_desk_agent(self.database.checkpointer(), policy_model(before=self._before_model))

    def _before_model(self, request: Any) -> None:
        if self.meeting is not None:  # the run's first model call: it has read the thread
            point, parties = self.meeting
            self.meeting = None
            meet(self.conn, point, str(os.getpid()), parties)


def _turn(worker: _Worker, thread_id: str, user_id: str, message: str, *, lock: bool = False,
          meet_at: tuple[str, int] | None = None, durability: str | None = None) -> dict:
    worker.meeting = meet_at
    turn = take_turn(worker.agent, worker.ledger, thread_id, user_id, message,
                     lock_conn=worker.lock_conn if lock else None, durability=durability)
    return {**turn.__dict__, "pid": os.getpid()}


def _resume(worker: _Worker, thread_id: str, user_id: str, decision: Any) -> dict:
    turn: Turn = take_turn(worker.agent, worker.ledger, thread_id, user_id, Command(resume=decision))
    return {**turn.__dict__, "pid": os.getpid()}


def _race(worker: _Worker, order_id: str, amount: float, user_id: str, key: str, *, naive: bool,
          meet_at: tuple[str, int]) -> dict:
    """Submit one refund; ``naive``: check-then-insert with the meeting between the check and the insert."""
    point, parties = meet_at
    if naive:
        done = worker.ledger.submit_check_then_insert(
            order_id, amount, user_id=user_id, idempotency_key=key,
            between=lambda: meet(worker.conn, point, str(os.getpid()), parties))
    else:
        meet(worker.conn, point, str(os.getpid()), parties)
        done = worker.ledger.submit(order_id, amount, user_id=user_id, idempotency_key=key)
    return {"request_id": done.request.request_id, "replayed": done.replayed, "pid": os.getpid()}


def _serve_queue(worker: _Worker, *, durability: str | None = None) -> dict:
    """Take runs from ``run_queue`` until none is pending (the queue of notebook 18, section 7)."""
    done = 0
    while True:
        row = worker.conn.execute(CLAIM_SQL, (os.getpid(),)).fetchone()
        if row is None:
            return {"runs": done, "pid": os.getpid()}
        run_id, thread_id, user_id, message = row
        take_turn(worker.agent, worker.ledger, thread_id, user_id, message, lock_conn=worker.lock_conn,
                  durability=durability)
        worker.conn.execute(DONE_SQL, (run_id,))
        done += 1


def _pid(worker: _Worker) -> int:
    return os.getpid()


#: The jobs a worker runs, by name (first argument: the worker's own state).
JOBS = {"turn": _turn, "resume": _resume, "race": _race, "serve_queue": _serve_queue, "pid": _pid}


def _serve(pipe: Any, spec: DatabaseSpec) -> None:
    """A worker's life: build its state, then answer jobs until the pipe ends or says ``None``."""
    try:
        worker = _Worker(spec)
        pipe.send(("ok", os.getpid()))
    except BaseException as exc:  # noqa: BLE001 - reported to the notebook
        pipe.send(("error", f"{type(exc).__name__}: {exc}"))
        return
    while True:
        try:
            job = pipe.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        name, args, kwargs = job
        try:
            answer = ("ok", JOBS[name](worker, *args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - reported to the notebook, the worker goes on
            answer = ("error", f"{type(exc).__name__}: {exc}")
        try:
            pipe.send(answer)
        except (EOFError, OSError):
            return


def _context():
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["helpers.postgres.workers"])
    return context


def _shutdown(processes: list, pipes: list) -> None:
    for pipe in pipes:
        try:
            pipe.send(None)
            pipe.close()
        except (OSError, ValueError):
            pass
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)


class Workers:
    """``count`` worker processes on the database ``spec`` (see the module docstring).

    Args:
        spec: the database (``db.spec``).
        count: how many processes.

    The processes start in the background (a thread starts them, and they build their agent); the
    first :meth:`call` waits for them. ``workers.labels(pids)`` names process ids ``A``, ``B``, ... in the order the workers were
    started (process ids differ on every run; the notebook prints the labels).
    """

    def __init__(self, spec: DatabaseSpec, count: int = 2) -> None:
        with open_database(spec).connect() as conn:  # made once here: two workers creating it at once would clash
            conn.execute(MEETINGS_TABLE)
        self._pipes, self._processes = [], []
        self._pids: list[int] | None = None
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _shutdown, self._processes, self._pipes)
        atexit.register(self._finalizer)
        # Starting a process waits until the forkserver has imported LangChain (seconds): a thread does it,
        # so the notebook goes on meanwhile; the first call waits for it (_ready).
        self._starting = threading.Thread(target=self._start, args=(spec, count), name="course-workers-start",
                                          daemon=True)
        self._starting.start()

    def _start(self, spec: DatabaseSpec, count: int) -> None:
        context = _context()
        for _ in range(count):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(there, spec), daemon=True)
            try:
                process.start()
            except Exception as exc:  # noqa: BLE001 - reported by the first call (_ready)
                self._start_error = exc
                return
            finally:
                there.close()
            self._pipes.append(here)
            self._processes.append(process)

    def _receive(self, index: int, timeout: float) -> Any:
        pipe = self._pipes[index]
        if not pipe.poll(timeout):
            raise WorkerError(f"worker {self.label(index)} did not answer within {timeout:.0f} s")
        try:
            status, value = pipe.recv()
        except (EOFError, OSError):
            raise WorkerError(f"worker {self.label(index)} ended unexpectedly") from None
        if status != "ok":
            raise WorkerError(value)
        return value

    _start_error: BaseException | None = None

    def _ready(self) -> list[int]:
        with self._lock:
            self._starting.join()
            if self._start_error is not None:
                raise WorkerError(f"the workers could not start: {type(self._start_error).__name__}: "
                                  f"{self._start_error}")
            if self._pids is None:
                self._pids = [self._receive(i, JOB_TIMEOUT_S) for i in range(len(self._pipes))]
            return self._pids

    @staticmethod
    def label(index: int) -> str:
        """``"A"`` for the first worker, ``"B"`` for the second, ..."""
        return chr(ord("A") + index)

    @property
    def pids(self) -> list[int]:
        """The workers' process ids, in start order (waits until every worker is ready)."""
        return list(self._ready())

    def labels(self, pids: Sequence[int]) -> list[str]:
        """The label of each process id in ``pids`` (``"?"`` for one that is not a worker's)."""
        known = {pid: self.label(i) for i, pid in enumerate(self._ready())}
        return [known.get(pid, "?") for pid in pids]

    def call(self, index: int, job: str, *args: Any, **kwargs: Any) -> Any:
        """Run ``job`` in worker ``index`` and return its answer.

        Raises:
            WorkerError: the job raised (its ``Type: message``), the worker died, or no answer came in time.
        """
        return self.together([(index, job, args, kwargs)])[0]

    def together(self, calls: Sequence[tuple[int, str, tuple, dict]]) -> list[Any]:
        """Send each ``(index, job, args, kwargs)`` to its worker at once, then collect the answers in order."""
        self._ready()
        for index, job, args, kwargs in calls:
            if job not in JOBS:
                raise ValueError(f"no worker job {job!r}; the jobs are {sorted(JOBS)}")
            self._pipes[index].send((job, tuple(args), dict(kwargs)))
        answers, errors = [], []
        for index, _, _, _ in calls:  # every answer is read, so none is left for the next call
            try:
                answers.append(self._receive(index, JOB_TIMEOUT_S))
            except WorkerError as exc:
                answers.append(None)
                errors.append(exc)
        if errors:
            raise errors[0]
        return answers

    def close(self) -> None:
        """Stop every worker (asked first, then terminated, then killed). Idempotent."""
        self._starting.join()
        self._finalizer()

    def __len__(self) -> int:
        return len(self._ready())

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
