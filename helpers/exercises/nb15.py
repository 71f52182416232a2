"""Exercises of notebook 15 (Structured output and tools).

``STRUCTURED_RETRIES`` (15.1): count the ToolMessages with which ``create_agent``'s ``ToolStrategy``
asked the model for a new structured response. Those retries carry ``status="success"``
(langchain 1.5.2, ``langchain/agents/factory.py`` ``_handle_model_output`` builds them without a
status), so the answer must recognise them by the call they answer and their text. The histories
of the named checks are produced by a real ``create_agent`` run on the scripted model, fresh for
every check. The generated check compares the answer with :func:`structured_retries` (the
reference) on histories built directly the way ``_handle_model_output`` builds them
(:func:`built_history`, proven equal to real runs in ``tests/test_exercises_nb15.py``): any number
of retries in any turn, failed tools and tools whose own text starts with ``"Error:"``, one or two
response schemas, and runs that end accepted, still retrying, or in plain text. Its answers are
``STRUCTURED_RETRIES`` in ``tests/solutions/nb15.py``.
"""

from __future__ import annotations

import functools
from typing import Any, Union

from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain.agents.factory import STRUCTURED_OUTPUT_ERROR_TEMPLATE
from langchain.agents.structured_output import (
    MultipleStructuredOutputsError,
    OutputToolBinding,
    StructuredOutputValidationError,
    ToolStrategy,
)
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import ToolException, tool
from pydantic import BaseModel, Field

from ..i18n import N_, _
from ..model.live import scripted_model
from ..model.script import tool_call
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["HISTORIES", "STRUCTURED_RETRIES", "built_history", "refund_desk_history", "structured_retries"]

RESPONSE_TOOLS = frozenset({"RefundDecision"})


class RefundDecision(BaseModel):
    """The refund desk's decision on one order."""

    order_id: str
    approve: bool
    amount: float = Field(ge=0)


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    if order_id != "A1024":
        raise ToolException(f"Error: order {order_id} not found")
    return f"Order {order_id}: wireless headphones, 49.50, delivered damaged."


lookup_order.handle_tool_error = True


@tool
def refund_window(order_id: str) -> str:
    """Check whether the refund window of one order is still open."""
    return f"Error: the refund window of order {order_id} closed 3 days ago; a human must approve."


class RefundVerdict(RefundDecision):
    """The same decision under another schema name: the response tool is named ``RefundVerdict``."""


_GOOD = {"order_id": "A1024", "approve": True, "amount": 49.5}
_BAD = {"order_id": "A1024", "approve": True, "amount": -5}


def refund_desk_history(*steps: list, schema: type[BaseModel] = RefundDecision) -> list[BaseMessage]:
    """The messages of one ``create_agent(..., response_format=ToolStrategy(schema))`` run.

    Args:
        *steps: the scripted model's steps (lists of ``tool_call`` dicts), in order; the run must
            end with a valid call of the response tool (named after ``schema``).
        schema: the structured response's schema (default ``RefundDecision``).

    Returns:
        the run's messages (a fresh list each call). ``lookup_order`` for an order other than
        ``A1024`` raises a ``ToolException`` (``handle_tool_error=True``), which becomes a
        ToolMessage with ``status="error"`` and the text ``"Error: order ... not found"``;
        ``refund_window`` returns (does not raise) a text that starts with ``"Error:"``, so its
        ToolMessage has ``status="success"``.
    """
    agent = create_agent(scripted_model(list(steps)), tools=[lookup_order, refund_window],
                         response_format=ToolStrategy(schema))
    result = agent.invoke({"messages": [{"role": "user", "content": "Decide on the refund for order A1024."}]})
    return list(result["messages"])


