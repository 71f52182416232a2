"""The approval panel once the run has finished, and the list of decisions it sent (headless).

Learner review in JupyterLab (notebook 10): after the last decision the HITL panel swapped its
args box, message box and Start over for the plain-interrupt amount controls, and "Sent decisions"
read ``submit_refund_request: approve; submit_refund_request: edit ...`` without naming the orders.
The panel keeps the controls of its own kind of pause (disabled), and names each call by what it
acts on. Agents are real ``create_agent`` + ``HumanInTheLoopMiddleware`` graphs on a scripted model
(the protocol case's fixture), built by ``tests/test_widget_approval_hitl.py``'s ``paused``.
"""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from helpers import tool_call
from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel
from helpers.widgets.engines import ApprovalEngine
from helpers.widgets.engines.approval import SentDecision, call_subject, decision_text
from tests.test_widget_approval_hitl import paused, refund

#: ``make check NB=10`` (``pytest --notebook 10``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("10")

TWO_ORDERS = {"items": [{"order_id": "A1024", "amount": 450.0}, {"order_id": "A1030", "amount": 150.0}]}


def shown(widget) -> bool:
    return widget.layout.display != "none"


def test_a_hitl_panel_keeps_its_own_controls_disabled_after_the_run_finished():
    panel = paused([refund("A1024", 100.0), refund("A1030", 50.0)],
                   {"submit_refund_request": {"allowed_decisions": ["approve", "edit", "reject"]}},
                   view=ApprovalPanel)
    assert panel.approve().outcome == "staged"
    assert panel.edit({"order_id": "A1030", "amount": "lots"}).outcome == "refused"
    assert panel.edit({"order_id": "A1030", "amount": 40}).outcome == "finished"
    # the HITL controls stay: args box, message box, Respond and Start over; no amount field
    assert shown(panel.args_field) and not shown(panel.amount_field)
    assert shown(panel.message_field) and panel.message_field.description == "message:"
    assert shown(panel.respond_button) and shown(panel.start_over_button)
    assert panel.edit_button.description == "Edit args"
    # ... greyed out: nothing is pending, so nothing can be sent
    for control in (panel.args_field, panel.message_field, panel.approve_button, panel.edit_button,
                    panel.reject_button, panel.respond_button, panel.start_over_button):
        assert control.disabled, control
    assert panel.args_field.value == "" and panel.args_field.placeholder == "no tool call is pending"
    # refresh reads the finished thread again: still the same controls
    assert panel.refresh().outcome == "finished"
    assert shown(panel.args_field) and not shown(panel.amount_field) and shown(panel.start_over_button)


def test_a_panel_opened_on_a_finished_hitl_thread_shows_the_hitl_controls():
    engine = paused([refund()])
    assert engine.approve().outcome == "finished"
    late = ApprovalPanel(engine.graph, engine.config)  # never saw the pause: the graph's HITL node decides
    assert late.engine.last_review is None and late.engine.kind == "hitl"
    assert shown(late.args_field) and not shown(late.amount_field) and late.args_field.disabled
    assert not shown(late.start_over_button)  # no request with several calls was seen


def test_a_plain_interrupt_panel_keeps_the_amount_controls_after_the_run_finished():
    panel = ApprovalPanel(nb08.build_approval_graph(InMemorySaver()), {"configurable": {"thread_id": "plain"}})
    assert panel.engine.kind == "interrupt"  # no pause read yet, and no HITL node in this graph
    panel.graph.invoke(TWO_ORDERS, panel.config)
    assert panel.refresh().outcome == "paused" and panel.engine.kind == "interrupt"
    assert not panel.amount_field.disabled and panel.message_field.disabled  # this graph allows no reject
    assert panel.approve().outcome == "paused"
    assert panel.edit(120).outcome == "finished"
    assert shown(panel.amount_field) and not shown(panel.args_field) and not shown(panel.respond_button)
    assert panel.edit_button.description == "Edit amount" and panel.message_field.description == "reason:"
    assert panel.amount_field.disabled and panel.message_field.disabled and panel.edit_button.disabled
    assert panel.summary() == ('1. A1024: {"type": "approve"} -> paused\n'
                               '2. A1030: {"type": "edit", "amount": 120.0} -> finished')


