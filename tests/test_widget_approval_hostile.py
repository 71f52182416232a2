"""Regression tests for the approval panel defects of issue 16 (and two of issue 17), headless.

Each test reproduces one reported defect on the pins (langchain 1.5.2, langgraph 1.2.24,
deepagents 0.7.32) and fails on the panel before its fix. The pause-identity defects (double
click, two panels) and the hand-built ToolNode graph are covered on every setup in
``test_widget_approval_suite.py``; the cases here are the ones particular to one kind of pause.
"""

from __future__ import annotations

from typing import TypedDict

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import interrupt

from helpers import scripted_model, tool_call
from helpers.widgets import ApprovalPanel
from helpers.widgets.amounts import AmountError, parse_amount
from helpers.widgets.engines import ApprovalEngine
from tests.approval_suite import EFFECTS, SETUPS, Page, drawn, single_node, submit_refund_request

#: ``make check NB=08`` or ``NB=10`` runs this module: it tests what the notebooks use.
pytestmark = pytest.mark.notebook("08", "10")


def _agent(script, interrupt_on, *, tools=(submit_refund_request,), mode="batched", thread="t", text="Refund",
           strict=True):
    EFFECTS.clear()
    agent = create_agent(scripted_model(script, strict_tool_names=strict), list(tools),
                         middleware=[HumanInTheLoopMiddleware(interrupt_on, interrupt_mode=mode)],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    agent.invoke({"messages": [{"role": "user", "content": text}]}, config)
    return agent, config


def _refund(order_id="A1024", amount=100.0, id=None):
    return tool_call("submit_refund_request", {"order_id": order_id, "amount": amount}, id=id)


# -- high: a decision answers only the pause it was rendered from ----------------------------------


def test_09_double_click_on_two_sequential_refunds_creates_only_the_one_shown():
    """Two clicks on Approve queued before the re-render approved A1030 too, which was never shown."""
    EFFECTS.clear()
    setup = SETUPS["hitl_batched"]()
    panel = ApprovalPanel(setup.graph, setup.config)
    assert "A1024" in panel.pending_view.value
    Page(panel).click("approve", clicks=2)  # the page still shows A1024 for the second click
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1}
    assert panel.last.stale and panel.last.message.startswith("This approve was made on call 1: submit_refund_request")
    assert "A1030" in panel.pending_view.value  # re-rendered on the new request


def test_09_a_stale_panels_edit_is_never_sent_as_the_answer_to_another_call():
    """Panel B still showed A1024; its Edit args answered A1030's call, so A1030 ran as A1024."""
    setup = SETUPS["hitl_batched"]()
    panel_a, panel_b = ApprovalPanel(setup.graph, setup.config), ApprovalPanel(setup.graph, setup.config)
    assert panel_b.args_field.value == '{"order_id": "A1024", "amount": 100.0}'
    panel_a.approve()
    panel_b.edit_button.click()  # its args box still holds A1024's arguments
    assert panel_b.last.outcome == "refused" and panel_b.history == []
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1}


# -- several interrupts in one ToolNode task --------------------------------------------------------


def test_a_hand_built_tool_node_with_two_interrupting_tools_is_refused_not_misrouted():
    """The panel showed call A's interrupt, the resume reached whichever call LangGraph numbered first."""
    setup = SETUPS["hand_built_tool_node"]()
    panel = ApprovalPanel(setup.graph, setup.config)
    assert panel.last.outcome == "unanswerable" and "ToolNode running 2 tool calls" in panel.last.message
    assert panel.approve().sent is None and panel.edit(80).sent is None and panel.reject("no").sent is None
    assert panel.history == [] and setup.graph.get_state(setup.config).interrupts  # nothing was sent


# -- thread poisoning --------------------------------------------------------------------------------


class _Chat(TypedDict, total=False):
    order_id: str
    stage: str


def _chat_graph():
    """08's chat graph in small: the node reads ``reason`` for anything but an approve."""

    def review(state: _Chat) -> dict:
        decision = interrupt({"order_id": state["order_id"], "amount": 499.0})
        return {"stage": "submitted" if decision["type"] == "approve" else f"rejected: {decision['reason']}"}

    return single_node(review, _Chat, "chat", {"order_id": "A1024"})


def test_a_plain_payload_that_declares_no_decisions_is_never_offered_edit():
    """Without decisions=, edit was offered; its value lacks 'reason' and LangGraph replays it forever."""
    graph, config = _chat_graph()
    panel = ApprovalPanel(graph, config)
    assert panel.allowed() == ("approve", "reject") and panel.edit_button.disabled
    assert panel.edit(100).outcome == "refused"
    assert panel.reject("photo missing").outcome == "finished"
    assert graph.get_state(config).values["stage"] == "rejected: photo missing"


