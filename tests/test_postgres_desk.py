"""Notebook 18's refund desk on a shared database (helpers/postgres: ledger, desk, queue, workers).

The ledger and the desk run on a SQLite fallback file here (fast, no server); the same SQL runs on PostgreSQL
in the notebook, and tests/test_postgres_engine.py proves the two engines answer alike. The worker tests
start real worker processes and prove they end with their owner.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from langgraph.types import Command

from helpers.domain import DomainError, refund_key
from helpers.postgres import fallback_database
from helpers.postgres.desk import build_desk_agent, replies, take_turn, thread_lock
from helpers.postgres.ledger import RefundLedger, simulated_orders
from helpers.postgres.queue import CLAIM_SQL, enqueue, queue_counts
from helpers.postgres.workers import Workers, WorkerError

#: ``make check NB=18`` (``pytest --notebook 18``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("18")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def db():
    database = fallback_database("the desk tests")
    yield database
    database.close()


@pytest.fixture
def ledger(db):
    ledger = RefundLedger(db.connect(), db.engine)
    ledger.setup(simulated_orders(3))
    yield ledger
    ledger.conn.close()


def _code(call) -> str:
    try:
        call()
    except DomainError as exc:
        return exc.code
    return "ok"


def test_the_ledger_makes_one_request_per_key_and_refuses_what_the_domain_refuses(ledger):
    first = ledger.submit("A1024", 120.0, user_id="user-42", idempotency_key=refund_key("A1024", 120.0))
    again = ledger.submit("A1024", 120.0, user_id="user-42", idempotency_key=refund_key("A1024", 120.0))
    assert (first.replayed, again.replayed, again.request.request_id) == (False, True, first.request.request_id)
    assert first.request.amount == 120.0 and ledger.count(order_id="A1024") == 1
    submit = ledger.submit
    assert [
        _code(lambda: submit("A1024", 5.0, user_id="user-42", idempotency_key=refund_key("A1024", 120.0))),
        _code(lambda: submit("A1024", 10.0, user_id="user-7", idempotency_key="k")),
        _code(lambda: submit("NOPE", 10.0, user_id="user-42", idempotency_key="k")),
        _code(lambda: submit("A1025", 10.0, user_id="user-42", idempotency_key="k")),
        _code(lambda: submit("A1024", 380.0, user_id="user-42", idempotency_key="k2")),
        _code(lambda: submit("A1024", 0.001, user_id="user-42", idempotency_key="k3")),
        _code(lambda: submit("S-0002", 102.0, user_id="u-0002", idempotency_key="k4")),
    ] == ["idempotency_conflict", "permission_denied", "order_not_found", "not_refundable",
          "amount_exceeds_refundable", "invalid_amount", "ok"]
    assert ledger.count() == 2, "no refusal wrote a row"


def test_check_then_insert_makes_two_rows_when_two_sessions_race(db, ledger):
    other = RefundLedger(db.connect(), db.engine)
    both_looked = threading.Barrier(2)
    results = []

    def race(book):
        results.append(book.submit_check_then_insert("A1024", 5.0, user_id="user-42", idempotency_key="k",
                                                      between=lambda: both_looked.wait(timeout=30)))

    threads = [threading.Thread(target=race, args=(book,)) for book in (ledger, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    other.conn.close()
    assert [r.replayed for r in results] == [False, False]
    assert ledger.count("refund_requests_naive", idempotency_key="k") == 2


def test_a_paused_turn_is_resumed_from_another_connection_and_a_turn_reads_the_thread(db, ledger):
    saver = db.checkpointer()
    saver.setup()
    paused = take_turn(build_desk_agent(saver), ledger, "t", "user-42", "refund A1029 2899.00")
    assert paused.interrupted == ({"order_id": "A1029", "amount": 2899.0, "user_id": "user-42"},)
    assert paused.messages == 2 and paused.reply == ""
    other = build_desk_agent(db.checkpointer())  # another saver, another connection: only the file is shared
    resumed = take_turn(other, ledger, "t", "user-42", Command(resume="approve"))
    assert resumed.reply.startswith("Done: refund request RF-") and "created for A1029 (2899.00)" in resumed.reply
    refused = take_turn(other, ledger, "t", "user-42", "refund B2048 10.00")
    assert refused.reply == "Sorry, that did not work: order B2048 does not belong to user-42."
    assert refused.messages == 8 and len(replies(other.get_state(
        {"configurable": {"thread_id": "t"}}).values["messages"])) == 2


def test_the_thread_lock_lets_one_session_in_at_a_time(db):
    first, second = db.connect(), db.connect()
    inside, order = threading.Event(), []

    def late():
        inside.wait(timeout=30)
        with thread_lock(second, "t"):
            order.append("second")

    waiting = threading.Thread(target=late)
    waiting.start()
    with thread_lock(first, "t"):
        inside.set()
        time.sleep(0.2)  # the other session is at the door meanwhile (its own timing does not matter)
        order.append("first")
    waiting.join(timeout=30)
    assert order == ["first", "second"]
    first.close()
    second.close()


def test_the_queue_hands_each_run_to_one_claim(db):
    conn = db.connect()
    assert enqueue(conn, db.engine, [("t1", "u", "a"), ("t2", "u", "b")]) == 2
    claims = [conn.execute(CLAIM_SQL, (1,)).fetchone() for _ in range(3)]
    assert [c and c[1] for c in claims] == ["t1", "t2", None] and queue_counts(conn) == {"running": 2}
    conn.close()


def test_workers_run_jobs_report_errors_and_stop(db, ledger):
    with Workers(db.spec, count=2) as workers:
        pids = workers.pids
        assert len(set(pids)) == 2 and os.getpid() not in pids and workers.labels(pids[::-1]) == ["B", "A"]
        with pytest.raises(WorkerError, match="InvalidAmount: amount must be a finite positive number"):
            workers.call(0, "race", "A1024", -1.0, "user-42", "k", naive=False, meet_at=("p", 1))
        done = workers.call(0, "race", "A1024", 1.0, "user-42", "k", naive=False, meet_at=("q", 1))
        assert done["replayed"] is False and done["pid"] == pids[0], "the worker went on after the error"
        with pytest.raises(ValueError, match="no worker job 'nope'"):
            workers.call(1, "nope")
    assert all(not _running(pid) for pid in pids)


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


OWNER = """
import json, sys, time
from helpers.postgres import fallback_database
from helpers.postgres.workers import Workers
workers = Workers(fallback_database("owner").spec, count=2)
print(json.dumps(workers.pids), flush=True)
time.sleep(600)
"""


def test_workers_end_when_their_owner_is_killed():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True, env=env)
    try:
        pids = json.loads(owner.stdout.readline())
        assert all(_running(pid) for pid in pids)
    finally:
        owner.kill()
        owner.wait()
    deadline = time.monotonic() + 60
    while any(_running(pid) for pid in pids):
        assert time.monotonic() < deadline, "a worker outlived its owner"
        time.sleep(0.05)
