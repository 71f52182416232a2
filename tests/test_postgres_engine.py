"""The database notebook 18 runs on (helpers/postgres/engine.py) and the SQLite fallback's PostgreSQL features
(helpers/postgres/fallback.py): the same SQL gives the same answers on both engines.

The parity tests run each scenario on the course's PostgreSQL server (one per module) and on a fallback
file, and compare: what the notebook says holds on PostgreSQL must hold where a learner has only SQLite.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.i18n import use
from helpers.postgres import PostgresUnavailable
from helpers.postgres.engine import DatabaseSpec, fallback_database, open_database, start_database
from helpers.postgres.fallback import FallbackConnection, LockTimeout, stable_hash
from tests.postgres_here import require_postgres

#: ``make check NB=18`` (``pytest --notebook 18``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("18")

ROOT = Path(__file__).resolve().parent.parent



@pytest.fixture(scope="module")
def postgres():
    require_postgres()
    database = start_database({"COURSE_POSTGRES": "require"})
    yield database
    database.close()


@pytest.fixture
def sqlite():
    database = fallback_database("a test of the fallback")
    yield database
    database.close()


@pytest.fixture(params=["postgresql", "sqlite"])
def db(request):
    return request.getfixturevalue("postgres" if request.param == "postgresql" else "sqlite")


def _locks(db, key_sql: str) -> list:
    """The advisory-lock answers the notebook relies on, in order, on two connections (two sessions)."""
    a, b = db.connect(), db.connect()
    try:
        lock = f"SELECT pg_try_advisory_lock({key_sql})"
        unlock = f"SELECT pg_advisory_unlock({key_sql})"
        seen = [
            a.execute(lock, ("thread-1",)).fetchone()[0],     # a takes it
            b.execute(lock, ("thread-1",)).fetchone()[0],     # b may not
            b.execute(lock, ("thread-2",)).fetchone()[0],     # another key is free
            a.execute(lock, ("thread-1",)).fetchone()[0],     # re-entrant: a takes it again
            a.execute(unlock, ("thread-1",)).fetchone()[0],   # released once ...
            b.execute(lock, ("thread-1",)).fetchone()[0],     # ... still held
            a.execute(unlock, ("thread-1",)).fetchone()[0],   # released twice: free
            b.execute(lock, ("thread-1",)).fetchone()[0],     # b takes it
            a.execute(unlock, ("thread-1",)).fetchone()[0],   # a holds nothing to release
            a.execute(f"SELECT pg_try_advisory_xact_lock({key_sql})", ("thread-3",)).fetchone()[0],
            b.execute(lock, ("thread-3",)).fetchone()[0],     # autocommit: the xact lock ended with its statement
        ]
        b.close()  # a session that ends releases its locks (PostgreSQL: within moments, as its backend exits)
        deadline = time.monotonic() + 30
        while not a.execute(lock, ("thread-1",)).fetchone()[0] and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.append(time.monotonic() < deadline)
        return [bool(x) for x in seen]
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("key_sql", ["hashtext(%s)", "hashtextextended(%s, 0)"])
def test_advisory_locks_answer_alike_on_both_engines(db, key_sql):
    assert _locks(db, key_sql) == [True, False, True, True, True, False, True, True, False, True, True, True]


def test_a_waiting_lock_gives_up_after_lock_timeout_on_both_engines(db):
    a, b = db.connect(), db.connect()
    try:
        assert a.execute("SELECT pg_try_advisory_lock(hashtext(%s))", ("t",)).fetchone()[0]
        b.execute("SET lock_timeout = '200ms'")
        with pytest.raises(Exception, match="canceling statement due to lock timeout") as raised:
            b.execute("SELECT pg_advisory_lock(hashtext(%s))", ("t",))
        if db.engine == "sqlite":
            assert raised.type is LockTimeout
        else:
            assert type(raised.value).__name__ == "LockNotAvailable"
    finally:
        a.close()
        b.close()


def test_a_queue_claim_and_a_unique_key_work_alike_on_both_engines(db):
    with db.connect() as conn:
        conn.execute("DROP TABLE IF EXISTS run_queue")
        conn.execute("CREATE TABLE run_queue (id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL, "
                     "status TEXT NOT NULL DEFAULT 'pending', UNIQUE (thread_id))")
        for i, thread in enumerate(["t1", "t2"], start=1):
            conn.execute("INSERT INTO run_queue (id, thread_id) VALUES (%s, %s)", (i, thread))
        again = conn.execute("INSERT INTO run_queue (id, thread_id) VALUES (%s, %s) "
                             "ON CONFLICT (thread_id) DO NOTHING RETURNING id", (3, "t1")).fetchall()
        claim = ("UPDATE run_queue SET status = 'running' WHERE id = (SELECT id FROM run_queue "
                 "WHERE status = 'pending' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, thread_id")
        claimed = [conn.execute(claim).fetchone() for _ in range(3)]
        literal = conn.execute("SELECT 'a%%b', %s", ("x",)).fetchone()
    assert again == [] and claimed == [(1, "t1"), (2, "t2"), None] and literal == ("a%b", "x")


def test_checkpointer_and_store_round_trip_on_both_engines(db):
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    class State(TypedDict):
        n: int

    saver = db.checkpointer()
    saver.setup()
    builder = StateGraph(State)
    builder.add_node("inc", lambda state: {"n": state["n"] + 1})
    builder.add_edge(START, "inc")
    builder.add_edge("inc", END)
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": f"round-trip-{db.engine}"}}
    graph.invoke({"n": 1}, config)
    # another process would open the database by its spec: a fresh checkpointer sees the same thread
    other = open_database(DatabaseSpec(db.engine, db.spec.target)).checkpointer()
    assert other.get_tuple(config).checkpoint["channel_values"]["n"] == 2
    store = db.store()
    store.setup()
    store.put(("memories", "user-1"), "channel", {"value": "sms"})
    assert db.store().get(("memories", "user-1"), "channel").value == {"value": "sms"}
    expected = ({"checkpoint_blobs", "checkpoint_migrations", "checkpoint_writes", "checkpoints", "store"}
                if db.engine == "postgresql" else {"checkpoints", "writes", "store"})
    assert expected <= set(db.tables())


def test_without_postgresql_the_notebook_gets_the_fallback_and_says_why(tmp_path):
    database = start_database({"COURSE_POSTGRES": "off"})
    try:
        assert database.engine == "sqlite" and database.server is None
        first, differs = database.describe().split("\n")
        assert first == "engine: SQLite, the embedded fallback: PostgreSQL is turned off here (COURSE_POSTGRES=off)"
        assert differs.startswith("what differs from the PostgreSQL run stored in this notebook: SqliteSaver")
        with use("zh-CN"):
            assert database.describe() != "\n".join([first, differs]), "the Chinese edition says it in Chinese"
        folder = Path(database.spec.target).parent
        assert folder.exists()
    finally:
        database.close()
    assert not folder.exists(), "the fallback's folder is removed"


def test_require_refuses_to_fall_back():
    with pytest.raises(PostgresUnavailable, match="holds no initdb"):
        start_database({"COURSE_POSTGRES": "require", "COURSE_POSTGRES_BINDIR": "/nonexistent"})


def test_a_fallback_lock_is_held_by_another_process_until_it_ends(sqlite):
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from helpers.postgres.fallback import FallbackConnection\n"
         "c = FallbackConnection(sys.argv[1]); c.execute('SELECT pg_advisory_lock(hashtext(%s))', ('t',))\n"
         "print('held', flush=True); time.sleep(60)", sqlite.spec.target],
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    try:
        assert holder.stdout.readline().strip() == "held"
        with FallbackConnection(sqlite.spec.target) as conn:
            assert not conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", ("t",)).fetchone()[0]
            holder.kill()
            holder.wait()
            deadline = time.monotonic() + 30
            while not conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", ("t",)).fetchone()[0]:
                assert time.monotonic() < deadline, "a dead process's lock was not released"
                time.sleep(0.05)
    finally:
        holder.kill()
        holder.wait()


def test_stable_hash_is_the_same_in_every_process():
    here = stable_hash("thread-1")
    there = subprocess.run([sys.executable, "-c", "from helpers.postgres.fallback import stable_hash; "
                            "print(stable_hash('thread-1'))"], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": "123",
                                "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    assert int(there.stdout) == here and -(2**63) <= here < 2**63 and stable_hash("thread-1", 32) < 2**31


def test_a_refund_request_locks_its_order_before_it_inserts_so_two_requests_cannot_deadlock(postgres):
    """Two requests for one order with different keys (two turns of one customer at once) once deadlocked:
    each insert's foreign key took a key-share lock on the order's row, then each asked for ``FOR UPDATE``.
    The ledger locks the order's row first: a request that waits for the row has inserted nothing yet."""
    import threading

    from helpers.domain import refund_key
    from helpers.postgres.ledger import RefundLedger, simulated_orders

    setup = RefundLedger(postgres.connect(), postgres.engine)
    setup.setup(simulated_orders(3))
    holder, waiter, watcher = postgres.connect(), RefundLedger(postgres.connect(), postgres.engine), postgres.connect()
    pid = waiter.conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    done = []
    try:
        with holder.transaction():
            holder.execute("SELECT 1 FROM orders WHERE order_id = 'S-0002' FOR UPDATE")  # another request's turn
            worker = threading.Thread(target=lambda: done.append(waiter.submit(
                "S-0002", 1.0, user_id="u-0002", idempotency_key=refund_key("S-0002", 1.0))))
            worker.start()
            deadline = time.monotonic() + 60
            while watcher.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s",
                                  (pid,)).fetchone()[0] != "Lock":
                assert time.monotonic() < deadline, "the request never waited for the order's row"
                time.sleep(0.05)
            held = {row[0] for row in watcher.execute(
                "SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = %s "
                "AND l.granted", (pid,)).fetchall()}
            assert "refund_requests" not in held, f"the request inserted before it locked the order: {held}"
        worker.join(timeout=60)
        assert [s.replayed for s in done] == [False]
    finally:
        for conn in (holder, waiter.conn, watcher, setup.conn):
            conn.close()
