"""Exercises of notebook 02 (tool calls are requests, not execution).

``EXECUTE_CALLS`` checks the step of a hand-written tool loop that executes the calls of one
AIMessage::

    execute_tool_calls(ai_message: AIMessage, tools_by_name: dict[str, BaseTool]) -> list[ToolMessage]

Each hidden case builds fresh tools (with side-effect counters) and a fresh AIMessage, so a
case never depends on another one. The checks catch the mistakes seen in real loops: results
that are not ToolMessages, invented or reused ids, a tool that never runs or runs twice,
arguments that do not reach the tool, and dict results sent as Python ``str()`` instead of JSON.

The generated check compares the answer with :func:`execute_tool_calls` (the reference) on generated
AIMessages: zero to four calls of four tools (results that are a dict with non-ASCII text, an int, a
float, a plain string), ids in no order, the same tool and the same arguments twice, and text beside
the calls. The outcome is every ToolMessage as ``(id, "JSON" or "text", content, status)`` (content read
as JSON when it is JSON) and every run of a tool with its arguments, both without regard to order.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, tool
from pydantic import BaseModel

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .generated import content_value
from .results import clipped, shown

__all__ = ["EXECUTE_CALLS", "MESSAGES", "execute_tool_calls"]


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


# -- the reference and the generated messages -----------------------------------------------------------


def execute_tool_calls(ai_message: AIMessage, tools_by_name: dict[str, BaseTool]) -> list[ToolMessage]:
    """The reference: each call of ``ai_message.tool_calls`` invoked whole (``tool.invoke(call)``), so
    LangChain runs the tool once with its arguments and returns the ToolMessage for its id (a dict result
    serialised to JSON)."""
    return [tools_by_name[call["name"]].invoke(call) for call in ai_message.tool_calls]


#: The tools of a generated message and the arguments the model may give each (a pool, so calls repeat).
_ARGUMENTS = {"lookup_order": ({"order_id": "A1024"}, {"order_id": "B2048"}),
              "add": ({"a": 2, "b": 3}, {"a": 40, "b": 2}),
              "quote_refund": ({"order_id": "A1024"}, {"order_id": "C3072"}),
              "carrier_note": ({"order_id": "A1024"}, {"order_id": "B2048"})}
IDS = ("call_9", "toolu_01A", "call_2", "fc_7b", "call_15", "toolu_00C")
_CALL = st.tuples(st.sampled_from(tuple(_ARGUMENTS)), st.integers(0, 1), st.sampled_from(IDS))
#: A generated message's spec: ``(calls as (tool, argument set, id), text beside them)``; ids never repeat.
MESSAGES = st.tuples(st.lists(_CALL, max_size=4, unique_by=lambda call: call[2]).map(tuple), st.booleans())


class _OrderArgs(BaseModel):
    order_id: str


class _AddArgs(BaseModel):
    a: int
    b: int


def _generated_tools() -> tuple[dict[str, BaseTool], list[str]]:
    """Fresh tools of four kinds of result (a dict with non-ASCII text, an int, a float, a string), and the
    list each run appends ``"tool(arguments)"`` to. Built as ``StructuredTool`` with a ready schema (what
    ``@tool`` builds, without inferring the schema again for every input)."""
    ran: list[str] = []

    def recorded(name: str, result: Any) -> Callable[..., Any]:
        def run(**args: Any) -> Any:
            ran.append(f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})")
            return result(**args)
        return run

    specs = [("lookup_order", "Look up an order by id.", _OrderArgs,
              lambda order_id: {"order_id": order_id, "product": "Écouteurs sans fil", "refundable_amount": 49.5}),
             ("add", "Add two integers.", _AddArgs, lambda a, b: a + b),
             ("quote_refund", "Quote the refundable amount of an order.", _OrderArgs, lambda order_id: 49.5),
             ("carrier_note", "The carrier's note on an order's parcel.", _OrderArgs,
              lambda order_id: f"Order {order_id}: left at the front door.")]
    return {name: StructuredTool(name=name, description=text, args_schema=schema, func=recorded(name, result))
            for name, text, schema, result in specs}, ran


def _executed_outcome(answer: Any, spec: tuple) -> dict[str, tuple]:
    calls, text = spec
    tools, ran = _generated_tools()
    ai = AIMessage(content="Let me check." if text else "", tool_calls=[
        _call(name, dict(_ARGUMENTS[name][which]), call_id) for name, which, call_id in calls])
    messages = _messages(answer, ai, tools)
    answered = sorted(((str(m.tool_call_id), *content_value(m.content), str(m.status)) for m in messages), key=repr)
    return {"ToolMessages": tuple(answered), "tools ran": tuple(sorted(ran))}


def _describe_executed(spec: tuple) -> str:
    calls, text = spec
    return _("an AIMessage with the tool calls {calls}{text}").format(
        calls=[f"{name}({', '.join(f'{k}={v!r}' for k, v in _ARGUMENTS[name][which].items())}) id={call_id}"
               for name, which, call_id in calls],
        text=_(" and the text 'Let me check.'") if text else "")


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
    generated=Generated(
        "agrees with the reference on generated messages", MESSAGES, _executed_outcome, execute_tool_calls,
        _describe_executed, hint=N_("run every call once with its own arguments, even a call that repeats another "
                                    "one, and answer its id; only a dict result becomes JSON: a string result stays "
                                    "the text it is (tool.invoke(call) does both)")),
)
