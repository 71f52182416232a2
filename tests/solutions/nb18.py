"""Reference solutions, known-wrong and crashing answers for exercise 18.1 (``helpers.exercises.nb18.RUN_GUARD``)."""

from __future__ import annotations

from helpers.exercises.nb18 import reference
from helpers.exercises.registry import AnswerSet, KnownWrong

LOCK = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"


def guard_with_hashtext(conn, thread_id, run_turn):
    """Reference variant: a 32-bit key (hashtext) works alike."""
    if not conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (thread_id,)).fetchone()[0]:
        return "busy"
    try:
        run_turn()
        return "done"
    finally:
        conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (thread_id,))


def guard_in_a_transaction(conn, thread_id, run_turn):
    """Reference variant: a transaction-level lock, held until the transaction (around the turn) ends."""
    with conn.transaction():
        if not conn.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))", (thread_id,)).fetchone()[0]:
            return "busy"
        run_turn()
    return "done"


def no_guard(conn, thread_id, run_turn):
    """Wrong: every run runs; two at once on one thread lose a turn and refund twice."""
    run_turn()
    return "done"


def one_lock_for_all(conn, thread_id, run_turn):
    """Wrong: one key for every thread; a run on t2 is refused while t1 runs."""
    if not conn.execute("SELECT pg_try_advisory_lock(42)").fetchone()[0]:
        return "busy"
    try:
        run_turn()
    finally:
        conn.execute("SELECT pg_advisory_unlock(42)")
    return "done"


def never_unlocks(conn, thread_id, run_turn):
    """Wrong: the lock is never released; the thread stays busy after its first run."""
    if not conn.execute(LOCK, (thread_id,)).fetchone()[0]:
        return "busy"
    run_turn()
    return "done"


def no_finally(conn, thread_id, run_turn):
    """Wrong: a turn that fails leaves its thread locked."""
    if not conn.execute(LOCK, (thread_id,)).fetchone()[0]:
        return "busy"
    run_turn()
    conn.execute(UNLOCK, (thread_id,))
    return "done"


def checks_then_releases(conn, thread_id, run_turn):
    """Wrong: looks whether the thread is free, releases at once, then runs unguarded."""
    if not conn.execute(LOCK, (thread_id,)).fetchone()[0]:
        return "busy"
    conn.execute(UNLOCK, (thread_id,))
    run_turn()
    return "done"


def waits_for_the_lock(conn, thread_id, run_turn):
    """Wrong for this exercise: pg_advisory_lock waits (enqueue); here it must reject."""
    conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (thread_id,))
    try:
        run_turn()
    finally:
        conn.execute(UNLOCK, (thread_id,))
    return "done"


def swallows_the_error(conn, thread_id, run_turn):
    """Wrong: a failed turn is reported as done; the caller never retries it."""
    if not conn.execute(LOCK, (thread_id,)).fetchone()[0]:
        return "busy"
    try:
        run_turn()
    except Exception:
        pass
    finally:
        conn.execute(UNLOCK, (thread_id,))
    return "done"


def autocommit_xact_lock(conn, thread_id, run_turn):
    """Wrong: a transaction-level lock outside a transaction ends with its statement, before the turn."""
    if not conn.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))", (thread_id,)).fetchone()[0]:
        return "busy"
    run_turn()
    return "done"


def misspelled_function(conn, thread_id, run_turn):
    """Crashes: no such SQL function."""
    conn.execute("SELECT pg_try_lock(hashtextextended(%s, 0))", (thread_id,))
    return "done"


def tuple_params(conn, thread_id, run_turn):
    """Crashes: the parameters are not a sequence (a bare string is taken as one parameter per letter)."""
    conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", thread_id)
    run_turn()
    return "done"


RUN_GUARD = AnswerSet(
    # guard_in_a_transaction is right on PostgreSQL (tests/test_exercises_nb18.py); on the SQLite fallback, where
    # the contract runs, a transaction locks the whole file, so it is not listed here
    solutions={"reference": reference, "hashtext": guard_with_hashtext},
    wrong={
        "no guard": KnownWrong(no_guard, fails=("a second message on a busy thread is refused",
                                                "the lock is held until the turn returns"), status="fail"),
        "one lock for every thread": KnownWrong(one_lock_for_all, fails=("another thread is not blocked",),
                                                status="fail"),
        "never unlocks": KnownWrong(never_unlocks, fails=("one turn after another on one thread",), status="fail"),
        "no finally": KnownWrong(no_finally, fails=("a failing turn frees its thread",), status="fail"),
        "checks then releases": KnownWrong(checks_then_releases, fails=(
            "a second message on a busy thread is refused", "the lock is held until the turn returns"),
            status="fail"),
        "waits for the lock": KnownWrong(waits_for_the_lock, fails=("a second message on a busy thread is refused",),
                                         status="fail"),
        "swallows the turn's error": KnownWrong(swallows_the_error, fails=("a failing turn frees its thread",),
                                                status="fail"),
        "transaction lock in autocommit": KnownWrong(autocommit_xact_lock, fails=(
            "a second message on a busy thread is refused",), status="fail"),
    },
    crashing={"misspelled function": misspelled_function, "parameters not a tuple": tuple_params},
    answer_from=lambda body: lambda conn, thread_id, run_turn: body(),
)
