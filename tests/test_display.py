"""Display helpers: traces, diagrams, state diffs and expected errors."""

from __future__ import annotations

from typing import TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

from helpers.display import (
    as_messages,
    expect_error,
    format_error,
    graph_mermaid,
    sequence_diagram,
    show_error,
    show_trace,
    state_diff,
    state_diff_markdown,
    trace_markdown,
    trace_rows,
)

TRACE = [
    SystemMessage("You are a refund assistant."),
    HumanMessage("Refund A1024 | please", id="6a0e1c1e-0000-4000-8000-000000000000"),
    AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"}],
              invalid_tool_calls=[{"name": "lookup_order", "args": "{bad", "id": "call_2", "error": None, "type": "invalid_tool_call"}]),
    ToolMessage("delivered", tool_call_id="call_1"),
    ToolMessage("bad JSON", tool_call_id="call_2", status="error"),
    AIMessage("Your refund request is on its way. " * 5),
]


def test_trace_rows_pair_calls_and_answers():
    rows = trace_rows(TRACE)
    assert [r["role"] for r in rows] == ["system", "human", "ai", "tool", "tool", "ai"]
    assert rows[2]["tool calls / answers"] == 'lookup_order({"order_id": "A1024"}) id=call_1; INVALID lookup_order({bad) id=call_2'
    assert rows[3]["tool calls / answers"] == "answers call_1"
    assert rows[4]["tool calls / answers"] == "answers call_2 (status=error)"
    assert rows[5]["content"].endswith("…") and len(rows[5]["content"]) == 70


def test_trace_markdown_is_a_table_without_message_ids():
    text = trace_markdown(TRACE)
    lines = text.splitlines()
    assert lines[0] == "| # | role | content | tool calls / answers |"
    assert len(lines) == 2 + len(TRACE)
    assert "Refund A1024 \\| please" in text, "pipes are escaped"
    assert "6a0e1c1e" not in text


def test_sequence_diagram():
    text = sequence_diagram(TRACE)
    assert text.startswith("sequenceDiagram\n")
    assert "    M-->>A: 2 tool calls: call_1, call_2 invalid" in text, "one arrow for the reply, naming its call ids"
    assert "    A->>T: run call_1 lookup_order(order_id=A1024)" in text, "only the valid call runs"
    assert "call_2 lookup_order" not in text
    assert "    T-->>A: ToolMessage call_1: delivered" in text
    assert "    T-->>A: ToolMessage call_2 error: bad JSON" in text
    assert "    A->>M: history + 2 ToolMessages" in text, "results go back to the model before its next turn"
    assert text.index("history + 2 ToolMessages") < text.index("Your refund request")
    assert ";" not in text.split("\n", 5)[-1]


def test_sequence_diagram_of_one_call():
    ai = AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1",
                                    "type": "tool_call"}])
    assert "    M-->>A: tool call call_1: lookup_order" in sequence_diagram([HumanMessage("hi"), ai])


# A long refund run like notebook 02's loop: long tool results, two calls in one reply, long arguments.
LONG_RUN = [
    HumanMessage("Please refund my winter jacket, order A1030."),
    AIMessage("", tool_calls=[
        {"name": "lookup_order", "args": {"order_id": "A1030"}, "id": "call_1", "type": "tool_call"},
        {"name": "quote_refund", "args": {"order_id": "A1030"}, "id": "call_2", "type": "tool_call"}]),
    ToolMessage('{"order_id": "A1030", "user_id": "user-42", "product": "Winter jacket", "status": "delivered"}',
                tool_call_id="call_1"),
    ToolMessage('{"order_id": "A1030", "refundable_amount": 120.0, "policy": "Refund within 30 days"}',
                tool_call_id="call_2"),
    AIMessage("", tool_calls=[{"name": "submit_refund_request", "args": {"order_id": "A1030", "amount": 120.0,
                                                                         "reason": "too small, " * 10},
                               "id": "call_3", "type": "tool_call"}]),
    ToolMessage('{"request_id": "RF-0001", "status": "submitted", "amount": 120.0}', tool_call_id="call_3"),
    AIMessage("Refund request RF-0001 for 120.0 was created for order A1030, you will hear from us soon."),
]


