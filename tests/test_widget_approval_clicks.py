"""The approval panel under double and triple clicks (issue 27, part 4) and its texts (issue 29), headless.

In JupyterLab (Chromium, two CPU-bound processes beside it) a double click decided the second gated
call for the learner: the kernel answered the first click and the page drew call 2 before the
browser dispatched the second click, which then approved (or rejected) a call no one reviewed. In
12, after a double click that did approve, the status said REFUSED "Nothing was sent". The fix: a
click in the page carries the render it was made on (the panel's page part,
``helpers/widgets/page_clicks.js``; the second and third clicks of one gesture carry the render
of its first), and the engine answers each render at most once. These tests send the page part's
messages (``tests/approval_suite.Page``), the path a click in JupyterLab takes; the browser tests
(``test_lab_browser_08.py``, ``_10.py``) click for real.
"""

from __future__ import annotations

import json
import re

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from helpers import scripted_model, tool_call
from helpers.widgets import ApprovalPanel
from helpers.widgets.engines.approval import UNKNOWN_RENDER, SentDecision, decision_text
from tests.approval_suite import EFFECTS, SETUPS, Page, submit_refund_request

DECISIONS = ("approve", "edit", "reject", "respond")
#: Repeats of each double and triple click per decision button (the browser test clicks fewer, for real).
REPEATS = 30


def _refund(order_id: str, amount: float = 100.0):
    return tool_call("submit_refund_request", {"order_id": order_id, "amount": amount})


