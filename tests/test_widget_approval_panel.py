"""The approval panel on plain ``interrupt()`` payloads (notebook 08): engine and view, headless.

Every resume goes through a real LangGraph graph with an ``InMemorySaver``; the checks look at the
checkpoint afterwards to prove that refused input sent nothing. The ``HumanInTheLoopMiddleware``
pauses are in ``test_widget_approval_hitl.py``.
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel, PanelOutcome, PanelResult, SentDecision
from helpers.widgets.engines import ApprovalEngine
from tests.approval_suite import drawn

#: ``make check NB=08`` (``pytest --notebook 08``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("08")

TWO_ORDERS = {"items": [{"order_id": "A1024", "amount": 450.0}, {"order_id": "A1030", "amount": 150.0}]}


@pytest.fixture
def counter():
    return Counter()


def _two_orders(view, counter, thread):
    """A panel (or engine) on nb08's approval graph, paused at the first of two interrupts."""
    graph = nb08.build_approval_graph(InMemorySaver(), counter=counter)
    config = {"configurable": {"thread_id": thread}}
    graph.invoke(TWO_ORDERS, config)
    return view(graph, config)


@pytest.fixture
def panel(counter):
    """The view."""
    return _two_orders(ApprovalPanel, counter, "panel")


@pytest.fixture
def engine(counter):
    """The engine alone."""
    return _two_orders(ApprovalEngine, counter, "engine")


class Decided(TypedDict, total=False):
    order_id: str
    decision: Any


def _single(node, checkpointer=None):
    builder = StateGraph(Decided)
    builder.add_node("review", node)
    builder.add_edge(START, "review")
    builder.add_edge("review", END)
    return builder.compile(checkpointer=checkpointer or InMemorySaver())


def _open_review(state: Decided) -> dict:
    """A payload whose "allowed" list names every decision of a plain pause."""
    return {"decision": interrupt({"order_id": state["order_id"], "question": "refund?",
                                   "allowed": ["approve", "edit", "reject"]})}


def _paused(node, thread="t", *, view=ApprovalPanel, **kwargs):
    graph = _single(node)
    config = {"configurable": {"thread_id": thread}}
    graph.invoke({"order_id": "A1029"}, config)
    return view(graph, config, **kwargs)


# -- construction ---------------------------------------------------------------------------------


def test_needs_a_checkpointer_and_a_thread_id():
    builder = StateGraph(Decided)
    builder.add_node("review", _open_review)
    builder.add_edge(START, "review")
    with pytest.raises(ValueError, match="checkpointer"):
        ApprovalEngine(builder.compile(), {"configurable": {"thread_id": "x"}})
    with pytest.raises(ValueError, match="thread_id"):
        ApprovalEngine(_single(_open_review), {"configurable": {}})
    with pytest.raises(ValueError, match="decisions must be"):
        ApprovalEngine(_single(_open_review), {"configurable": {"thread_id": "x"}}, decisions=("approve", "escalate"))
    with pytest.raises(ValueError, match="decisions must be"):
        ApprovalPanel(_single(_open_review), {"configurable": {"thread_id": "x"}}, decisions=())


def test_a_thread_without_checkpoint_is_not_started_and_nothing_can_be_sent():
    graph = nb08.build_approval_graph(InMemorySaver())
    panel = ApprovalPanel(graph, {"configurable": {"thread_id": "empty"}})
    assert panel.last.outcome == "not_started"
    assert panel.pending == [] and panel.allowed() == ()
    assert panel.approve_button.disabled and panel.edit_button.disabled and panel.reject_button.disabled
    result = panel.approve()
    assert result.outcome == "refused" and result.sent is None
    assert "Nothing is pending on thread 'empty'" in result.message and "Nothing was sent" in result.message
    assert "Nothing is pending" in panel.status_view.value
    assert panel.history == []
    assert graph.get_state({"configurable": {"thread_id": "empty"}}).values == {}  # no fresh run was started


# -- what it shows ----------------------------------------------------------------------------------


