"""Regression tests for the widget defects of issues 8 and 12, one per defect.

Written against the widgets' public methods (``send``, ``run``, ``approve``, ``edit``,
``set_arguments``), which the widgets had before the engine/view split too, so each test can be
run against the old code: each one failed there.
"""

from __future__ import annotations

from typing import Any, TypedDict

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from helpers import scripted_model, tool_call
from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel, ReducerPlayground, YouAreTheModel


def _visible_text(widget: Any) -> str:
    """The HTML/text values of every displayed child widget, in order (hidden ones left out)."""
    widget = getattr(widget, "view", widget)  # before the engine/view split, the widget was in .view
    parts = []
    layout = getattr(widget, "layout", None)
    if layout is not None and getattr(layout, "display", None) == "none":
        return ""
    value = getattr(widget, "value", None)
    if isinstance(value, str):
        parts.append(value)
    for child in getattr(widget, "children", ()):
        parts.append(_visible_text(child))
    return "\n".join(p for p in parts if p)


def _send(widget: YouAreTheModel):
    """Press Send tool call (the method was ``send`` before the engine/view split)."""
    return getattr(widget, "send_tool_call", None)() if hasattr(widget, "send_tool_call") else widget.send()


def _paused(node, thread: str = "t", checkpointer=None) -> ApprovalPanel:
    class Decided(TypedDict, total=False):
        order_id: str
        decision: Any

    builder = StateGraph(Decided)
    builder.add_node("review", node)
    builder.add_edge(START, "review")
    builder.add_edge("review", END)
    graph = builder.compile(checkpointer=checkpointer or InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    graph.invoke({"order_id": "A1029"}, config)
    return ApprovalPanel(graph, config)


# -- SystemExit from learner code ------------------------------------------------------------------


def test_a_tool_that_calls_exit_does_not_end_the_kernel():
    @tool
    def leave(order_id: str) -> str:
        """Leave."""
        raise SystemExit(0)

    widget = YouAreTheModel([leave])
    widget.set_arguments('{"order_id": "A1024"}')
    turn = _send(widget)
    assert turn.outcome == "tool_raised" and turn.error == "SystemExit: 0"


def test_a_reducer_that_calls_exit_does_not_end_the_kernel():
    def leave(current, update):
        raise SystemExit("bye")

    playground = ReducerPlayground({"leave": leave})
    result = playground.run()
    assert result.outcome == "reducer_error"
    assert [run.error for run in result.runs] == ["SystemExit: bye", "SystemExit: bye"]


def test_a_resumed_node_that_calls_exit_does_not_end_the_kernel():
    def review(state):
        interrupt({"order_id": state["order_id"]})
        raise SystemExit(1)

    panel = _paused(review)
    result = panel.approve()
    # The node ran (up to its exit) and the same pause is still pending: an unknown outcome (hostile_1 item 8).
    assert result.outcome == "unknown" and "(SystemExit: 1)" in result.message


# -- YouAreTheModel ------------------------------------------------------------------------------


def test_arguments_nested_950_deep_give_a_message_not_a_stale_view():
    @tool
    def echo(value: list) -> str:
        """Echo."""
        return "echoed"

    widget = YouAreTheModel([echo])
    widget.set_arguments('{"value": []}')
    assert _send(widget).outcome == "ran"
    widget.set_arguments('{"value": ' + "[" * 950 + "]" * 950 + "}")
    turn = _send(widget)
    assert turn.outcome == "refused" and "nests deeper than 100 levels" in turn.summary()
    shown = _visible_text(widget)
    assert "nests deeper than 100 levels" in shown and "echoed" not in shown  # the previous turn is gone


def test_a_lone_surrogate_typed_as_arguments_is_escaped():
    @tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    widget = YouAreTheModel([echo])
    widget.set_arguments('{"text": "\ud800"}')
    assert widget.arguments.value == '{"text": "\\ud800"}'
    widget.arguments.value.encode("utf-8")  # what jupyter_client does before sending it


# -- ApprovalPanel -------------------------------------------------------------------------------


def test_a_refusal_replaces_the_previous_sent_status():
    graph = nb08.build_approval_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "status"}}
    graph.invoke({"items": [{"order_id": "A1024", "amount": 450.0}, {"order_id": "A1030", "amount": 150.0}]}, config)
    panel = ApprovalPanel(graph, config)
    assert panel.approve().outcome == "paused"
    assert "Sent." in _visible_text(panel)
    assert panel.edit("abc").outcome == "refused"
    shown = _visible_text(panel)
    assert "Nothing was sent." in shown
    assert "Sent." not in shown.replace("Nothing was sent.", "")  # one status at a time


