"""Exercise 18.1 of notebook 18: the per-thread run guard (the Agent Server's "reject", in open-source code).

``RUN_GUARD``: the answer is ``guarded_turn(conn, thread_id, run_turn) -> "done" | "busy"``. It must take
the thread's advisory lock on ``conn``'s session **without waiting** (``pg_try_advisory_lock``), return
``"busy"`` without running anything when another session holds it, else run ``run_turn()`` (one run of the
agent on that thread), release the lock however the turn ends (``pg_advisory_unlock``, in ``finally``) and
return ``"done"``; an error of the turn goes up to the caller (the worker retries or reports it).

**The checks' desk.** Each check plays runs through the answer (the thread ids it gets are ``t1@<n>`` and
``t2@<n>``, new for every interleaving), each run on a session of its own (a
connection to the course's database: PostgreSQL when the notebook started it, else the SQLite fallback,
:mod:`helpers.postgres.fallback`, whose advisory locks behave alike). A run's turn does what the agent's run
does to a thread: it reads the thread's history (the checkpoint), answers, and writes the history back,
the last writer winning (LangGraph's latest checkpoint). A ``refund`` turn also creates a refund unless
the history it read already has one. While a turn runs, other runs may *arrive* (after it read the
thread, or after it wrote it, before it returned): that is an interleaving, two messages on one thread
at once. Without a guard, an arrival on the same thread reads the same history, and one of the two turns
is lost when the other writes; two refund turns both refund. A waiting lock (``pg_advisory_lock``) would
wait here for ever (the arrival runs inside the other turn), so each session has ``lock_timeout`` 50 ms.

* Named cases: a second message on a busy thread, another thread at the same time, one turn after
  another, a failing turn, the lock held to the end of the turn.
* :data:`GENERATED`: the pieces of the generated check (issue 27): a Hypothesis strategy of
  interleavings (:func:`interleavings`: up to three runs, each with up to two arrivals, on threads
  ``t1``/``t2``, asking or refunding, some failing), :func:`play` (the outcome: each run's status and
  how often its turn ran, each thread's final history, each thread's refunds), :func:`reference` and
  :func:`describe`, wired into ``RUN_GUARD`` as ``Generated(name, **GENERATED, inputs=interleavings())``;
  the outcome counts lost turns and double refunds through the histories and refunds it holds, and how
  often each turn ran (a guard that runs a failed turn again differs).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["GENERATED", "RUN_GUARD", "TurnFailed", "describe", "interleavings", "lost_turns", "play", "reference"]

Thread = Literal["t1", "t2"]
Kind = Literal["ask", "refund"]
Moment = Literal["after_read", "after_write"]
#: One run: ``(thread, kind, fails, arrivals)``; ``arrivals``: ``((moment, run), ...)`` that arrive during its
#: turn (an arrival has no arrivals of its own). An interleaving is a tuple of runs played one after another.
Run = tuple
#: The lock timeout of every check session: an answer that waits for the lock fails at once instead of hanging.
LOCK_TIMEOUT = "SET lock_timeout = '50ms'"


class TurnFailed(RuntimeError):
    """The turn's model call failed (the checks' simulated outage): the guard must let it go up."""


_PLAYS = itertools.count(1)


@dataclass
class _Desk:
    """One check's world, built fresh for every interleaving: sessions, thread histories, refunds, runs.
    ``play`` numbers it: the thread ids the answer gets are ``t1@<play>``, so a lock an earlier answer left
    behind (PostgreSQL releases a closed session's locks a moment later) cannot reach this one."""

    database: Any
    play: int = 0
    conns: list = field(default_factory=list)
    threads: dict = field(default_factory=dict)
    refunds: Counter = field(default_factory=Counter)
    runs: list = field(default_factory=list)  # [number, thread, status, turns run]


_DATABASE: list = []
_DATABASE_LOCK = threading.Lock()


def _database() -> Any:
    """The database the checks use: the notebook's own (``course_database()``, if this process made one),
    else a SQLite fallback of the checks' own (made at once: a check must not wait for a server to start)."""
    from ..postgres.engine import current_database, fallback_database

    notebook = current_database()
    if notebook is not None:
        return notebook
    with _DATABASE_LOCK:
        if not _DATABASE:
            _DATABASE.append(fallback_database("the exercise checks' own database"))
        return _DATABASE[0]


def _is_lock_timeout(exc: BaseException) -> bool:
    """PostgreSQL's ``LockNotAvailable``, or the fallback's (an advisory lock, or its file's write lock)."""
    return "lock timeout" in str(exc) or type(exc).__name__ in ("LockNotAvailable", "LockTimeout")


def _arrive(answer: Callable, desk: _Desk, arrivals: tuple, moment: str) -> None:
    for when, run in arrivals:
        if when == moment:
            _start(answer, desk, run)


def _start(answer: Callable, desk: _Desk, run: Run) -> None:
    """Play ``run`` through the answer on a new session; its arrivals are played inside its turn."""
    thread, kind, fails, arrivals = run
    number = len(desk.runs) + 1
    record = [number, thread, "no answer", 0]
    desk.runs.append(record)
    conn = desk.database.connect()
    desk.conns.append(conn)
    conn.execute(LOCK_TIMEOUT)

    def run_turn() -> None:
        record[3] += 1
        history = desk.threads.get(thread, ())  # the run reads its thread (the checkpoint) ...
        _arrive(answer, desk, arrivals, "after_read")
        if fails:
            raise TurnFailed(_("run {number}'s model call failed").format(number=number))
        if kind == "refund" and not any(line.endswith("refunded") for line in history):
            desk.refunds[thread] += 1
            reply = f"run {number}: refunded"
        else:
            reply = f"run {number}: answered"
        desk.threads[thread] = (*history, f"run {number}: {kind}", reply)  # ... and writes it: the last one wins
        _arrive(answer, desk, arrivals, "after_write")

    try:
        status = answer(conn, f"{thread}@{desk.play}", run_turn)
    except TurnFailed:
        status = "failed"
    except Exception as exc:
        if _is_lock_timeout(exc):
            raise AssertionError(_(
                "run {number} waited for the lock of {thread} while another run held it (and would have waited "
                "for ever here): a guard that rejects answers at once, with pg_try_advisory_lock, which returns "
                "false instead of waiting").format(number=number, thread=thread)) from None
        raise
    record[2] = status if status in ("done", "busy", "failed") else _("returned {value}").format(value=shown(status))


def play(answer: Callable, interleaving: tuple) -> tuple:
    """Play ``interleaving`` (a tuple of runs) through ``answer`` on fresh sessions; return the outcome.

    Returns:
        ``(runs, threads, refunds)``: each run's ``(number, thread, status, turns run)`` in the order the
        runs started; each thread's final history; each thread's number of refunds (all tuples).
    """
    desk = _Desk(_database(), next(_PLAYS))
    try:
        for run in interleaving:
            _start(answer, desk, run)
    finally:
        for conn in desk.conns:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - a session the answer broke: closing is all we want
                pass
    return (tuple(tuple(r) for r in desk.runs), tuple(sorted(desk.threads.items())),
            tuple(sorted(desk.refunds.items())))


def lost_turns(outcome: tuple) -> int:
    """How many runs said ``"done"`` but left no line in their thread's final history (the lost turns)."""
    runs, threads, _refunds = outcome
    history = dict(threads)
    return sum(1 for number, thread, status, turns in runs
               if status == "done" and turns and not any(line.startswith(f"run {number}:")
                                                         for line in history.get(thread, ())))


def reference(conn: Any, thread_id: str, run_turn: Callable[[], Any]) -> str:
    """The reference guard: the lock without waiting, the turn, the lock released whatever happens."""
    got = conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (thread_id,)).fetchone()[0]
    if not got:
        return "busy"
    try:
        run_turn()
    finally:
        conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (thread_id,))
    return "done"


