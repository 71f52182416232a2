"""Exercise 08.1 beyond the contract (tests/test_exercise_contract.py): crash feedback and the approval graph."""

from collections import Counter

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from helpers.domain import AmountExceedsRefundable
from helpers.exercises import nb08
from tests.solutions import nb08 as sol


def test_crash_feedback_names_the_cause():
    text = nb08.FINISH_REFUND.check(sol.crashing_plain_string).text()
    assert "ValueError: resume value must be" in text
    text = nb08.FINISH_REFUND.check(sol.crashing_other_thread).text()
    assert "fresh, empty run" in text
    text = nb08.FINISH_REFUND.check(sol.crashing_always_approve).text()
    assert "AmountExceedsRefundable" in text


def test_graph_interrupts_once_per_item_and_reruns_review():
    counter = Counter()
    graph = nb08.build_approval_graph(InMemorySaver(), counter=counter)
    cfg = {"configurable": {"thread_id": "t"}}
    items = [{"order_id": "A1024", "amount": 10.0}, {"order_id": "A1030", "amount": 500.0}]
    out = graph.invoke({"items": items}, cfg, version="v2")
    assert [i.value["order_id"] for i in out.interrupts] == ["A1024"]
    out = graph.invoke(Command(resume={"type": "approve"}), cfg, version="v2")
    assert [i.value for i in out.interrupts] == [
        {"order_id": "A1030", "amount": 500.0, "refundable": 120.0, "allowed": ["approve", "edit"]}
    ]
    out = graph.invoke(Command(resume={"type": "edit", "amount": 120.0}), cfg, version="v2")
    assert out.interrupts == () and out.value["stage"] == "submitted"
    assert out.value["requests"] == ["RF-0001", "RF-0002"]
    assert counter == Counter({"intake": 1, "review": 3})


def test_restart_guard_stops_endless_restarts():
    graph = nb08.build_approval_graph(InMemorySaver())
    cfg = {"configurable": {"thread_id": "loop"}}
    with pytest.raises(RuntimeError, match="Command\\(resume"):
        for _ in range(10):
            graph.invoke({"items": [{"order_id": "A1024", "amount": 1.0}]}, cfg)


def test_crash_feedback_carries_no_unrelated_case_hint():
    """A crash is reported with its own cause only, never with another case's advice."""
    for name, fn in sol.FINISH_REFUND.crashing.items():
        result = nb08.FINISH_REFUND.check(fn)
        errors = [r for r in result.results if r.status == "error"]
        assert errors, (name, result.text())
        for r in errors:
            assert "(hint:" not in r.feedback, (name, r.name, r.feedback)
    plain = nb08.FINISH_REFUND.check(sol.crashing_plain_string)
    assert all("resume value must be" in r.feedback for r in plain.results), plain.text()
    assert not any("'edit', 'amount': payload" in r.feedback for r in plain.results), plain.text()


def test_approving_too_much_says_to_edit():
    result = nb08.FINISH_REFUND.check(sol.crashing_always_approve)
    (edit_case,) = [r for r in result.results if r.name == "an amount above the refundable amount is edited down"]
    assert edit_case.status == "error"
    assert "AmountExceedsRefundable" in edit_case.feedback
    assert "answer {'type': 'edit', 'amount': payload['refundable']}" in edit_case.feedback


def test_a_cent_above_the_refundable_amount_is_edited_down():
    """Issue 27: comparing whole units passed every named case (their amounts are whole); a cent above is then
    approved and the refund service refuses the submit."""
    spec = (("A1030", "twice it"), ("A1024", "a cent above it"))
    assert nb08.request_outcome(nb08.finish_refund, spec) == {
        "approved": [("A1030", 120.0, "edit"), ("A1024", 499.0, "edit")], "requests": ["RF-0001", "RF-0002"],
        "stage": "submitted", "paused before": [], "started": 1, "returned stage": "submitted"}
    with pytest.raises(AmountExceedsRefundable, match="the 'approve' answer for A1024 asked too much"):
        nb08.request_outcome(sol.wrong_whole_units, spec)
    assert nb08.FINISH_REFUND.generated[0].describe(spec) == (
        "a request for A1030 240.00 (refundable 120.00), A1024 499.01 (refundable 499.00)")