def test_a_plain_payloads_response_schema_names_its_decisions():
    from typing import Literal

    from pydantic import BaseModel

    class Decision(BaseModel):
        type: Literal["approve", "edit"]
        amount: float | None = None

    graph, config = single_node(lambda s: {"stage": str(interrupt({"order_id": "A1"}, response_schema=Decision))},
                                _Chat, "typed", {"order_id": "A1"})
    assert ApprovalEngine(graph, config).allowed() == ("approve", "edit")


def test_a_poisoned_tools_node_names_the_update_state_that_frees_it():
    """The stuck thread's message was generic; it now names as_node and the unanswered call ids."""

    @tool
    def strict_refund(order_id: str) -> str:
        """Refund after a review that only reads approvals."""
        decision = interrupt({"order_id": order_id, "allowed": ["approve", "reject"]})
        return f"{order_id}: {decision['reason']}"  # KeyError for an approve

    agent = create_agent(scripted_model([[tool_call("strict_refund", {"order_id": "A1"}, id="call_s")], "ok"]),
                         [strict_refund], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "poison"}}
    agent.invoke({"messages": [{"role": "user", "content": "go"}]}, config)
    panel = ApprovalPanel(agent, config)
    result = panel.approve()
    assert result.outcome == "error"
    assert "as_node='tools'" in result.message and "'call_s'" in result.message


# -- HITL: when flips, a tool the agent lacks, long arguments, partial refunds ---------------------


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_a_reject_the_middleware_ignored_because_when_flipped_is_reported(mode):
    """The reviewer's reject was ignored and the refund submitted while the panel said FINISHED."""
    gate = {"on": True}
    agent, config = _agent([[_refund()], "Done."],
                           {"submit_refund_request": {"allowed_decisions": ["approve", "reject"],
                                                      "when": lambda request: gate["on"]}}, mode=mode)
    panel = ApprovalPanel(agent, config)
    gate["on"] = False  # the predicate reads something that changed while the run was paused
    result = panel.reject("too much")
    assert result.outcome == "ignored" and "the reject was not applied and the tool ran" in result.message
    assert "`when` predicate" in result.message and EFFECTS[("submit", "A1024", 100.0)] == 1


def test_a_when_flip_for_one_of_two_calls_says_why_the_decisions_do_not_match():
    flips = {"A1030": True}
    agent, config = _agent([[_refund("A1024"), _refund("A1030", 50.0)], "Done."],
                           {"submit_refund_request": {"allowed_decisions": ["approve", "reject"],
                                                      "when": lambda r: flips.get(r.tool_call["args"]["order_id"],
                                                                                  True)}})
    panel = ApprovalPanel(agent, config)
    panel.approve()
    flips["A1030"] = False
    result = panel.reject("no")
    assert result.outcome == "error" and "Number of human decisions (2)" in result.message
    assert "evaluates its `when` predicates again on resume" in result.message


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_an_edit_the_middleware_ignored_because_when_flipped_is_reported(mode):
    gate = {"on": True}
    agent, config = _agent([[_refund()], "Done."], {"submit_refund_request": {
        "allowed_decisions": ["approve", "edit", "reject"], "when": lambda request: gate["on"]}}, mode=mode)
    panel = ApprovalPanel(agent, config)
    gate["on"] = False
    result = panel.edit({"order_id": "A1024", "amount": 40})
    assert result.outcome == "ignored" and "the edit was not applied" in result.message
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1}  # the model's amount, not the reviewer's


def test_an_applied_edit_is_not_reported_as_ignored():
    agent, config = _agent([[_refund()], "Done."], {"submit_refund_request": True})
    result = ApprovalPanel(agent, config).edit({"order_id": "A1024", "amount": 40})
    assert result.outcome == "finished" and dict(EFFECTS) == {("submit", "A1024", 40.0): 1}


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_an_edit_of_a_call_to_a_tool_the_agent_does_not_have_is_refused(mode):
    """Accepted by the middleware, then every later resume failed in the tools node."""

    @tool
    def ghost_refund(order_id: str) -> str:
        """A tool the agent was not given."""
        return order_id

    agent, config = _agent([[tool_call("ghost_refund", {"order_id": "A1"})], "Done."],
                           {"ghost_refund": True}, mode=mode, strict=False)  # a model inventing a name
    panel = ApprovalPanel(agent, config, tools=[ghost_refund])  # its schema is known, the agent lacks it
    if panel.current is None:
        pytest.skip(f"{mode}: the middleware does not pause a call to a tool the agent lacks")
    result = panel.edit({"order_id": "A2"})
    assert result.outcome == "refused" and "The agent has no tool named 'ghost_refund'" in result.message


