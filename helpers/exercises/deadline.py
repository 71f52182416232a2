"""Run a piece of learner code with a deadline, and leave no thread of it running.

:func:`run_with_deadline` runs ``fn()`` in a worker thread and waits at most ``seconds``. If the
worker is still running then, it and every thread started while it ran (a ``ThreadPoolExecutor``
that ``ToolNode`` or LangGraph opened, a thread the learner started, an ``asyncio.run`` loop) are
stopped with an asynchronous exception, :class:`CheckTimeout`, raised inside them through
``ctypes.pythonapi.PyThreadState_SetAsyncExc`` (CPython's C API; the exception fires at the next
Python bytecode the thread runs). ``CheckTimeout`` derives from ``BaseException``, so a learner's
``except Exception:`` does not swallow it; it is re-sent while a thread keeps running, for the
code that catches everything.

A thread blocked inside one C call (``time.sleep(3600)``, a lock without timeout) cannot be
stopped before that call returns; the outcome then lists it in ``stuck``.

``KeyboardInterrupt`` (the kernel's interrupt button sends SIGINT to the main thread, which is
waiting in ``Thread.join``) stops the worker the same way and is re-raised, so the learner can
always stop a check. A ``KeyboardInterrupt`` raised by the code itself is re-raised too.
"""

from __future__ import annotations

import contextvars
import ctypes
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["CheckTimeout", "DeadlineOutcome", "run_with_deadline", "stop_threads"]

#: How long stopped threads get to unwind (seconds) before they are reported as stuck.
STOP_GRACE = 2.0
#: A thread still alive this long after a stop is sent the stop again (it caught it). Not sooner:
#: a stop that lands in a thread's own clean-up (``threading``'s bookkeeping) would break it.
RESEND_AFTER = 0.5
_POLL = 0.05


class CheckTimeout(BaseException):
    """Raised inside a thread of learner code that ran past its deadline (never escapes a check)."""


@dataclass
class DeadlineOutcome:
    """What happened to ``fn()``.

    Attributes:
        status: ``"returned"``, ``"raised"`` (``error`` holds the exception) or ``"timeout"``.
        value: what ``fn()`` returned.
        error: the exception ``fn()`` raised.
        stuck: names of threads that could not be stopped (blocked in a C call).
    """

    status: Literal["returned", "raised", "timeout"]
    value: Any = None
    error: BaseException | None = None
    stuck: list[str] = field(default_factory=list)


_hook_lock = threading.Lock()
_hook_installed = False


def _install_quiet_hook() -> None:
    """Keep ``threading.excepthook`` from printing a traceback for a thread ended by :class:`CheckTimeout`."""
    global _hook_installed
    with _hook_lock:
        if _hook_installed:
            return
        previous = threading.excepthook

        def hook(args: threading.ExceptHookArgs) -> None:
            if args.exc_type is not None and issubclass(args.exc_type, CheckTimeout):
                return
            previous(args)

        threading.excepthook = hook
        _hook_installed = True


def _raise_in(thread: threading.Thread) -> None:
    if thread.ident is None or not thread.is_alive():
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(CheckTimeout))


def stop_threads(threads: list[threading.Thread], *, grace: float | None = None,
                 finished: Callable[[threading.Thread], bool] = lambda thread: False) -> list[str]:
    """Raise :class:`CheckTimeout` in each thread until it ends or ``grace`` seconds have passed.

    Args:
        threads: the threads to stop (the calling thread is skipped).
        grace: seconds to wait for them, default :data:`STOP_GRACE`.
        finished: ``finished(thread)`` is True for a thread whose own work is over (it is
            only cleaning up): it is never sent the stop again.

    Returns:
        the names of the threads still alive afterwards (blocked in a C call, or catching
        ``BaseException`` in a loop).
    """
    _install_quiet_hook()
    current = threading.current_thread()
    targets = [t for t in threads if t is not current]
    now = time.monotonic()
    end = now + (STOP_GRACE if grace is None else grace)
    sent: dict[threading.Thread, float] = {}
    while True:
        alive = [t for t in targets if t.is_alive()]
        now = time.monotonic()
        if not alive or now >= end:
            return [t.name for t in alive]
        for thread in alive:
            if not finished(thread) and now - sent.get(thread, -RESEND_AFTER) >= RESEND_AFTER:
                _raise_in(thread)
                sent[thread] = now
        time.sleep(_POLL)  # not Thread.join: an interrupted join marks a running thread as stopped (3.11)


def run_with_deadline(fn: Callable[[], Any], seconds: float, *, name: str = "exercise-check") -> DeadlineOutcome:
    """Run ``fn()`` in a worker thread (in a copy of the caller's context) for at most ``seconds``.

    Args:
        fn: the code to run; anything it raises is returned in the outcome (not raised), except
            ``KeyboardInterrupt``.
        seconds: the deadline (> 0).
        name: the worker thread's name.

    Returns:
        a :class:`DeadlineOutcome`. After a timeout, the worker and every thread that was started
        while it ran have been stopped (or are listed in ``stuck``).

    Raises:
        KeyboardInterrupt: the user interrupted the wait, or ``fn`` raised it (threads stopped first).
    """
    before = set(threading.enumerate())
    box: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def target() -> None:
        try:
            try:
                box["value"] = context.run(fn)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                box["error"] = exc
            box["finished"] = True
        except CheckTimeout:  # a stop that arrived just as fn ended
            box["finished"] = True
        done.set()

    worker = threading.Thread(target=target, name=name, daemon=True)
    worker.start()
    try:
        # An Event, not worker.join(): Python 3.11's join, interrupted by KeyboardInterrupt, releases
        # the running thread's state lock, after which is_alive() is False although it still runs.
        done.wait(seconds)
    except KeyboardInterrupt:
        _stop_started(worker, before, box)
        raise
    if not done.is_set():
        return DeadlineOutcome("timeout", stuck=_stop_started(worker, before, box))
    worker.join()  # it has finished: only threading's clean-up is left
    error = box.get("error")
    if isinstance(error, KeyboardInterrupt):
        raise error
    if isinstance(error, CheckTimeout):  # a stray stop meant for an earlier run
        return DeadlineOutcome("timeout")
    if "error" in box:
        return DeadlineOutcome("raised", error=error)
    return DeadlineOutcome("returned", value=box.get("value"))


def _stop_started(worker: threading.Thread, before: set[threading.Thread], box: dict[str, Any]) -> list[str]:
    """Stop ``worker`` and the threads started since ``before`` (innermost first)."""
    started = [t for t in threading.enumerate() if t not in before and t is not worker]
    return stop_threads([*started, worker], finished=lambda thread: thread is worker and "finished" in box)
