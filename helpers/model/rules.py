"""Provider rules: the history checks a real chat-completions provider makes before it answers.

Each rule has a name (:class:`ProviderRule`, a ``StrEnum``) and the wording OpenAI's
``POST /v1/chat/completions`` answers with (HTTP 400, ``"type": "invalid_request_error"``), taken
from OpenAI error bodies quoted in public bug reports (2024-2026: unanswered call and orphan tool
message with ``"param": "messages.[N].role"``; ``Duplicate value for 'tool_call_id' of '<id>', in
messages[i] and messages[j]``; ``Invalid 'messages': empty array`` with ``"code": "empty_array"``;
``Invalid 'tools[i].function.name': string does not match pattern`` with ``"code": "invalid_value"``;
``Missing required parameter: '<path>'``), and the course's api-facts (items 13 and 17).
OpenAI-compatible providers enforce the same rules in their own words (DashScope/Qwen: ``<400>
InternalError.Algo.InvalidParameter: An assistant message with "tool_calls" must be followed by tool
messages ...``).

* :func:`check_tools` checks the bound tool schemas of a request;
* :func:`check_history` checks the messages of a request;
* :func:`check_reply` checks a reply before it is handed out (the scripted model refuses to play
  a reply that no provider history could ever hold, e.g. two calls sharing one id).

Every check raises :class:`ProviderRuleError` naming the rule and the offending id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

__all__ = [
    "OPENAI_ERRORS",
    "TOOL_NAME_PATTERN",
    "ProviderRule",
    "ProviderRuleError",
    "check_history",
    "check_reply",
    "check_tools",
]

#: Tool names OpenAI accepts: ``^[a-zA-Z0-9_-]+$`` and at most 64 characters (the limit is a
#: separate "string too long" error there; Anthropic states both as ``^[a-zA-Z0-9_-]{1,64}$``).
TOOL_NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class ProviderRule(StrEnum):
    """The rules a provider enforces on a request; the value is the stable rule name.

    A ``StrEnum``: ``ProviderRule.UNANSWERED_TOOL_CALL == "unanswered_tool_call"`` is True, so
    code that compares ``error.rule`` with the plain name keeps working.
    """

    #: every tool call of an assistant turn is answered by a ToolMessage with its id before any
    #: other message and before the next model turn.
    UNANSWERED_TOOL_CALL = "unanswered_tool_call"
    #: a ToolMessage answers a tool call of the assistant turn just before it.
    ORPHAN_TOOL_MESSAGE = "orphan_tool_message"
    #: one tool call gets one ToolMessage.
    DUPLICATE_TOOL_MESSAGE = "duplicate_tool_message"
    #: a tool call id appears once in the whole history (also: two calls of one reply never share an id).
    DUPLICATE_TOOL_CALL_ID = "duplicate_tool_call_id"
    #: a tool call in the history carries an id (the ToolMessage needs it to pair).
    TOOL_CALL_WITHOUT_ID = "tool_call_without_id"
    #: a request holds at least one message.
    EMPTY_MESSAGES = "empty_messages"
    #: a bound tool's name matches ``^[a-zA-Z0-9_-]{1,64}$``.
    INVALID_TOOL_NAME = "invalid_tool_name"
    #: a reply calls only tools that are bound (checked by the scripted model, not by OpenAI:
    #: a real model can invent a name, and the harness must answer it).
    TOOL_NOT_BOUND = "tool_not_bound"


#: What OpenAI's chat.completions answers for each rule (``{placeholders}`` are filled in by the
#: caller); ``TOOL_NOT_BOUND`` has no OpenAI error: a provider hands such a call to the app.
OPENAI_ERRORS: Mapping[ProviderRule, str] = {
    ProviderRule.UNANSWERED_TOOL_CALL: (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
    ),
    ProviderRule.ORPHAN_TOOL_MESSAGE: (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
        "'tool_calls'."
    ),
    ProviderRule.DUPLICATE_TOOL_MESSAGE: (
        "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and messages[{second}]."
    ),
    ProviderRule.DUPLICATE_TOOL_CALL_ID: (
        "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and messages[{second}]."
    ),
    ProviderRule.TOOL_CALL_WITHOUT_ID: "Missing required parameter: 'messages[{message}].tool_calls[{call}].id'.",
    ProviderRule.EMPTY_MESSAGES: (
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead."
    ),
    ProviderRule.INVALID_TOOL_NAME: (
        "Invalid 'tools[{index}].function.name': string does not match pattern. Expected a string that matches "
        "the pattern '^[a-zA-Z0-9_-]+$'."
    ),
}


class ProviderRuleError(ValueError):
    """A request (or a scripted reply) broke a rule that real chat-model providers enforce.

    Attributes:
        rule: the :class:`ProviderRule` (a ``str``: compare it with ``"unanswered_tool_call"`` etc.).
        tool_call_id: the id of the offending tool call or ToolMessage, or ``None``.

    The message starts with ``[rule]`` and names the id, e.g.
    ``[unanswered_tool_call] tool call 'call_1' (lookup_order) has no ToolMessage ...``.
    OpenAI's chat.completions API rejects the same requests with HTTP 400; its wording for each
    rule is in :data:`OPENAI_ERRORS`.
    """

    def __init__(self, rule: ProviderRule | str, message: str, tool_call_id: str | None = None):
        self.rule = ProviderRule(rule)
        self.tool_call_id = tool_call_id
        super().__init__(f"[{self.rule}] {message}")


def _calls(message: AIMessage) -> list[dict[str, Any]]:
    """The tool calls a provider sees in an assistant turn: valid ones, then invalid ones."""
    return [*message.tool_calls, *message.invalid_tool_calls]


def check_tools(tools: Sequence[Mapping[str, Any]] | None) -> None:
    """Check the bound tool schemas of a request (OpenAI function format).

    Args:
        tools: ``[{"type": "function", "function": {"name": ..., ...}}, ...]`` or ``None``.

    Raises:
        ProviderRuleError: ``invalid_tool_name`` when a name is not ``^[a-zA-Z0-9_-]{1,64}$``
            (OpenAI: "Invalid 'tools[0].function.name': string does not match pattern ...").
    """
    for index, schema in enumerate(tools or []):
        function = schema.get("function", schema) if isinstance(schema, Mapping) else {}
        name = function.get("name") if isinstance(function, Mapping) else None
        if not isinstance(name, str) or not TOOL_NAME_PATTERN.match(name):
            shown = repr(name) if isinstance(name, str) and len(name) <= 80 else f"a {type(name).__name__}"
            raise ProviderRuleError(
                ProviderRule.INVALID_TOOL_NAME,
                f"bound tool {index} is named {shown}; providers accept only letters, digits, '_' and '-', "
                "at most 64 characters (e.g. @tool(\"lookup_order\"))",
            )


def check_history(messages: Sequence[BaseMessage]) -> None:
    """Check a message history against the provider rules on tool calls.

    Rules, in the order they are checked (each raises :class:`ProviderRuleError`):

    * ``empty_messages``: the request holds no message;
    * ``tool_call_without_id``: an assistant tool call (valid or invalid) has no id;
    * ``duplicate_tool_call_id``: a tool call id appears twice in the history (in one turn or in two);
    * ``unanswered_tool_call``: every tool call of an AIMessage must be answered by a
      ToolMessage with its id before any other message and before the next model turn;
    * ``orphan_tool_message``: a ToolMessage must answer a tool call of the AIMessage just before it;
    * ``duplicate_tool_message``: one tool call gets one ToolMessage.

    Args:
        messages: the history a model is about to receive.
    """
    if not messages:
        raise ProviderRuleError(
            ProviderRule.EMPTY_MESSAGES,
            "the request holds no messages; send at least one (e.g. the user's question)",
        )
    _check_call_ids(messages)
    pending: dict[str, str] = {}  # tool_call_id -> tool name, awaiting a ToolMessage
    answered: set[str] = set()
    for message in messages:
        if isinstance(message, ToolMessage):
            tcid = message.tool_call_id
            if tcid in pending:
                del pending[tcid]
                answered.add(tcid)
            elif tcid in answered:
                raise ProviderRuleError(
                    ProviderRule.DUPLICATE_TOOL_MESSAGE,
                    f"tool call {tcid!r} already has a ToolMessage; answer each tool call once",
                    tcid,
                )
            else:
                raise ProviderRuleError(
                    ProviderRule.ORPHAN_TOOL_MESSAGE,
                    f"ToolMessage with tool_call_id={tcid!r} does not answer any tool call of the "
                    "AIMessage before it",
                    tcid,
                )
            continue
        if pending:
            raise _unanswered(pending, f"the next {type(message).__name__}")
        answered = set()
        if isinstance(message, AIMessage):
            pending = {c["id"]: c["name"] for c in _calls(message)}
    if pending:
        raise _unanswered(pending, "the next model turn")


def _unanswered(pending: Mapping[str, str], before: str) -> ProviderRuleError:
    """``unanswered_tool_call`` for the first call still waiting (``pending``: id -> tool name)."""
    tcid, name = next(iter(pending.items()))
    return ProviderRuleError(
        ProviderRule.UNANSWERED_TOOL_CALL,
        f"tool call {tcid!r} ({name}) has no ToolMessage before {before}; "
        f"answer it with ToolMessage(tool_call_id={tcid!r})",
        tcid,
    )


def _check_call_ids(messages: Sequence[BaseMessage]) -> None:
    """``tool_call_without_id`` and ``duplicate_tool_call_id`` over the whole history."""
    seen: dict[str, int] = {}  # tool call id -> number (1-based) of the message that made it
    for number, message in enumerate(messages, start=1):
        if not isinstance(message, AIMessage):
            continue
        for call in _calls(message):
            call_id = call.get("id")
            if not call_id:
                raise ProviderRuleError(
                    ProviderRule.TOOL_CALL_WITHOUT_ID,
                    f"message {number} calls {call.get('name')!r} without an id; a ToolMessage can only "
                    "answer a tool call by its id",
                )
            if call_id in seen:
                where = "in the same reply" if seen[call_id] == number else f"in messages {seen[call_id]} and {number}"
                raise ProviderRuleError(
                    ProviderRule.DUPLICATE_TOOL_CALL_ID,
                    f"tool call id {call_id!r} is used twice ({where}); each tool call needs its own id, "
                    "or no ToolMessage can say which call it answers",
                    call_id,
                )
            seen[call_id] = number


def check_reply(message: AIMessage, *, bound: Iterable[str] | None, history: Sequence[BaseMessage] = (),
                reply_number: int | None = None) -> None:
    """Check a reply before it is handed out.

    Args:
        message: the reply.
        bound: names of the bound tools; ``None`` skips ``tool_not_bound``.
        history: the request's messages: a reply may not reuse one of their tool call ids.
        reply_number: shown in messages (``reply 2 ...``).

    Raises:
        ProviderRuleError: ``tool_call_without_id``, ``duplicate_tool_call_id`` (two calls of the
            reply share an id, or reuse one from the history) or ``tool_not_bound``.
    """
    label = f"reply {reply_number}" if reply_number is not None else "the reply"
    used = {c.get("id") for m in history if isinstance(m, AIMessage) for c in _calls(m)}
    mine: set[str] = set()
    for call in _calls(message):
        call_id = call.get("id")
        if not call_id:
            raise ProviderRuleError(ProviderRule.TOOL_CALL_WITHOUT_ID, f"{label} calls {call['name']!r} without an id")
        if call_id in mine or call_id in used:
            where = "another call of the same reply" if call_id in mine else "a tool call earlier in the history"
            raise ProviderRuleError(
                ProviderRule.DUPLICATE_TOOL_CALL_ID,
                f"{label} calls {call['name']!r} with id {call_id!r}, which {where} already has; "
                "the ToolMessages could not say which call they answer (give each call its own id, "
                "or leave id=None for call_<n>)",
                call_id,
            )
        mine.add(call_id)
    if bound is None:
        return
    names = set(bound)
    for call in _calls(message):
        if call["name"] not in names:
            shown = ", ".join(sorted(names)) or "none"
            raise ProviderRuleError(
                ProviderRule.TOOL_NOT_BOUND,
                f"{label} calls {call['name']!r} (id {call['id']!r}) but the bound "
                f"tools are: {shown}; bind it with bind_tools or pass it to create_agent",
                call["id"],
            )