def _panel_on_a_long_write(lines: int, thread: str) -> ApprovalPanel:
    """A panel on a deep agent paused at a write_file of ``lines`` policy lines and a hidden last line."""
    from deepagents import create_deep_agent

    content = "Refunds within 30 days.\n" * lines + "ALSO: refunds of any amount need no approval.\n"
    agent = create_deep_agent(model=scripted_model([[tool_call("write_file", {"file_path": "/policies/r.md",
                                                                              "content": content})], "Saved."]),
                              interrupt_on={"write_file": True}, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    agent.invoke({"messages": [{"role": "user", "content": "Save it."}]}, config)
    return ApprovalPanel(agent, config)


def test_arguments_cut_in_the_list_can_be_read_whole_and_approve_says_how_much_was_hidden():
    """A deep agent's write_file of 21,646 characters was shown cut at 4,000 and its last line written unseen."""
    panel = _panel_on_a_long_write(900, "long")
    assert "ALSO: refunds of any amount need no approval." not in panel.pending_view.value
    assert "ALSO: refunds of any amount need no approval." in panel.whole_args_view.value
    assert "are not shown above; approving sends them all" in panel.whole_args_view.value
    result = panel.approve()
    assert result.outcome == "finished" and "characters more than the request list shows" in result.message


def test_two_partial_refunds_of_one_order_are_two_requests():
    """A1024 100 and A1024 50 were refused with a false reason while Approve stayed enabled."""
    agent, config = _agent([[_refund("A1024", 100.0), _refund("A1024", 50.0)], "Done."],
                           {"submit_refund_request": True})
    panel = ApprovalPanel(agent, config)
    assert panel.approve().outcome == "staged"
    drawn(panel)
    assert not panel.approve_button.disabled
    assert panel.approve().outcome == "finished"
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1, ("submit", "A1024", 50.0): 1}


def test_a_disabled_approve_says_why_and_is_never_enabled_when_always_refused():
    agent, config = _agent([[_refund("A1024", 50.0), _refund("A1024", 50.0)], "Done."],
                           {"submit_refund_request": True})
    panel = ApprovalPanel(agent, config)
    panel.approve()
    assert panel.approve_button.disabled and "same refund" in panel.approve_button.tooltip


def test_a_tool_that_committed_then_raised_gets_advice_that_checks_the_state_and_names_context():
    """The advice 'continue with graph.invoke(None, config)' repeated the side effect and omitted context=."""

    @tool
    def commit_then_fail(order_id: str) -> str:
        """Submit a refund, then fail while formatting the reply."""
        EFFECTS[("submit", order_id, 0)] += 1
        raise RuntimeError("reply formatting failed")

    agent, config = _agent([[tool_call("commit_then_fail", {"order_id": "A1"})], "Done."],
                           {"commit_then_fail": True}, tools=[commit_then_fail])
    result = ApprovalPanel(agent, config).approve()
    assert result.outcome == "error" and EFFECTS[("submit", "A1", 0)] == 1
    assert "context=" in result.message and "check the state" in result.message
    assert "runs that node again from its top" in result.message


# -- smaller: invisible reasons, odd objects, duplicate keys, bidi ids -----------------------------


def test_a_reason_of_zero_width_characters_is_refused():
    agent, config = _agent([[_refund()], "Done."], {"submit_refund_request": True})
    panel = ApprovalPanel(agent, config)
    for invisible in ("\u200b\u200b", "\u200d \u2060", "\ufeff"):
        assert panel.reject(invisible).outcome == "refused"
        assert panel.respond(invisible).outcome == "refused"
    assert EFFECTS == {} and panel.history == []


def test_respond_with_an_object_whose_str_raises_is_refused_not_raised():
    class Broken:
        def __str__(self):
            raise RuntimeError("no text")

    agent, config = _agent([[_refund()], "Done."], {"submit_refund_request": True})
    panel = ApprovalPanel(agent, config)
    result = panel.respond(Broken())
    assert result.outcome == "refused" and "could not be read as text" in result.message


def test_edited_json_with_a_duplicate_key_is_refused():
    agent, config = _agent([[_refund()], "Done."], {"submit_refund_request": True})
    panel = ApprovalPanel(agent, config)
    result = panel.edit('{"order_id": "A1024", "amount": 10, "amount": 499}')
    assert result.outcome == "refused" and "names 'amount' twice" in result.message and EFFECTS == {}


def test_an_order_id_with_bidi_controls_is_shown_escaped():
    agent, config = _agent([[_refund("\u202e4201A")], "Done."], {"submit_refund_request": True})
    panel = ApprovalPanel(agent, config)
    assert "\u202e" not in panel.pending_view.value and "\\u202e4201A" in panel.pending_view.value
    panel.reject("odd id")
    assert "\u202e" not in panel.history_view.value and "\u202e" not in panel.status_view.value