_KINDS = {"ask": N_("a question"), "refund": N_("a refund")}
_MOMENTS = {"after_read": N_("after it read the thread"), "after_write": N_("after it wrote the thread")}


def describe(interleaving: tuple) -> str:
    """The interleaving in the learner's words, e.g. ``run 1 on t1 (a refund); while it runs, after it read
    the thread, run 2 on t1 (a question) arrives``."""
    parts: list[str] = []
    count = [0]

    def one(run: Run) -> str:
        thread, kind, fails, _arrivals = run
        count[0] += 1
        text = _("run {number} on {thread} ({kind})").format(number=count[0], thread=thread, kind=_(_KINDS[kind]))
        return text + (_(", whose turn fails") if fails else "")

    for run in interleaving:
        parts.append(one(run))
        for moment, arrival in run[3]:
            parts.append(_("while it runs, {moment}, {run} arrives").format(moment=_(_MOMENTS[moment]),
                                                                            run=one(arrival)))
    return "; ".join(parts)


def interleavings():
    """The Hypothesis strategy of interleavings (plain tuples; imported when the check is built)."""
    from hypothesis import strategies as st

    threads, kinds = st.sampled_from(("t1", "t2")), st.sampled_from(("ask", "refund"))
    leaf = st.tuples(threads, kinds, st.booleans(), st.just(()))
    arrival = st.tuples(st.sampled_from(("after_read", "after_write")), leaf)
    run = st.tuples(threads, kinds, st.booleans(), st.lists(arrival, max_size=2).map(tuple))
    return st.lists(run, min_size=1, max_size=3).map(tuple)


