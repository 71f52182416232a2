"""Exercises of notebook NN (TITLE).

The skeleton's exercise NN.1 (from ``make new-notebook``): replace it with the lesson's own, keeping
the shape: a module-level ``NAME = Exercise("NN.k", "title", [Case(...), ...])`` is registered by
this file's name; its answers are ``NAME`` in ``tests/solutions/nbNN.py``. Feedback and hints are
wrapped in ``_()`` (CONTRIBUTING.md, "Adding a learner-facing string").
"""

from __future__ import annotations

from langchain_core.messages import AIMessage

from ..i18n import _
from .core import Case, Exercise
from .results import shown

__all__ = ["TOOL_NAMES"]


def _message() -> AIMessage:
    """Two tool calls and one invalid tool call (a fresh message for every check)."""
    return AIMessage(
        content="",
        tool_calls=[{"name": "quote_refund", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"},
                    {"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_2", "type": "tool_call"}],
        invalid_tool_calls=[{"name": "submit_refund", "args": "{bad", "id": "call_3", "error": None,
                             "type": "invalid_tool_call"}])


def _names_in_call_order(answer) -> None:
    got = answer(_message())
    assert isinstance(got, list), _("return a list, got {type}").format(type=type(got).__name__)
    assert got == ["quote_refund", "lookup_order"], _(
        "expected ['quote_refund', 'lookup_order'], got {got}. Read ai_message.tool_calls, in its order; "
        "each call is a dict with a 'name' key, and invalid_tool_calls are not calls to run.").format(got=shown(got))


TOOL_NAMES = Exercise(
    "NN.1",
    "the names of the tools an AIMessage asks to run",
    [Case("two calls and an invalid one", _names_in_call_order)],
    probe=lambda answer: answer(_message()),
)
