"""Exercises of notebook 00 (start here): a warm-up that shows how checks and feedback work.

The generated check compares the answer with :func:`tool_call_ids` (the reference) on generated
AIMessages: zero to four calls of several tools, ids in the formats providers use (not in
alphabetical order), invalid tool calls next to them, and text or content blocks beside the calls.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from langchain_core.messages import AIMessage

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["MESSAGES", "TOOL_CALL_IDS", "tool_call_ids"]


def _calls(*ids: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "lookup_order", "args": {"order_id": f"A{i}"}, "id": i, "type": "tool_call"} for i in ids])


def _expect(ids: tuple[str, ...], message: AIMessage, hint: str):
    def run(answer):
        got = answer(message.model_copy(deep=True))  # a fresh copy: an answer that mutates it cannot spoil later checks
        assert isinstance(got, list), _("return a list, got {type}").format(type=type(got).__name__)
        assert got == list(ids), _("expected {ids}, got {got}. {hint}").format(
            ids=list(ids), got=shown(got), hint=_(hint))
    return run


def tool_call_ids(ai_message: AIMessage) -> list[str]:
    """The reference: the ids of ``ai_message.tool_calls``, in order (``invalid_tool_calls`` is another list)."""
    return [call["id"] for call in ai_message.tool_calls]


#: Ids as providers write them (OpenAI, Anthropic, the Responses API), in no alphabetical order.
IDS = ("call_7", "toolu_01B", "call_3", "fc_9a", "call_12", "toolu_00Z", "call_2")
TOOLS = ("lookup_order", "refund", "track_parcel")
CONTENTS = ("", "Let me check.", "text block")
#: A generated message's spec: ``(calls as (tool, id, invalid), content)``: ids never repeat; an invalid call
#: goes to ``invalid_tool_calls`` (arguments that are not JSON).
MESSAGES = st.tuples(st.lists(st.tuples(st.sampled_from(TOOLS), st.sampled_from(IDS), st.booleans()), max_size=5,
                              unique_by=lambda call: call[1]).map(tuple), st.sampled_from(CONTENTS))


def generated_message(spec: tuple) -> AIMessage:
    """A fresh AIMessage for a :data:`MESSAGES` spec."""
    calls, content = spec
    return AIMessage(
        content=[{"type": "text", "text": "Let me check."}] if content == "text block" else content,
        tool_calls=[{"name": name, "args": {"order_id": f"A10{n}2"}, "id": call_id, "type": "tool_call"}
                    for n, (name, call_id, invalid) in enumerate(calls) if not invalid],
        invalid_tool_calls=[{"name": name, "args": "{bad", "id": call_id, "error": None, "type": "invalid_tool_call"}
                            for name, call_id, invalid in calls if invalid])


def _describe_message(spec: tuple) -> str:
    calls, content = spec
    return _("an AIMessage with tool_calls {calls}, invalid_tool_calls {invalid}, content {content}").format(
        calls=[f"{name} (id {call_id})" for name, call_id, invalid in calls if not invalid],
        invalid=[f"{name} (id {call_id})" for name, call_id, invalid in calls if invalid],
        content=repr(generated_message(spec).content))


def _ids_outcome(answer: Any, spec: tuple) -> Any:
    return answer(generated_message(spec))


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
    generated=Generated("agrees with the reference on generated messages", MESSAGES, _ids_outcome, tool_call_ids,
                        _describe_message, hint=N_("return the 'id' of every call in ai_message.tool_calls, whatever "
                                                   "its tool, in the order of the list")),
)
