"""Self-check questions for notebook 18 · one agent, a thousand users, on PostgreSQL.

The "predict the output" snippet is a complete program (SQLite from the standard library runs the same
``INSERT ... ON CONFLICT DO NOTHING RETURNING`` as PostgreSQL); ``tests/test_selfcheck_questions.py`` runs
it. The other answers are proven by ``tests/selfcheck_verifiers/nb18.py``.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

#: The snippet imports what it uses, so the context only says so.
CODE_CONTEXT = "# notebook 18's snippet is self-contained: it builds its own table\n"

_SECOND_INSERT = '''\
import sqlite3

db = sqlite3.connect(":memory:")
db.execute("CREATE TABLE refund_requests (id INTEGER PRIMARY KEY, user_id TEXT, "
           "idempotency_key TEXT, UNIQUE (user_id, idempotency_key))")
insert = ("INSERT INTO refund_requests (user_id, idempotency_key) VALUES (?, ?) "
          "ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING id")
first = db.execute(insert, ("u-0001", "refund:S-0001:20.00")).fetchall()
second = db.execute(insert, ("u-0001", "refund:S-0001:20.00")).fetchall()
print(first, second)'''

QUESTIONS = (
    Question(
        id="two-runs-one-thread",
        prompt=N_("Two messages of one customer start two runs on one thread at the same moment, with no lock. Both "
                  "runs read the thread before either writes. What does the thread hold when both are done?"),
        choices=(N_("Both turns: the checkpointer merges the two runs"),
                 N_("One of the two turns; the other reply is lost, and nothing raises an error"),
                 N_("Nothing new: the checkpointer raises a conflict error for the second run"),
                 N_("Both turns: the second run waits until the first has finished")),
        answer=N_("One of the two turns; the other reply is lost, and nothing raises an error"),
        explanation=N_("Each run writes checkpoints from the state it read; the thread follows the newest one, and the "
                       "other run's turn stays on a branch nobody reads."),
        section=N_("section 4, Two runs at once on one thread: the lost turn"),
        why_not={
            N_("Both turns: the second run waits until the first has finished"): N_(
                "Open-source LangGraph does not serialize runs on a thread: that is the lock you add (section 4)."),
            N_("Nothing new: the checkpointer raises a conflict error for the second run"): N_(
                "No error is raised: both runs finish, and both callers get a reply."),
        },
    ),
    Question(
        id="refuse-at-once",
        prompt=N_("A run arrives on a thread another run is using. Which call lets it give up at once instead of "
                  "waiting (the Agent Server's `reject`)?"),
        choices=(N_("`pg_try_advisory_lock(hashtextextended(thread_id, 0))`"),
                 N_("`pg_advisory_lock(hashtextextended(thread_id, 0))`"),
                 N_("`pg_try_advisory_xact_lock(...)` on an autocommit connection, then the run"),
                 N_("`SELECT ... FOR UPDATE SKIP LOCKED`")),
        answer=N_("`pg_try_advisory_lock(hashtextextended(thread_id, 0))`"),
        explanation=N_("`pg_try_advisory_lock` returns false at once when another session holds the key; "
                       "`pg_advisory_lock` waits (enqueue)."),
        section=N_("section 4, The fix: one run per thread at a time, held by the database"),
        why_not={
            N_("`pg_advisory_lock(hashtextextended(thread_id, 0))`"): N_(
                "It waits until the other session releases the key: that is enqueue, not reject."),
            N_("`pg_try_advisory_xact_lock(...)` on an autocommit connection, then the run"): N_(
                "In autocommit the transaction ends with the statement, and the lock with it, before the run starts."),
        },
    ),
    Question(
        id="second-insert",
        prompt=N_("Two workers insert the same refund key. What does this print?"),
        code=_SECOND_INSERT,
        choices=("[(1,)] []", "[(1,)] [(1,)]", "[(1,)] [(2,)]", N_("nothing: the second insert raises IntegrityError")),
        answer="[(1,)] []",
        explanation=N_("ON CONFLICT DO NOTHING skips the second row, so RETURNING returns nothing: that worker reads "
                       "the winner's row and reports a replay."),
        section=N_("section 5, Idempotency across workers: a key the database enforces"),
        why_not={N_("nothing: the second insert raises IntegrityError"): N_(
            "Without ON CONFLICT it would; DO NOTHING turns the conflict into an empty result.")},
    ),
    Question(
        id="who-may-resume",
        prompt=N_("Worker A paused a refund at an `interrupt()` in its tool. A colleague approves it later. Which "
                  "process can resume the run?"),
        choices=(N_("Any process that builds the same agent on the same database: the checkpoint holds the paused "
                    "call and its payload"),
                 N_("Only worker A: the paused Python frame lives in its memory"),
                 N_("Any process, whatever graph it builds: the checkpoint holds the code too"),
                 N_("None: a paused run can only be restarted from the customer's message")),
        answer=N_("Any process that builds the same agent on the same database: the checkpoint holds the paused call "
                  "and its payload"),
        explanation=N_("The checkpoint stores state, not code: another process with the same graph reads it and runs "
                       "the paused node again from its top."),
        section=N_("section 3, Paused in one process, approved and resumed in another"),
        why_not={N_("Any process, whatever graph it builds: the checkpoint holds the code too"): N_(
            "The code comes from the module both processes import; a graph without the paused node ends the run "
            "without running the call (Pitfalls).")},
    ),
)