def test_each_sent_decision_names_its_call_and_the_order():
    panel = paused([refund("A1024", 100.0), refund("A1030", 50.0)], view=ApprovalPanel)
    panel.approve()
    panel.edit({"order_id": "A1030", "amount": 40})
    assert panel.summary() == "1. call 1 (A1024): approve; call 2 (A1030): edit amount 40 -> finished"
    assert "call 1 (A1024): approve; call 2 (A1030): edit amount 40 -&gt; finished" in panel.history_view.value


def test_a_rejection_and_a_response_are_labelled_with_their_calls():
    engine = paused([refund("A1024", 100.0), refund("A1030", 50.0)], thread="reject-respond")
    engine.reject("needs a photo")
    engine.respond("a colleague calls today")
    assert engine.summary() == ('1. call 1 (A1024): reject "needs a photo"; '
                                'call 2 (A1030): respond "a colleague calls today" -> finished')


def test_a_request_gating_two_tools_names_the_tool_too():
    engine = paused([refund("A1024", 10.0), tool_call("cancel_order", {"order_id": "A1024"})],
                    {"submit_refund_request": True, "cancel_order": True}, thread="two-tools")
    engine.approve()
    engine.reject("keep the order")
    assert engine.summary() == ('1. call 1 (submit_refund_request A1024): approve; '
                                'call 2 (cancel_order A1024): reject "keep the order" -> finished')


def test_the_subject_of_a_call_without_an_order_id():
    assert call_subject("write_file", {"file_path": "/policies/refunds.md", "content": "x"}, with_tool=False) \
        == "/policies/refunds.md"
    assert call_subject("write_file", {"content": "y" * 500}, with_tool=False) == "write_file"  # too long to name it
    assert call_subject("ping", {}, with_tool=True) == "ping"
    assert call_subject("submit", {"note": "late", "order_id": "A1"}, with_tool=False) == "A1"  # order_id first


def test_an_edit_lists_only_what_it_changed():
    def edit(args):
        return {"type": "edit", "edited_action": {"name": "t", "args": args}}

    written = {"order_id": "A1030", "amount": 50.0, "note": "x"}
    assert decision_text(edit({"order_id": "A1030", "amount": 40, "note": "x"}), written) == "edit amount 40"
    assert decision_text(edit({"order_id": "A1031", "amount": 40}), written) == \
        'edit order_id "A1031", amount 40, without note'
    assert decision_text(edit(dict(written)), written) == "edit (no change)"
    assert decision_text(edit({"amount": 1}), None) == 'edit {"amount": 1}'  # the call's arguments unknown


def test_a_line_is_bounded_and_never_raises_on_odd_payloads():
    odd = SentDecision({"action_requests": ["not a dict", {"name": "t", "args": "no dict"}]},
                       {"decisions": [{"type": "approve"}, "not a dict"]}, "finished")
    assert odd.line() == 'call 1 (null): approve; call 2 (t): "not a dict" -> finished'
    huge = SentDecision({"action_requests": [{"name": "t", "args": {"order_id": "A" * 200_000}}]},
                        {"decisions": [{"type": "approve"}]}, "finished")
    assert len(huge.line()) < 300 and huge.line().startswith("call 1 (t): approve")


def test_the_engine_keeps_the_last_review_after_it_was_answered():
    engine = paused([refund()], thread="kept")
    pause = engine.review.interrupt.id
    assert engine.kind == "hitl" and engine.last_review.interrupt.id == pause
    assert engine.approve().outcome == "finished"
    assert engine.review is None and engine.last_review.interrupt.id == pause and engine.kind == "hitl"
    assert ApprovalEngine(engine.graph, engine.config).last_review is None  # a new engine saw no pause
