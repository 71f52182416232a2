"""Request recording: what the model was sent, for the scripted and the real model alike.

A :class:`RecordedRequest` holds one request's messages, bound tool schemas, ``tool_choice`` and
other bound options; :meth:`RecordedRequest.payload` turns it into the JSON body of
``POST /v1/chat/completions`` exactly as ``langchain_openai.ChatOpenAI`` (langchain-openai 1.7.4)
builds it, with ChatOpenAI's own code path (``BaseChatOpenAI.bind_tools`` for ``tools`` /
``tool_choice`` and ``ChatOpenAI._get_request_payload``, which converts each message with
``_convert_message_to_dict``). So an assistant turn with only tool calls has ``"content": null``,
a ToolMessage has only ``role``, ``tool_call_id`` and ``content``, and the body has ``model`` and
``stream``.

Cost: langchain_openai (and the ``openai`` client under it) is imported on the first
:meth:`~RecordedRequest.payload` call only, about 0.5 s once per kernel after the course stack is
loaded (measured on the course's 2-core machine); the helper that builds bodies is made with
``ChatOpenAI.model_construct`` (no HTTP client, no API key) and cached. For the real model the
body is the one ``ChatOpenAI`` really sent, recorded when it was built.

:class:`RequestLog` is the mixin both chat models use to keep their requests.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

__all__ = ["RecordedRequest", "RequestLog", "chat_completions_body"]


@dataclass
class RecordedRequest:
    """One request a chat model received: what a provider would see.

    Attributes:
        index: 1-based request number for this model instance.
        messages: copies of the messages sent, in order.
        tools: the bound tool schemas in OpenAI function format
            (``{"type": "function", "function": {"name", "description", "parameters"}}``).
        tool_choice: the ``tool_choice`` given to ``bind_tools`` (``None``, ``"auto"``, ``"any"``,
            a tool name, ...), as given.
        options: other request options bound to the model (``parallel_tool_calls``, ``stop``, ...).
        model_name: the model name the body carries.
        streamed: True when the request was made with ``stream()`` / ``stream_mode="messages"``.
        body: the exact JSON body a real ``ChatOpenAI`` sent (``None`` for the scripted model,
            whose body :meth:`payload` builds on demand).
    """

    index: int
    messages: list[BaseMessage]
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    model_name: str = "scripted"
    streamed: bool = False
    body: dict[str, Any] | None = None

    @property
    def tool_names(self) -> list[str]:
        """Names of the bound tools, in binding order."""
        return [t["function"]["name"] for t in self.tools]

    @property
    def last_message(self) -> BaseMessage | None:
        """The final message of the request, or ``None`` for an empty request."""
        return self.messages[-1] if self.messages else None

    def payload(self) -> dict[str, Any]:
        """The request as the JSON body of ``POST /v1/chat/completions``.

        Returns:
            a new dict each call, e.g. ``{"model": "scripted", "stream": False, "tools": [...],
            "messages": [{"content": "where is A1024?", "role": "user"}, {"content": None,
            "role": "assistant", "tool_calls": [...]}, {"content": "...", "role": "tool",
            "tool_call_id": "call_1"}]}``: the body ``ChatOpenAI(model=model_name)`` sends
            for these messages and bound tools (``tools`` / ``tool_choice`` only when bound;
            ``"stream": true`` when the request was streamed; no ``stream_options``, as for a
            ChatOpenAI pointed at a custom ``base_url``).
        """
        if self.body is not None:
            return copy.deepcopy(self.body)
        return chat_completions_body(
            self.messages, model=self.model_name, tools=self.tools, tool_choice=self.tool_choice,
            options=self.options, stream=self.streamed,
        )


@functools.lru_cache(maxsize=8)
def _body_builder(model_name: str) -> Any:
    """A ``ChatOpenAI`` used only to build request bodies: no HTTP client, no key (``model_construct``)."""
    from langchain_openai import ChatOpenAI

    return ChatOpenAI.model_construct(model_name=model_name)


def chat_completions_body(messages: Sequence[BaseMessage], *, model: str, tools: Sequence[Mapping[str, Any]] = (),
                          tool_choice: Any = None, options: Mapping[str, Any] | None = None,
                          stream: bool = False) -> dict[str, Any]:
    """The chat.completions body ``langchain_openai.ChatOpenAI`` (1.7.4) builds for a request.

    Args:
        messages: the history.
        model: the ``model`` field.
        tools: bound tool schemas (any form ``ChatOpenAI.bind_tools`` accepts).
        tool_choice: as given to ``bind_tools`` (``"any"`` becomes ``"required"``, a tool name
            becomes ``{"type": "function", "function": {"name": ...}}``, as ChatOpenAI does).
        options: other bound options (``parallel_tool_calls``, ``strict``, ``stop``, ...).
        stream: the ``stream`` field.

    Returns:
        the body as a dict (``model``, ``stream``, then ``tools`` / ``tool_choice`` / options
        when given, then ``messages``).
    """
    builder = _body_builder(model)
    kwargs = dict(options or {})
    stop = kwargs.pop("stop", None)
    if tools:
        kwargs = dict(builder.bind_tools(list(tools), tool_choice=tool_choice, **kwargs).kwargs)
    elif tool_choice is not None:
        kwargs["tool_choice"] = tool_choice
    kwargs["stream"] = stream
    return builder._get_request_payload(list(messages), stop=stop, **kwargs)


class RequestLog:
    """Mixin for chat models that keep one :class:`RecordedRequest` per request.

    The class using it declares ``_requests: list = PrivateAttr(default_factory=list)``
    (a pydantic private attribute) and calls :meth:`_record` for each request.
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

    def _new_request(self, messages: Sequence[BaseMessage], kwargs: Mapping[str, Any], *, model_name: str,
                     streamed: bool = False, body: dict[str, Any] | None = None) -> RecordedRequest:
        """A :class:`RecordedRequest` numbered after the recorded ones (copies the messages; not yet recorded).

        Args:
            messages: the request's messages.
            kwargs: the keyword arguments the model's ``_generate`` / ``_stream`` received
                (``tools``, ``tool_choice`` and other bound options; LangChain's internal
                ``ls_*`` keys and ``model`` are left out).
            model_name: the model name of this request.
            streamed: whether it was streamed.
            body: the exact body sent, when known.
        """
        options = {k: v for k, v in kwargs.items()
                   if k not in ("tools", "tool_choice", "model", "stream", "stream_options") and not k.startswith("ls_")}
        return RecordedRequest(
            index=len(self._requests) + 1,
            messages=[m.model_copy(deep=True) for m in messages],
            tools=list(kwargs.get("tools") or []),
            tool_choice=kwargs.get("tool_choice"),
            options=options,
            model_name=model_name,
            streamed=streamed,
            body=copy.deepcopy(body) if body is not None else None,
        )

    def _record(self, request: RecordedRequest) -> None:
        self._requests.append(request)