def _agent(script, thread: str, tools=(submit_refund_request,), gate=None, strict: bool = True):
    EFFECTS.clear()
    names = [t.name for t in tools]
    agent = create_agent(scripted_model(script, strict_tool_names=strict), list(tools),
                         middleware=[HumanInTheLoopMiddleware(gate or {name: True for name in names})],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund them."}]}, config)
    return agent, config


def _fields(panel, decision: str) -> dict:
    """What a learner has typed before clicking ``decision`` on the call shown now."""
    if decision == "edit":
        return {"args": json.dumps({**panel.current.args, "amount": 40.0})}
    if decision in ("reject", "respond"):
        return {"message": "checked by hand"}
    return {}


def _status_outcome(panel) -> str:
    return re.search(r"class='course-status' data-tone='\w+' data-outcome='(\w+)'", panel.status_view.value).group(1)


# -- the engine numbers what it shows ----------------------------------------------------------------------------


def test_each_new_thing_to_decide_gets_a_new_render_and_a_refresh_keeps_it():
    agent, config = _agent([[_refund("A1024"), _refund("A1030", 50.0)], "Done."], "numbers")
    panel = ApprovalPanel(agent, config)
    first = panel.engine.render
    assert panel.clicks.render == first and f"data-render='{first}'" in panel.pending_view.value
    panel.refresh()
    assert panel.engine.render == first  # the same call is decided next: the same render
    panel.edit("not json")
    assert panel.engine.render == first  # a refusal changes nothing on the page's side
    panel.approve()
    assert panel.engine.render == first + 1 and panel.clicks.render == first + 1  # call 2 now
    panel.start_over()
    assert panel.engine.render == first + 2  # call 1 again, after Start over: a new render


# -- double and triple clicks on every decision button -------------------------------------------------------------


@pytest.mark.parametrize("clicks", [2, 3])
@pytest.mark.parametrize("decision", DECISIONS)
def test_repeated_clicks_without_start_over_answer_each_pause_once(decision, clicks):
    """REPEATS pauses one after the other; each gets a double or triple click; one decision is sent per pause."""
    script = [[_refund(f"A{1000 + n}")] for n in range(REPEATS)] + ["Done."]
    agent, config = _agent(script, f"{decision}-{clicks}")
    panel = ApprovalPanel(agent, config)
    page = Page(panel)
    for n in range(REPEATS):
        order = f"A{1000 + n}"
        assert panel.current.args["order_id"] == order
        before = dict(EFFECTS)
        last = page.draw().click(decision, clicks=clicks, **_fields(panel, decision))
        assert len(panel.history) == n + 1, panel.last.message
        assert panel.history[-1].resume["decisions"][0]["type"] == decision
        ran = {key: count - before.get(key, 0) for key, count in EFFECTS.items() if count != before.get(key, 0)}
        expected = {("submit", order, 40.0 if decision == "edit" else 100.0): 1} if decision in ("approve", "edit") \
            else {}
        assert ran == expected, (n, ran)
        # The later clicks of the gesture sent nothing and said so; the status still says what the first did.
        assert last.stale and last.outcome == "refused" and last.sent is None
        assert f"call 1: submit_refund_request, which an earlier click already answered (call 1 ({order}): " \
               f"{decision}" in last.message
        assert _status_outcome(panel) == ("finished" if n == REPEATS - 1 else "paused")
        assert "REFUSED" not in panel.status_view.value and "course-stale" in panel.status_view.value
    assert panel.last.stale and panel.engine.standing.outcome == "finished"
    assert all(count == 1 for count in EFFECTS.values())


@pytest.mark.parametrize("clicks", [2, 3])
@pytest.mark.parametrize("decision", DECISIONS)
def test_repeated_clicks_after_start_over_note_only_the_call_shown(decision, clicks):
    """Two gated calls: a double or triple click notes call 1 only, REPEATS times, with Start over between."""
    agent, config = _agent([[_refund("A1024"), _refund("A1030", 50.0)], "Done."], f"so-{decision}-{clicks}")
    panel = ApprovalPanel(agent, config)
    page = Page(panel)
    for _ in range(REPEATS):
        last = page.draw().click(decision, clicks=clicks, **_fields(panel, decision))
        assert len(panel.engine.staged) == 1 and panel.engine.staged[0]["type"] == decision
        assert panel.current.position == 2 and panel.history == [] and EFFECTS == {}
        assert last.stale and "already answered" in last.message and _status_outcome(panel) == "staged"
        assert "noted: " + decision in panel.pending_view.value
        panel.start_over_button.click()
        assert panel.engine.staged == [] and panel.current.position == 1
        # A click still queued from before Start over answers nothing.
        stale = page.click(decision, **_fields(panel, decision))
        assert stale.stale and panel.engine.staged == [] and panel.history == []
    # Call 1 then call 2, each clicked once on what is shown: both decisions go out together, once.
    page.draw().click("approve")
    page.draw().click("approve", clicks=clicks)
    assert [d.resume for d in panel.history] == [{"decisions": [{"type": "approve"}, {"type": "approve"}]}]
    assert dict(EFFECTS) == {("submit", "A1024", 100.0): 1, ("submit", "A1030", 50.0): 1}


@pytest.mark.parametrize("name", ["hitl_batched", "hitl_per_call", "plain_create_agent", "deep_agent"])
def test_a_double_click_on_every_kind_of_pause_answers_it_once(name):
    setup = SETUPS[name]()
    panel = ApprovalPanel(setup.graph, setup.config)
    page = Page(panel)
    last = page.click("approve", clicks=2)
    assert len(panel.history) == 1 and last.stale and _status_outcome(panel) == "paused"
    last = page.draw().click("approve", clicks=3)
    assert len(panel.history) == 2 and last.stale and _status_outcome(panel) == "finished"
    assert all(count == 1 for count in setup.effects().values())


def test_a_double_click_that_approved_a_single_call_says_finished_not_refused():
    """12: after a double click that did approve, the panel said REFUSED 'Nothing was sent'."""
    from deepagents import create_deep_agent

    agent = create_deep_agent(model=scripted_model([[tool_call("write_file", {"file_path": "/policies/r.md",
                                                                              "content": "14 days.\n"})], "Saved."]),
                              interrupt_on={"write_file": True}, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "policy"}}
    agent.invoke({"messages": [{"role": "user", "content": "Save it."}]}, config)
    panel = ApprovalPanel(agent, config)
    Page(panel).click("approve", clicks=2)
    status = panel.status_view.value
    assert _status_outcome(panel) == "finished" and "data-verdict='FINISHED'" in status
    assert "REFUSED" not in status and "Sent. The run finished" in status
    assert "This approve was made on call 1: write_file, which an earlier click already answered " \
           "(call 1 (/policies/r.md): approve -&gt; finished); it sent nothing." in status
    assert agent.get_state(config).values["files"]["/policies/r.md"]["content"] == "14 days.\n"


# -- a render the panel no longer shows --------------------------------------------------------------------------


