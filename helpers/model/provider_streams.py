"""The chunks each real integration yields for one streamed reply, built offline: where each provider's stop signal lands.

A streamed reply reaches an application as ``AIMessageChunk`` objects whose shape depends on the integration.
This module builds, in process and with no provider, the chunk sequence each of the three integrations the
course teaches (notebook 14) yields, measured on the pins (langchain-openai 1.7.4, langchain-anthropic 1.7.10,
langchain-core 1.8.3) by streaming from the loopback stand-ins (``tests/test_provider_streams.py`` compares
every sequence built here with the real integration's):

``"chat_completions"`` (``ChatOpenAI``)
    an opening chunk with empty text (the ``role`` delta), the text pieces, per tool call a head chunk (name,
    id, ``args=""``) and its argument pieces, then a chunk whose ``response_metadata`` carries
    ``finish_reason`` (and ``model_name``), then an empty chunk with ``chunk_position="last"`` that langchain-core
    adds (``BaseChatModel.stream``): the last chunk is *not* the one with ``finish_reason``.
``"responses"`` (``ChatOpenAI(use_responses_api=True)``)
    content blocks instead of a string; a tool call's ``index`` is its output item's position; the last chunk
    (from ``response.completed`` / ``response.incomplete``) carries ``status`` (``"completed"``,
    ``"incomplete"``, ...), ``incomplete_details`` (``{"reason": "max_output_tokens"}``) when incomplete, and
    ``chunk_position="last"``. There is no ``finish_reason``.
``"anthropic"`` (``ChatAnthropic``)
    content blocks when tools are bound (a string otherwise); the last chunk (from ``message_delta``)
    carries ``stop_reason`` (``"tool_use"``, ``"end_turn"``, ``"max_tokens"``, ...) and ``stop_sequence``,
    and ``chunk_position="last"``. There is no ``finish_reason``.

:data:`STOP_SIGNALS` lists, per integration, the ``response_metadata`` key and every value its API documents.
The scripted model streams like ``"chat_completions"`` (:func:`chat_completions_chunks`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessageChunk

__all__ = ["ENDED_NORMALLY", "INCOMPLETE_REASONS", "PROVIDERS", "STOP_SIGNALS", "Piece", "Provider", "StopSignal",
           "chat_completions_chunks", "provider_stream"]

#: The integrations: OpenAI chat.completions, OpenAI's Responses API, Anthropic's Messages API.
Provider = Literal["chat_completions", "responses", "anthropic"]
PROVIDERS: tuple[Provider, ...] = ("chat_completions", "responses", "anthropic")

#: One piece of a stream: a ``str`` is reply text, ``(index, text)`` a piece of tool call ``index``'s arguments.
Piece = str | tuple[int, str]


@dataclass(frozen=True)
class StopSignal:
    """Where one integration says how a reply ended, and the values its API documents.

    Attributes:
        key: the ``response_metadata`` key of the merged message (``finish_reason``, ``status``, ``stop_reason``).
        values: every value the provider's SDK types allow, in their order.
        ended_normally: the values after which a reply's tool calls may run (the allow-list).
        cut: the values that mean the reply was cut off at the token limit.
        source: where the integration writes it (file and function, on the pins).
    """

    key: str
    values: tuple[str, ...]
    ended_normally: tuple[str, ...]
    cut: tuple[str, ...]
    source: str


#: Per integration: the stop signal. Values from ``openai/types/chat/chat_completion_chunk.py`` (finish_reason),
#: ``openai/types/responses/response_status.py`` (openai 3.57.0) and ``anthropic/types/stop_reason.py``
#: (anthropic 2.14.0). A Responses reply that is ``"incomplete"`` also says why in ``incomplete_details.reason``
#: (``max_output_tokens``, ``max_messages``, ``content_filter``, ``steered``).
STOP_SIGNALS: Mapping[Provider, StopSignal] = {
    "chat_completions": StopSignal(
        "finish_reason", ("stop", "length", "tool_calls", "content_filter", "function_call"), ("tool_calls", "stop"),
        ("length",), "langchain_openai/chat_models/base.py BaseChatOpenAI._convert_chunk_to_generation_chunk"),
    "responses": StopSignal(
        "status", ("completed", "failed", "in_progress", "cancelled", "queued", "incomplete"), ("completed",),
        ("incomplete",), "langchain_openai/chat_models/base.py _convert_responses_chunk_to_generation_chunk"),
    "anthropic": StopSignal(
        "stop_reason", ("end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal",
                        "model_context_window_exceeded"), ("tool_use", "end_turn"),
        ("max_tokens", "model_context_window_exceeded"),
        "langchain_anthropic/chat_models.py _make_message_chunk_from_anthropic_event"),
}

#: ``response_metadata`` key -> the values after which a reply's tool calls may run: each integration's allow-list
#: (notebook 13, section 3; the reference of exercise 13.1 and the stream stepper's guard).
ENDED_NORMALLY: Mapping[str, tuple[str, ...]] = {signal.key: signal.ended_normally for signal in STOP_SIGNALS.values()}

#: Responses API ``incomplete_details.reason`` values (openai 3.57.0 ``IncompleteDetails.reason``).
INCOMPLETE_REASONS = ("max_output_tokens", "max_messages", "content_filter", "steered")


def chat_completions_chunks(pieces: Sequence[Piece], calls: Sequence[tuple[str | None, str | None]],
                            metadata: Mapping[str, Any], *, message_id: str | None = None,
                            text_chunk: bool = True) -> Iterator[AIMessageChunk]:
    """The chunks ``ChatOpenAI`` (chat.completions) yields for a reply, in the order of ``pieces``.

    Args:
        pieces: the stream's pieces (:data:`Piece`); the first piece of an index is preceded by the call's
            head chunk (name, id, ``args=""``); an empty piece ``(index, "")`` gives the head alone.
        calls: ``(name, id)`` of each call, by index.
        metadata: the ``response_metadata`` of the finish chunk (``{"finish_reason": ..., "model_name": ...}``).
        message_id: the id of every chunk (``None``: langchain-core gives each the run's ``lc_run--`` id).
        text_chunk: ``True``: start with the empty opening chunk (OpenAI's ``role`` delta).

    Yields:
        the opening chunk, one chunk per piece (heads added), the finish chunk, the empty last chunk
        (``chunk_position="last"``).
    """
    if text_chunk:
        yield AIMessageChunk(content="", id=message_id)
    started: set[int] = set()
    for piece in pieces:
        if isinstance(piece, str):
            yield AIMessageChunk(content=piece, id=message_id)
            continue
        index, text = piece
        if index not in started:
            started.add(index)
            name, call_id = calls[index]
            yield AIMessageChunk(content="", id=message_id, tool_call_chunks=[
                {"name": name, "args": "", "id": call_id, "index": index, "type": "tool_call_chunk"}])
        if text:
            yield AIMessageChunk(content="", id=message_id, tool_call_chunks=[
                {"name": None, "args": text, "id": None, "index": index, "type": "tool_call_chunk"}])
    yield AIMessageChunk(content="", id=message_id, response_metadata=dict(metadata))
    yield AIMessageChunk(content="", id=message_id, chunk_position="last")


def _split(text: str, size: int) -> list[str]:
    return [text[start:start + size] for start in range(0, len(text), size)]


def _chat_pieces(text: str, calls: Sequence[tuple[str, str, str]], size: int, interleave: bool) -> list[Piece]:
    """The loopback chat.completions server's order: text, then heads and argument pieces (interleaved if asked)."""
    pieces: list[Piece] = list(_split(text, size))
    split = [_split(raw, size) for _, _, raw in calls]
    if interleave:
        pieces += [(index, "") for index in range(len(calls))]
        for round_ in range(max((len(p) for p in split), default=0)):
            pieces += [(index, p[round_]) for index, p in enumerate(split) if round_ < len(p)]
    else:
        for index, call_pieces in enumerate(split):
            pieces += [(index, "")] + [(index, p) for p in call_pieces]
    return pieces


def _responses(text: str, calls: Sequence[tuple[str, str, str]], size: int, stop: str, metadata: Mapping[str, Any],
               message_id: str | None) -> Iterator[AIMessageChunk]:
    yield AIMessageChunk(content=[], id=message_id, response_metadata={"model_provider": "openai"})
    item = -1
    if text:
        item += 1
        yield AIMessageChunk(content=[], id=message_id, response_metadata={"model_provider": "openai"})
        for piece in _split(text, size):
            yield AIMessageChunk(content=[{"type": "text", "text": piece, "index": item}], id=message_id,
                                 response_metadata={"model_provider": "openai"})
        yield AIMessageChunk(content=[{"type": "text", "text": "", "index": item}], id=message_id,
                             response_metadata={"model_provider": "openai"})
    for name, call_id, raw in calls:
        item += 1
        yield AIMessageChunk(
            content=[{"type": "function_call", "name": name, "arguments": "", "call_id": call_id, "index": item}],
            tool_call_chunks=[{"name": name, "args": "", "id": call_id, "index": item, "type": "tool_call_chunk"}],
            id=message_id, response_metadata={"model_provider": "openai"})
        for piece in _split(raw, size):
            yield AIMessageChunk(
                content=[{"type": "function_call", "arguments": piece, "index": item}],
                tool_call_chunks=[{"name": None, "args": piece, "id": None, "index": item, "type": "tool_call_chunk"}],
                id=message_id, response_metadata={"model_provider": "openai"})
    yield AIMessageChunk(content=[], id=message_id, chunk_position="last",
                         response_metadata={"status": stop, **metadata, "model_provider": "openai"})


def _anthropic(text: str, calls: Sequence[tuple[str, str, str]], size: int, stop: str, metadata: Mapping[str, Any],
               message_id: str | None, tools_bound: bool) -> Iterator[AIMessageChunk]:
    blocks = tools_bound
    provider = {"model_provider": "anthropic"}
    yield AIMessageChunk(content=[] if blocks else "", id=message_id,
                         response_metadata={**{k: v for k, v in metadata.items() if k == "model_name"}, **provider})
    index = -1
    if text:
        index += 1
        for piece in _split(text, size):
            content: Any = [{"text": piece, "type": "text", "index": index}] if blocks else piece
            yield AIMessageChunk(content=content, id=message_id, response_metadata=dict(provider))
    for name, call_id, raw in calls:
        index += 1
        yield AIMessageChunk(
            content=[{"id": call_id, "input": {}, "name": name, "type": "tool_use", "index": index}],
            tool_call_chunks=[{"name": name, "args": "", "id": call_id, "index": index, "type": "tool_call_chunk"}],
            id=message_id, response_metadata=dict(provider))
        for piece in _split(raw, size):
            yield AIMessageChunk(
                content=[{"partial_json": piece, "type": "input_json_delta", "index": index}],
                tool_call_chunks=[{"name": None, "args": piece, "id": None, "index": index, "type": "tool_call_chunk"}],
                id=message_id, response_metadata=dict(provider))
    yield AIMessageChunk(content=[] if blocks else "", id=message_id, chunk_position="last",
                         response_metadata={"stop_reason": stop, "stop_sequence": None, **provider})


def provider_stream(provider: Provider, *, text: str = "", calls: Sequence[tuple[str, str, str]] = (), stop: str,
                    incomplete_reason: str | None = None, piece: int = 12, interleave: bool = False,
                    model_name: str = "loopback-model", message_id: str | None = None,
                    tools_bound: bool = True) -> list[AIMessageChunk]:
    """The chunks ``provider``'s integration yields for one streamed reply (fresh objects each call).

    Args:
        provider: one of :data:`PROVIDERS`.
        text: the reply's text (before its calls).
        calls: ``(name, id, raw argument text)`` per tool call, in order; raw text may be cut or not JSON.
        stop: the stop signal's value (see :data:`STOP_SIGNALS`), e.g. ``"length"``, ``"incomplete"``,
            ``"max_tokens"``; any string is accepted (a guard must refuse values it does not know).
        incomplete_reason: ``"responses"`` only: ``incomplete_details.reason`` (``None``: none sent).
        piece: characters per text or argument piece (the loopback stand-ins send 12).
        interleave: ``"chat_completions"`` only: all call heads first, then argument pieces taking turns
            (index 0, 1, 0, 1), as the loopback server streams parallel calls.
        model_name: the model name the chat.completions finish chunk and Anthropic's first chunk carry.
        message_id: every chunk's id (``None`` leaves it to the caller).
        tools_bound: ``"anthropic"`` only: ChatAnthropic streams content blocks when tools are bound, else text.

    Returns:
        the chunks, in order; add them up with ``+`` to get what the application holds.

    Raises:
        ValueError: an unknown provider.
    """
    if provider == "chat_completions":
        pieces = _chat_pieces(text, calls, piece, interleave)
        metadata = {"finish_reason": stop, "model_name": model_name, "model_provider": "openai"}
        chunks = list(chat_completions_chunks(pieces, [(n, i) for n, i, _ in calls], metadata, message_id=message_id))
        for chunk in chunks[:-1]:
            chunk.response_metadata.setdefault("model_provider", "openai")
        return chunks
    if provider == "responses":
        extra: dict[str, Any] = {"model_name": model_name}
        if incomplete_reason is not None:
            extra["incomplete_details"] = {"reason": incomplete_reason}
        return list(_responses(text, calls, piece, stop, extra, message_id))
    if provider == "anthropic":
        return list(_anthropic(text, calls, piece, stop, {"model_name": model_name}, message_id, tools_bound))
    raise ValueError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
