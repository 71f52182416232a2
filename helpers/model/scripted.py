"""The scripted player: ``ScriptedChatModel``, the course's offline chat model.

``ScriptedChatModel`` plays back a script (:mod:`helpers.model.script`) instead of calling a
provider. It behaves like a real tool-calling chat model where the course needs it to:

* ``bind_tools`` converts tools to the OpenAI function format and binds them with
  ``Runnable.bind(tools=...)``, the way ``langchain_openai.ChatOpenAI.bind_tools`` does
  (langchain-openai 1.7.4), so ``create_agent`` and hand-written loops both work;
* tool calls in replies get deterministic ids (``call_1``, ``call_2``, ...; never one already in
  the history) unless the script gives one, and replies get deterministic message ids
  (``ai-<n>``, one past the highest such id already in the conversation);
* every request is recorded (:class:`~helpers.model.recording.RecordedRequest`): the messages
  and tool schemas, and :meth:`~helpers.model.recording.RecordedRequest.payload` gives the body
  ``ChatOpenAI`` would send for them;
* it enforces the provider rules (:mod:`helpers.model.rules`) and raises
  :class:`~helpers.model.rules.ProviderRuleError` naming the rule and the tool call id;
* with ``stream_mode="messages"`` (or ``.stream()``) replies arrive as ``AIMessageChunk``
  objects whose ``tool_call_chunks`` assemble into the same tool calls as ``invoke`` gives
  (arguments are JSON values in both), framed as ``ChatOpenAI`` frames a chat.completions stream:
  an empty opening chunk, the pieces (each call's head chunk with its name and id first), a chunk
  carrying ``finish_reason``, then an empty last chunk with ``chunk_position="last"``
  (``tests/test_provider_streams.py`` compares it with the real integration). A *truncated* argument string scripted with
  ``invalid_tool_call`` (``{"a": "x``) is completed by langchain-core's ``parse_partial_json``
  when streamed chunks merge, as it is for a real provider's stream, while one that is not
  JSON at all (``{"a": x}``) stays an invalid tool call; a :func:`~helpers.model.script.streamed`
  step writes the chunks out (where they split, two calls interleaved by ``index``) and the
  ``finish_reason`` the reply reports (``"length"`` for a reply cut off mid-arguments);
* one model serves one conversation at a time: a request that continues a conversation which
  was waiting for tool results, after another conversation was served in between, raises
  :class:`InterleavedConversationsError` (two conversations sharing one script would get each
  other's replies).

It subclasses ``langchain_core.language_models.BaseChatModel`` directly, like the fake
models in ``langchain_core.language_models.fake_chat_models``: those have no ``bind_tools``
and drop tool calls when streamed (langchain-core 1.8.3). LangChain's own conformance suite
(``langchain-tests`` 1.1.9, ``ChatModelUnitTests`` and the integration tests that need no
understanding of the prompt) runs against it in ``tests/test_langchain_standard.py``.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.language_models.base import LangSmithParams
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field, PrivateAttr

from ..i18n import ngettext
from .provider_streams import chat_completions_chunks
from .recording import RecordedRequest, RequestLog
from .rules import check_history, check_reply, check_tools
from .script import Piece, ScriptError, StreamedStep, step_to_message, validate_script

__all__ = ["InterleavedConversationsError", "ScriptExhaustedError", "ScriptedChatModel"]


class ScriptExhaustedError(RuntimeError):
    """The model was asked for more replies than its script has.

    Raised instead of a bare ``StopIteration``; the message names the step count,
    e.g. ``script has 2 steps and all were used; request 3 has no reply``.
    """


class InterleavedConversationsError(RuntimeError):
    """Two conversations share one scripted model and their requests interleave.

    A script plays its steps in order, whoever asks; two conversations running at the same time
    (``agent.batch``, two threads, ``asyncio.gather``) would receive each other's replies. Raised
    when a request continues a conversation that was waiting for tool results while another
    conversation was answered in between. Give each conversation its own scripted model, or build
    the model with ``allow_interleaving=True`` when the order is intended.
    """


_AI_ID = re.compile(r"^ai-(\d+)$")
_CALL_ID = re.compile(r"^call_(\d+)$")


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


def _history_call_ids(messages: Sequence[BaseMessage]) -> set[str]:
    return {c.get("id") for m in messages if isinstance(m, AIMessage)
            for c in [*m.tool_calls, *m.invalid_tool_calls] if c.get("id")}


def _message_key(message: BaseMessage) -> tuple:
    """What identifies a message within a conversation (type, content, tool call ids)."""
    content = message.content if isinstance(message.content, str) else repr(message.content)
    if isinstance(message, AIMessage):
        calls = tuple(c.get("id") for c in [*message.tool_calls, *message.invalid_tool_calls])
        return ("ai", content, calls)
    if isinstance(message, ToolMessage):
        return ("tool", content, message.tool_call_id)
    return (message.type, content)


@dataclass
class _Conversation:
    """One conversation the model served: its transcript so far and its latest request."""

    keys: list[tuple]
    last_request: int
    awaiting_tools: bool = False


class ScriptedChatModel(RequestLog, BaseChatModel):
    """A chat model that replays a script and enforces provider rules.

    Args:
        script: the replies, in order: a list (or tuple) of steps, each a ``str`` (text reply),
            an ``AIMessage`` (e.g. from :func:`~helpers.model.script.reply`), a list of
            :func:`~helpers.model.script.tool_call` dicts, or a callable
            ``f(request: RecordedRequest) -> step``. Checked when the model is built.
        strict_tool_names: if True (default), a reply that calls a tool which is not
            bound raises ``ProviderRuleError("tool_not_bound")``; set False to script a
            model that invents a tool name (to show how the harness answers it).
        stream_chunk_chars: size of the text/argument pieces when streaming (characters).
        model: the model name the replies and request bodies carry (default ``"scripted"``;
            also readable as ``model_name``); a per-call ``model=...`` overrides it.
        allow_interleaving: if True, do not refuse interleaved conversations (see
            :class:`InterleavedConversationsError`).

    Other keyword arguments LangChain passes to chat models (``temperature``, ``max_tokens``,
    ``timeout``, ``max_retries``, ``stop``, ``api_key``) are accepted and ignored.

    Attributes:
        requests: every :class:`~helpers.model.recording.RecordedRequest` the model answered, in
            order (a request rejected by a provider rule raises before it is recorded and uses no step).

    Raises:
        ScriptError: when built, the script is missing or given positionally
            (``ScriptedChatModel(["Done."])``: write ``script=[...]``), or the script or a step is
            malformed (named with its step number); when played, a callable step returned something that is not a step.
        ProviderRuleError: a request breaks a provider rule, or a reply calls an unbound tool or
            reuses a tool call id.
        ScriptExhaustedError: more requests than steps.
        InterleavedConversationsError: two conversations' requests interleave.

    Example:
        >>> model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "Done."])
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, populate_by_name=True)

    script: list[Any]
    strict_tool_names: bool = True
    stream_chunk_chars: int = 8
    model_name: str = Field(default="scripted", alias="model")
    allow_interleaving: bool = False

    _requests: list[RecordedRequest] = PrivateAttr(default_factory=list)
    _next_call: int = PrivateAttr(default=1)
    _lock: threading.RLock = PrivateAttr(default_factory=threading.RLock)
    _conversations: list[_Conversation] = PrivateAttr(default_factory=list)

    def __init__(self, *args: Any, **data: Any) -> None:
        if args:
            raise ScriptError(
                f"ScriptedChatModel takes its script as a keyword: ScriptedChatModel(script=[...]) "
                f"(or use scripted_model([...])); it got {len(args)} positional argument{'' if len(args) == 1 else 's'}"
            )
        if "script" not in data:
            raise ScriptError("ScriptedChatModel needs a script: ScriptedChatModel(script=[...]) "
                              "(or use scripted_model([...])), e.g. script=[\"Done.\"] for one text reply")
        data["script"] = validate_script(data["script"])
        super().__init__(**data)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        """LangSmith's standard params: provider ``"scripted"``, the model name (a per-call ``model`` wins)."""
        params = super()._get_ls_params(stop=stop, **kwargs)
        params["ls_provider"] = "scripted"
        model = kwargs.get("model")
        params["ls_model_name"] = model if isinstance(model, str) and model else self.model_name
        return params

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
            tool_choice: recorded with each request (and shown in its payload the way
                ChatOpenAI sends it); the script decides the reply.
            **kwargs: other request options (e.g. ``parallel_tool_calls``): recorded; ``strict``
                also shapes the schemas, as in ChatOpenAI (``convert_to_openai_tool(t, strict=...)``).

        Returns:
            a ``RunnableBinding`` around this same model (so the script and the
            recorded requests are shared).
        """
        formatted = [convert_to_openai_tool(t, strict=kwargs.get("strict")) for t in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    # -- the core: one request -> one scripted reply ---------------------------------

    def _next_reply(self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any],
                    *, streamed: bool) -> tuple[AIMessage, tuple[Piece, ...] | None]:
        """The reply to one request and, for a ``streamed(...)`` step with pieces, its chunks."""
        with self._lock:
            model_name = kwargs.get("model") if isinstance(kwargs.get("model"), str) else self.model_name
            check_tools(kwargs.get("tools"))
            check_history(messages)
            options = {**kwargs, "stop": stop} if stop else kwargs
            request = self._new_request(messages, options, model_name=model_name, streamed=streamed)
            keys = [_message_key(m) for m in messages]
            conversation = self._conversation_for(keys, request.index)
            if len(self._requests) >= len(self.script):
                steps = len(self.script)
                raise ScriptExhaustedError(ngettext(
                    "script has {steps} step and all were used; request {request} has no reply (add a step to the script)",
                    "script has {steps} steps and all were used; request {request} has no reply (add a step to the "
                    "script)", steps).format(steps=steps, request=request.index))
            self._record(request)
            if conversation is None:
                conversation = _Conversation(keys=keys, last_request=request.index)
                self._conversations.append(conversation)
            conversation.keys, conversation.last_request, conversation.awaiting_tools = keys, request.index, False
            step = self.script[request.index - 1]
            pieces = None
            if callable(step):
                name = getattr(step, "__name__", type(step).__name__)
                step = step(request)
                try:
                    if callable(step):
                        raise ScriptError("returned another callable; return a step", request.index)
                    message = self._to_message(step, request.index, messages, model_name)
                except ScriptError as error:
                    raise ScriptError(f"(the callable {name}) {error.detail}", request.index) from None
            else:
                message = self._to_message(step, request.index, messages, model_name)
            if isinstance(step, StreamedStep):
                pieces = step.pieces
            check_reply(message, bound=request.tool_names if self.strict_tool_names else None,
                        history=messages, reply_number=request.index)
            conversation.keys = [*keys, _message_key(message)]
            conversation.awaiting_tools = bool(message.tool_calls or message.invalid_tool_calls)
            return message, pieces

    def _conversation_for(self, keys: list[tuple], index: int) -> _Conversation | None:
        """The served conversation this request continues (``None``: a new one); refuse an interleaving."""
        best: _Conversation | None = None
        for conversation in self._conversations:
            size = len(conversation.keys)
            if size <= len(keys) and keys[:size] == conversation.keys and (best is None or size > len(best.keys)):
                best = conversation
        latest = len(self._requests)
        if best is not None and best.awaiting_tools and best.last_request != latest and not self.allow_interleaving:
            between = range(best.last_request + 1, latest + 1)
            shown = ", ".join(str(n) for n in between) if len(between) <= 5 else f"{between[0]}-{between[-1]}"
            raise InterleavedConversationsError(
                f"request {index} continues the conversation of request {best.last_request}, which was waiting for "
                f"tool results, but request{'s' if len(between) > 1 else ''} {shown} of another conversation "
                "were answered in between: one scripted model plays one script in order, so two conversations "
                "running at the same time get each other's replies. Give each conversation (each thread, each "
                "batch input) its own scripted model, or build it with allow_interleaving=True if this order "
                "is intended"
            )
        return best

    def _to_message(self, step: Any, index: int, history: Sequence[BaseMessage], model_name: str) -> AIMessage:
        message = step_to_message(step, index)
        earlier = _history_call_ids(history)
        self._next_call = max(self._next_call, 1 + max((int(m.group(1)) for m in map(_CALL_ID.match, earlier) if m), default=0))
        used = earlier | {c["id"] for c in [*message.tool_calls, *message.invalid_tool_calls] if c.get("id")}

        def with_id(call: dict[str, Any]) -> dict[str, Any]:
            if call.get("id"):
                return call
            while f"call_{self._next_call}" in used:
                self._next_call += 1
            call_id = f"call_{self._next_call}"
            self._next_call += 1
            used.add(call_id)
            return {**call, "id": call_id}

        finish = message.response_metadata.get("finish_reason") or ("tool_calls" if message.tool_calls else "stop")
        return AIMessage(
            content=message.content,
            tool_calls=[with_id(c) for c in message.tool_calls],
            invalid_tool_calls=[with_id(c) for c in message.invalid_tool_calls],
            id=message.id or _next_ai_id(history),
            response_metadata={"model_name": model_name, "finish_reason": finish},
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message, _pieces = self._next_reply(messages, stop, kwargs, streamed=False)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message, pieces = self._next_reply(messages, stop, kwargs, streamed=True)
        chunks = self._chunks(message) if pieces is None else self._scripted_chunks(message, pieces)
        for chunk in chunks:
            generation = ChatGenerationChunk(message=chunk)
            if run_manager and isinstance(chunk.content, str) and chunk.content:
                run_manager.on_llm_new_token(chunk.content, chunk=generation)
            yield generation

    def _scripted_chunks(self, message: AIMessage, pieces: Sequence[Piece]) -> Iterator[AIMessageChunk]:
        """The chunks a ``streamed(...)`` step wrote out, framed as ``ChatOpenAI`` frames them (see :meth:`_chunks`)."""
        calls = [(c["name"], c["id"]) for c in [*message.tool_calls, *message.invalid_tool_calls]]
        return chat_completions_chunks(pieces, calls, message.response_metadata, message_id=message.id)

    def _chunks(self, message: AIMessage) -> Iterator[AIMessageChunk]:
        """Split a reply into chunks the way ``ChatOpenAI`` (chat.completions) streams one.

        An empty opening chunk, the text in pieces of ``stream_chunk_chars``, per call a head chunk (name, id,
        ``args=""``) and its argument pieces, a chunk with the reply's ``response_metadata`` (``finish_reason``),
        then an empty chunk with ``chunk_position="last"``
        (:func:`helpers.model.provider_streams.chat_completions_chunks`).
        """
        size = max(1, self.stream_chunk_chars)
        if isinstance(message.content, str):
            text = message.content
        else:  # content blocks: stream the text blocks
            text = "".join(
                b if isinstance(b, str) else b.get("text", "")
                for b in message.content
                if isinstance(b, str) or b.get("type") == "text"
            )
        pieces: list[Piece] = [text[start : start + size] for start in range(0, len(text), size)]
        calls = [(c["name"], json.dumps(c["args"]), c["id"]) for c in message.tool_calls]
        calls += [(c["name"], c["args"] or "", c["id"]) for c in message.invalid_tool_calls]
        for index, (_name, raw_args, _id) in enumerate(calls):
            pieces.append((index, ""))
            pieces += [(index, raw_args[start : start + size]) for start in range(0, len(raw_args), size)]
        return chat_completions_chunks(pieces, [(name, call_id) for name, _, call_id in calls],
                                       message.response_metadata, message_id=message.id)
