"""Run a piece of learner code with a deadline, and leave no thread of it running.

:func:`run_with_deadline` runs ``fn()`` in a worker thread and waits at most ``seconds``.

* **Timeout.** If the worker is still running then, it and every thread started while it ran (a
  ``ThreadPoolExecutor`` that ``ToolNode`` or LangGraph opened, a thread the learner started, an
  ``asyncio.run`` loop) are stopped with an asynchronous exception, :class:`CheckTimeout`, raised
  inside them through ``ctypes.pythonapi.PyThreadState_SetAsyncExc`` (CPython's C API; the
  exception fires at the next Python bytecode the thread runs).
* **Threads left behind.** After ``fn()`` returned (or raised), the threads it started and left
  running are stopped the same way and named in :attr:`DeadlineOutcome.left`.

The stop goes first to the threads that are running the learner's own code (a frame of it is on
their stack: ``learner_code(filename)`` says which files are the learner's); the exception then
unwinds through the library as an ordinary error (``concurrent.futures`` hands it to the waiting
thread, LangGraph ends the run). An idle ``ThreadPoolExecutor`` worker (waiting in
``queue.get`` for work) is never sent the stop: it would fire between the pool's own steps and
leave the pool unable to shut down, which blocks ``ToolNode`` for good; its pool is shut down
instead (``shutdown(wait=False, cancel_futures=True)``), which ends it. Only when that has not
ended a thread after :data:`RESEND_AFTER` seconds is the stop sent to every remaining thread that
is inside its ``run()`` (a pool worker only while it runs a task), never into ``threading``'s own
clean-up, which would leave a dead thread registered. A kernel's own threads (ipykernel, ZMQ,
tornado) are never touched.

``CheckTimeout`` derives from ``BaseException``, so a learner's ``except Exception:`` does not
swallow it; it is re-sent while a thread keeps running, for code that catches everything. A
thread blocked inside one C call (``time.sleep(3600)``, a lock or ``Event.wait`` without timeout)
cannot be stopped before that call returns; it is reported in :attr:`DeadlineOutcome.stuck` as
``"blocked"`` (it ends when the call returns), a thread that keeps running although it was sent
the stop (it catches ``BaseException``) as ``"running"``: the thread's own CPU clock
(``time.pthread_getcpuclockid``) tells them apart; without one the state is ``"unknown"``.

The stop's own traces are kept off stderr: ``threading.excepthook`` (a thread ended by the
stop), ``sys.unraisablehook`` and the ``concurrent.futures`` logger (``Exception in worker``)
drop :class:`CheckTimeout` and pass everything else on unchanged.

``KeyboardInterrupt`` (the kernel's interrupt button sends SIGINT to the main thread, which is
waiting here) stops the worker and its threads and is re-raised, so the learner can always stop
a check. A ``KeyboardInterrupt`` raised by the code itself stops the check too, by design: it is
the one exception a check lets out; a fresh ``KeyboardInterrupt`` is raised (the learner's object,
which might have a hostile ``__str__``, is not handed to the notebook).
"""

from __future__ import annotations

import concurrent.futures.thread as _futures_thread
import contextvars
import ctypes
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Literal

__all__ = ["CheckTimeout", "DeadlineOutcome", "Stuck", "run_with_deadline", "stop_threads"]

#: How long stopped threads get to unwind (seconds) before they are reported as stuck. Threads
#: that end return at once; only a thread that really ignores the stop costs this long. 2 s was
#: too short on a busy 2-core machine: a stopped loop had not yet been scheduled to see its stop
#: (the contract test's "endless loop" answers failed about once a run at load 10-15).
STOP_GRACE = 8.0
#: A thread still alive this long after a stop is sent the stop again (it caught it); threads
#: that do not run the learner's code are sent the stop only after this long.
RESEND_AFTER = 0.5
#: How long threads that outlive ``fn()`` get to end on their own before they are stopped (seconds).
LEFTOVER_GRACE = 0.2
_POLL = 0.05
#: The first wait for stopped threads (seconds); each later one doubles, up to :data:`_POLL`.
_FIRST_POLL = 0.002
#: Modules whose threads belong to the Jupyter kernel, not to the code under check.
_KERNEL_MODULES = ("ipykernel", "zmq", "jupyter_client", "tornado", "IPython")
_THREADING_FILE = threading.__file__
_WORK_ITEM_RUN = _futures_thread._WorkItem.run.__code__
# Base-class accessors: a learner's Thread subclass may override is_alive, name or ident, and
# those overrides must not run here (this code runs in the notebook's main thread).
_is_alive = threading.Thread.is_alive
_name_of = threading.Thread.name.fget  # type: ignore[attr-defined]
_ident_of = threading.Thread.ident.fget  # type: ignore[attr-defined]