#: The generated check's pieces (``Generated(name, **GENERATED, inputs=interleavings())``).
GENERATED = {
    "run": play,
    "reference": reference,
    "describe": describe,
    "hint": N_("each run is (number, thread, what it returned, how often its turn ran); then each thread's history "
               "and refunds: a run must not run while another holds its thread, runs its turn once (an error goes up "
               "to the caller, who retries), and every run must leave the thread free"),
    "examples": 40,
}


# -- named cases ---------------------------------------------------------------------------------------------


def _status(outcome: tuple, number: int) -> str:
    return outcome[0][number - 1][2]


def _busy_thread(answer) -> None:
    outcome = play(answer, (("t1", "refund", False, (("after_read", ("t1", "refund", False, ())),)),))
    lost, refunds = lost_turns(outcome), dict(outcome[2]).get("t1", 0)
    assert (_status(outcome, 1), _status(outcome, 2)) == ("done", "busy") and not lost and refunds == 1, _(
        "run 2 came on t1 while run 1 held it: expected run 1 done and run 2 busy (not run), got run 1 {first}, "
        "run 2 {second}; lost turns: {lost}, refunds: {refunds}. Take the lock before the turn and keep it "
        "until the turn ends").format(first=_status(outcome, 1), second=_status(outcome, 2), lost=lost,
                                      refunds=refunds)


def _other_thread(answer) -> None:
    outcome = play(answer, (("t1", "ask", False, (("after_read", ("t2", "ask", False, ())),)),))
    assert (_status(outcome, 1), _status(outcome, 2)) == ("done", "done"), _(
        "run 2 on t2 came while run 1 held t1: both should run, got run 2 {second}. Key the lock by the "
        "thread: hashtextextended(thread_id, 0)").format(second=_status(outcome, 2))


def _one_after_another(answer) -> None:
    outcome = play(answer, (("t1", "ask", False, ()), ("t1", "ask", False, ()), ("t2", "ask", False, ())))
    got = [_status(outcome, n) for n in (1, 2, 3)]
    assert got == ["done", "done", "done"], _(
        "three runs one after another (t1, t1, t2) should all be done, got {got}: release the lock when the "
        "turn ends (pg_advisory_unlock), or the thread stays busy for ever").format(got=got)


def _failing_turn(answer) -> None:
    outcome = play(answer, (("t1", "ask", True, ()), ("t1", "ask", False, ())))
    got = [_status(outcome, 1), _status(outcome, 2)]
    assert got == ["failed", "done"], _(
        "run 1's turn failed, then run 2 came on t1: expected run 1's error to go up and run 2 done, got {got}. "
        "Release the lock in finally, and do not catch the turn's error").format(got=got)


def _held_to_the_end(answer) -> None:
    outcome = play(answer, (("t1", "ask", False, (("after_write", ("t1", "ask", False, ())),)),))
    assert _status(outcome, 2) == "busy", _(
        "run 2 came on t1 after run 1 wrote the thread but before its turn returned: run 1 still held it, so "
        "run 2 should be busy, got {second}. Release the lock only after run_turn() returned").format(
            second=_status(outcome, 2))


def _probe(answer) -> None:
    play(answer, (("t1", "ask", False, ()),))


RUN_GUARD = Exercise(
    "18.1",
    "the per-thread run guard",
    [
        Case("a second message on a busy thread is refused", _busy_thread),
        Case("another thread is not blocked", _other_thread),
        Case("one turn after another on one thread", _one_after_another),
        Case("a failing turn frees its thread", _failing_turn),
        Case("the lock is held until the turn returns", _held_to_the_end),
    ],
    probe=_probe,
    # a generated check plays up to 40 interleavings of up to nine runs, each run on a session of its own
    timeout=15,
    generated=Generated("agrees with the reference on generated interleavings", **GENERATED, inputs=interleavings()),
)