def test_shows_the_payload_never_the_interrupt_id(panel):
    assert panel.last.outcome == "paused"
    assert panel.pending == [{"order_id": "A1024", "amount": 450.0, "refundable": 499.0, "allowed": ["approve", "edit"]}]
    interrupt_id = panel.graph.get_state(panel.config).interrupts[0].id
    for view in (panel.pending_view, panel.status_view, panel.history_view, panel.header):
        assert interrupt_id not in view.value
    assert "refundable: 499.0" in panel.pending_view.value and "order_id: &quot;A1024&quot;" in panel.pending_view.value
    assert "The run is paused" in panel.status_view.value
    assert "Allowed here: approve, edit" in panel.pending_view.value
    assert "No decision sent yet" in panel.history_view.value


def test_the_payloads_allowed_list_switches_reject_off(panel):
    assert panel.allowed() == ("approve", "edit")
    assert not panel.approve_button.disabled and not panel.edit_button.disabled
    assert panel.reject_button.disabled
    # a disabled button looks disabled: grey, with a tooltip that says why
    assert panel.reject_button.button_style == "" and panel.reject_button.tooltip == "reject is not allowed here"
    assert panel.approve_button.button_style == "success" and panel.edit_button.button_style == "warning"
    assert panel.respond_button.layout.display == "none"  # no respond for a plain payload
    assert panel.args_field.layout.display == "none" and panel.amount_field.layout.display is None


def test_plain_text_repr_is_one_line(panel):
    import ipywidgets

    assert isinstance(panel, ipywidgets.VBox)
    assert panel._repr_mimebundle_()["text/plain"] == "ApprovalPanel (thread 'panel'): run this cell to open the panel"


# -- sending --------------------------------------------------------------------------------------


def test_approve_then_edit_runs_to_the_end(panel, counter):
    first = panel.approve()
    assert isinstance(first, PanelResult)
    assert (first.action, first.outcome, first.sent) == ("approve", "paused", {"type": "approve"})
    assert first.interrupts == [{"order_id": "A1030", "amount": 150.0, "refundable": 120.0, "allowed": ["approve", "edit"]}]
    assert "A1030" in panel.pending_view.value

    second = panel.edit(120)
    assert (second.outcome, second.sent) == ("finished", {"type": "edit", "amount": 120.0})
    assert second.interrupts == [] and second.state["stage"] == "submitted"
    assert second.state["requests"] == ["RF-0001", "RF-0002"]
    assert panel.graph.get_state(panel.config).values["approved"] == [
        {"order_id": "A1024", "amount": 450.0, "decision": "approve"},
        {"order_id": "A1030", "amount": 120.0, "decision": "edit"},
    ]
    assert "Final state:" in panel.status_view.value and "RF-0002" in panel.status_view.value
    assert "data-verdict='FINISHED'" in panel.status_view.value
    assert "No interrupt is pending" in panel.pending_view.value
    assert panel.approve_button.disabled and panel.edit_button.disabled
    assert panel.history == [
        SentDecision({"order_id": "A1024", "amount": 450.0, "refundable": 499.0, "allowed": ["approve", "edit"]},
                     {"type": "approve"}, "paused"),
        SentDecision({"order_id": "A1030", "amount": 150.0, "refundable": 120.0, "allowed": ["approve", "edit"]},
                     {"type": "edit", "amount": 120.0}, "finished"),
    ]
    assert panel.summary() == ('1. A1024: {"type": "approve"} -> paused\n'
                               '2. A1030: {"type": "edit", "amount": 120.0} -> finished')
    assert "Sent decisions" in panel.history_view.value
    assert counter["intake"] == 1  # resumed, never restarted
    assert panel.amount_field.value == ""  # a sent edit clears the field

    after = panel.approve()
    assert after.outcome == "refused" and "Nothing is pending" in after.message
    assert len(panel.history) == 2


