"""The real model: ``langchain_openai.ChatOpenAI`` that records its requests like the scripted model.

Built on first use (importing langchain_openai takes about 0.5-1.5 s), so an offline kernel
never pays for it. Every error a call raises reaches the cell with the configured keys replaced
(:func:`~helpers.model.redact.hide_secrets`), and so does every reply: an endpoint that echoes the
request, or a model that repeats a key, puts no key into a message, a streamed chunk or what the
callbacks (LangGraph's ``stream_mode="messages"``) receive; a reply that is not an OpenAI reply
(not JSON, cut off, JSON of another shape, an HTML page) becomes :class:`NotAnOpenAIReplyError`;
and :func:`real_chat_model` gives each request an overall deadline (:mod:`helpers.model.deadline`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from pydantic import PrivateAttr

from .client_check import check_clients
from .config import OPENAI_URL, _endpoint
from .deadline import deadline_clients
from .recording import RequestLog
from .redact import (
    HIDDEN_NAME,
    StreamSecretFilter,
    hide_secrets,
    hide_secrets_in_logs,
    hide_secrets_in_message,
    hide_secrets_in_value,
    looks_like_model_name,
    redact_url,
)

__all__ = ["NotAnOpenAIReplyError", "real_chat_model", "recording_chat_openai"]


class NotAnOpenAIReplyError(RuntimeError):
    """The endpoint answered, but not with an OpenAI chat.completions reply.

    The message says what came back (not JSON, cut off, JSON of another shape, no stream chunks)
    and names ``OPENAI_BASE_URL``, never its value. ``reply_error`` holds the library's own
    exception (keys hidden); it is not chained, so the traceback shows no part of the reply.
    """

    def __init__(self, message: str, reply_error: BaseException | None = None) -> None:
        super().__init__(message)
        self.reply_error = reply_error


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        todo += [linked for linked in (current.__cause__, current.__context__) if linked is not None]


def _what_came_back(exc: BaseException) -> str | None:
    """What a non-OpenAI reply was, judged from the exception langchain-openai 1.7.4 / openai 3.57
    raise for it, or ``None`` when ``exc`` is another error (a status error, a timeout, ...)."""
    for current in _chain(exc):
        text = str(current.args[0]) if current.args else ""
        if isinstance(current, json.JSONDecodeError):
            return "a body that is not JSON"
        if type(current).__name__ == "RemoteProtocolError" and "complete message body" in text:
            return "a reply cut off before its end"
        if isinstance(current, ValueError) and text.startswith("Unexpected response type from OpenAI-compatible"):
            return "a body that is not JSON, e.g. an HTML page"
        if isinstance(current, TypeError) and text.startswith("Received response with null value for 'choices'"):
            return "JSON without 'choices', not a chat.completions reply"
    return None


@functools.lru_cache(maxsize=1)
def recording_chat_openai() -> type:
    """The class ``RecordingChatOpenAI``: a ``ChatOpenAI`` (langchain-openai 1.7.4) with a request log.

    Returns:
        a ``ChatOpenAI`` subclass whose ``requests`` / ``last_request`` hold
        :class:`~helpers.model.recording.RecordedRequest` objects (messages, bound tool schemas,
        and in ``body`` the exact JSON body ``ChatOpenAI`` sent); ``steps_left`` is ``None``;
        its ``repr`` shows no user name, password, query or fragment of the base URL or proxy.
    """
    from langchain_openai import ChatOpenAI

    class RecordingChatOpenAI(RequestLog, ChatOpenAI):
        """``ChatOpenAI`` (langchain-openai 1.7.4) that records each request like the scripted model.

        Every request path (``invoke``, ``stream``, their async forms) builds its body once with
        ``_get_request_payload``; this subclass records that body with the messages and tools,
        so notebook cells that show "what the model sees" work with a real model too.
        """

        _requests: list = PrivateAttr(default_factory=list)
        _secret_variables: dict = PrivateAttr(default_factory=dict)

        def hide(self, secrets: Mapping[str, str]) -> None:
            """Hide these values too (``{value: variable name}``) in the errors this model raises;
            its own API key is always hidden."""
            self._secret_variables.update(secrets)

        def _not_openai(self, what: str, exc: BaseException | None = None) -> NotAnOpenAIReplyError:
            openai = not self.openai_api_base or self.openai_api_base.rstrip("/") == OPENAI_URL
            where = "the OpenAI endpoint (OPENAI_BASE_URL unset)" if openai else "OPENAI_BASE_URL"
            return NotAnOpenAIReplyError(
                f"{where} answered with something that is not an OpenAI reply ({what}): check that "
                "OPENAI_BASE_URL is the endpoint's OpenAI-compatible base address (it usually ends in /v1, "
                "e.g. https://dashscope.aliyuncs.com/compatible-mode/v1) and that the server there is up", exc)

        def _reported(self, exc: Exception) -> Exception:
            """``exc`` with the keys hidden, or a :class:`NotAnOpenAIReplyError` in its place."""
            hide_secrets(exc, self._secrets())
            what = _what_came_back(exc)
            return exc if what is None else self._not_openai(what, exc)

        @contextlib.contextmanager
        def _reporting(self) -> Iterator[None]:
            """Every error leaving the block is cleaned (:meth:`_reported`) before it reaches the caller."""
            try:
                yield
            except Exception as exc:  # noqa: BLE001 - every error is cleaned before it leaves
                reported = self._reported(exc)
                if reported is exc:
                    raise
                raise reported from None

        def _secrets(self) -> dict[str, str]:
            key = self.openai_api_key.get_secret_value() if self.openai_api_key is not None else None
            return {**({key: "OPENAI_API_KEY"} if isinstance(key, str) else {}), **self._secret_variables}

        def _clean_result(self, result: Any) -> Any:
            """A ``ChatResult`` whose messages, generation info and ``llm_output`` hold no key."""
            from langchain_core.outputs import ChatGeneration, ChatResult

            secrets = self._secrets()
            generations = [ChatGeneration(message=hide_secrets_in_message(g.message, secrets),
                                          generation_info=hide_secrets_in_value(g.generation_info, secrets))
                           for g in result.generations]
            return ChatResult(generations=generations, llm_output=hide_secrets_in_value(result.llm_output, secrets))

        def _clean_chunk(self, chunk: Any, text: StreamSecretFilter) -> Any:
            """A ``ChatGenerationChunk`` with no key: its text through ``text`` (a key split across
            chunks is caught), every other field cleaned on its own."""
            from langchain_core.outputs import ChatGenerationChunk

            secrets = self._secrets()
            message = hide_secrets_in_message(chunk.message, secrets)
            if isinstance(message.content, str):
                message = message.model_copy(update={"content": text.feed(message.content)})
            return ChatGenerationChunk(message=message,
                                       generation_info=hide_secrets_in_value(chunk.generation_info, secrets))

        def _rest(self, text: StreamSecretFilter) -> Any:
            """The text ``text`` still holds at the end of a stream, as a last chunk (or ``None``)."""
            from langchain_core.messages import AIMessageChunk
            from langchain_core.outputs import ChatGenerationChunk

            rest = text.flush()
            return ChatGenerationChunk(message=AIMessageChunk(content=rest)) if rest else None

        def _generate(self, *args: Any, **kwargs: Any) -> Any:
            with self._reporting():
                return self._clean_result(super()._generate(*args, **kwargs))

        async def _agenerate(self, *args: Any, **kwargs: Any) -> Any:
            with self._reporting():
                return self._clean_result(await super()._agenerate(*args, **kwargs))

        def _stream(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Iterator[Any]:
            """ChatOpenAI's stream, cleaned. ChatOpenAI reports each chunk to the callbacks itself
            (``on_llm_new_token``, langchain_openai/chat_models/base.py:1922) before it yields it: here
            it runs without the run manager, and each *cleaned* chunk is reported instead."""
            chunks, text = 0, StreamSecretFilter(self._secrets())
            with self._reporting():
                for raw in super()._stream(messages, stop=stop, run_manager=None, **kwargs):
                    chunks += 1
                    chunk = self._clean_chunk(raw, text)
                    if run_manager:
                        run_manager.on_llm_new_token(chunk.text, chunk=chunk,
                                                     logprobs=(chunk.generation_info or {}).get("logprobs"))
                    yield chunk
            if not chunks:  # an OpenAI stream always has a chunk; an HTML page or "data: [DONE]" alone has none
                raise self._not_openai("a stream without any chat.completion chunk")
            rest = self._rest(text)
            if rest is not None:
                if run_manager:
                    run_manager.on_llm_new_token(rest.text, chunk=rest)
                yield rest

        async def _astream(self, messages: Any, stop: Any = None, run_manager: Any = None,
                           **kwargs: Any) -> AsyncIterator[Any]:
            chunks, text = 0, StreamSecretFilter(self._secrets())
            with self._reporting():
                async for raw in super()._astream(messages, stop=stop, run_manager=None, **kwargs):
                    chunks += 1
                    chunk = self._clean_chunk(raw, text)
                    if run_manager:
                        await run_manager.on_llm_new_token(chunk.text, chunk=chunk,
                                                           logprobs=(chunk.generation_info or {}).get("logprobs"))
                    yield chunk
            if not chunks:
                raise self._not_openai("a stream without any chat.completion chunk")
            rest = self._rest(text)
            if rest is not None:
                if run_manager:
                    await run_manager.on_llm_new_token(rest.text, chunk=rest)
                yield rest

        def __repr_args__(self) -> Any:
            """Pydantic's ``repr`` fields, with the base URL and proxy redacted (:func:`redact_url`) and
            a model name that does not pass :func:`looks_like_model_name` hidden; ``str`` uses them too."""
            for name, value in super().__repr_args__():
                if name in ("openai_api_base", "openai_proxy") and isinstance(value, str):
                    value = redact_url(value)
                elif name == "model_name" and not looks_like_model_name(value):
                    value = HIDDEN_NAME
                yield name, value

        @property
        def steps_left(self) -> None:
            """Always ``None``: a real model is not scripted."""
            return None

        def _get_request_payload(self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any) -> dict:
            payload = super()._get_request_payload(input_, stop=stop, **kwargs)
            messages = self._convert_input(input_).to_messages()
            self._record(self._new_request(messages, {**kwargs, **({"stop": stop} if stop else {})},
                                           model_name=str(payload.get("model", self.model_name)),
                                           streamed=bool(payload.get("stream")), body=payload))
            return payload

    return RecordingChatOpenAI


def real_chat_model(*, model: str, api_key: str, base_url: str | None, timeout: float, max_retries: int,
                    secrets: Mapping[str, str] = ()) -> Any:
    """The course's real model: ``RecordingChatOpenAI(model=..., api_key=..., base_url=..., temperature=0,
    timeout=..., max_retries=...)`` with HTTP clients that give each request an overall deadline of
    ``timeout`` seconds (:func:`~helpers.model.deadline.deadline_clients`), checked once built
    (:func:`~helpers.model.client_check.check_clients`).

    Args:
        model, api_key: as for ``ChatOpenAI``.
        base_url: the endpoint; ``None`` is OpenAI's (:data:`~helpers.model.config.OPENAI_URL`),
            always passed explicitly, so no environment variable of the SDKs can choose another.
        timeout: seconds one request may take in all (connect, send, every read).
        max_retries: retries after a failed request (the OpenAI SDK's).
        secrets: ``{value: variable name}`` of every configured key, hidden in the errors it raises
            and in its replies.

    Returns:
        a ``RecordingChatOpenAI`` (see :func:`recording_chat_openai`).

    Raises:
        ModelConfigError: the built clients would use another URL or key, headers from
            ``OPENAI_CUSTOM_HEADERS``, or a proxy for a key over plain http (see
            :mod:`helpers.model.client_check`).
    """
    url = base_url or OPENAI_URL
    http_client, http_async_client = deadline_clients(proxy=os.environ.get("OPENAI_PROXY") or None)
    chat = recording_chat_openai()(
        model=model, api_key=api_key, base_url=url, temperature=0, timeout=timeout, max_retries=max_retries,
        http_client=http_client, http_async_client=http_async_client, openai_proxy=None,
    )
    check_clients(chat, url=url, api_key=api_key, openai_endpoint=_endpoint(url) == "openai")
    chat.hide(dict(secrets))
    hide_secrets_in_logs({api_key: "OPENAI_API_KEY", **dict(secrets)})
    return chat
