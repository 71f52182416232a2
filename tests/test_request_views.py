"""The request tables of notebook 19 (``helpers/request_views.py``): what they show, headless."""

from __future__ import annotations

import re

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ClearToolUsesEdit, ContextEditingMiddleware
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from helpers import scripted_model, tool_call
from helpers.i18n import use
from helpers.request_views import history_markdown, message_summary, offered_tools_markdown

#: ``make check NB=19`` (``pytest --notebook 19``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("19")


@tool
def lookup_order(order_id: str) -> str:
    """Look up one order."""
    return f"Order {order_id}: delivered. " + "event. " * 60


def _rows(table: str) -> list[list[str]]:
    """The body rows of a Markdown table, split at the pipes that are not escaped."""
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip()[1:-1])] for line in table.splitlines()[2:]]


def test_a_summary_names_calls_with_ids_results_with_their_call_and_errors():
    call = AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_7",
                                      "type": "tool_call"}])
    assert message_summary(call) == "ai -> lookup_order(A1024) [call_7]"
    failed = ToolMessage("Error order_not_found: no A1099", tool_call_id="call_7", status="error")
    assert message_summary(failed) == "tool [call_7] error: Error order_not_found: no A1099"
    assert message_summary(HumanMessage("x" * 100), limit=10) == "human xxxxxxxxx…"


def test_the_history_table_marks_what_context_editing_cleared_and_keeps_the_ids():
    model = scripted_model([[tool_call("lookup_order", {"order_id": order})] for order in ("A1024", "A1025")]
                           + ["Done."])
    editing = ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=100, keep=1)])
    result = create_agent(model, [lookup_order], middleware=[editing]).invoke(
        {"messages": [HumanMessage("A1024 and A1025?")]})
    rows = _rows(history_markdown(result["messages"], model.requests[-1].messages))
    assert [row[0] for row in rows] == [str(i) for i in range(6)]
    assert rows[2][2] == "tool [call_1] [cleared]" and rows[2][3] == "edited"
    assert rows[2][1].startswith("tool [call_1] Order A1024: delivered.")
    assert rows[4][1] == rows[4][2] and rows[4][3] == "", "the newest result was kept"
    assert rows[5][3] == "not sent", "the final answer came after the last request"


def test_the_offered_tools_table_has_one_row_per_request_and_says_none():
    model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})], "Done."])
    create_agent(model, [lookup_order]).invoke({"messages": [HumanMessage("Where is A1024?")]})
    bare = scripted_model(["Hi."])
    bare.invoke("Hello")
    rows = _rows(offered_tools_markdown([("agent", r) for r in model.requests] + [("plain", bare.requests[0])]))
    assert [(row[1], row[3]) for row in rows] == [("agent", "lookup_order"), ("agent", "lookup_order"),
                                                  ("plain", "(none)")]
    assert rows[1][2].startswith("3, the last: tool [call_1]")


def test_hostile_text_cannot_add_columns_links_or_html():
    hostile = ToolMessage("a | b ![x](http://evil) <img src=x> `c`", tool_call_id="call_1")
    table = history_markdown([hostile], [hostile])
    (row,) = _rows(table)
    assert len(row) == 4, row
    assert "<img" not in table and "![x](" not in table and "http://" not in table


def test_the_headings_and_marks_are_translated():
    with use("zh-CN"):
        table = history_markdown([HumanMessage("a"), HumanMessage("b")], [HumanMessage("a")])
    assert "edited" not in table and "not sent" not in table and "the state holds" not in table
