"""Exercises of notebook 00 (start here): a warm-up that shows how checks and feedback work."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from ..i18n import N_, _
from .core import Case, Exercise
from .results import shown

__all__ = ["TOOL_CALL_IDS"]


def _calls(*ids: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "lookup_order", "args": {"order_id": f"A{i}"}, "id": i, "type": "tool_call"} for i in ids])


def _expect(ids: tuple[str, ...], message: AIMessage, hint: str):
    def run(answer):
        got = answer(message.model_copy(deep=True))  # a fresh copy: an answer that mutates it cannot spoil later checks
        assert isinstance(got, list), _("return a list, got {type}").format(type=type(got).__name__)
        assert got == list(ids), _("expected {ids}, got {got}. {hint}").format(
            ids=list(ids), got=shown(got), hint=_(hint))
    return run


TOOL_CALL_IDS = Exercise(
    "00.1",
    "ids of the tool calls in an AIMessage",
    [
        Case("one tool call", _expect(("call_1",), _calls("call_1"), N_("Each tool call is a dict with an 'id' key."))),
        Case("two tool calls, in order", _expect(("call_7", "call_3"), _calls("call_7", "call_3"), N_("Keep the order of ai_message.tool_calls."))),
        Case("a text reply has no tool calls", _expect((), AIMessage(content="Hello"), N_("A text reply has an empty tool_calls list."))),
        Case(
            "invalid tool calls are not tool calls",
            _expect(("call_2",), AIMessage(content="", tool_calls=_calls("call_2").tool_calls,
                                           invalid_tool_calls=[{"name": "lookup_order", "args": "{bad", "id": "call_9",
                                                                "error": None, "type": "invalid_tool_call"}]),
                    N_("Read ai_message.tool_calls only; invalid_tool_calls is a separate list.")),
        ),
    ],
    probe=lambda answer: answer(_calls("call_1")),
)