def test_the_engine_alone_checks_and_runs_to_the_end(engine, counter):
    refused = engine.edit("abc")
    assert refused.outcome is PanelOutcome.REFUSED and refused.sent is None and engine.history == []
    assert engine.approve().outcome == "paused"
    # A1030's amount (150) is above its refundable (120): its approve is always refused, so it is not offered
    assert engine.current.payload["order_id"] == "A1030" and engine.allowed() == ("edit",)
    assert "above the refundable 120.0" in engine.refusal("approve")
    assert engine.edit("150").outcome == "refused"
    result = engine.edit(" 120 ")
    assert result.outcome == "finished" and result.sent == {"type": "edit", "amount": 120.0}
    assert result.state["requests"] == ["RF-0001", "RF-0002"] and counter["intake"] == 1
    assert engine.summary() == ('1. A1024: {"type": "approve"} -> paused\n'
                                '2. A1030: {"type": "edit", "amount": 120.0} -> finished')
    assert engine.approve().outcome == "refused" and engine.current is None


def test_edit_reads_the_amount_field(panel):
    panel.amount_field.value = " 300 "
    result = panel.edit()
    assert result.sent == {"type": "edit", "amount": 300.0} and result.outcome == "paused"


@pytest.mark.parametrize(("typed", "expected"), [
    ("abc", "The amount 'abc' is not a number: write digits with an optional decimal point, e.g. 120 or 120.50."),
    ("", "An edit needs the new amount: type it in the amount field."),
    ("-5", "The amount must be more than 0, got -5.0."),
    ("0", "The amount must be more than 0, got 0.0."),
    ("nan", "The amount 'nan' is not a finite number."),
    ("inf", "The amount 'inf' is not a finite number."),
    ("1e2", "The amount '1e2' is not a number"),
    ("120,50", "The amount '120,50' is not a number (use a decimal point)"),
    ("500", "The amount 500.0 is above the refundable 499.0"),
])
def test_a_bad_amount_is_refused_and_nothing_is_sent(panel, counter, typed, expected):
    before = panel.graph.get_state(panel.config)
    result = panel.edit(typed)
    assert result.outcome == "refused" and result.sent is None
    assert result.message.startswith(expected) and result.message.endswith("Nothing was sent.")
    assert panel.amount_field.value == typed  # the typed text stays
    assert expected.split(":")[0].split(".")[0] in panel.status_view.value.replace("&#x27;", "'")
    assert "data-verdict='REFUSED'" in panel.status_view.value
    after = panel.graph.get_state(panel.config)
    assert after.next == before.next == ("review",)
    assert after.config == before.config  # no new checkpoint
    assert counter["review"] == 1 and panel.history == []
    # and the thread is not poisoned: a correct answer still works
    assert panel.approve().outcome == "paused"


def test_edit_with_a_number_or_bool_argument(panel):
    assert panel.edit(True).outcome == "refused"  # written as 'True': not a number
    assert panel.amount_field.value == "True"
    assert panel.edit(450.5).sent == {"type": "edit", "amount": 450.5}


def test_reject_refused_when_the_payload_does_not_allow_it(panel):
    result = panel.reject("too much")
    assert result.outcome == "refused"
    assert result.message == "The interrupt does not accept 'reject'; it allows: approve, edit. Nothing was sent."
    assert panel.message_field.value == "too much" and panel.history == []


def test_reject_with_a_reason_on_a_graph_that_accepts_it():
    panel = _paused(_open_review)
    assert panel.allowed() == ("approve", "edit", "reject") and not panel.reject_button.disabled
    for empty in ("", "   "):
        refused = panel.reject(empty)
        assert refused.outcome == "refused"
        assert refused.message.startswith("A rejection needs a reason: type one in the reason field (this pause is "
                                          "a plain interrupt() whose node reads")
    assert panel.graph.get_state(panel.config).next == ("review",)
    result = panel.reject(" photo of the damage missing ")
    assert result.outcome == "finished"
    assert result.sent == {"type": "reject", "reason": "photo of the damage missing"}
    assert panel.graph.get_state(panel.config).values["decision"] == result.sent
    assert panel.message_field.value == ""
    assert panel.summary() == '1. A1029: {"type": "reject", "reason": "photo of the damage missing"} -> finished'


def test_reject_reads_the_reason_field():
    panel = _paused(_open_review)
    panel.message_field.value = "duplicate"
    assert panel.reject().sent == {"type": "reject", "reason": "duplicate"}