def test_sequence_diagram_labels_stay_short_enough_to_read_at_1280_px():
    # mermaid widens the gap between two neighbouring participants to fit their longest label, then
    # scales the drawing to the page width: with 80-character labels (the old format) the text of
    # notebook 02's diagram rendered below 9 px at 1280 px. Neighbours are U-A and A-M (labels of
    # A-T arrows span the Model's lifeline and do not widen any gap), so those labels stay short.
    arrows = [line.strip() for line in sequence_diagram([SystemMessage("x" * 99), *LONG_RUN]).splitlines()[5:]]

    def longest(*starts):
        found = [len(a.split(": ", 1)[1]) for a in arrows if a.startswith(starts)]
        assert found, starts
        return max(found)

    assert longest("U->>A", "A->>U") <= 28
    assert longest("A->>M", "M-->>A", "Note over A,M") <= 40
    assert longest("A->>T", "T-->>A") <= 56
    assert "A->>T: run call_3 submit_refund_request(order_id=A103…" in arrows, "arguments are shortened"


def test_sequence_diagram_of_nothing_says_so():
    assert sequence_diagram([]).endswith("    Note over U,T: no messages")


def test_sequence_diagram_cannot_break_the_markdown_fence():
    text = sequence_diagram([HumanMessage("```python\nprint('x')\n``` end")])
    assert "`" not in text


def test_graph_mermaid_uses_draw_mermaid_text():
    class S(TypedDict):
        x: int

    builder = StateGraph(S)
    builder.add_node("step", lambda s: {"x": s["x"] + 1})
    builder.add_edge(START, "step")
    builder.add_edge("step", END)
    text = graph_mermaid(builder.compile())
    assert text.startswith("---") or text.startswith("graph") or "graph TD" in text
    assert "step" in text and "__start__" in text


def test_state_diff():
    before = {"messages": [HumanMessage("a")], "refund_stage": "none", "gone": 1}
    after = {"messages": [HumanMessage("a"), AIMessage("b")], "refund_stage": "submitted", "new": [1]}
    assert state_diff(before, after) == [
        ("gone", "removed", "1", ""),
        ("messages", "changed", "1 message", "2 messages"),
        ("new", "added", "", "[1]"),
        ("refund_stage", "changed", "none", "submitted"),
    ]
    assert state_diff_markdown(before, before) == "_no changes_"
    assert "| refund_stage | changed | none | submitted |" in state_diff_markdown(before, after)


def test_format_error_strips_windows_paths():
    exc = OSError(r"C:\Users\alice\My Projects\course\domain.py and \\server\share\x.py")
    assert format_error(exc) == "OSError: domain.py and x.py"


def test_state_diff_never_shows_memory_addresses():
    class Obj:
        pass

    assert " at 0x" not in state_diff_markdown({"a": 1}, {"a": Obj()})


def test_format_error_strips_paths_and_addresses_but_keeps_urls():
    exc = ValueError("bad file /root/.venv/lib/python3.11/site-packages/x/y.py for <function f at 0x7f00deadbeef>; "
                     "see https://errors.pydantic.dev/2.14/v/missing")
    text = format_error(exc)
    assert text == "ValueError: bad file y.py for <function f>; see https://errors.pydantic.dev/2.14/v/missing"


def test_show_error_prints_type_and_message_only(capsys):
    assert show_error(int, "x") is None
    assert capsys.readouterr().out == "ValueError: invalid literal for int() with base 10: 'x'\n"


def test_show_error_is_loud_when_nothing_is_raised(capsys):
    show_error(int, "7")
    out = capsys.readouterr().out
    assert "!!! NO ERROR WAS RAISED !!!" in out and "returned: 7" in out


def test_show_error_flags_an_unexpected_type(capsys):
    show_error(int, "x", expected=KeyError)
    out = capsys.readouterr().out
    assert out.startswith("!!! UNEXPECTED ERROR TYPE (expected KeyError) !!!")
    assert "ValueError: invalid literal" in out


def test_expect_error_context_manager(capsys):
    with expect_error(ZeroDivisionError) as caught:
        1 / 0
    assert isinstance(caught.error, ZeroDivisionError)
    assert capsys.readouterr().out == "ZeroDivisionError: division by zero\n"
    with expect_error():
        pass
    assert "NO ERROR WAS RAISED" in capsys.readouterr().out


def test_show_trace_displays_markdown(capsys):
    show_trace(TRACE[:2])
    assert "IPython.core.display.Markdown" in capsys.readouterr().out


# -- show_error given a value instead of a function (issue 12) ------------------------------


