"""The approval panel's suite (issue 16): every decision path on every kind of pause.

Five setups (``tests/approval_suite.py``): HumanInTheLoopMiddleware batched and per_call, a plain
``interrupt()`` inside a tool under ``create_agent``, a hand-built ``model -> ToolNode`` graph with
two interrupting tools, and a deep agent with ``interrupt_on``. In each: every decision the pause
allows is taken until the run ends, and no side effect runs twice; a double click (two clicks
before the page drew the next pause) and a second panel on the same thread send nothing for a
pause the panel did not render.
"""

from __future__ import annotations

import json

import pytest

from helpers.widgets import ApprovalPanel
from tests.approval_suite import SETUPS, Page

#: ``make check NB=08`` or ``NB=10`` runs this module: it tests what the notebooks use.
pytestmark = pytest.mark.notebook("08", "10")

DECISIONS = ("approve", "edit", "reject", "respond")


def _edit_value(panel, setup):
    action = panel.current
    if action.tool is None:
        return 40.0
    args = dict(action.args)
    if "amount" in args:
        args["amount"] = 40.0
    else:
        args["content"] = f"{args.get('content', '')}edited\n"
    return args


def _decide(panel, setup, decision, *, page=None):
    if page is not None:  # a click in the page: the page part's message (tests/approval_suite.Page)
        if decision == "edit":
            plain = panel.current.tool is None
            text = str(_edit_value(panel, setup)) if plain else json.dumps(_edit_value(panel, setup))
            return page.click("edit", amount=text if plain else None, args=None if plain else text)
        return page.click(decision, message="checked by hand" if decision != "approve" else "")
    if decision == "approve":
        return panel.approve()
    if decision == "edit":
        return panel.edit(_edit_value(panel, setup))
    return getattr(panel, decision)("checked by hand")


def _repeats(setup):
    return {key: count for key, count in setup.effects().items() if count > 1}


@pytest.mark.parametrize("decision", DECISIONS)
@pytest.mark.parametrize("name", list(SETUPS))
def test_every_decision_path_runs_each_side_effect_at_most_once(name, decision):
    setup = SETUPS[name]()
    panel = ApprovalPanel(setup.graph, setup.config)
    if not setup.answerable:
        before = setup.effects().copy()
        result = _decide(panel, setup, decision) if panel.current else panel.approve()
        assert result.outcome in ("unanswerable", "refused") and result.sent is None and panel.history == []
        assert "ToolNode" in result.message and setup.effects() == before
        assert panel.allowed() == () and panel.approve_button.disabled
        return
    pauses = 0
    while panel.current is not None and pauses < 4:
        chosen = decision if decision in panel.allowed() else panel.allowed()[0]
        result = _decide(panel, setup, chosen)
        assert result.outcome in ("paused", "finished", "staged"), result.message
        assert not _repeats(setup)
        pauses += 1
    assert panel.last.outcome == "finished" and len(panel.history) == 2
    assert not _repeats(setup)
    if decision in ("reject", "respond") and all(decision in d.line() for d in panel.history):
        assert not setup.effects()  # nothing rejected ran


@pytest.mark.parametrize("name", [name for name in SETUPS if name != "hand_built_tool_node"])
def test_a_double_click_never_answers_the_pause_the_page_has_not_drawn(name):
    setup = SETUPS[name]()
    panel = ApprovalPanel(setup.graph, setup.config)
    page = Page(panel)
    first = _decide(panel, setup, "approve", page=page)
    assert first.outcome == "paused"
    after_first = setup.effects().copy()
    second = _decide(panel, setup, "approve", page=page)  # queued before the page drew the new pause
    assert second.outcome == "refused" and second.sent is None and second.stale
    assert "which an earlier click already answered" in second.message
    assert len(panel.history) == 1 and setup.effects() == after_first
    page.draw()  # the reviewer now sees the second pause: a click answers it
    assert _decide(panel, setup, "approve", page=page).outcome == "finished"
    assert not _repeats(setup)


@pytest.mark.parametrize("name", [name for name in SETUPS if name != "hand_built_tool_node"])
def test_a_second_panel_on_the_thread_never_answers_what_it_did_not_show(name):
    setup = SETUPS[name]()
    panel_a = ApprovalPanel(setup.graph, setup.config)
    panel_b = ApprovalPanel(setup.graph, setup.config)
    assert panel_a.approve().outcome == "paused"
    after_a = setup.effects().copy()
    stale = panel_b.edit(_edit_value(panel_b, setup)) if panel_b.current.tool else panel_b.edit(40)
    assert stale.outcome == "refused" and stale.sent is None and panel_b.history == []
    assert stale.message.startswith("The run moved on: review the new request")
    assert setup.effects() == after_a
    assert panel_b.reject("not this one").outcome == "finished"  # B has now shown the new pause
    assert not _repeats(setup)


def test_two_interrupting_calls_under_create_agent_are_answered_by_id_in_the_order_shown():
    """create_agent runs each call as its own task: two interrupts pend at once, each answered by its id."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from helpers import scripted_model, tool_call
    from tests.approval_suite import EFFECTS, refund_after_review

    EFFECTS.clear()
    calls = [tool_call("refund_after_review", {"order_id": order, "amount": amount})
             for order, amount in (("A1024", 100.0), ("A1030", 50.0))]
    graph = create_agent(scripted_model([calls, "Done."]), [refund_after_review], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "two-at-once"}}
    graph.invoke({"messages": [{"role": "user", "content": "Refund both."}]}, config)
    panel = ApprovalPanel(graph, config)
    first = panel.pending[0]["order_id"]
    assert len(panel.pending) == 2 and "1. (answered next)" in panel.pending_view.value
    result = panel.edit(40)
    assert result.outcome == "paused" and dict(EFFECTS) == {("submit", first, 40.0): 1}
    assert panel.history[0].line().startswith(f"{first}: ")  # the log names the call that was answered
    second = panel.pending[0]["order_id"]
    assert second != first and panel.reject("not this one").outcome == "finished"
    assert dict(EFFECTS) == {("submit", first, 40.0): 1}