def _expect(answer, messages: list[BaseMessage], expected: int, why: str,
            response_tools: frozenset[str] = RESPONSE_TOOLS) -> None:
    got = answer(messages, set(response_tools))
    assert isinstance(got, int) and not isinstance(got, bool), _("return an int, got {got}").format(got=shown(got))
    # compared as a plain int: an int subclass cannot decide the comparison itself
    assert int.__int__(got) == expected, _("expected {expected}, got {got}: {why}").format(
        expected=expected, got=shown(got), why=why)


def _two_retries(answer) -> None:
    _expect(answer, refund_desk_history([tool_call("RefundDecision", _BAD)], [tool_call("RefundDecision", _BAD)],
                                        [tool_call("RefundDecision", _GOOD)]), 2,
            _("two decisions broke the schema (amount=-5) and were answered with a retry each. Their "
            "ToolMessages have status 'success': find them by the call they answer and their text "
            "('Error: ...'), and do not count the final 'Returning structured response'."))


def _tool_error_is_not_a_retry(answer) -> None:
    _expect(answer, refund_desk_history([tool_call("lookup_order", {"order_id": "Z9"})],
                                        [tool_call("RefundDecision", _GOOD)]), 0,
            _("the only error is lookup_order's (status 'error', text 'Error: ...'): a failed tool, not a "
            "structured-output retry. Count only ToolMessages that answer a call to a response tool."))


def _clean_run(answer) -> None:
    _expect(answer, refund_desk_history([tool_call("lookup_order", {"order_id": "A1024"})],
                                        [tool_call("RefundDecision", _GOOD)]), 0,
            _("this run has no retry: the last ToolMessage answers RefundDecision with 'Returning structured "
            "response: ...', the agent's confirmation, not a retry."))


def _two_in_one_turn(answer) -> None:
    _expect(answer, refund_desk_history([tool_call("RefundDecision", _GOOD), tool_call("RefundDecision", _GOOD)],
                                        [tool_call("RefundDecision", _GOOD)]), 2,
            _("the model made two RefundDecision calls in one turn; the agent answered each with an error "
            "ToolMessage ('Error: Model incorrectly returned multiple structured responses ...'): two retries."))


def _tool_error_text_with_success(answer) -> None:
    _expect(answer, refund_desk_history([tool_call("refund_window", {"order_id": "A1024"})],
                                        [tool_call("RefundDecision", _BAD)], [tool_call("RefundDecision", _GOOD)]), 1,
            _("refund_window returned a text that starts with 'Error:' as its normal result, so its ToolMessage has "
            "status 'success' too, like a retry's; it answers a call to refund_window, not to a response tool. "
            "Only the RefundDecision retry counts."))


def _another_response_tool(answer) -> None:
    _expect(answer, refund_desk_history([tool_call("RefundVerdict", _BAD)], [tool_call("RefundVerdict", _GOOD)],
                                        schema=RefundVerdict), 1,
            _("this run's schema is RefundVerdict, so the response tool is named RefundVerdict: use the names in "
            "response_tools (the second argument) rather than a name written in your code."),
            frozenset({"RefundVerdict"}))


# -- the reference and the generated histories ---------------------------------------------------------


def structured_retries(messages: list[BaseMessage], response_tools: set[str]) -> int:
    """The reference: the ToolMessages that answer a call to a response tool with an ``"Error: ..."``
    text (``STRUCTURED_OUTPUT_ERROR_TEMPLATE``), i.e. the retries ``ToolStrategy`` asked for."""
    response_calls = {call["id"] for message in messages if isinstance(message, AIMessage)
                      for call in message.tool_calls if call["name"] in response_tools}
    return sum(1 for message in messages if isinstance(message, ToolMessage)
               and message.tool_call_id in response_calls and message.text.startswith("Error:"))


class EscalateCase(BaseModel):
    """A second response schema: hand the case to a person."""

    order_id: str
    reason: str


_SCHEMAS: dict[str, type[BaseModel]] = {"RefundDecision": RefundDecision, "RefundVerdict": RefundVerdict,
                                        "EscalateCase": EscalateCase}