def test_show_error_given_the_result_of_a_call_says_it_wants_a_function(capsys):
    show_error(int("7"))  # the slip: int("7") ran first, show_error got 7
    out = capsys.readouterr().out
    assert out == ("!!! show_error WANTS A FUNCTION TO CALL, e.g. show_error(lambda: f(x)) !!!\n"
                   "!!! It got the value 7 (int): the call already ran before show_error saw it, and it did not raise.\n")
    assert "not callable" not in out and not out.startswith("TypeError")


def test_show_error_given_an_object_with_an_address_hides_it(capsys):
    class Thing:
        pass

    show_error(Thing())
    out = capsys.readouterr().out
    assert "WANTS A FUNCTION" in out and " at 0x" not in out


def test_show_error_still_shows_a_callable_raising_type_error(capsys):
    show_error(lambda: len(5))
    assert capsys.readouterr().out == "TypeError: object of type 'int' has no len()\n"


@pytest.mark.parametrize("bad", ["ValueError", ValueError("x"), (ValueError, 3), ()])
def test_expected_must_be_exception_classes(bad):
    with pytest.raises(TypeError, match=r"show_error\(expected=\.\.\.\) wants an exception class"):
        show_error(int, "x", expected=bad)
    with pytest.raises(TypeError, match=r"expect_error\(expected=\.\.\.\) wants an exception class"):
        with expect_error(bad):
            pass


# -- traces and diagrams of a state, a GraphOutput or a StateSnapshot (issue 12) ------------


@pytest.fixture(scope="module")
def graph_run():
    """A one-node graph with a checkpointer: its v1 state dict, v2 GraphOutput and StateSnapshot."""

    def answer(state: MessagesState):
        return {"messages": [AIMessage("A1024 was delivered.", id="ai-1")]}

    builder = StateGraph(MessagesState)
    builder.add_node("answer", answer)
    builder.add_edge(START, "answer")
    builder.add_edge("answer", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    question = {"messages": [HumanMessage("Where is A1024?", id="h-1")]}
    state = graph.invoke(question, {"configurable": {"thread_id": "v1"}})
    output = graph.invoke(question, {"configurable": {"thread_id": "v2"}}, version="v2")
    snapshot = graph.get_state({"configurable": {"thread_id": "v2"}})
    return state, output, snapshot


def test_trace_and_diagram_accept_state_graph_output_and_snapshot(graph_run, capsys):
    state, output, snapshot = graph_run
    expected = trace_markdown(state["messages"])
    assert "A1024 was delivered." in expected
    for shape in (state, output, snapshot):
        assert trace_markdown(shape) == expected
        assert sequence_diagram(shape) == sequence_diagram(state["messages"])
        assert "    M-->>A: A1024 was delivered." in sequence_diagram(shape), "not an empty diagram"
    show_trace(output)
    assert "Markdown" in capsys.readouterr().out


def test_a_single_message_is_a_trace_of_one():
    assert as_messages(HumanMessage("hi"))[0].content == "hi"
    assert len(trace_rows((HumanMessage("a"), AIMessage("b")))) == 2


@pytest.mark.parametrize("bad, message", [
    ({"order_id": "A1024"}, r'trace_markdown\(\) got a state dict with no "messages" key \(its keys: \'order_id\'\)'),
    ("Where is A1024?", r"trace_markdown\(\) got str; it wants a list of messages"),
    (None, r"trace_markdown\(\) got NoneType; it wants a list of messages"),
    ([{"role": "user", "content": "hi"}], r"trace_markdown\(\) got a list whose item 0 is dict, not a message"),
    ([HumanMessage("a"), "b"], r"item 1 is str, not a message"),
])
def test_anything_else_says_what_is_expected(bad, message):
    with pytest.raises(TypeError, match=message) as caught:
        trace_markdown(bad)
    assert 'a GraphOutput (invoke(..., version="v2"))' in str(caught.value)


def test_sequence_diagram_of_a_dict_without_messages_is_an_error_not_an_empty_diagram():
    with pytest.raises(TypeError, match=r'sequence_diagram\(\) got a state dict with no "messages" key'):
        sequence_diagram({"refund_stage": "none"})


def test_graph_output_without_messages_names_its_keys():
    from langgraph.types import GraphOutput

    with pytest.raises(TypeError, match=r'show_trace\(\) got a GraphOutput whose state has no "messages" key \(its keys: \'amount\'\)'):
        show_trace(GraphOutput(value={"amount": 70}))
