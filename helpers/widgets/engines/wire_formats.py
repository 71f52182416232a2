"""The engine of the wire-format view (notebook 14): one conversation as three request bodies.

Plain Python, no ipywidgets. The learner changes the conversation (each tool call answered, answered
with ``status="error"``, or its answer dropped) and the ``bind_tools`` options (``tool_choice``,
``parallel_tool_calls``); the engine rebuilds the request body each integration's own code sends:
``ChatOpenAI`` (chat.completions), ``ChatOpenAI(use_responses_api=True)`` and ``ChatAnthropic``, through
their ``bind_tools(...).kwargs`` and the private ``_get_request_payload`` (langchain-openai 1.7.4,
langchain-anthropic 1.7.10; offline: no request is sent, the key is a placeholder). For each body it
reads what carries the pairing and the error flag, and which calls are unanswered (which no builder
refuses: only the provider would). :class:`helpers.widgets.wire_formats.WireFormatsView` is its view.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from ..text import shorten

__all__ = ["ANSWER_STATES", "FORMATS", "TOOL_CHOICES", "AnswerState", "BodyView", "WireFormatsEngine",
           "default_clients"]

#: What the application sent back for one tool call.
AnswerState = Literal["answered", "error", "dropped"]
ANSWER_STATES: tuple[str, ...] = get_args(AnswerState)
#: The three integrations, in the order they are shown.
Format = Literal["chat.completions", "Responses API", "Anthropic"]
FORMATS: tuple[str, ...] = get_args(Format)
#: The ``tool_choice`` values offered (``None``: not given); a bound tool's name is added per engine.
TOOL_CHOICES: tuple[str | None, ...] = (None, "auto", "any", "required", "none")


def default_clients() -> dict[str, Any]:
    """The three integrations as section 1 of notebook 14 builds them (placeholder keys, never used)."""
    from langchain_anthropic import ChatAnthropic
    from langchain_openai import ChatOpenAI

    return {
        "chat.completions": ChatOpenAI(model="gpt-4o-mini", api_key="placeholder"),
        "Responses API": ChatOpenAI(model="gpt-4o-mini", api_key="placeholder", use_responses_api=True),
        "Anthropic": ChatAnthropic(model="claude-sonnet-4-5", api_key="placeholder"),
    }


@dataclass(frozen=True)
class BodyView:
    """What one integration sends, and what the engine read out of it.

    Attributes:
        name: one of :data:`FORMATS`.
        body: the request body (``tools`` left out: they do not change here), or ``None`` when the
            integration refused the options.
        error: ``"Type: message"`` when ``bind_tools`` refused the options (e.g. ``tool_choice=True``),
            else ``""``.
        answers: ``(call id, error flag)`` of each tool result in the body, in body order; the flag is
            ``None`` when the body has no field for it.
        unanswered: ids of the calls no tool result answers, in call order (the provider would refuse).
        options: the body's ``tool_choice`` / ``parallel_tool_calls`` as sent (absent keys left out).
    """

    name: str
    body: dict[str, Any] | None
    error: str = ""
    answers: tuple[tuple[str, bool | None], ...] = ()
    unanswered: tuple[str, ...] = ()
    options: Mapping[str, Any] | None = None

    def items(self) -> list[str]:
        """The body's messages (or Responses ``input`` items) as one compact JSON line each,
        preceded by a top-level ``system`` when the body has one."""
        if self.body is None:
            return []
        lines = [f'"system": {json.dumps(self.body["system"])}'] if "system" in self.body else []
        return lines + [json.dumps(item) for item in self.body.get("messages", self.body.get("input", []))]


def _read(name: str, body: Mapping[str, Any]) -> tuple[list[tuple[str, bool | None]], list[str]]:
    """``(answers, call ids)`` of a body of format ``name``, both in body order."""
    answers: list[tuple[str, bool | None]] = []
    calls: list[str] = []
    if name == "Responses API":
        for item in body.get("input", []):
            if item.get("type") == "function_call":
                calls.append(item["call_id"])
            elif item.get("type") == "function_call_output":
                answers.append((item["call_id"], item.get("is_error")))
        return answers, calls
    for message in body.get("messages", []):
        calls += [call["id"] for call in message.get("tool_calls") or []]
        if message.get("role") == "tool":
            answers.append((message["tool_call_id"], message.get("is_error")))
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use":
                calls.append(block["id"])
            elif block.get("type") == "tool_result":
                answers.append((block["tool_use_id"], block.get("is_error")))
    return answers, calls


def _brief(value: Any) -> str:
    """``repr(value)``, cut for an error message."""
    return shorten(repr(value), 200)


class WireFormatsEngine:
    """One conversation with parallel tool calls, shown as the three request bodies.

    Args:
        prefix: the messages before the tool calls (e.g. a system message and the question).
        ai: the ``AIMessage`` with the tool calls (at least one).
        answers: one ``ToolMessage`` per call of ``ai`` (any order; matched by ``tool_call_id``); its
            ``status`` is the call's starting state (``"error"`` or answered).
        tools: the tools bound with ``bind_tools`` (their names are offered as ``tool_choice`` values).
        clients: ``{format name: chat model}``; default :func:`default_clients`.

    Attributes:
        states: ``{call id: AnswerState}``, in call order.
        tool_choice: the ``tool_choice`` given to ``bind_tools`` (``None``: not given).
        parallel_tool_calls: ``None`` (not given) or ``False``.

    Raises:
        ValueError: ``ai`` has no tool calls, or ``answers`` do not answer exactly its calls.
    """

    def __init__(self, prefix: Sequence[BaseMessage], ai: AIMessage, answers: Sequence[ToolMessage],
                 tools: Sequence[Any], *, clients: Mapping[str, Any] | None = None):
        if not ai.tool_calls:
            raise ValueError("the AIMessage has no tool calls: there is nothing to answer")
        by_id = {answer.tool_call_id: answer for answer in answers}
        ids = [call["id"] for call in ai.tool_calls]
        if sorted(by_id) != sorted(ids) or len(answers) != len(ids):
            given = [answer.tool_call_id for answer in answers]
            raise ValueError(f"give exactly one ToolMessage per tool call {ids}; got answers for {given}")
        self.prefix = list(prefix)
        self.ai = ai
        self.tools = list(tools)
        self._answers = by_id
        self._start = {call_id: ("error" if by_id[call_id].status == "error" else "answered") for call_id in ids}
        self.clients = dict(clients) if clients is not None else default_clients()
        self.states: dict[str, AnswerState] = dict(self._start)
        self.tool_choice: str | None = None
        self.parallel_tool_calls: bool | None = None

    # -- what the learner changes ------------------------------------------------------------

    @property
    def call_ids(self) -> list[str]:
        """The ids of the tool calls, in call order."""
        return list(self.states)

    @property
    def tool_choices(self) -> list[str | None]:
        """The ``tool_choice`` values offered: :data:`TOOL_CHOICES`, then each bound tool's name."""
        names = [getattr(tool, "name", None) or getattr(tool, "__name__", str(tool)) for tool in self.tools]
        return [*TOOL_CHOICES, *names]

    def set_answer(self, call_id: str, state: str) -> None:
        """Answer call ``call_id`` (``"answered"``), answer it with ``status="error"`` (``"error"``)
        or drop its ToolMessage (``"dropped"``). Raises ``ValueError`` for another id or state."""
        if not isinstance(call_id, str) or call_id not in self.states:
            raise ValueError(f"no tool call {_brief(call_id)}; the calls are {self.call_ids}")
        if state not in ANSWER_STATES:
            raise ValueError(f"an answer is one of {list(ANSWER_STATES)}, got {_brief(state)}")
        self.states[call_id] = state  # type: ignore[assignment]

    def force_tool(self, choice: str | None) -> None:
        """Set ``tool_choice`` (one of :attr:`tool_choices`; ``None`` gives none). Raises ``ValueError``."""
        if choice not in self.tool_choices:
            raise ValueError(f"tool_choice is one of {self.tool_choices}, got {_brief(choice)}")
        self.tool_choice = choice

    def set_parallel(self, allowed: bool) -> None:
        """``False`` binds with ``parallel_tool_calls=False``; ``True`` leaves the option out.
        Raises ``TypeError`` for anything but a bool (``"false"`` is not ``False``)."""
        if not isinstance(allowed, bool):
            raise TypeError(f"parallel tool calls are allowed (True) or not (False), got {_brief(allowed)}")
        self.parallel_tool_calls = None if allowed else False

    def reset(self) -> None:
        """Back to the starting answers, no ``tool_choice``, parallel calls allowed."""
        self.states = dict(self._start)
        self.tool_choice = None
        self.parallel_tool_calls = None

    # -- what it shows -------------------------------------------------------------------------

    def messages(self) -> list[BaseMessage]:
        """The history as the application would send it now (answers in call order)."""
        answers = []
        for call_id, state in self.states.items():
            if state == "dropped":
                continue
            status = "error" if state == "error" else "success"
            answers.append(self._answers[call_id].model_copy(update={"status": status}))
        return [*self.prefix, self.ai, *answers]

    def options(self) -> dict[str, Any]:
        """The keyword arguments given to ``bind_tools`` (only those set)."""
        given: dict[str, Any] = {}
        if self.tool_choice is not None:
            given["tool_choice"] = self.tool_choice
        if self.parallel_tool_calls is not None:
            given["parallel_tool_calls"] = self.parallel_tool_calls
        return given

    def bodies(self) -> list[BodyView]:
        """One :class:`BodyView` per integration, in :data:`FORMATS` order, built by its own code."""
        messages = self.messages()
        views = []
        for name, client in self.clients.items():
            try:
                kwargs = client.bind_tools(self.tools, **self.options()).kwargs
            except ValueError as exc:
                views.append(BodyView(name, None, error=f"{type(exc).__name__}: {exc}"))
                continue
            body = client._get_request_payload(messages, **kwargs)
            body.pop("tools", None)
            answers, calls = _read(name, body)
            answered = {call_id for call_id, _ in answers}
            views.append(BodyView(
                name, body, answers=tuple(answers),
                unanswered=tuple(call_id for call_id in calls if call_id not in answered),
                options={k: body[k] for k in ("tool_choice", "parallel_tool_calls") if k in body}))
        return views