#: ``"blocked"``: inside one C call that cannot be interrupted (it used no CPU time while it was
#: watched); ``"running"``: keeps running although it was sent the stop (it catches
#: ``BaseException``); ``"unknown"``: one of the two (no per-thread CPU clock on this platform).
StuckState = Literal["blocked", "running", "unknown"]
#: CPU seconds a watched thread may use and still count as blocked.
_BUSY_CPU = 0.005


class CheckTimeout(BaseException):
    """Raised inside a thread of learner code that must stop (never escapes a check)."""


class _SentStop(CheckTimeout):
    """The stop this module sends (:func:`_raise_in`). An answer can raise :class:`CheckTimeout` itself
    (it is importable); only this subclass means "stopped by the deadline"."""


@dataclass(frozen=True)
class Stuck:
    """A thread that could not be stopped.

    Attributes:
        name: the thread's name.
        state: ``"blocked"`` (one uninterruptible C call: ``time.sleep``, a lock, waiting for
            another thread), ``"running"`` (it catches the stop and keeps going) or
            ``"unknown"`` (see :data:`StuckState`).
        ident: the thread's ``ident``.
    """

    name: str
    state: StuckState
    ident: int | None = None


def _name(thread: threading.Thread) -> str:
    try:
        name = _name_of(thread)
        return name[:60] if type(name) is str else "a thread"
    except Exception:  # noqa: BLE001
        return "a thread"


@dataclass
class DeadlineOutcome:
    """What happened to ``fn()``.

    Attributes:
        status: ``"returned"``, ``"raised"`` (``error`` holds the exception) or ``"timeout"``.
        value: what ``fn()`` returned.
        error: the exception ``fn()`` raised.
        stuck: threads that could not be stopped (after a timeout, or among ``left``).
        left: names of threads ``fn()`` started and left running after it returned or raised;
            they were stopped (except those also in ``stuck``).
        worker_stuck: True when the worker thread itself (running ``fn``) is among ``stuck``.
    """

    status: Literal["returned", "raised", "timeout"]
    value: Any = None
    error: BaseException | None = None
    stuck: list[Stuck] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    worker_stuck: bool = False


# -- keeping the stop's traces off stderr ---------------------------------------------------------

_hook_lock = threading.Lock()


def _is_stop(exc_type: Any) -> bool:
    return isinstance(exc_type, type) and issubclass(exc_type, CheckTimeout)


class _DropStop(logging.Filter):
    """Drops ``concurrent.futures``' "Exception in worker" record when the exception is the stop."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and _is_stop(record.exc_info[0]))


def _drop_stop(previous: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A ``threading.excepthook`` / ``sys.unraisablehook`` that ignores :class:`CheckTimeout` and
    hands everything else to ``previous``."""

    def hook(args: Any) -> Any:
        if _is_stop(getattr(args, "exc_type", None)):
            return None
        return previous(args)

    hook._drops_check_timeout = True  # type: ignore[attr-defined]
    return hook


def _install_quiet_hooks() -> None:
    """Keep threads ended by :class:`CheckTimeout` from printing tracebacks. Called before every
    stop: a hook that someone replaced since (pytest does, per test) is wrapped again."""
    with _hook_lock:
        if not getattr(threading.excepthook, "_drops_check_timeout", False):
            threading.excepthook = _drop_stop(threading.excepthook)
        if not getattr(sys.unraisablehook, "_drops_check_timeout", False):
            sys.unraisablehook = _drop_stop(sys.unraisablehook)
        logger = logging.getLogger("concurrent.futures")
        if not any(isinstance(f, _DropStop) for f in logger.filters):
            logger.addFilter(_DropStop())


# -- looking at a thread ---------------------------------------------------------------------------


def _raise_in(thread: threading.Thread) -> None:
    ident = _ident_of(thread)
    if ident is None or not _is_alive(thread):
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(_SentStop))


def _clear_in(thread: threading.Thread) -> None:
    """Withdraw a stop that has not fired yet (``PyThreadState_SetAsyncExc(id, NULL)``)."""
    ident = _ident_of(thread)
    if ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)