def test_decisions_argument_limits_the_panel():
    panel = _paused(_open_review, decisions=("approve",))
    assert panel.allowed() == ("approve",)
    assert panel.edit_button.disabled and panel.reject_button.disabled
    assert panel.edit(10).outcome == "refused"
    assert panel.approve().outcome == "finished"
    engine = _paused(_open_review, thread="u", view=ApprovalEngine, decisions=("reject",))
    assert engine.allowed() == ("reject",) and engine.approve().outcome == "refused"


def test_a_graph_error_after_sending_is_shown_not_raised():
    def strict(state: Decided) -> dict:
        decision = interrupt({"order_id": state["order_id"], "allowed": ["approve", "edit"]})
        if decision["type"] != "approve":
            raise ValueError(f"only approvals are handled here, got {decision['type']!r}")
        return {"decision": decision}

    panel = _paused(strict)
    result = panel.edit(10)
    assert result.outcome == "error" and result.sent == {"type": "edit", "amount": 10.0}
    assert result.message.splitlines()[0] == "ValueError: only approvals are handled here, got 'edit'"
    assert "ValueError" in panel.status_view.value
    assert panel.history[-1].outcome == "error"
    # the poisoned thread of notebook 08: LangGraph would replay the stored edit, so nothing more is sent
    assert "replays it on every resume" in result.message
    again = panel.approve()
    assert again.outcome == "poisoned" and again.sent is None and len(panel.history) == 1
    assert '[{"type": "edit", "amount": 10.0}]' in again.message and "update_state" in again.message
    assert panel.refresh().outcome == "poisoned"
    assert panel.approve_button.disabled and panel.edit_button.disabled


def test_several_pending_interrupts_are_answered_first_by_id():
    class Both(TypedDict, total=False):
        answers: Annotated[list, operator.add]

    def ask(name):
        return lambda state: {"answers": [(name, interrupt({"order_id": name}))]}

    builder = StateGraph(Both)
    builder.add_node("left", ask("L-1"))
    builder.add_node("right", ask("R-1"))
    builder.add_edge(START, "left")
    builder.add_edge(START, "right")
    builder.add_edge("left", END)
    builder.add_edge("right", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "both"}}
    graph.invoke({"answers": []}, config)
    panel = ApprovalPanel(graph, config)
    assert panel.pending == [{"order_id": "L-1"}, {"order_id": "R-1"}]
    assert "1. (answered next)" in panel.pending_view.value and "2. (waits)" in panel.pending_view.value
    first = panel.approve()
    assert first.outcome == "paused" and first.interrupts == [{"order_id": "R-1"}]
    second = panel.reject("no")
    assert second.outcome == "finished"
    assert dict(map(tuple, second.state["answers"])) == {"L-1": {"type": "approve"},
                                                         "R-1": {"type": "reject", "reason": "no"}}


def test_refresh_sees_a_resume_sent_elsewhere(panel):
    from langgraph.types import Command

    panel.graph.invoke(Command(resume={"type": "approve"}), panel.config)
    result = panel.refresh()
    assert result.action == "refresh" and result.outcome == "paused"
    assert result.interrupts[0]["order_id"] == "A1030"
    panel.graph.invoke(Command(resume={"type": "edit", "amount": 120.0}), panel.config)
    assert panel.refresh().outcome == "finished"
    assert panel.history == []  # only the panel's own decisions are recorded


def test_an_action_never_answers_a_pause_the_panel_did_not_show(panel):
    from langgraph.types import Command

    panel.graph.invoke(Command(resume={"type": "approve"}), panel.config)  # answered elsewhere
    result = panel.edit(120)  # meant for A1024, which the panel showed: A1030 is pending now
    assert result.outcome == "refused" and result.sent is None and panel.history == []
    assert result.message.startswith("The run moved on: review the new request")
    assert panel.graph.get_state(panel.config).interrupts[0].value["order_id"] == "A1030"
    assert "A1030" in panel.pending_view.value  # re-rendered on the new request
    assert panel.edit(120).outcome == "finished"  # now shown: the next decision answers it
    assert panel.history[0].payload["order_id"] == "A1030"