@pytest.mark.parametrize("render", [0, -5, 10**6, UNKNOWN_RENDER])
def test_a_click_carrying_a_render_the_panel_does_not_show_sends_nothing(render):
    agent, config = _agent([[_refund("A1024")], "Done."], f"stale-{render}")
    panel = ApprovalPanel(agent, config)
    result = panel.on_page_message({"event": "action", "action": "approve", "render": render, "clicks": 1,
                                    "fields": {}})
    assert result.outcome == "refused" and result.stale and result.sent is None
    assert panel.history == [] and EFFECTS == {} and panel.current is not None
    expected = "did not say which request it showed" if render == UNKNOWN_RENDER else "The run moved on"
    assert expected in result.message and result.message.endswith("Nothing was sent.")
    assert _status_outcome(panel) == "paused"  # what the run does; the note under it says why nothing went


def test_a_bare_click_from_the_page_is_refused_but_a_click_from_code_answers_what_is_shown():
    """Without the page part (anywidget not loaded) a click cannot say what was shown: nothing is sent."""
    agent, config = _agent([[_refund("A1024")], "Done."], "bare")
    panel = ApprovalPanel(agent, config)
    panel.approve_button._handle_button_msg(panel.approve_button, {"event": "click"}, [])
    assert panel.last.outcome == "refused" and "did not say which request it showed" in panel.last.message
    assert panel.history == [] and EFFECTS == {}
    panel.approve_button.click()  # from code: the render the panel shows now
    assert panel.last.outcome == "finished" and dict(EFFECTS) == {("submit", "A1024", 100.0): 1}


@pytest.mark.parametrize("content", [None, "approve", [], {"event": "click"}, {"event": "action"},
                                     {"event": "action", "action": "launch", "render": 1},
                                     {"event": "action", "action": "approve", "render": "1"},
                                     {"event": "action", "action": "approve", "render": True},
                                     {"event": "action", "action": "approve", "render": 1.0}])
def test_a_message_that_is_not_a_decision_is_ignored(content):
    agent, config = _agent([[_refund("A1024")], "Done."], "odd")
    panel = ApprovalPanel(agent, config)
    assert panel.on_page_message(content) is None
    assert panel.history == [] and panel.engine.staged == [] and panel.last.outcome == "paused"


def test_what_the_page_had_typed_is_what_is_sent():
    """The fields' text comes with the click: a field update that reaches the kernel late cannot change it."""
    agent, config = _agent([[_refund("A1024")], "Done."], "typed")
    panel = ApprovalPanel(agent, config)
    panel.args_field.value = '{"order_id": "A1024", "amount": 10.0}'  # an older sync of the field
    Page(panel).click("edit", args='{"order_id": "A1024", "amount": 30.0}', message="", amount="")
    assert dict(EFFECTS) == {("submit", "A1024", 30.0): 1}


# -- what the panel shows --------------------------------------------------------------------------------------


def test_an_edited_calls_failure_reason_is_shown_whole_and_escaped():
    """The reason came after HumanInTheLoopMiddleware's note and was cut: '... (206 more characters)'."""

    @tool
    def submit_refund_request(order_id: str, amount: float) -> str:
        """Submit a refund request for an order."""
        raise ValueError(f"order {order_id} is not <yours>: ask the customer for the right order id")

    from langchain.agents.middleware import wrap_tool_call
    from langchain_core.messages import ToolMessage

    @wrap_tool_call
    def errors_as_messages(request, handler):
        try:
            return handler(request)
        except ValueError as exc:
            return ToolMessage(f"Error: {exc}", tool_call_id=request.tool_call["id"], status="error")

    agent = create_agent(scripted_model([[_refund("A1024")], "Sorry."]), [submit_refund_request],
                         middleware=[HumanInTheLoopMiddleware({"submit_refund_request": True}), errors_as_messages],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "reason"}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund it."}]}, config)
    panel = ApprovalPanel(agent, config)
    result = panel.edit({"order_id": "A9999", "amount": 40.0})
    assert result.outcome == "finished"
    status = panel.status_view.value
    assert "more characters" not in status
    assert "order A9999 is not &lt;yours&gt;: ask the customer for the right order id" in status
    assert "<yours>" not in status