def _cpu_seconds(thread: threading.Thread) -> float | None:
    """CPU time the thread has used (``time.pthread_getcpuclockid``, Linux and most Unixes), or
    ``None`` where there is no per-thread CPU clock."""
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(_ident_of(thread)))  # type: ignore[attr-defined]
    except (AttributeError, OSError, TypeError, ValueError, OverflowError):
        return None


def _stack(frame: FrameType | None) -> list[FrameType]:
    out = []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back
    return out


def _inside_run(stack: list[FrameType]) -> bool:
    """True while the thread runs its target (not only ``threading``'s start-up or clean-up)."""
    run_code = threading.Thread.run.__code__
    return any(f.f_code is run_code or f.f_code.co_filename != _THREADING_FILE for f in stack)


def _pool_of(thread: threading.Thread) -> Any:
    """The ``ThreadPoolExecutor`` whose worker ``thread`` is, or ``None`` (CPython 3.9+: the
    worker's target is ``concurrent.futures.thread._worker(executor_reference, ...)``)."""
    try:
        attributes = object.__getattribute__(thread, "__dict__")
        if attributes.get("_target") is _futures_thread._worker:
            return attributes["_args"][0]()
    except Exception:  # noqa: BLE001 - a private detail; without it the thread is stopped like any other
        return None
    return None


def _is_kernel_thread(thread: threading.Thread) -> bool:
    module = type(thread).__module__ or ""
    return isinstance(thread, threading._DummyThread) or module.split(".")[0] in _KERNEL_MODULES  # type: ignore[attr-defined]


def _ids(threads: list[threading.Thread]) -> set[int]:
    """Identity, not ``==``/``hash`` (a learner's Thread subclass may override those); the caller
    keeps the threads referenced, so an id is not reused."""
    return {id(t) for t in threads}


def started_since(before: list[threading.Thread], *, exclude: tuple[threading.Thread, ...] = ()) -> list[threading.Thread]:
    """Threads alive now that were not in ``before`` (a kernel's own threads left out)."""
    known = _ids([*before, *exclude])
    return [t for t in threading.enumerate() if id(t) not in known and _is_alive(t) and not _is_kernel_thread(t)]


def stop_threads(threads: list[threading.Thread], *, grace: float | None = None,
                 finished: Callable[[threading.Thread], bool] = lambda thread: False,
                 learner_code: Callable[[str], bool] | None = None) -> list[Stuck]:
    """Stop ``threads`` (see the module docstring for the order) and wait for them.

    Args:
        threads: the threads to stop (the calling thread and a kernel's threads are skipped).
        grace: seconds to wait for them, default :data:`STOP_GRACE`.
        finished: ``finished(thread)`` is True for a thread whose own work is over (it is
            only cleaning up): it is never sent the stop.
        learner_code: ``learner_code(filename)`` is True for a file of the learner's code;
            ``None`` treats every file as the learner's (every thread is sent the stop at once).

    Returns:
        the threads still alive after ``grace`` seconds, each ``"blocked"`` or ``"running"``.
    """
    _install_quiet_hooks()
    current = threading.current_thread()
    targets = [t for t in threads if t is not current and not _is_kernel_thread(t)]
    position = {id(t): index for index, t in enumerate(targets)}
    start = time.monotonic()
    end = start + (STOP_GRACE if grace is None else grace)
    sent: dict[int, float] = {}  # by position in targets (not the Thread's own __hash__)
    shut: set[int] = set()
    cpu_at_start = [_cpu_seconds(t) for t in targets]
    pause = _FIRST_POLL
    while True:
        alive = [t for t in targets if _is_alive(t)]
        now = time.monotonic()
        if not alive or now >= end:
            return [Stuck(_name(t), _state(cpu_at_start[position[id(t)]], _cpu_seconds(t)), _ident_of(t))
                    for t in alive]
        frames = sys._current_frames()
        for thread in alive:
            key = position[id(thread)]
            stack = _stack(frames.get(_ident_of(thread)))  # type: ignore[arg-type]
            pool = _pool_of(thread)
            if pool is not None and id(pool) not in shut:
                shut.add(id(pool))
                try:
                    pool.shutdown(wait=False, cancel_futures=True)
                except Exception:  # noqa: BLE001 - a broken pool: its threads are stopped below
                    pass
            if finished(thread) or not stack:
                continue
            if not _inside_run(stack):
                if key in sent:
                    _clear_in(thread)  # a stop that fired in threading's clean-up would leave the thread registered
                continue
            if pool is not None and not any(f.f_code is _WORK_ITEM_RUN for f in stack):
                continue  # an idle pool worker: the pool's shutdown ends it
            runs_learner = learner_code is None or any(learner_code(f.f_code.co_filename) for f in stack)
            if not runs_learner and now - start < RESEND_AFTER:
                continue  # it unwinds when the threads running the learner's code do
            if now - sent.get(key, -RESEND_AFTER) >= RESEND_AFTER:
                _raise_in(thread)
                sent[key] = now
        # Not Thread.join: an interrupted join marks a running thread as stopped (3.11). A stopped thread
        # usually ends within milliseconds, so the first looks come soon and the later ones every _POLL.
        time.sleep(pause)
        pause = min(pause * 2, _POLL)