_VALID = {"RefundDecision": _GOOD, "RefundVerdict": _GOOD, "EscalateCase": {"order_id": "A1024", "reason": "damaged"}}
_INVALID = {"RefundDecision": _BAD, "RefundVerdict": _BAD, "EscalateCase": {"order_id": "A1024"}}
#: The response tools of a run: one schema, another schema, or a union of two (two response tools).
SCHEMA_SETS = (("RefundDecision",), ("RefundVerdict",), ("RefundDecision", "EscalateCase"))
#: What one model turn does. ``"rejected k"``: a call to the k-th response tool whose arguments break its
#: schema; ``"n responses"``: n response calls in one turn (alternating the tools); tools run as in
#: :func:`refund_desk_history`.
TURNS = ("lookup_order answers", "lookup_order fails", "refund_window says Error", "two tools in one turn",
         "rejected 1", "rejected 2", "two responses", "three responses")
#: How the history ends: the response accepted, the run still retrying (cut after its last step: a monitor
#: reads a live run), or the model answering in text (a run that ends without a decision).
ENDINGS = ("accepted", "still retrying", "answers in text")
#: A generated history's spec: ``(response tools, turns, ending)``.
HISTORIES = st.tuples(st.sampled_from(SCHEMA_SETS), st.lists(st.sampled_from(TURNS), max_size=5).map(tuple),
                      st.sampled_from(ENDINGS))

_TOOL_TURNS = {"lookup_order answers": [("lookup_order", "A1024")], "lookup_order fails": [("lookup_order", "Z9")],
               "refund_window says Error": [("refund_window", "A1024")],
               "two tools in one turn": [("lookup_order", "A1024"), ("refund_window", "A1024")]}
_TOOLS = {"lookup_order": lookup_order, "refund_window": refund_window}


@functools.cache
def _tool_result(name: str, order: str) -> tuple[str, str]:
    """``(content, status)`` of the ToolMessage the tool itself gives (run once per process)."""
    message = _TOOLS[name].invoke({"name": name, "args": {"order_id": order}, "id": "call_0", "type": "tool_call"})
    return message.text, message.status