def test_a_hostile_tool_name_is_escaped_in_every_part_of_the_panel():
    """A model can name any tool in a call; the name went into the whole-arguments HTML unescaped."""
    name = "<img src=x onerror=alert(1)>"
    agent, config = _agent([[tool_call(name, {"text": "x" * 5000})], "Done."], "hostile",
                           gate={name: True, "submit_refund_request": True}, strict=False)
    panel = ApprovalPanel(agent, config)
    assert panel.whole_args_view.value  # the arguments are cut in the list, so the whole-arguments part is there
    for view in (panel.header, panel.pending_view, panel.whole_args_view, panel.status_view, panel.history_view):
        assert "<img" not in view.value, view.value[:300]
    assert "call 1: &lt;img src=x onerror=alert(1)&gt;: 1,012 of 5,012 characters" in panel.whole_args_view.value
    assert panel.reject("no").outcome == "finished"
    for view in (panel.pending_view, panel.whole_args_view, panel.status_view, panel.history_view):
        assert "<img" not in view.value, view.value[:300]


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_a_reject_without_a_message_is_listed_as_reject_not_null(mode):
    """Issue 29: the history showed 'reject null' for a reject sent without a message."""
    EFFECTS.clear()
    agent = create_agent(scripted_model([[_refund("A1024")], "Done."]), [submit_refund_request],
                         middleware=[HumanInTheLoopMiddleware({"submit_refund_request": True}, interrupt_mode=mode)],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "no-message"}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund it."}]}, config)
    panel = ApprovalPanel(agent, config)
    panel.reject("")
    assert "null" not in panel.history_view.value and "null" not in panel.summary()
    expected = "call 1 (A1024): reject -&gt; finished" if mode == "batched" else \
        "submit_refund_request (A1024): reject -&gt; finished"
    assert expected in panel.history_view.value
    assert decision_text({"type": "reject"}) == "reject"
    assert decision_text({"type": "reject", "message": "photo"}) == 'reject "photo"'
    assert SentDecision({"order_id": "A1"}, {"type": "reject", "reason": "x"}, "finished").line() == \
        'A1: {"type": "reject", "reason": "x"} -> finished'


# -- a refused click changes no field --------------------------------------------------------------------------


def test_the_late_click_of_a_double_click_leaves_the_next_calls_fields_as_the_first_click_left_them():
    """The second click of a double click on Edit args (or Reject) carried the text typed for call 1; it was
    refused, but the panel first wrote that text into its field, so call 2 showed call 1's edited arguments
    (order A1000) and the reason typed for call 1: one more Edit click would have refunded A1000 again."""
    agent, config = _agent([[_refund("A1000")], [_refund("A1001")], [_refund("A1002")], "Done."], "late-fields")
    panel = ApprovalPanel(agent, config)
    page = Page(panel)
    edited = json.dumps({"order_id": "A1000", "amount": 40.0})
    last = page.draw().click("edit", clicks=2, args=edited, message="")
    assert last.stale and dict(EFFECTS) == {("submit", "A1000", 40.0): 1}
    assert panel.current.args["order_id"] == "A1001"
    assert json.loads(panel.args_field.value) == panel.current.args  # call 2's own arguments
    page.draw().click("edit")  # Edit args on what the field shows now: call 2 as it is
    assert dict(EFFECTS) == {("submit", "A1000", 40.0): 1, ("submit", "A1001", 100.0): 1}
    last = page.draw().click("reject", clicks=3, message="too much")
    assert last.stale and panel.history[-1].resume["decisions"][0] == {"type": "reject", "message": "too much"}
    assert panel.message_field.value == ""  # the reason typed for call 3 is not offered for what comes next



@pytest.mark.parametrize("fields", [[1], "args", {"args": 5}, {"args": {"order_id": "A1024"}}, {"message": ["x"]},
                                    {"amount": 40.0}])
def test_a_decision_whose_fields_cannot_be_read_sends_nothing(fields):
    """An edit whose fields could not be read sent the args field's own copy (the call unchanged)."""
    agent, config = _agent([[_refund("A1024")], "Done."], "unreadable")
    panel = ApprovalPanel(agent, config)
    for decision in ("edit", "approve", "reject"):
        result = panel.on_page_message({"event": "action", "action": decision, "render": panel.clicks.render,
                                        "clicks": 1, "fields": fields})
        assert result.outcome == "refused" and result.sent is None and "could not be read" in result.message
    assert panel.history == [] and EFFECTS == {} and panel.current is not None
    assert _status_outcome(panel) == "refused" and "could not be read" in panel.status_view.value