def test_buttons_call_the_methods_and_handlers_print_nothing(panel, capsys):
    panel.amount_field.value = "oops"
    panel.edit_button.click()
    assert panel.last.outcome == "refused" and panel.amount_field.value == "oops"
    panel.approve_button.click()
    assert panel.last.outcome == "paused"
    drawn(panel)  # the page has drawn A1030's pause
    panel.amount_field.value = "120"
    panel.edit_button.click()
    assert panel.last.outcome == "finished"
    other = _paused(_open_review)
    other.message_field.value = "not needed"
    other.reject_button.click()
    assert other.last.sent == {"type": "reject", "reason": "not needed"}
    assert capsys.readouterr() == ("", "")


# -- regressions from the widget break report --------------------------------------------------------


@pytest.mark.parametrize(("typed", "expected"), [
    ("120.555", "The amount '120.555' has more than 2 decimals: refunds are paid in whole cents."),
    ("0.001", "The amount '0.001' has more than 2 decimals"),
    (1e-320, "The amount 1e-320 rounds to 0.00: it must be at least 0.01."),
])
def test_amounts_that_are_not_whole_cents_are_refused(panel, counter, typed, expected):
    """Break 1: 120.555 was sent, the refund service refused it in 'submit' and the thread was stuck."""
    result = panel.edit(typed)
    assert result.outcome == "refused" and result.sent is None
    assert result.message.startswith(expected) and result.message.endswith("Nothing was sent.")
    assert panel.amount_field.value == str(typed) and panel.history == []
    assert panel.engine.graph.get_state(panel.engine.config).next == ("review",) and counter["review"] == 1
    assert panel.edit("120.50000000001").sent == {"type": "edit", "amount": 120.5}  # float noise is rounded


def test_approving_an_amount_above_the_refundable_is_refused(panel):
    assert panel.approve().outcome == "paused"  # A1024: 450.0 <= 499.0
    result = panel.approve()  # A1030: 150.0 > 120.0
    assert result.outcome == "refused" and result.sent is None
    assert result.message.startswith("Approving keeps the amount 150.0, above the refundable 120.0")
    assert len(panel.history) == 1 and panel.graph.get_state(panel.config).next == ("review",)
    assert panel.edit(120).outcome == "finished"


def test_a_stuck_thread_is_reported_as_stuck_not_finished(panel):
    """Break 1: refresh() said 'finished' while snapshot.next == ('submit',)."""
    from langgraph.types import Command

    panel.graph.invoke(Command(resume={"type": "approve"}), panel.config)
    with pytest.raises(Exception, match="at most 2 decimals"):  # sent around the panel's checks
        panel.graph.invoke(Command(resume={"type": "edit", "amount": 120.555}), panel.config)
    assert panel.graph.get_state(panel.config).next == ("submit",)
    result = panel.refresh()
    assert result.outcome == "stuck"
    assert result.message.startswith("No interrupt is pending, but the run has NOT finished: it stopped before 'submit'")
    assert "data-outcome='stuck'" in panel.status_view.value and "State at the checkpoint:" in panel.status_view.value
    assert "Final state" not in panel.status_view.value and "finished;" not in panel.status_view.value
    assert panel.approve_button.disabled and panel.edit_button.disabled and panel.reject_button.disabled
    assert panel.approve().outcome == "refused"


def test_an_error_that_leaves_the_run_stuck_says_so():
    class Flow(TypedDict, total=False):
        order_id: str
        decision: Any

    def submit(state):
        raise RuntimeError("refund service down")

    builder = StateGraph(Flow)
    builder.add_node("review", _open_review)
    builder.add_node("submit", submit)
    builder.add_edge(START, "review")
    builder.add_edge("review", "submit")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "stuck"}}
    graph.invoke({"order_id": "A1024"}, config)
    panel = ApprovalPanel(graph, config)
    result = panel.approve()
    assert result.outcome == "error" and result.sent == {"type": "approve"}
    assert result.message.splitlines()[0] == "RuntimeError: refund service down"
    assert "it stopped before 'submit'" in result.message
    assert panel.refresh().outcome == "stuck"


