"""Exercises of notebook 15 (Structured output and tools).

``STRUCTURED_RETRIES`` (15.1): count the ToolMessages with which ``create_agent``'s ``ToolStrategy``
asked the model for a new structured response. Those retries carry ``status="success"``
(langchain 1.5.2, ``langchain/agents/factory.py`` ``_handle_model_output`` builds them without a
status), so the answer must recognise them by the call they answer and their text. The histories
of the hidden checks are produced by a real ``create_agent`` run on the scripted model, fresh for
every check. Its answers are ``STRUCTURED_RETRIES`` in ``tests/solutions/nb15.py``.
"""

from __future__ import annotations

from langchain.agents import create_agent
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import BaseMessage
from langchain_core.tools import ToolException, tool
from pydantic import BaseModel, Field

from ..i18n import _
from ..model.live import scripted_model
from ..model.script import tool_call
from .core import Case, Exercise
from .results import shown

__all__ = ["STRUCTURED_RETRIES", "refund_desk_history"]

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
)
