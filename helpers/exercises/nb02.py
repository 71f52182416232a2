"""Exercises of notebook 02 (tool calls are requests, not execution).

``EXECUTE_CALLS`` checks the step of a hand-written tool loop that executes the calls of one
AIMessage::

    execute_tool_calls(ai_message: AIMessage, tools_by_name: dict[str, BaseTool]) -> list[ToolMessage]

Each hidden case builds fresh tools (with side-effect counters) and a fresh AIMessage, so a
case never depends on another one. The checks catch the mistakes seen in real loops: results
that are not ToolMessages, invented or reused ids, a tool that never runs or runs twice,
arguments that do not reach the tool, and dict results sent as Python ``str()`` instead of JSON.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, tool

from ..i18n import _
from .core import Case, Exercise
from .results import clipped, shown

__all__ = ["EXECUTE_CALLS"]


def _call(name: str, args: dict[str, Any], id: str) -> dict[str, Any]:
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def _tools() -> tuple[dict[str, BaseTool], dict[str, int]]:
    """Fresh tools for one case, and the counter of how often each ran."""
    runs = {"lookup_order": 0, "add": 0}

    @tool
    def lookup_order(order_id: str) -> dict:
        """Look up an order by id."""
        runs["lookup_order"] += 1
        return {"order_id": order_id, "status": "delivered", "refundable_amount": 499.0}

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        runs["add"] += 1
        return a + b

    return {"lookup_order": lookup_order, "add": add}, runs


def _messages(answer: Any, ai_message: AIMessage, tools_by_name: dict[str, BaseTool]) -> list[ToolMessage]:
    result = answer(ai_message, tools_by_name)
    assert isinstance(result, list), (
        _("return a list of ToolMessage objects, got {type}").format(type=type(result).__name__)
    )
    for item in result:
        assert isinstance(item, ToolMessage), (
            _("every item must be a ToolMessage, got {type}: pass the whole tool call to tool.invoke(call) (not "
              "call['args']) and LangChain returns a ToolMessage").format(type=type(item).__name__)
        )
    return result


def _one_call(answer: Any) -> None:
    tools, _runs = _tools()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_7")])
    got = _messages(answer, ai, tools)
    assert len(got) == 1, _("one tool call needs exactly one ToolMessage, got {count}").format(count=len(got))
    assert got[0].tool_call_id == "call_7", (
        _("the ToolMessage answers tool_call_id={tool_call_id}, but the call's id is 'call_7': copy the id "
          "from the call").format(tool_call_id=shown(got[0].tool_call_id))
    )


def _ids_not_invented(answer: Any) -> None:
    tools, _runs = _tools()
    ai = AIMessage(
        content="",
        tool_calls=[_call("add", {"a": 1, "b": 2}, "toolu_B"), _call("add", {"a": 10, "b": 20}, "toolu_A")],
    )
    got = _messages(answer, ai, tools)
    ids = [m.tool_call_id for m in got]
    wanted = ["toolu_B", "toolu_A"]
    missing = [i for i in wanted if i not in ids]
    invented = [i for i in ids if i not in wanted]
    assert invented or not missing, (
        _("no ToolMessage for {missing}: the reply has {count} calls and each one needs its own answer (loop over "
          "every call in ai_message.tool_calls)").format(missing=', '.join(missing), count=len(wanted))
    )
    assert sorted(ids) == ["toolu_A", "toolu_B"], (
        _("the ToolMessages answer {ids}, but the calls' ids are ['toolu_B', 'toolu_A']: providers choose ids, "
          "never build them from positions").format(ids=shown(ids))
    )


def _runs_once_each(answer: Any) -> None:
    tools, runs = _tools()
    ai = AIMessage(
        content="",
        tool_calls=[
            _call("lookup_order", {"order_id": "A1024"}, "call_1"),
            _call("lookup_order", {"order_id": "A1030"}, "call_2"),
        ],
    )
    got = _messages(answer, ai, tools)
    assert runs["lookup_order"] == 2, (
        _("two calls should run the tool twice, it ran {runs} time(s): execute every call, once").format(
            runs=runs['lookup_order'])
    )
    assert len(got) == 2, _("two calls need two ToolMessages, got {count}").format(count=len(got))


def _args_reach_tool(answer: Any) -> None:
    tools, _runs = _tools()
    ai = AIMessage(
        content="",
        tool_calls=[_call("add", {"a": 2, "b": 3}, "call_x"), _call("add", {"a": 40, "b": 2}, "call_y")],
    )
    got = {m.tool_call_id: m.content for m in _messages(answer, ai, tools)}
    assert got.get("call_x") == "5" and got.get("call_y") == "42", (
        _("expected call_x -> '5' and call_y -> '42', got {got}: run each call with its own args").format(
            got=shown(got))
    )


def _dict_as_json(answer: Any) -> None:
    tools, _runs = _tools()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_3")])
    got = _messages(answer, ai, tools)
    content = got[0].content if got else ""
    try:
        data = json.loads(content)
    except (TypeError, ValueError):
        raise AssertionError(
            _("the content {content!r} is not JSON: str(dict) gives Python quotes; tool.invoke(call) serialises a "
              "dict result as JSON for you").format(content=clipped(content, 60))
        ) from None
    assert data == {"order_id": "A1024", "status": "delivered", "refundable_amount": 499.0}, (
        _("the content should be the tool's result as JSON, got {content}").format(content=shown(content))
    )


def _no_calls(answer: Any) -> None:
    tools, runs = _tools()
    got = _messages(answer, AIMessage(content="A1024 is refundable."), tools)
    assert got == [], _("a text reply has no tool calls, so there is nothing to answer; got {count} message(s)").format(
        count=len(got))
    assert sum(runs.values()) == 0, _("no tool should run for a text reply")


EXECUTE_CALLS = Exercise(
    "02.1",
    "execute the tool calls of one AIMessage",
    [
        Case("one call, one ToolMessage with the call's id", _one_call),
        Case("ids come from the calls, not from positions", _ids_not_invented),
        Case("each call runs the tool exactly once", _runs_once_each),
        Case("each call's arguments reach the tool", _args_reach_tool),
        Case("a dict result arrives as JSON text", _dict_as_json),
        Case("a text reply needs no ToolMessage", _no_calls),
    ],
)
