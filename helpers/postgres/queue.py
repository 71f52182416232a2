"""The run queue of notebook 18, section 7: runs wait in a table, and any worker takes the next one.

A message that arrives becomes a row of ``run_queue`` (:func:`enqueue`); workers take rows with
:data:`CLAIM_SQL`: ``FOR UPDATE SKIP LOCKED`` lets many workers claim at once without two taking the
same row and without waiting for each other's claims (PostgreSQL skips rows another transaction has
locked). A run that holds its thread's advisory lock serializes the runs of one thread
(:func:`helpers.postgres.desk.thread_lock`): the queue spreads the threads over the workers, the lock
keeps each thread's runs one after the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["CLAIM_SQL", "DONE_SQL", "QUEUE_TABLE", "enqueue", "queue_counts"]

#: The queue (PostgreSQL's DDL; the fallback writes ``INTEGER`` for ``BIGSERIAL``).
QUEUE_TABLE = """
CREATE TABLE IF NOT EXISTS run_queue (
    run_id BIGSERIAL PRIMARY KEY,
    thread_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',     -- pending -> running -> done
    worker INTEGER                              -- the process that took it
)
"""

#: Take the oldest pending run, or none: one statement, so the claim and its lock are one step.
CLAIM_SQL = """
UPDATE run_queue SET status = 'running', worker = %s
WHERE run_id = (
    SELECT run_id FROM run_queue WHERE status = 'pending'
    ORDER BY run_id LIMIT 1
    FOR UPDATE SKIP LOCKED)
RETURNING run_id, thread_id, user_id, message
"""

#: Mark a run done.
DONE_SQL = "UPDATE run_queue SET status = 'done' WHERE run_id = %s"


def enqueue(conn: Any, engine: str, runs: Iterable[tuple[str, str, str]]) -> int:
    """Create the queue if missing and add ``runs`` (``(thread_id, user_id, message)``) in order.

    Returns:
        how many runs were added.
    """
    conn.execute(QUEUE_TABLE if engine == "postgresql" else QUEUE_TABLE.replace("BIGSERIAL", "INTEGER"))
    added = 0
    with conn.transaction():
        for thread_id, user_id, message in runs:
            conn.execute("INSERT INTO run_queue (thread_id, user_id, message) VALUES (%s, %s, %s)",
                         (thread_id, user_id, message))
            added += 1
    return added


def queue_counts(conn: Any) -> dict[str, int]:
    """How many runs are in each status, e.g. ``{"done": 1100}``."""
    return dict(conn.execute("SELECT status, count(*) FROM run_queue GROUP BY status ORDER BY status").fetchall())
