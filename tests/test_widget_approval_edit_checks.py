"""The approval panel's HITL edit and resume checks (hostile test 1, item 8), headless.

* An edited tool call is checked before anything is sent: a JSON object of plain JSON values
  (``json.dumps(..., allow_nan=False)``), the tool's schema validated strictly as JSON, no argument
  the tool does not take, and for an ``amount`` the refund amount rule of the plain-interrupt edit.
* A resume that raises while the same pause stays pending (a checkpoint write that failed after the
  tool ran) is an unknown outcome: the panel says so and sends nothing more until the reviewer has
  checked, so the refund tool never runs twice from the panel.
* ``thread_id=0`` is accepted.

Every agent is ``create_agent(scripted_model(...), [tools], middleware=[HumanInTheLoopMiddleware(...)],
checkpointer=...)`` on the pins (langchain 1.5.2, langgraph 1.2.24); the scripted model is the fixture.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from helpers import scripted_model, tool_call
from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel
from helpers.widgets.engines import ApprovalEngine

#: ``make check NB=10`` (``pytest --notebook 10``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("10")

RUNS: list[tuple[str, object]] = []


@tool
def submit_refund_request(order_id: str, amount: float) -> str:
    """Submit a refund request for an order."""
    RUNS.append((order_id, amount))
    return f"submitted {order_id} {amount}"


@tool
def capped_refund(order_id: str, amount: float = Field(gt=0, le=100)) -> str:
    """Submit a refund of at most 100.00."""
    RUNS.append((order_id, amount))
    return f"submitted {order_id} {amount}"


@tool
def add_note(order_id: str, note: str, count: int = 1) -> str:
    """Add a note to an order (no amount)."""
    RUNS.append((order_id, note))
    return "noted"


class FlakySaver(InMemorySaver):
    """An ``InMemorySaver`` whose writes fail while ``broken`` is set, like a full disk or a dropped database."""

    broken = False

    def put(self, *args, **kwargs):
        if self.broken:
            raise OSError("disk full")
        return super().put(*args, **kwargs)

    def put_writes(self, *args, **kwargs):
        if self.broken:
            raise OSError("disk full")
        return super().put_writes(*args, **kwargs)


def paused(tool_=submit_refund_request, args=None, *, view=ApprovalEngine, saver=None, thread="edit"):
    RUNS.clear()
    args = {"order_id": "A1024", "amount": 50.0} if args is None else args
    agent = create_agent(scripted_model([[tool_call(tool_.name, args)], "Done.", "Done again."]), [tool_],
                         middleware=[HumanInTheLoopMiddleware(interrupt_on={tool_.name: True})],
                         checkpointer=saver or InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund A1024, please"}]}, config)
    return view(agent, config)


def refused_and_untouched(engine, result, expected: str) -> None:
    assert result.outcome == "refused" and result.sent is None, result.message
    assert expected in result.message and result.message.endswith("Nothing was sent.")
    assert engine.history == [] and RUNS == []
    assert engine.approve().outcome == "finished"  # the pause still takes a correct answer
    assert RUNS == [("A1024", 50.0)]  # one refund request: the approved original


# -- the edited arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(("edit", "expected"), [
    ('{"order_id": "A1024", "amount": NaN}', 'args["amount"] is NaN: JSON has no NaN or Infinity'),
    ('{"order_id": "A1024", "amount": Infinity}', 'args["amount"] is Infinity'),
    ('{"order_id": "A1024", "amount": -Infinity}', 'args["amount"] is -Infinity'),
    ({"order_id": "A1024", "amount": float("nan")}, 'args["amount"] is NaN'),
    ('{"order_id": "A1024", "amount": true}', "(amount: Input should be a valid number)"),
    ('{"order_id": "A1024", "amount": "50"}', "(amount: Input should be a valid number)"),
    ('{"order_id": "A1024", "amount": -5}', "The edited amount is not a refund amount: The amount must be more than 0"),
    ('{"order_id": "A1024", "amount": 0}', "must be more than 0"),
    ('{"order_id": "A1024", "amount": 12.345}', "has more than 2 decimals"),
    ('{"order_id": "A1024", "amount": 5, "evil": "x"}',
     "evil: not an argument of this tool (it takes: amount, order_id)"),
    ({"order_id": "A1024", "amount": 5.0, "x": lambda: 1}, 'args["x"] is a function, not a JSON value'),
    ({"order_id": "A1024", "amount": 5.0, "x": {1, 2}}, 'args["x"] is a set'),
    ({"order_id": "A1024", "amount": Decimal("5.5")}, 'args["amount"] is a Decimal'),
    ({"order_id": "A1024", "amount": 5.0, 1: "x"}, "has the key 1 (int): JSON keys are text"),
    ({"order_id": "A1024", "amount": 10 ** 5000}, 'args["amount"] is an int with too many digits'),
])
def test_an_edit_that_is_not_a_valid_refund_call_is_refused_before_anything_is_sent(edit, expected):
    engine = paused()
    refused_and_untouched(engine, engine.edit(edit), expected)


def test_an_edit_with_a_lambda_never_runs_the_tool_twice():
    """Before: the resume ran the tool, the checkpoint write failed (msgpack), the pause stayed, and the
    next approve ran it again: two refund requests."""
    engine = paused()
    first = engine.edit({"order_id": "A1024", "amount": 5.0, "x": lambda: 1})
    assert first.outcome == "refused" and RUNS == []
    assert engine.refresh().outcome == "paused"
    assert engine.approve().outcome == "finished"
    assert RUNS == [("A1024", 50.0)]


def test_the_view_refuses_the_same_edits():
    panel = paused(view=ApprovalPanel)
    result = panel.edit('{"order_id": "A1024", "amount": NaN}')
    assert result.outcome == "refused" and "data-outcome='refused'" in panel.status_view.value
    assert panel.edit({"order_id": "A1024", "amount": 5.0, "x": lambda: 1}).outcome == "refused"
    assert RUNS == []


def test_a_good_edit_is_sent_as_plain_json_with_the_amount_in_cents():
    engine = paused()
    result = engine.edit({"order_id": "A1024", "amount": 0.1 + 0.2})
    assert result.outcome == "finished"
    assert result.sent["decisions"][0]["edited_action"]["args"] == {"order_id": "A1024", "amount": 0.3}
    assert RUNS == [("A1024", 0.3)]


def test_an_integer_amount_is_a_number():
    engine = paused()
    assert engine.edit('{"order_id": "A1024", "amount": 10}').outcome == "finished"
    assert RUNS == [("A1024", 10.0)]


@pytest.mark.parametrize(("amount", "expected"), [
    ("150", "(amount: Input should be less than or equal to 100)"),  # the schema's own constraint
    ("0.001", "has more than 2 decimals"),  # the refund amount rule on top of it
])
def test_a_schema_with_its_own_amount_constraints_is_checked_too(amount, expected):
    engine = paused(capped_refund)
    result = engine.edit('{"order_id": "A1024", "amount": ' + amount + "}")
    assert result.outcome == "refused" and expected in result.message and RUNS == []
    assert engine.edit('{"order_id": "A1024", "amount": 99.5}').outcome == "finished"
    assert RUNS == [("A1024", 99.5)]


def test_a_tool_without_an_amount_gets_only_the_schema_and_json_checks():
    engine = paused(add_note, {"order_id": "A1024", "note": "hi"})
    assert engine.edit('{"order_id": "A1024", "note": "x", "count": 1.5}').outcome == "refused"  # not an integer
    assert engine.edit('{"order_id": "A1024", "note": "x", "count": 0}').outcome == "finished"
    assert RUNS == [("A1024", "x")]


# -- a resume whose outcome is unknown -------------------------------------------------------------


def test_a_failed_checkpoint_write_is_an_unknown_outcome_and_is_not_sent_again():
    """Before: outcome "error", then refresh said "paused" and the next approve ran the tool again."""
    saver = FlakySaver()
    engine = paused(saver=saver)
    saver.broken = True
    result = engine.approve()
    saver.broken = False
    assert RUNS == [("A1024", 50.0)]  # the tool ran before the write failed
    assert result.outcome == "unknown" and result.sent == {"decisions": [{"type": "approve"}]}
    assert "(OSError: disk full)" in result.message and "the tool may have run; check the state" in result.message
    assert engine.history[-1].outcome == "unknown"
    assert engine.refresh().outcome == "unknown"
    for again in (engine.approve(), engine.edit('{"order_id": "A1024", "amount": 5}'), engine.reject("dup")):
        assert again.outcome == "refused" and again.sent is None
        assert "unknown outcome" in again.message and again.message.endswith("Nothing was sent.")
    assert RUNS == [("A1024", 50.0)] and len(engine.history) == 1  # one refund request only
    # The reviewer checked: the refund exists, so the call is answered without running the tool again.
    checked = engine.start_over()
    assert checked.outcome == "paused" and checked.message.startswith("You checked the state")
    assert engine.respond("Already submitted: see the refund requests.").outcome == "finished"
    assert RUNS == [("A1024", 50.0)]


def test_the_view_says_the_outcome_is_unknown_and_offers_only_start_over():
    saver = FlakySaver()
    panel = paused(view=ApprovalPanel, saver=saver)
    saver.broken = True
    panel.approve()
    saver.broken = False
    assert "data-outcome='unknown'" in panel.status_view.value and "OUTCOME UNKNOWN" in panel.status_view.value
    assert "the tool may have run; check the state" in panel.status_view.value
    assert panel.approve_button.disabled and panel.edit_button.disabled and panel.reject_button.disabled
    assert not panel.start_over_button.disabled and panel.start_over_button.layout.display is None
    panel.start_over()
    assert not panel.approve_button.disabled and panel.start_over_button.disabled
    assert RUNS == [("A1024", 50.0)]


def test_a_resume_that_fails_and_moves_on_is_an_error_that_says_what_the_checkpoint_shows():
    """The write of the resume value failed, but later steps were saved: the run finished."""
    class ResumeWriteFails(InMemorySaver):
        def put_writes(self, config, writes, task_id, task_path=""):
            if any(channel == "__resume__" for channel, _ in writes):
                raise OSError("resume not saved")
            return super().put_writes(config, writes, task_id, task_path)

    engine = paused(saver=ResumeWriteFails())
    result = engine.approve()
    assert result.outcome == "error" and result.message.startswith("OSError: resume not saved")
    assert "The checkpoint shows the run finished: the tool may have run; check the state." in result.message
    assert RUNS == [("A1024", 50.0)] and engine.refresh().outcome == "finished"


# -- thread ids ------------------------------------------------------------------------------------


def test_thread_id_0_is_accepted_and_the_config_is_not_changed():
    graph = nb08.build_approval_graph(InMemorySaver())
    config = {"configurable": {"thread_id": 0}}
    graph.invoke({"items": [{"order_id": "A1024", "amount": 100.0}]}, config)
    engine = ApprovalEngine(graph, config)  # before: ValueError "needs a thread_id"
    assert config == {"configurable": {"thread_id": 0}}  # get_state would have written "0" into it
    # LangGraph 1.2.24 itself cannot read this run back: it is saved under 0 and read as "0".
    assert graph.get_state({"configurable": {"thread_id": 0}}).interrupts == ()
    assert engine.last.outcome == "not_started" and "give the thread a text id, e.g. '0'" in engine.last.message


def test_a_number_thread_id_that_langgraph_reads_back_works_end_to_end():
    graph = nb08.build_approval_graph(InMemorySaver())
    config = {"configurable": {"thread_id": 7}}
    graph.invoke({"items": [{"order_id": "A1024", "amount": 100.0}]}, config)
    panel = ApprovalPanel(graph, config)
    assert panel.last.outcome == "paused" and "thread <code>7</code>" in panel.header.value
    assert panel.approve().outcome == "finished"


@pytest.mark.parametrize("config", [{}, None, {"configurable": {}}, {"configurable": {"thread_id": None}},
                                    {"configurable": {"thread_id": ""}}, {"configurable": {"thread_id": "  "}},
                                    {"configurable": "t"}])
def test_no_thread_id_is_refused(config):
    with pytest.raises(ValueError, match="needs a config with a thread_id"):
        ApprovalEngine(nb08.build_approval_graph(InMemorySaver()), config)