# -- issue 17: a reason-less reject, thousands separators -------------------------------------------


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_a_hitl_reject_without_a_message_is_sent_as_the_middleware_accepts_it(mode):
    agent, config = _agent([[_refund(id="call_r")], "Done."], {"submit_refund_request": True}, mode=mode)
    result = ApprovalPanel(agent, config).reject("")
    assert result.outcome == "finished"
    assert result.sent == ({"decisions": [{"type": "reject"}]} if mode == "batched" else {"type": "reject"})
    answer = [m for m in result.state["messages"] if isinstance(m, ToolMessage)][0]
    assert answer.status == "error" and "The tool was not executed" in answer.content and EFFECTS == {}


def test_an_amount_with_thousands_separators_says_why_it_is_refused():
    with pytest.raises(AmountError, match=r"thousands separators, which are not accepted .* type 1000.50"):
        parse_amount("1,000.50")
    assert parse_amount("1000.50") == 1000.5


def test_the_final_state_is_readable_rows_with_the_refund_ids():
    agent, config = _agent([[_refund(id="call_1")], "Done."], {"submit_refund_request": True})
    result = ApprovalPanel(agent, config)
    result.approve()
    status = result.status_view.value
    assert "  messages: 4\n" in status and "tool call_1 success: refund request registered for A1024" in status
    assert "-&gt; submit_refund_request {&quot;order_id&quot;: &quot;A1024&quot;" in status


def test_enter_in_the_amount_field_answers_only_the_pause_the_page_shows():
    setup = SETUPS["plain_create_agent"]()
    panel = ApprovalPanel(setup.graph, setup.config)
    page = Page(panel)
    page.click("approve")
    page.click("edit", clicks=0, amount="40")  # Enter (the page part sends it as an edit), before the page drew A1030
    assert panel.last.outcome == "refused" and panel.last.stale and "already answered" in panel.last.message
    # A bare Enter from ipywidgets' own Text (the page part did not load) says nothing of what was shown.
    panel.amount_field.value = "40"
    panel._on_field_message(panel.amount_field, {"event": "submit"}, [])
    assert panel.last.outcome == "refused" and "did not say which request it showed" in panel.last.message
    page.draw().click("edit", clicks=0, amount="40")
    assert panel.last.outcome == "finished" and dict(EFFECTS) == {("submit", "A1024", 100.0): 1,
                                                                   ("submit", "A1030", 40.0): 1}


# -- hostile pass on issue 16 (helper T) ----------------------------------------------------------------------------


def test_an_interrupted_resume_is_never_sent_again_to_the_same_pause():
    """The learner stops the kernel (KeyboardInterrupt) while the resumed node runs, after its side
    effect: LangGraph saves none of the task's writes, so the same pause is still pending. Before the
    fix the panel re-raised the interrupt and forgot it had sent anything: the next Approve sent the
    decision again and the refund was submitted twice. Now the outcome is unknown and nothing more is
    sent to that pause until start_over()."""
    from langgraph.graph import MessagesState

    stopped = []

    def review(state: MessagesState) -> dict:
        decision = interrupt({"order_id": "A1024", "amount": 100.0, "refundable": 499.0,
                              "allowed": ["approve", "reject"]})
        if decision["type"] == "approve":
            EFFECTS[("submit", "A1024", 100.0)] += 1
            if not stopped:  # the learner presses "interrupt the kernel" while the node finishes
                stopped.append(True)
                raise KeyboardInterrupt
        return {"messages": [("ai", decision["type"])]}

    EFFECTS.clear()
    graph, config = single_node(review, MessagesState, "stopped", {"messages": [("user", "refund A1024")]})
    panel = ApprovalPanel(graph, config)
    with pytest.raises(KeyboardInterrupt):
        panel.approve()
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1}
    again = panel.approve()
    assert again.sent is None and again.outcome == "refused", again.message
    assert "the tool may have run" in again.message
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1}, "the side effect ran once"
    assert panel.approve_button.disabled and not panel.start_over_button.disabled


def test_arguments_longer_than_the_panel_shows_whole_are_never_approved_unread():
    """A write_file of 40,000 characters: the 'whole arguments' part shows its first 30,000, the
    rest (here the last line) was approved unseen, and the approve message said the part "showed
    them all". Approve is now off for it (the button disabled, saying why); reading them in a cell
    and sending them with edit still works."""
    panel = _panel_on_a_long_write(1700, "longer")
    assert "ALSO: refunds of any amount" not in panel.whole_args_view.value + panel.pending_view.value
    assert panel.approve_button.disabled and "more than the panel shows whole" in panel.approve_button.tooltip
    result = panel.approve()
    assert result.outcome == "refused" and result.sent is None, result.message
    assert "more than the panel shows whole (30,000)" in result.message
    read = panel.engine.current.args  # read in a cell, then sent as the reviewer's own
    assert read["content"].endswith("ALSO: refunds of any amount need no approval.\n")
    assert panel.edit(read).sent is not None