def test_a_breakpoint_after_the_resume_is_stuck_not_finished():
    builder = StateGraph(Decided)
    builder.add_node("review", _open_review)
    builder.add_node("after", lambda state: {})
    builder.add_edge(START, "review")
    builder.add_edge("review", "after")
    graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=["after"])
    config = {"configurable": {"thread_id": "bp"}}
    graph.invoke({"order_id": "A1024"}, config)
    panel = ApprovalPanel(graph, config)
    result = panel.approve()
    assert result.outcome == "stuck" and result.message.startswith("Sent. No interrupt is pending")
    assert result.state["decision"] == {"type": "approve"}


def test_a_dataclass_state_schema_works():
    """Break 4: dict(out.value) raised TypeError after the resume had been sent."""
    from dataclasses import dataclass

    @dataclass
    class DS:
        order_id: str = ""
        decision: Any = None

    builder = StateGraph(DS)
    builder.add_node("review", _open_review)
    builder.add_edge(START, "review")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "ds"}}
    graph.invoke({"order_id": "A1029"}, config)
    panel = ApprovalPanel(graph, config)
    result = panel.approve()
    assert result.outcome == "finished" and result.state == {"order_id": "A1029", "decision": {"type": "approve"}}
    assert len(panel.history) == 1 and "Final state:" in panel.status_view.value


def test_message_ids_never_show_in_the_final_state():
    """Break 5: str(BaseMessage) put the random UUID ids of a messages key into the HTML."""
    from langchain_core.messages import AIMessage
    from langgraph.graph import MessagesState

    def ask(state):
        decision = interrupt({"order_id": "A1024", "allowed": ["approve", "reject"]})
        return {"messages": [AIMessage("done: " + decision["type"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "m"}}
    graph.invoke({"messages": [{"role": "user", "content": "refund"}]}, config)
    panel = ApprovalPanel(graph, config, decisions=("approve", "reject"))
    assert panel.approve().outcome == "finished"
    ids = [m.id for m in graph.get_state(config).values["messages"]]
    assert all(ids) and not any(i in panel.status_view.value for i in ids)
    assert "id=" not in panel.status_view.value
    assert "messages: 2\n    1 human: refund\n    2 ai: done: approve" in panel.status_view.value  # one row each


def test_a_lone_surrogate_is_escaped_in_every_widget_value():
    """Break 6: a lone surrogate in a widget value breaks the kernel's message packing."""
    panel = _paused(_open_review, thread="\ud800", title="t\udc00")
    panel.reject("bad \ud800 photo")
    assert panel.message_field.value == ""  # sent: the field is cleared
    assert panel.history[0].resume == {"type": "reject", "reason": "bad \\ud800 photo"}
    panel.edit("\ud800")  # refused: nothing pending
    for widget in (panel.header, panel.pending_view, panel.status_view, panel.history_view,
                   panel.amount_field, panel.message_field, panel.args_field):
        widget.value.encode("utf-8")
    assert panel.amount_field.value == "\\ud800"
    panel.summary().encode("utf-8")


def test_an_order_id_with_a_line_break_keeps_history_and_summary_one_line_each():
    """Break 8: _history_html split summary lines on '. ' and raised IndexError."""
    def ask(state):
        return {"decision": interrupt({"order_id": "A10\n24. x"})}

    panel = _paused(ask)
    result = panel.approve()
    assert result.outcome == "finished" and len(panel.history) == 1
    assert panel.summary() == '1. "A10\\n24. x": {"type": "approve"} -> finished'
    assert "<li data-outcome='finished'>&quot;A10\\n24. x&quot;: {&quot;type&quot;: &quot;approve&quot;} -&gt; finished</li>" in panel.history_view.value


def test_edit_accepts_any_number_type(panel):
    """Break 9: edit(Decimal('120')) wrote "Decimal('120')" into the field and was refused."""
    from decimal import Decimal
    from fractions import Fraction

    assert panel.edit(Decimal("450.50")).sent == {"type": "edit", "amount": 450.5}
    assert panel.amount_field.value == ""  # sent and cleared
    result = panel.edit(Fraction(239, 2))
    assert result.sent == {"type": "edit", "amount": 119.5} and result.outcome == "finished"