@functools.cache
def _retry_and_accepted_texts(names: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """``{tool name: (the retry text for its invalid arguments, the text accepting its valid ones)}``, from the
    agent's own parsing (``OutputToolBinding.parse`` of ``ToolStrategy``'s schema specs; run once per process)."""
    strategy = ToolStrategy(Union[tuple(_SCHEMAS[name] for name in names)]) if len(names) > 1 else \
        ToolStrategy(_SCHEMAS[names[0]])
    texts = {}
    for schema_spec in strategy.schema_specs:
        binding = OutputToolBinding.from_schema_spec(schema_spec)
        name = binding.tool.name
        try:
            binding.parse(_INVALID[name])
        except Exception as exc:  # noqa: BLE001 - the schema's own validation error, as the agent catches it
            error = StructuredOutputValidationError(name, exc, AIMessage(""))
        texts[name] = (STRUCTURED_OUTPUT_ERROR_TEMPLATE.format(error=str(error)),
                       f"Returning structured response: {binding.parse(_VALID[name])}")
    return texts


def built_history(spec: tuple) -> list[BaseMessage]:
    """Fresh messages of a ``create_agent(..., response_format=ToolStrategy(...))`` run, built the way
    langchain 1.5.2 builds them (``factory._handle_model_output``: a retry is
    ``STRUCTURED_OUTPUT_ERROR_TEMPLATE`` around ``MultipleStructuredOutputsError`` or
    ``StructuredOutputValidationError``, without a status; an accepted response is ``"Returning structured
    response: ..."``), without running the agent; tool results are the tools' own."""
    names, turns, ending = spec
    texts = _retry_and_accepted_texts(names)
    messages: list[BaseMessage] = [HumanMessage("Decide on the refund for order A1024.")]
    counter = iter(range(1, 100))

    def model_turn(calls: list[tuple[str, dict[str, Any]]]) -> AIMessage:
        message = AIMessage("", id=f"ai-{sum(isinstance(m, AIMessage) for m in messages) + 1}", tool_calls=[
            {"name": name, "args": dict(args), "id": f"call_{next(counter)}", "type": "tool_call"}
            for name, args in calls])
        messages.append(message)
        return message

    def answer(call: dict[str, Any], content: str, status: str = "success") -> None:
        messages.append(ToolMessage(content, tool_call_id=call["id"], name=call["name"], status=status))

    for turn in turns:
        if turn in _TOOL_TURNS:
            message = model_turn([(name, {"order_id": order}) for name, order in _TOOL_TURNS[turn]])
            for call in message.tool_calls:
                answer(call, *_tool_result(call["name"], call["args"]["order_id"]))
        elif turn.startswith("rejected"):
            name = names[(int(turn[-1]) - 1) % len(names)]
            answer(model_turn([(name, _INVALID[name])]).tool_calls[0], texts[name][0])
        else:
            calls = [(names[i % len(names)], _VALID[names[i % len(names)]])
                     for i in range(2 if turn == "two responses" else 3)]
            message = model_turn(calls)
            error = MultipleStructuredOutputsError([name for name, _args in calls], message)
            for call in message.tool_calls:
                answer(call, STRUCTURED_OUTPUT_ERROR_TEMPLATE.format(error=str(error)))
    if ending == "accepted":
        answer(model_turn([(names[0], _VALID[names[0]])]).tool_calls[0], texts[names[0]][1])
    elif ending == "answers in text":
        messages.append(AIMessage("I would refund the 49.50 on A1024.",
                                  id=f"ai-{sum(isinstance(m, AIMessage) for m in messages) + 1}"))
    return messages


_TURN_WORDS = {"lookup_order answers": N_("lookup_order answers"), "lookup_order fails": N_("lookup_order fails"),
               "refund_window says Error": N_("refund_window returns a text that starts with 'Error:'"),
               "two tools in one turn": N_("lookup_order and refund_window in one turn"),
               "two responses": N_("two response calls in one turn"),
               "three responses": N_("three response calls in one turn")}
_ENDING_WORDS = {"accepted": N_("a response is accepted"),
                 "still retrying": N_("the run is still going (no response accepted yet)"),
                 "answers in text": N_("the model answers in text (no response accepted)")}


def _describe_history(spec: tuple) -> str:
    names, turns, ending = spec
    steps = [_("{tool} rejected").format(tool=names[(int(turn[-1]) - 1) % len(names)]) if turn.startswith("rejected")
             else _(_TURN_WORDS[turn]) for turn in turns]
    return _("response tools {tools}; turns: {steps}; end: {ending}").format(
        tools=", ".join(names), steps="; ".join(steps) or _("none"), ending=_(_ENDING_WORDS[ending]))


def _retries_outcome(answer: Any, spec: tuple) -> Any:
    return answer(built_history(spec), set(spec[0]))


STRUCTURED_RETRIES = Exercise(
    "15.1",
    "count the structured-output retries in a history",
    [
        Case("two retries, then a valid decision", _two_retries),
        Case("a failed tool is not a retry", _tool_error_is_not_a_retry),
        Case("a run without retries", _clean_run),
        Case("two structured calls in one turn", _two_in_one_turn),
        Case("a tool's own 'Error:' text is not a retry", _tool_error_text_with_success),
        Case("another schema, another response tool", _another_response_tool),
    ],
    probe=lambda answer: answer(refund_desk_history([tool_call("RefundDecision", _GOOD)]), set(RESPONSE_TOOLS)),
    generated=Generated(
        "agrees with the reference on generated histories", HISTORIES, _retries_outcome, structured_retries,
        _describe_history, hint=N_("count each ToolMessage that answers a call to a response tool with an "
                                   "'Error: ...' text; a run may still be retrying, or end without an accepted "
                                   "response, and response_tools may name several tools")),
)