def _state(cpu_before: float | None, cpu_after: float | None) -> StuckState:
    if cpu_before is None or cpu_after is None:
        return "unknown"
    return "running" if cpu_after - cpu_before > _BUSY_CPU else "blocked"


def run_with_deadline(fn: Callable[[], Any], seconds: float, *, name: str = "exercise-check",
                      learner_code: Callable[[str], bool] | None = None) -> DeadlineOutcome:
    """Run ``fn()`` in a worker thread (in a copy of the caller's context) for at most ``seconds``.

    Args:
        fn: the code to run; anything it raises is returned in the outcome (not raised), except
            ``KeyboardInterrupt``. A :class:`CheckTimeout` that ``fn`` raises itself (this module
            did not send it) is ``"raised"``, not ``"timeout"``.
        seconds: the deadline (> 0).
        name: the worker thread's name.
        learner_code: which source files are the learner's (see :func:`stop_threads`).

    Returns:
        a :class:`DeadlineOutcome`. After a timeout, the worker and every thread that was started
        while it ran have been stopped (or are listed in ``stuck``); after a normal end, the
        threads ``fn`` left running have been stopped and are named in ``left``.

    Raises:
        KeyboardInterrupt: the user interrupted the wait, or ``fn`` raised it (threads stopped first).
    """
    before = threading.enumerate()
    box: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def target() -> None:
        try:
            try:
                box["value"] = context.run(fn)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                box["interrupt"] = issubclass(type(exc), KeyboardInterrupt)
                box["error"] = None if box["interrupt"] else exc
            box["finished"] = True
        except CheckTimeout:  # a stop that arrived just as fn ended
            box["finished"] = True
        done.set()

    worker = threading.Thread(target=target, name=name, daemon=True)
    worker.start()

    def stop_all() -> list[Stuck]:
        started = started_since(before, exclude=(worker,))
        return stop_threads([*started, worker], finished=lambda thread: thread is worker and "finished" in box,
                            learner_code=learner_code)

    def timed_out() -> DeadlineOutcome:
        stuck = stop_all()
        return DeadlineOutcome("timeout", stuck=stuck, worker_stuck=any(s.ident == worker.ident for s in stuck))

    try:
        # An Event, not worker.join(): Python 3.11's join, interrupted by KeyboardInterrupt, releases
        # the running thread's state lock, after which is_alive() is False although it still runs.
        done.wait(seconds)
    except KeyboardInterrupt:
        stop_all()
        raise
    if not done.is_set():
        return timed_out()
    worker.join()  # it has finished: only threading's clean-up is left
    left, stuck = _stop_leftovers(before, worker, learner_code)
    if box.get("interrupt"):
        raise KeyboardInterrupt
    error = box.get("error")
    if isinstance(error, _SentStop):  # a stray stop meant for an earlier run
        return DeadlineOutcome("timeout", stuck=stuck, left=left)
    # A CheckTimeout that fn raised itself (not sent by this module) is an ordinary "raised".
    if "error" in box:
        return DeadlineOutcome("raised", error=error, stuck=stuck, left=left)
    return DeadlineOutcome("returned", value=box.get("value"), stuck=stuck, left=left)


def _stop_leftovers(before: list[threading.Thread], worker: threading.Thread,
                    learner_code: Callable[[str], bool] | None) -> tuple[list[str], list[Stuck]]:
    """Give threads started since ``before`` :data:`LEFTOVER_GRACE` seconds to end, then stop them."""
    end = time.monotonic() + LEFTOVER_GRACE
    left = started_since(before, exclude=(worker,))
    while left and time.monotonic() < end:
        time.sleep(_POLL / 5)
        left = [t for t in left if _is_alive(t)]
    if not left:
        return [], []
    return [_name(t) for t in left], stop_threads(left, learner_code=learner_code)
