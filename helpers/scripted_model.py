"""A scripted chat model: the course's offline default.

``ScriptedChatModel`` plays back a fixed script of replies instead of calling a provider.
It behaves like a real tool-calling chat model where the course needs it to:

* ``bind_tools`` converts tools to the OpenAI function format and binds them with
  ``Runnable.bind(tools=...)``, the same way ``langchain_openai.ChatOpenAI.bind_tools``
  does (langchain-openai 1.7.4), so ``create_agent`` and hand-written loops both work;
* tool calls in replies get deterministic ids (``call_1``, ``call_2``, ...) unless the
  script gives one, and replies get deterministic message ids (``ai-<n>``, one past the
  highest such id already in the conversation);
* every request is recorded (:class:`RecordedRequest`): the messages and the tool schemas
  a provider would receive, so a notebook can show "what the model sees";
* it enforces the history rules that real providers enforce and raises
  :class:`ProviderRuleError` naming the rule and the offending tool call id;
* with ``stream_mode="messages"`` (or ``.stream()``) replies arrive as ``AIMessageChunk``
  objects whose ``tool_call_chunks`` assemble into the same tool calls. Argument strings
  are parsed by langchain-core when the chunks are merged (``parse_partial_json``), as they
  are for a real provider's stream: a *truncated* argument string such as ``{"a": "x``
  becomes a valid call there, while one that is not JSON at all (``{"a": x}``) stays an
  invalid tool call.

It subclasses ``langchain_core.language_models.BaseChatModel`` directly, like the fake
models in ``langchain_core.language_models.fake_chat_models``: those have no
``bind_tools`` and drop tool calls when streamed (langchain-core 1.8.3).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    ToolMessage,
    convert_to_openai_messages,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, PrivateAttr

__all__ = [
    "ProviderRuleError",
    "RecordedRequest",
    "RequestLog",
    "ScriptExhaustedError",
    "ScriptedChatModel",
    "Step",
    "invalid_tool_call",
    "reply",
    "tool_call",
]


class ProviderRuleError(ValueError):
    """A request broke a rule that real chat-model providers enforce.

    Attributes:
        rule: a stable rule name, one of ``"unanswered_tool_call"``,
            ``"orphan_tool_message"``, ``"duplicate_tool_message"``, ``"tool_not_bound"``.
        tool_call_id: the id of the offending tool call or ToolMessage (may be ``None``).

    The message starts with ``[rule]`` and names the id, e.g.
    ``[unanswered_tool_call] tool call 'call_1' (lookup_order) has no ToolMessage ...``.
    OpenAI's chat.completions API rejects the same histories with HTTP 400
    ("An assistant message with 'tool_calls' must be followed by tool messages
    responding to each 'tool_call_id'").
    """

    def __init__(self, rule: str, message: str, tool_call_id: str | None = None):
        self.rule = rule
        self.tool_call_id = tool_call_id
        super().__init__(f"[{rule}] {message}")


class ScriptExhaustedError(RuntimeError):
    """The model was asked for more replies than its script has.

    Raised instead of a bare ``StopIteration``; the message names the step count,
    e.g. ``script has 2 steps and all were used; request 3 has no reply``.
    """


def tool_call(name: str, args: dict[str, Any] | None = None, id: str | None = None) -> dict[str, Any]:
    """Build a ToolCall dict for a script step.

    Args:
        name: the tool name the model "chooses".
        args: the arguments (a JSON-serialisable dict); ``{}`` if omitted.
        id: a fixed tool call id; if ``None`` the model assigns ``call_<n>``.

    Returns:
        ``{"name", "args", "id", "type": "tool_call"}``, the shape of
        ``langchain_core.messages.ToolCall``.
    """
    return {"name": name, "args": dict(args or {}), "id": id, "type": "tool_call"}


def invalid_tool_call(name: str, raw_args: str, id: str | None = None) -> dict[str, Any]:
    """Build a reply entry whose arguments are not valid JSON.

    Args:
        name: the tool name.
        raw_args: the raw argument string as a provider would send it, e.g. ``'{"order_id": A1}'``.
        id: a fixed id; if ``None`` the model assigns ``call_<n>``.

    Returns:
        an ``InvalidToolCall`` dict (``type == "invalid_tool_call"``); put it in
        ``AIMessage(invalid_tool_calls=[...])`` or pass it to :func:`reply`.
    """
    return {"name": name, "args": raw_args, "id": id, "error": None, "type": "invalid_tool_call"}


def reply(text: str = "", *calls: dict[str, Any]) -> AIMessage:
    """Build a scripted reply: optional text plus tool calls and/or invalid tool calls.

    Args:
        text: the reply text (content).
        *calls: dicts from :func:`tool_call` or :func:`invalid_tool_call`.

    Returns:
        an ``AIMessage``; ids are filled in when the model plays it.
    """
    valid = [dict(c) for c in calls if c.get("type", "tool_call") == "tool_call"]
    invalid = [dict(c) for c in calls if c.get("type") == "invalid_tool_call"]
    return AIMessage(content=text, tool_calls=valid, invalid_tool_calls=invalid)


@dataclass
class RecordedRequest:
    """One request the model received: what a provider would see.

    Attributes:
        index: 1-based request number for this model instance.
        messages: copies of the messages sent, in order.
        tools: the bound tool schemas in OpenAI function format
            (``{"type": "function", "function": {"name", "description", "parameters"}}``).
        tool_choice: the ``tool_choice`` passed to ``bind_tools`` (or ``None``).
    """

    index: int
    messages: list[BaseMessage]
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: Any = None

    @property
    def tool_names(self) -> list[str]:
        """Names of the bound tools, in binding order."""
        return [t["function"]["name"] for t in self.tools]

    @property
    def last_message(self) -> BaseMessage | None:
        """The final message of the request, or ``None`` for an empty request."""
        return self.messages[-1] if self.messages else None

    def payload(self) -> dict[str, Any]:
        """The request in OpenAI chat.completions shape: ``{"messages": [...], "tools": [...]}``.

        Messages are converted with ``langchain_core.messages.convert_to_openai_messages``;
        invalid tool calls are added to the assistant message's ``tool_calls`` with their raw
        argument string, as ``langchain_openai`` sends them. ``tools`` is omitted when no
        tools are bound. Tool messages carry ``role``, ``tool_call_id`` and ``content`` only, as
        ``langchain_openai.ChatOpenAI`` sends them (it also sends ``"content": null`` for an
        assistant turn with only tool calls; this shows ``""``).
        """
        converted = convert_to_openai_messages(self.messages)
        for target in converted:
            if target.get("role") == "tool":
                target.pop("name", None)  # ChatOpenAI sends only role, tool_call_id and content
        for source, target in zip(self.messages, converted):
            if isinstance(source, AIMessage) and source.invalid_tool_calls:
                target.setdefault("tool_calls", []).extend(
                    {"type": "function", "id": c["id"], "function": {"name": c["name"], "arguments": c["args"] or ""}}
                    for c in source.invalid_tool_calls
                )
        body: dict[str, Any] = {"messages": converted}
        if self.tools:
            body["tools"] = self.tools
        if self.tool_choice is not None:
            body["tool_choice"] = self.tool_choice
        return body


class RequestLog:
    """Mixin for chat models that keep one :class:`RecordedRequest` per request.

    The class using it declares ``_requests: list = PrivateAttr(default_factory=list)``
    (pydantic private attribute) and calls :meth:`_record` for each request.
    """

    _requests: list[RecordedRequest]

    @property
    def requests(self) -> list[RecordedRequest]:
        """All requests recorded so far (a copy of the list)."""
        return list(self._requests)

    @property
    def last_request(self) -> RecordedRequest:
        """The most recent request. Raises ``LookupError`` if there was none."""
        if not self._requests:
            raise LookupError("the model has not received a request yet")
        return self._requests[-1]

    def _new_request(self, messages: Sequence[BaseMessage], tools: Sequence[dict] | None, tool_choice: Any) -> RecordedRequest:
        """A :class:`RecordedRequest` numbered after the recorded ones (copies the messages; not yet recorded)."""
        return RecordedRequest(
            index=len(self._requests) + 1,
            messages=[m.model_copy(deep=True) for m in messages],
            tools=list(tools or []),
            tool_choice=tool_choice,
        )

    def _record(self, request: RecordedRequest) -> None:
        self._requests.append(request)


#: A script step: a reply, text, a list of tool calls, or a callable that picks one.
Step = Union[AIMessage, str, list, Callable[[RecordedRequest], Any]]


def check_history(messages: Sequence[BaseMessage]) -> None:
    """Check a message history against the provider rules on tool calls.

    Rules (each raises :class:`ProviderRuleError` naming the rule and the id):

    * ``unanswered_tool_call``: every tool call of an AIMessage must be answered by a
      ToolMessage with its id before any other message and before the next model turn;
    * ``orphan_tool_message``: a ToolMessage must answer a tool call of the AIMessage
      just before it;
    * ``duplicate_tool_message``: one tool call gets one ToolMessage.

    Args:
        messages: the history a model is about to receive.
    """
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
                    "duplicate_tool_message",
                    f"tool call {tcid!r} already has a ToolMessage; answer each tool call once",
                    tcid,
                )
            else:
                raise ProviderRuleError(
                    "orphan_tool_message",
                    f"ToolMessage with tool_call_id={tcid!r} does not answer any tool call of the "
                    "AIMessage before it",
                    tcid,
                )
            continue
        if pending:
            tcid, name = next(iter(pending.items()))
            raise ProviderRuleError(
                "unanswered_tool_call",
                f"tool call {tcid!r} ({name}) has no ToolMessage before the next "
                f"{type(message).__name__}; answer it with ToolMessage(tool_call_id={tcid!r})",
                tcid,
            )
        answered = set()
        if isinstance(message, AIMessage):
            calls = list(message.tool_calls) + list(message.invalid_tool_calls)
            pending = {c["id"]: c["name"] for c in calls if c.get("id")}
    if pending:
        tcid, name = next(iter(pending.items()))
        raise ProviderRuleError(
            "unanswered_tool_call",
            f"tool call {tcid!r} ({name}) has no ToolMessage before the next model turn; "
            f"answer it with ToolMessage(tool_call_id={tcid!r})",
            tcid,
        )


_AI_ID = re.compile(r"^ai-(\d+)$")


def _next_ai_id(messages: Sequence[BaseMessage]) -> str:
    """``ai-<n>``, one past the highest ``ai-<n>`` id in the history (``ai-1`` for a new conversation).

    Ids stay deterministic and never collide with earlier replies in the same thread, even
    when another ScriptedChatModel instance produced them (``add_messages`` replaces a
    message whose id is already in the state).
    """
    highest = 0
    for message in messages:
        match = _AI_ID.match(message.id or "")
        if match:
            highest = max(highest, int(match.group(1)))
    return f"ai-{highest + 1}"


class ScriptedChatModel(RequestLog, BaseChatModel):
    """A chat model that replays a script and enforces provider rules.

    Args:
        script: the replies, in order. Each step is one of

            * ``str``: a text reply;
            * ``AIMessage`` (e.g. from :func:`reply`): played as is, ids filled in;
            * ``list`` of :func:`tool_call` dicts: a reply with those calls and no text;
            * a callable ``f(request: RecordedRequest) -> step``: decides from the messages
              and bound tools (it may return any of the above).
        strict_tool_names: if True (default), a reply that calls a tool which is not
            bound raises ``ProviderRuleError("tool_not_bound")``; set False to script a
            model that invents a tool name (to show how the harness answers it).
        stream_chunk_chars: size of the text/argument pieces when streaming (characters).

    Attributes:
        requests: every :class:`RecordedRequest` the model answered, in order (a request
            rejected by a provider rule raises before it is recorded and uses no step).

    Raises:
        ProviderRuleError: a request's history breaks a provider rule, or a reply calls
            an unbound tool.
        ScriptExhaustedError: more requests than steps.

    Example:
        >>> model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "Done."])
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: list[Any]
    strict_tool_names: bool = True
    stream_chunk_chars: int = 8

    _requests: list[RecordedRequest] = PrivateAttr(default_factory=list)
    _next_call: int = PrivateAttr(default=1)
    _lock: threading.RLock = PrivateAttr(default_factory=threading.RLock)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def steps_left(self) -> int:
        """How many script steps have not been played yet."""
        return len(self.script) - len(self._requests)

    def bind_tools(
        self,
        tools: Sequence[Any],
        *,
        tool_choice: Any = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools the way provider integrations do: convert, then ``bind(tools=...)``.

        Args:
            tools: ``BaseTool`` objects, functions, Pydantic models or schema dicts.
            tool_choice: recorded with each request; not otherwise used.
            **kwargs: extra model kwargs (e.g. ``parallel_tool_calls``), accepted and ignored.

        Returns:
            a ``RunnableBinding`` around this same model (so the script and the
            recorded requests are shared).
        """
        formatted = [convert_to_openai_tool(t) for t in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    # -- the core: one request -> one scripted reply ---------------------------------

    def _next_reply(self, messages: list[BaseMessage], tools: list[dict] | None, tool_choice: Any) -> AIMessage:
        with self._lock:
            request = self._new_request(messages, tools, tool_choice)
            check_history(messages)
            if len(self._requests) >= len(self.script):
                steps = len(self.script)
                raise ScriptExhaustedError(
                    f"script has {steps} step{'' if steps == 1 else 's'} and all were used; "
                    f"request {request.index} has no reply (add a step to the script)"
                )
            self._record(request)
            step = self.script[request.index - 1]
            if callable(step) and not isinstance(step, BaseMessage):
                step = step(request)
            message = self._to_message(step, request.index, _next_ai_id(messages))
            self._check_bound(message, request)
            return message

    def _to_message(self, step: Any, index: int, message_id: str) -> AIMessage:
        if isinstance(step, str):
            message = AIMessage(content=step)
        elif isinstance(step, AIMessage):
            message = step.model_copy(deep=True)
        elif isinstance(step, list):
            message = reply("", *step)
        else:
            raise TypeError(
                f"script step {index} is a {type(step).__name__}; expected str, AIMessage, "
                "a list of tool_call(...) dicts, or a callable returning one of these"
            )
        message = AIMessage(
            content=message.content,
            tool_calls=[{**c, "id": c.get("id") or self._new_call_id()} for c in message.tool_calls],
            invalid_tool_calls=[
                {**c, "id": c.get("id") or self._new_call_id()} for c in message.invalid_tool_calls
            ],
            id=message.id or message_id,
            response_metadata={"model_name": "scripted", "finish_reason": "tool_calls" if message.tool_calls else "stop"},
        )
        return message

    def _new_call_id(self) -> str:
        call_id = f"call_{self._next_call}"
        self._next_call += 1
        return call_id

    def _check_bound(self, message: AIMessage, request: RecordedRequest) -> None:
        if not self.strict_tool_names:
            return
        bound = set(request.tool_names)
        for call in list(message.tool_calls) + list(message.invalid_tool_calls):
            if call["name"] not in bound:
                names = ", ".join(sorted(bound)) or "none"
                raise ProviderRuleError(
                    "tool_not_bound",
                    f"reply {request.index} calls {call['name']!r} (id {call['id']!r}) but the bound "
                    f"tools are: {names}; bind it with bind_tools or pass it to create_agent",
                    call["id"],
                )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self._next_reply(messages, kwargs.get("tools"), kwargs.get("tool_choice"))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._next_reply(messages, kwargs.get("tools"), kwargs.get("tool_choice"))
        for chunk in self._chunks(message):
            if run_manager and isinstance(chunk.content, str) and chunk.content:
                run_manager.on_llm_new_token(chunk.content, chunk=ChatGenerationChunk(message=chunk))
            yield ChatGenerationChunk(message=chunk)

    def _chunks(self, message: AIMessage) -> Iterator[AIMessageChunk]:
        """Split a reply into chunks: text pieces, then per call a head (name, id) and argument pieces."""
        size = max(1, self.stream_chunk_chars)
        if isinstance(message.content, str):
            text = message.content
        else:  # content blocks: stream the text blocks
            text = "".join(
                b if isinstance(b, str) else b.get("text", "")
                for b in message.content
                if isinstance(b, str) or b.get("type") == "text"
            )
        for start in range(0, len(text), size):
            yield AIMessageChunk(content=text[start : start + size], id=message.id)
        calls = [(c["name"], json.dumps(c["args"]), c["id"]) for c in message.tool_calls]
        calls += [(c["name"], c["args"] or "", c["id"]) for c in message.invalid_tool_calls]
        for index, (name, raw_args, call_id) in enumerate(calls):
            yield AIMessageChunk(
                content="",
                id=message.id,
                tool_call_chunks=[{"name": name, "args": "", "id": call_id, "index": index, "type": "tool_call_chunk"}],
            )
            for start in range(0, len(raw_args), size):
                yield AIMessageChunk(
                    content="",
                    id=message.id,
                    tool_call_chunks=[
                        {"name": None, "args": raw_args[start : start + size], "id": None, "index": index, "type": "tool_call_chunk"}
                    ],
                )
        yield AIMessageChunk(
            content="",
            id=message.id,
            response_metadata=dict(message.response_metadata),
            chunk_position="last",
        )