def test_a_closed_checkpointer_connection_is_reported_not_paused(tmp_path):
    db = str(tmp_path / "checkpoints.sqlite")
    config = {"configurable": {"thread_id": "sqlite"}}
    with SqliteSaver.from_conn_string(db) as saver:  # notebook 08's pattern
        graph = nb08.build_approval_graph(saver)
        graph.invoke({"items": [{"order_id": "A1024", "amount": 450.0}]}, config)
        panel = ApprovalPanel(graph, config)
        assert panel.last.outcome == "paused"
    result = panel.approve()
    assert result.outcome == "unavailable" and result.sent is None
    assert "Cannot operate on a closed database" in result.message and "connection was closed" in result.message
    assert "paused" not in _visible_text(panel).lower()
    assert panel.approve_button.disabled
    late = ApprovalPanel(graph, config)  # built after the block ended
    assert late.last.outcome == "unavailable" and late.approve().outcome == "unavailable"
    assert "paused" not in _visible_text(late).lower()
    with SqliteSaver.from_conn_string(db) as reopened:  # nothing was sent
        assert nb08.build_approval_graph(reopened).get_state(config).next == ("review",)


def test_an_amount_with_an_underscore_is_invalid():
    graph = nb08.build_approval_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "underscore"}}
    graph.invoke({"items": [{"order_id": "A1024", "amount": 450.0}]}, config)
    panel = ApprovalPanel(graph, config)
    result = panel.edit("1_20")
    assert result.outcome == "refused" and result.sent is None
    assert result.message.startswith("The amount '1_20' is not a number")
    assert graph.get_state(config).next == ("review",)


@pytest.mark.parametrize("amounts", [(100.0, 100.0), (100.0, 200.0)])
def test_one_request_listing_an_order_twice_is_refused_clearly(amounts):
    graph = nb08.build_approval_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "twice"}}
    graph.invoke({"items": [{"order_id": "A1024", "amount": a} for a in amounts]}, config)
    panel = ApprovalPanel(graph, config)
    # On opening, before any click: the reason and the way out, and no decision button to press.
    opened = panel.last
    assert opened.outcome == "unanswerable" and opened.sent is None
    assert "lists order A1024 2 times" in opened.message and "Start a new run" in opened.message
    shown = _visible_text(panel)
    assert "CANNOT ANSWER" in shown and "Start a new run" in shown and "answer the interrupt" not in shown
    assert panel.allowed() == ()
    assert all(button.disabled for button in (panel.approve_button, panel.edit_button, panel.reject_button,
                                              panel.respond_button))
    for attempt in (panel.approve, lambda: panel.edit(50), lambda: panel.reject("duplicate")):
        result = attempt()
        assert result.outcome == "refused" and result.sent is None
        assert "lists order A1024 2 times" in result.message and "Start a new run" in result.message
    snapshot = graph.get_state(config)
    assert snapshot.next == ("review",) and snapshot.interrupts  # still paused, nothing half-done
    assert snapshot.values.get("requests") == []
    assert panel.refresh().outcome == "unanswerable"  # a re-read says the same
    assert all(button.disabled for button in (panel.approve_button, panel.edit_button))


def test_an_order_listed_twice_later_in_the_request_is_named_right_after_the_send():
    """The first pause (A1029) is answerable; the next one asks for A1024, listed twice: the result of the
    approve says so at once, with the way out, instead of a bare 'paused again' beside dead buttons."""
    graph = nb08.build_approval_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "twice-later"}}
    graph.invoke({"items": [{"order_id": o, "amount": 10.0} for o in ("A1029", "A1024", "A1024")]}, config)
    panel = ApprovalPanel(graph, config)
    assert panel.last.outcome == "paused"
    result = panel.approve()
    assert result.outcome == "unanswerable" and result.sent is not None
    assert result.message.startswith("Sent. The run paused again at the next interrupt, which the panel cannot "
                                     "answer. This request lists order A1024 2 times")
    assert "Start a new run" in result.message
    shown = _visible_text(panel)
    assert "CANNOT ANSWER" in shown and "Start a new run" in shown
    assert all(button.disabled for button in (panel.approve_button, panel.edit_button))


def test_a_hitl_pause_gets_a_decisions_list_and_the_thread_is_not_poisoned():
    runs = []

    @tool
    def submit_refund_request(order_id: str, amount: float) -> str:
        """Submit a refund request."""
        runs.append((order_id, amount))
        return f"submitted {order_id}"

    agent = create_agent(scripted_model([[tool_call("submit_refund_request", {"order_id": "A1024", "amount": 50.0})],
                                         "Done."]),
                         [submit_refund_request],
                         middleware=[HumanInTheLoopMiddleware(interrupt_on={"submit_refund_request": True})],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "hitl"}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund A1024"}]}, config)
    panel = ApprovalPanel(agent, config)
    result = panel.approve()
    assert result.sent == {"decisions": [{"type": "approve"}]}
    assert result.outcome == "finished" and runs == [("A1024", 50.0)]


def test_view_reprs_are_one_line_invitations():
    @tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    for widget in (YouAreTheModel([echo]), ReducerPlayground()):
        text = widget._repr_mimebundle_()["text/plain"]
        assert "\n" not in text and "run this cell to open the" in text and "VBox" not in text

