"""The approval panel on real ``HumanInTheLoopMiddleware`` pauses (issue 8), headless.

Every agent is ``create_agent(scripted_model(...), tools, middleware=[HumanInTheLoopMiddleware(...)],
checkpointer=InMemorySaver())`` (langchain 1.5.2); the scripted model is the protocol case's fixture.
After each refused input the checkpoint is compared with the one before: nothing was sent, and the
thread still takes a correct answer (it is not poisoned).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from helpers import scripted_model, tool_call
from helpers.widgets import ApprovalPanel, PanelOutcome
from helpers.widgets.engines import ApprovalEngine
from tests.approval_suite import drawn

#: ``make check NB=10`` (``pytest --notebook 10``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("10")

RUNS: list[tuple[str, str, float]] = []
HITL_NODE = ("HumanInTheLoopMiddleware.after_model",)


@tool
def submit_refund_request(order_id: str, amount: float) -> str:
    """Submit a refund request for an order."""
    RUNS.append(("submit", order_id, amount))
    return f"submitted {order_id} {amount}"


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    RUNS.append(("lookup", order_id, 0.0))
    return f"{order_id}: delivered"


@tool
def cancel_order(order_id: str) -> str:
    """Cancel an order."""
    RUNS.append(("cancel", order_id, 0.0))
    return f"cancelled {order_id}"


@dataclass
class Customer:
    """The signed-in customer: the run's context, never an argument the model sends."""

    user_id: str


@tool
def refund_for_user(order_id: str, runtime: ToolRuntime[Customer]) -> str:
    """Submit a refund for the signed-in customer."""
    return f"{order_id} for {runtime.context.user_id}"


