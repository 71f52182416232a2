"""Display helpers: traces, diagrams, state diffs and expected errors."""

from __future__ import annotations

from typing import TypedDict

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph

from helpers.display import (
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
    assert "    M-->>A: 2 tool calls: lookup_order tool_call_id=call_1, INVALID lookup_order tool_call_id=call_2" in text
    assert "    A->>T: run lookup_order(order_id=A1024)" in text
    assert "    T-->>A: ToolMessage tool_call_id=call_2 (error): bad JSON" in text
    assert "    A->>M: history + 2 ToolMessages" in text, "results go back to the model before its next turn"
    assert text.index("history + 2 ToolMessages") < text.index("Your refund request")
    assert ";" not in text.split("\n", 5)[-1]


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
