"""helpers.durable_flow: notebook 08's second process resumes a run paused in this one."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver

from helpers.durable_flow import SecondProcess, build

#: ``make check NB=08`` (``pytest --notebook 08``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("08")

CONFIG = {"configurable": {"thread_id": "refund-A1024"}}


def _pause(db: str) -> None:
    with SqliteSaver.from_conn_string(db) as saver:
        out = build(saver).invoke({"order_id": "A1024", "amount": 499.0}, CONFIG, version="v2")
    assert [i.value for i in out.interrupts] == [{"order_id": "A1024", "amount": 499.0}]


def _final_values(db: str) -> dict:
    with SqliteSaver.from_conn_string(db) as saver:
        snapshot = build(saver).get_state(CONFIG)
    assert snapshot.next == ()
    return snapshot.values


def test_a_second_process_resumes_the_paused_run_from_the_file(tmp_path):
    db = str(tmp_path / "checkpoints.sqlite")
    process_b = SecondProcess.start()
    _pause(db)
    lines = process_b.resume(db, "refund-A1024", "approve")
    assert lines[0] == "process B: a different process: True"
    assert "process B: next = ('ask_approval',)" in lines[2]
    assert lines.count("  ask_approval runs") == 1
    assert _final_values(db) == {"order_id": "A1024", "amount": 499.0, "decision": "approve", "stage": "approved"}


def test_a_second_resume_starts_a_fresh_process(tmp_path):
    db = str(tmp_path / "checkpoints.sqlite")
    _pause(db)
    process_b = SecondProcess.start()
    process_b.resume(db, "refund-A1024", "reject")
    again = process_b.resume(db, "refund-A1024", "approve")   # the run has ended: nothing is paused any more
    assert "process B: next = () | interrupt payload = []" in again
    assert _final_values(db)["stage"] == "rejected"


def test_a_failing_process_b_is_reported_with_its_last_error_line(tmp_path):
    missing = str(tmp_path / "no-such-folder" / "checkpoints.sqlite")
    with pytest.raises(RuntimeError, match=r"process B failed \(exit code 1\): .*unable to open database file"):
        SecondProcess.start().resume(missing, "refund-A1024", "approve")
