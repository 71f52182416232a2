"""Every widget view and history entry is bounded (hostile test 1, item 7), headless.

Each test feeds a widget one huge value (a reducer result, an object's repr, typed tool-call
arguments, an error message, an interrupt payload field) and measures the HTML the view sends to the
browser. The sizes the same inputs gave before the fix (main at 5761faa) are in each test's
docstring; the bound asserted is :data:`VIEW_BOUND`, well above what a few cut values take once
escaped for HTML and far below what one uncut value takes.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from helpers import scripted_model, tool_call
from helpers.widgets import ApprovalPanel, ReducerPlayground, YouAreTheModel
from helpers.widgets.text import MAX_SHOWN, error_text, json_text, shorten, value_text

#: The most characters one widget view may hold in these tests: a few values cut at MAX_SHOWN
#: characters each, escaped for HTML (at most 6 characters per character), plus the markup.
VIEW_BOUND = 60_000


def html_sizes(widget: Any) -> dict[str, int]:
    """``{attribute: len(value)}`` for every HTML/text control the widget keeps as an attribute."""
    return {name: len(child.value) for name, child in vars(widget).items()
            if hasattr(child, "value") and isinstance(getattr(child, "value", None), str)}


def assert_bounded(widget: Any) -> dict[str, int]:
    sizes = html_sizes(widget)
    too_big = {name: size for name, size in sizes.items() if size > VIEW_BOUND}
    assert not too_big, f"views above {VIEW_BOUND:,} characters: {too_big}"
    return sizes


# -- the shared shortening -------------------------------------------------------------------------


def test_shorten_counts_what_it_left_out_or_says_where_it_cut():
    assert shorten("abc", 5) == "abc"
    assert shorten("x" * 10, 4) == "xxxx... (6 more characters)"
    assert shorten("x" * 10, 4, complete=False) == "xxxx... (cut at 4 characters)"
    assert shorten("x" * 10, None) == "x" * 10


SMALL_VALUES = [
    [1, "é", None, True, 2.5], {"a": [1, {"b": None}], "c": {}}, "text", 7, [], {},
    [{"key": "refund-A1024", "event": "requested"}, {"key": "refund-A1030", "event": "approved"}],
]


@pytest.mark.parametrize("value", SMALL_VALUES)
def test_a_small_json_value_is_shown_exactly_as_json_dumps_writes_it(value):
    """The committed notebook outputs (02, 07, 08) show such values: they must not change."""
    assert value_text(value) == json.dumps(value, ensure_ascii=False)
    assert json_text(value) == json.dumps(value, ensure_ascii=False)
    assert json_text(value, indent=2) == json.dumps(value, ensure_ascii=False, indent=2)


def _python_values() -> list[Any]:
    looped: list = [1]
    looped.append(looped)
    mapping: dict = {"k": 1}
    mapping["self"] = mapping
    return [(1,), (), (1, "a"), {1, 2}, set(), frozenset({3}), frozenset(), {1: "x", (1, 2): [3.5]},
            looped, mapping, [(looped,)], [b"bytes", 1j, None], "it's"]


@pytest.mark.parametrize("value", _python_values(), ids=repr)
def test_a_small_python_value_is_shown_exactly_as_repr_writes_it(value):
    assert value_text(value, prefer_json=False) == repr(value)


def test_a_huge_list_is_cut_without_turning_every_item_into_text():
    """Before: ``repr`` of the whole list, one ``__repr__`` call per item (100,000) and 2 MB of text."""
    calls = []

    class Receipt:
        def __repr__(self):
            calls.append(1)
            return "<Receipt r-001>"

    text = value_text([Receipt()] * 100_000)
    assert text.endswith(f"... (cut at {MAX_SHOWN:,} characters)") and len(text) < MAX_SHOWN + 100
    assert len(calls) < 300, f"{len(calls):,} reprs built for a text of {MAX_SHOWN:,} characters"
    assert json_text([Receipt()] * 100_000).endswith(f"... (cut at {MAX_SHOWN:,} characters)")


def test_huge_json_is_cut_lazily():
    """Before: ``json.dumps`` of [row] * 200,000 built 52 MB of text first; now the encoder stops at the cut."""
    import tracemalloc

    rows = [[{"key": "refund-A1024", "event": "requested"}]] * 200_000
    tracemalloc.start()
    try:
        text = value_text(rows)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert text.startswith('[[{"key": "refund-A1024"') and len(text) < MAX_SHOWN + 100
    assert peak < 2_000_000, f"peak {peak:,} bytes"


def test_values_text_cannot_show_stays_short():
    assert value_text(10 ** 5000) == "<an int of about 5,001 digits>"
    deep: list = []
    for _ in range(500):
        deep = [deep]
    assert value_text(deep, prefer_json=False) == "<a value nested too deeply to show>"
    assert len(error_text(ValueError("x" * 1_000_000))) < MAX_SHOWN + 100


# -- ReducerPlayground -----------------------------------------------------------------------------


def test_a_reducer_returning_a_huge_list_gives_a_bounded_view():
    """Before: result_view 52,802,242 characters for ``[a] * 200_000``."""
    playground = ReducerPlayground({"huge": lambda a, b: [a] * 200_000})
    result = playground.run()
    assert result.outcome == "differ"
    sizes = assert_bounded(playground)
    assert sizes["result_view"] < 20_000
    assert result.summary().count("... (cut at 4,000 characters)") == 2 and len(result.summary()) < 3 * MAX_SHOWN


def test_a_reducer_returning_an_object_with_a_huge_repr_gives_a_bounded_view():
    """Before: result_view 6,002,143 characters (1.8 M characters of repr, escaped)."""
    class Loud:
        def __repr__(self):
            return "<script>x</script>" * 100_000

    playground = ReducerPlayground({"obj": lambda a, b: Loud()})
    result = playground.run()
    sizes = assert_bounded(playground)
    assert sizes["result_view"] < 6 * 2 * MAX_SHOWN + 10_000
    assert "<script>" not in playground.result_view.value  # escaped, as before
    assert "... (cut at 4,000 characters)" in playground.result_view.value
    assert result.outcome == "agree"  # the whole reprs are compared, not the cut ones


def test_two_values_that_differ_only_after_the_cut_still_differ():
    class Tail:
        def __init__(self, end):
            self.end = end

        def __repr__(self):
            return "x" * 10_000 + self.end

    playground = ReducerPlayground({"tail": lambda a, b: Tail(json.dumps(b))})
    assert playground.run().outcome == "differ"


# -- YouAreTheModel --------------------------------------------------------------------------------


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id[:10]}"


@tool
def explode(order_id: str) -> str:
    """Raise with a long message."""
    raise ValueError("no such order: " + order_id)


@pytest.mark.parametrize(("arguments", "outcome"), [
    ('{"order_id": "' + "x" * 2_000_000 + '"}', "ran"),
    ('{"order_id": "' + "x" * 2_000_000 + '"', "invalid_json"),  # the invalid_tool_calls line echoes the text
])
def test_two_megabytes_of_typed_arguments_give_a_bounded_reply(arguments, outcome):
    """Before: reply_view 2,004,821 characters (the tool_calls / invalid_tool_calls line was not cut)."""
    widget = YouAreTheModel([lookup_order])
    widget.set_arguments(arguments)
    turn = widget.send_tool_call()
    assert turn.outcome == outcome
    assert turn.arguments == arguments  # what was typed is kept whole; only what is shown is cut
    sizes = html_sizes(widget)
    del sizes["arguments"]  # the learner's own input box holds what they typed
    assert max(sizes.values()) < 20_000, sizes
    line = turn.summary().splitlines()[0]
    assert line.startswith("AIMessage.") and "... (cut at 4,000 characters)" in line and len(line) < MAX_SHOWN + 200


def test_a_tool_error_with_a_huge_message_gives_a_bounded_reply():
    """Before: the "The run stopped: ..." line held the whole message (1 MB)."""
    widget = YouAreTheModel([explode])
    widget.set_arguments(json.dumps({"order_id": "y" * 1_000_000}))
    turn = widget.send_tool_call()
    assert turn.outcome == "tool_raised"
    assert len(turn.summary()) < 3 * MAX_SHOWN and len(widget.reply_view.value) < 20_000


# -- ApprovalPanel ---------------------------------------------------------------------------------


class Review(TypedDict, total=False):
    x: int


def _panel_paused_at(payload: Any, thread: str) -> ApprovalPanel:
    """A panel on a one-node graph paused at ``interrupt(payload)``."""
    def node(state):
        interrupt(payload)
        return {}

    builder = StateGraph(Review)
    builder.add_node("review", node)
    builder.add_edge(START, "review")
    builder.add_edge("review", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    graph.invoke({"x": 1}, config)
    return ApprovalPanel(graph, config)


def test_a_huge_interrupt_payload_field_is_cut_in_the_pending_and_history_views():
    """Before: pending_view 500,406 characters, then history_view 200,171 after the approval."""
    panel = _panel_paused_at({"order_id": "A" * 200_000, "amount": 1.0, "refundable": 5.0,
                              "note": "<script>x</script>" * 10_000}, "huge")
    sizes = assert_bounded(panel)
    assert sizes["pending_view"] < 30_000
    assert "amount: 1.0" in panel.pending_view.value and "refundable: 5.0" in panel.pending_view.value
    assert panel.approve().outcome == "finished"
    sizes = assert_bounded(panel)
    assert sizes["history_view"] < 2_000
    assert len(panel.summary()) < 400
    assert panel.summary().endswith('... (199,800 more characters): {"type": "approve"} -> finished')


def test_a_payload_with_many_keys_lists_the_first_ones():
    panel = _panel_paused_at({f"field_{i}": i for i in range(5_000)}, "keys")
    assert "... and 4,980 more keys" in panel.pending_view.value and len(panel.pending_view.value) < 5_000


@tool
def submit_refund_request(order_id: str, amount: float) -> str:
    """Submit a refund request for an order."""
    return f"submitted {order_id[:10]} {amount}"


def test_a_hitl_call_with_a_huge_argument_is_cut_in_every_view():
    """Before: pending_view and the args field held the whole 200,000-character argument, history_view too."""
    huge_call = tool_call("submit_refund_request", {"order_id": "B" * 200_000, "amount": 5.0})
    agent = create_agent(scripted_model([[huge_call], "Done."]),
                         [submit_refund_request],
                         middleware=[HumanInTheLoopMiddleware(interrupt_on={"submit_refund_request": True})],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "hitl-huge"}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund"}]}, config)
    panel = ApprovalPanel(agent, config)
    sizes = assert_bounded(panel)
    assert sizes["pending_view"] < 20_000
    assert panel.args_field.value == "" and "too long to edit here" in panel.args_field.placeholder
    refused = panel.approve()   # arguments too long to show whole cannot be approved unread (hardening round 3)
    assert refused.outcome == "refused", refused
    sizes = assert_bounded(panel)
    assert sizes["status_view"] < 40_000
    assert panel.reject("the order id is not one of ours").outcome == "finished"
    sizes = assert_bounded(panel)
    assert sizes["history_view"] < 2_000 and sizes["status_view"] < 40_000