def paused(calls, interrupt_on=None, *, view=ApprovalEngine, thread="hitl", then=("Done.",), **middleware):
    """An agent whose scripted model sends ``calls`` in one reply, paused at the HITL review."""
    RUNS.clear()
    agent = create_agent(scripted_model([list(calls), *then]), [submit_refund_request, lookup_order, cancel_order],
                         middleware=[HumanInTheLoopMiddleware(
                             interrupt_on=interrupt_on or {"submit_refund_request": True}, **middleware)],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund A1024, please"}]}, config)
    return view(agent, config)


def refund(order_id="A1024", amount=50.0, id=None):
    return tool_call("submit_refund_request", {"order_id": order_id, "amount": amount}, id=id)


def tool_messages(result) -> list[tuple[str, str, str]]:
    return [(m.tool_call_id, m.status, m.content) for m in result.state["messages"] if isinstance(m, ToolMessage)]


def unchanged(engine, before) -> bool:
    """The thread is where it was: same checkpoint, same interrupt pending."""
    after = engine.graph.get_state(engine.config)
    return (after.config == before.config and after.next == before.next == HITL_NODE
            and [i.id for i in after.interrupts] == [i.id for i in before.interrupts])


# -- reading the pause ---------------------------------------------------------------------------


def test_reads_each_actions_allowed_decisions_from_review_configs():
    engine = paused([refund()], {"submit_refund_request": {"allowed_decisions": ["approve", "reject"]}})
    assert engine.last.outcome == "paused"
    review = engine.review
    assert review.kind == "hitl" and len(review.actions) == 1
    action = review.actions[0]
    assert (action.tool, action.args, action.allowed) == ("submit_refund_request", {"order_id": "A1024", "amount": 50.0},
                                                          ("approve", "reject"))
    assert engine.allowed() == ("approve", "reject")
    assert RUNS == []  # nothing ran before the review


def test_the_panels_decisions_narrow_what_a_pause_allows():
    engine = paused([refund()])
    assert engine.allowed() == ("approve", "edit", "reject", "respond")
    narrowed = ApprovalEngine(engine.graph, engine.config, decisions=("approve", "respond"))
    assert narrowed.allowed() == ("approve", "respond")


# -- the four decisions --------------------------------------------------------------------------


def test_approve_sends_one_decision_in_a_decisions_list_and_the_tool_runs():
    engine = paused([refund(id="call_r")])
    result = engine.approve()
    assert result.sent == {"decisions": [{"type": "approve"}]}
    assert result.outcome == "finished" and RUNS == [("submit", "A1024", 50.0)]
    assert tool_messages(result) == [("call_r", "success", "submitted A1024 50.0")]
    assert result.state["messages"][-1].content == "Done."
    assert engine.summary() == "1. call 1 (A1024): approve -> finished"


def test_edit_sends_the_edited_action_checked_against_the_tool_schema():
    engine = paused([refund(amount=499.0, id="call_r")])
    result = engine.edit('{"order_id": "A1024", "amount": 120.0}')
    assert result.sent == {"decisions": [{"type": "edit", "edited_action": {
        "name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 120.0}}}]}
    assert result.outcome == "finished" and RUNS == [("submit", "A1024", 120.0)]
    ((call_id, status, content),) = tool_messages(result)
    assert (call_id, status) == ("call_r", "success")
    assert "a human reviewer replaced this tool call" in content and content.endswith("submitted A1024 120.0")
    assert engine.summary() == "1. call 1 (A1024): edit amount 120.0 -> finished"


def test_edit_accepts_a_dict_too():
    engine = paused([refund()])
    assert engine.edit({"order_id": "A1024", "amount": 10}).outcome == "finished"
    assert RUNS == [("submit", "A1024", 10.0)]


@pytest.mark.parametrize(("args", "expected"), [
    ('{"order_id": "A1024", "amount": 12', "The edited argument text is not valid JSON"),
    ("[1, 2]", "The edited arguments are not a JSON object"),
    ("", "An edit needs the new arguments"),
    ('{"order_id": "A1024"}', "do not fit submit_refund_request's schema (amount: Field required)"),
    ('{"order_id": "A1024", "amount": "a lot"}', "(amount: Input should be a valid number"),
    ('{"order_id": ' + "[" * 200 + "]" * 200 + ', "amount": 1}', "nests deeper than 100 levels"),
])
def test_invalid_edited_args_are_refused_before_anything_is_sent(args, expected):
    engine = paused([refund()])
    before = engine.graph.get_state(engine.config)
    result = engine.edit(args)
    assert result.outcome == "refused" and result.sent is None
    assert expected in result.message and result.message.endswith("Nothing was sent.")
    assert unchanged(engine, before) and engine.history == [] and RUNS == []
    assert engine.approve().outcome == "finished"  # not poisoned: a correct answer still works


def test_reject_sends_the_message_and_the_tool_does_not_run():
    engine = paused([refund(id="call_r")])
    assert engine.reject("\u200b \u200d").outcome == "refused"  # only invisible characters
    result = engine.reject("Amount too high")
    assert result.sent == {"decisions": [{"type": "reject", "message": "Amount too high"}]}
    assert result.outcome == "finished" and RUNS == []
    assert tool_messages(result) == [
        ("call_r", "error", "User rejected the tool call for `submit_refund_request` with reason: Amount too high")]


def test_respond_answers_for_the_tool_and_the_tool_does_not_run():
    engine = paused([refund(id="call_r")])
    before = engine.graph.get_state(engine.config)
    refused = engine.respond("")
    assert refused.outcome == "refused" and "A response needs a message" in refused.message
    assert unchanged(engine, before)
    result = engine.respond("Refunds over 40 need a manager; I have asked one.")
    assert result.sent == {"decisions": [{"type": "respond", "message": "Refunds over 40 need a manager; I have asked one."}]}
    assert result.outcome == "finished" and RUNS == []
    assert tool_messages(result) == [("call_r", "success", "Refunds over 40 need a manager; I have asked one.")]


@pytest.mark.parametrize("decision", ["edit", "respond"])
def test_a_decision_the_review_config_does_not_allow_is_refused(decision):
    engine = paused([refund()], {"submit_refund_request": {"allowed_decisions": ["approve", "reject"]}})
    before = engine.graph.get_state(engine.config)
    result = getattr(engine, decision)('{"order_id": "A1024", "amount": 1}' if decision == "edit" else "text")
    assert result.outcome == "refused"
    assert result.message == (f"Call 1: submit_refund_request does not accept {decision!r}; it allows: approve, "
                              "reject. Nothing was sent.")
    assert unchanged(engine, before)
    assert engine.reject("no").outcome == "finished"


# -- two gated calls in one reply ----------------------------------------------------------------


def test_two_gated_calls_get_two_decisions_sent_together_in_order():
    engine = paused([refund("A1024", 50.0, id="call_a"), refund("A1030", 20.0, id="call_b")])
    assert [a.position for a in engine.review.actions] == [1, 2]
    before = engine.graph.get_state(engine.config)
    first = engine.approve()
    assert first.outcome == "staged" and first.sent is None
    assert first.message.startswith("Noted approve for call 1: submit_refund_request (1 of 2)")
    assert unchanged(engine, before) and RUNS == [] and engine.current.position == 2
    second = engine.reject("A1030 was refunded already")
    assert second.sent == {"decisions": [{"type": "approve"},
                                         {"type": "reject", "message": "A1030 was refunded already"}]}
    assert second.outcome == "finished" and RUNS == [("submit", "A1024", 50.0)]
    # the rejection's ToolMessage is written at the review, before the approved call runs
    assert sorted((i, s) for i, s, _ in tool_messages(second)) == [("call_a", "success"), ("call_b", "error")]
    assert engine.summary() == ('1. call 1 (A1024): approve; call 2 (A1030): reject '
                                '"A1030 was refunded already" -> finished')


def test_start_over_drops_the_noted_decisions():
    engine = paused([refund("A1024", 50.0), refund("A1030", 20.0)])
    engine.edit('{"order_id": "A1024", "amount": 40}')
    assert len(engine.staged) == 1
    result = engine.start_over()
    assert result.outcome == "paused" and result.message.startswith("The noted decisions were dropped")
    assert engine.staged == [] and engine.current.position == 1
    engine.approve()
    assert engine.approve().sent == {"decisions": [{"type": "approve"}, {"type": "approve"}]}


def test_an_ungated_call_in_the_same_reply_needs_no_decision():
    engine = paused([tool_call("lookup_order", {"order_id": "A1024"}), refund()])
    assert [a.tool for a in engine.review.actions] == ["submit_refund_request"]
    assert engine.approve().outcome == "finished"
    assert sorted(RUNS) == [("lookup", "A1024", 0.0), ("submit", "A1024", 50.0)]


def test_each_call_offers_its_own_tools_decisions():
    engine = paused([tool_call("cancel_order", {"order_id": "A1030"}), refund()],
                    {"cancel_order": {"allowed_decisions": ["reject"]}, "submit_refund_request": True})
    assert engine.allowed() == ("reject",)
    assert engine.approve().outcome == "refused"
    assert engine.reject("keep the order").outcome == "staged"
    assert engine.allowed() == ("approve", "edit", "reject", "respond")
    assert engine.approve().outcome == "finished" and RUNS == [("submit", "A1024", 50.0)]


def test_two_calls_for_the_same_refund_cannot_both_be_approved():
    engine = paused([refund("A1024", 50.0), refund("A1024", 50.0)])
    assert engine.approve().outcome == "staged"
    assert "approve" not in engine.allowed()  # always refused: its button is not enabled
    refused = engine.approve()
    assert refused.outcome == "refused"
    assert "Calls 1 and 2 both ask submit_refund_request for the same refund" in refused.message
    assert engine.edit('{"order_id": "A1024", "amount": 50}').outcome == "refused"
    assert engine.reject("duplicate call").outcome == "finished" and RUNS == [("submit", "A1024", 50.0)]


def test_the_model_asking_again_pauses_again():
    engine = paused([refund("A1024", 50.0)], then=([refund("A1030", 20.0)], "Both done."))
    first = engine.approve()
    assert first.outcome == "paused" and first.message == "Sent. The run paused again at the next interrupt."
    assert engine.review.actions[0].args == {"order_id": "A1030", "amount": 20.0}
    assert engine.approve().outcome == "finished" and [r[1] for r in RUNS] == ["A1024", "A1030"]


# -- faults around the pause ---------------------------------------------------------------------


def test_a_thread_poisoned_by_a_bare_resume_is_reported_and_left_alone():
    engine = paused([refund()])
    with pytest.raises(KeyError, match="decisions"):  # sent around the panel: api-facts item 11
        engine.graph.invoke(Command(resume={"type": "approve"}), engine.config)
    result = engine.refresh()
    assert result.outcome == "poisoned"
    assert "KeyError('decisions')" in result.message and '[{"type": "approve"}]' in result.message
    attempt = engine.approve()
    assert attempt.outcome == "poisoned" and attempt.sent is None and engine.history == []
    assert engine.allowed() == ()


def test_a_tool_that_raises_after_approval_leaves_the_run_stuck_and_says_so():
    @tool
    def flaky_refund(order_id: str, amount: float) -> str:
        """Submit a refund; the service is down."""
        raise ConnectionError("refund service unavailable")

    agent = create_agent(scripted_model([[tool_call("flaky_refund", {"order_id": "A1024", "amount": 5.0})], "Done."]),
                         [flaky_refund], middleware=[HumanInTheLoopMiddleware(interrupt_on={"flaky_refund": True})],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "flaky"}}
    agent.invoke({"messages": [{"role": "user", "content": "refund"}]}, config)
    engine = ApprovalEngine(agent, config)
    result = engine.approve()
    assert result.outcome == "error" and result.message.startswith("ConnectionError: refund service unavailable")
    assert "it stopped before 'tools'" in result.message
    assert engine.refresh().outcome == "stuck" and engine.approve().outcome == "refused"


def test_the_runs_context_is_passed_to_every_resume():
    """LangGraph does not checkpoint the context: a tool reading runtime.context needs it on the resume."""
    def agent_paused(thread):
        agent = create_agent(scripted_model([[tool_call("refund_for_user", {"order_id": "A1024"})], "Done."]),
                             [refund_for_user], context_schema=Customer, checkpointer=InMemorySaver(),
                             middleware=[HumanInTheLoopMiddleware(interrupt_on={"refund_for_user": True})])
        config = {"configurable": {"thread_id": thread}}
        agent.invoke({"messages": [{"role": "user", "content": "refund"}]}, config, context=Customer("user-42"))
        return agent, config

    without = ApprovalEngine(*agent_paused("no-context")).approve()
    assert without.outcome == "error" and "'NoneType' object has no attribute 'user_id'" in without.message
    engine = ApprovalEngine(*agent_paused("context"), context=Customer("user-42"))
    result = engine.approve()
    assert result.outcome == "finished" and tool_messages(result) == [("call_1", "success", "A1024 for user-42")]
    panel = ApprovalPanel(*agent_paused("panel-context"), context=Customer("user-42"))
    assert panel.approve().outcome == "finished"


def test_edit_is_refused_when_the_tool_cannot_be_found():
    engine = paused([refund()])
    engine.tools.clear()
    result = engine.edit('{"order_id": "A1024", "amount": 1}')
    assert result.outcome == "refused" and "cannot find the tool 'submit_refund_request'" in result.message
    assert ApprovalEngine(engine.graph, engine.config, tools=[submit_refund_request]).edit(
        '{"order_id": "A1024", "amount": 1}').outcome == "finished"


def test_per_call_mode_is_answered_by_interrupt_id():
    engine = paused([refund("A1024", 50.0), refund("A1030", 20.0)],
                    {"submit_refund_request": {"allowed_decisions": ["approve", "edit", "reject"]}},
                    interrupt_mode="per_call")
    assert engine.review.kind == "hitl_per_call" and len(engine.pending) == 2
    assert engine.allowed() == ("approve", "edit", "reject")
    assert engine.edit('{"order_id": "A1024", "amount": "x"}').outcome == "refused"
    first = engine.approve()
    assert first.outcome == "paused" and first.sent == {"type": "approve"}
    second = engine.edit('{"order_id": "A1030", "amount": 15}')
    assert second.outcome == "finished"
    assert sorted(RUNS) == [("submit", "A1024", 50.0), ("submit", "A1030", 15.0)]
    assert engine.summary().splitlines() == ["1. submit_refund_request (A1024): approve -> paused",
                                             "2. submit_refund_request (A1030): edit amount 15 -> finished"]


# -- the view ------------------------------------------------------------------------------------


def test_the_view_offers_only_allowed_decisions_and_prefills_the_args():
    panel = paused([refund()], {"submit_refund_request": {"allowed_decisions": ["approve", "edit", "respond"]}},
                   view=ApprovalPanel)
    assert panel.amount_field.layout.display == "none" and panel.args_field.layout.display is None
    assert panel.edit_button.description == "Edit args" and panel.message_field.description == "message:"
    assert panel.args_field.value == '{"order_id": "A1024", "amount": 50.0}'
    assert [b.disabled for b in (panel.approve_button, panel.edit_button, panel.reject_button, panel.respond_button)] \
        == [False, False, True, False]
    assert panel.reject_button.button_style == "" and panel.respond_button.button_style == "info"
    assert "call 1: submit_refund_request" in panel.pending_view.value
    assert "Allowed here: approve, edit, respond" in panel.pending_view.value
    panel.args_field.value = '{"order_id": "A1024", "amount": "many"}'
    panel.edit_button.click()
    assert panel.last.outcome == "refused" and "data-verdict='REFUSED'" in panel.status_view.value
    assert panel.args_field.value == '{"order_id": "A1024", "amount": "many"}'  # the typed text stays
    panel.args_field.value = '{"order_id": "A1024", "amount": 30}'
    panel.edit_button.click()
    assert panel.last.outcome == "finished" and RUNS == [("submit", "A1024", 30.0)]
    assert "data-verdict='FINISHED'" in panel.status_view.value
    assert panel.approve_button.disabled and panel.edit_button.disabled


def test_the_view_walks_through_two_calls():
    panel = paused([refund("A1024", 50.0), refund("A1030", 20.0)], view=ApprovalPanel)
    assert panel.start_over_button.layout.display is None and panel.start_over_button.disabled
    assert "deciding now" in panel.pending_view.value and "waits" in panel.pending_view.value
    panel.approve_button.click()
    assert panel.last.outcome == "staged" and "noted: approve" in panel.pending_view.value
    assert panel.args_field.value == '{"order_id": "A1030", "amount": 20.0}'  # now the second call's args
    assert not panel.start_over_button.disabled
    drawn(panel)  # the page has drawn call 2 as "deciding now"
    panel.message_field.value = "not this one"
    panel.respond_button.click()
    assert panel.last.outcome == "finished" and panel.message_field.value == ""
    assert [d.outcome for d in panel.history] == [PanelOutcome.FINISHED]


def test_a_deep_agent_interrupt_on_pause_is_answered_too():
    """deepagents 0.7.32 appends HumanInTheLoopMiddleware for interrupt_on: the same batched request."""
    from deepagents import create_deep_agent

    model = scripted_model([[tool_call("write_file", {"file_path": "/report.md", "content": "# Report\n"})],
                            "All done."])
    agent = create_deep_agent(model=model, interrupt_on={"write_file": True}, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "deep"}}
    agent.invoke({"messages": [{"role": "user", "content": "Write the report"}]}, config)
    engine = ApprovalEngine(agent, config)
    assert engine.review.kind == "hitl" and engine.current.tool == "write_file"
    refused = engine.edit('{"file_path": "/report.md"}')
    assert refused.outcome == "refused" and "(content: Field required)" in refused.message
    result = engine.edit('{"file_path": "/report.md", "content": "# Edited\\n"}')
    assert result.outcome == "finished"
    assert result.state["files"]["/report.md"]["content"] == "# Edited\n"
