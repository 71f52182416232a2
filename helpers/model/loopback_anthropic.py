"""A loopback stand-in for Anthropic's Messages API (stdlib ``http.server`` in a thread): tool-use ids and pairing only.

Notebook 14 starts one on 127.0.0.1 to show the ``anthropic.BadRequestError`` a real
``ChatAnthropic(base_url=..., api_key="placeholder")`` gets for a history whose ``tool_use`` /
``tool_result`` blocks do not pair, the way notebook 03 shows OpenAI's with
:mod:`helpers.model.loopback_openai`. It is not Anthropic; by default it plays no model: it answers
``POST /v1/messages`` with HTTP 400 for a broken pairing and, for an acceptable body, with one short
text message in the Messages API's shape (no tool calls, no streaming); built with ``plays_model=True`` it
answers like a model instead, tool calls and streaming included (notebook 13 streams a reply cut off at
``max_tokens`` from it: :mod:`helpers.model.loopback_anthropic_replies`).

The rules it checks (:func:`find_request_error`), each on the body's ``messages`` (``system`` is a
separate field in this format, so ``messages.N`` counts user and assistant turns only; notebook 14 replays a
thread another provider started here, notebook 20 a fallback that takes one over):

* every ``tool_use`` id and every ``tool_result``'s ``tool_use_id`` must match ``^[a-zA-Z0-9_-]+$``
  (:func:`find_id_error`), checked before the pairing, as a schema check comes before the meaning;
* every ``tool_use`` block of an assistant message must be answered by a ``tool_result`` block with
  its id in the **next** message, which must be a user message (:func:`find_pairing_error`);
* every ``tool_result`` block must name a ``tool_use`` of the message just before it.

What is verified and what is modelled:

* **verified**: the id rule's wording ``messages.92.content.0.tool_use.id: String should match pattern
  '^[a-zA-Z0-9_-]+$'`` in the same error body (BlockRunAI/ClawRouter#17, CommandCodeAI/command-code#323,
  tailcallhq/forgecode#1142: ids such as ``functions.get_current_weather:0``, the shape vLLM's Kimi K2
  parser gives, vllm-project/vllm#46344); the two pairing messages' wording and the error body's shape
  ``{"type": "error", "error": {"type": "invalid_request_error", "message": ...}}`` with HTTP 400, as
  quoted from real API answers in public issue reports (e.g. anthropics/claude-code#5989 and #13460,
  router-for-me/CLIProxyAPI#497): ``messages.22: `tool_use` ids were found without `tool_result`
  blocks immediately after: toolu_..., toolu_.... Each `tool_use` block must have a corresponding
  `tool_result` block in the next message.`` and ``messages.48.content.1: unexpected `tool_use_id`
  found in `tool_result` blocks: toolu_.... Each `tool_result` block must have a corresponding
  `tool_use` block in the previous message.``; the id rule's wording, also quoted in reports of threads
  replayed across providers (langchain-ai/langchain PR 37756, whose fix in langchain-anthropic 1.7.10 rewrites
  such ids; Kimi's ``functions.write_todos:0``, Ollama's ids with ``:``).
* **modelled**: that the id rule is checked before the pairing (a malformed body is refused before its
  meaning is read) and also on a ``tool_result``'s ``tool_use_id`` (no report shows that one refused: the
  same pattern and wording, ``...tool_result.tool_use_id: String should ...``, are assumed); which index
  ``messages.N`` names for an unanswered ``tool_use`` (here the assistant
  message that holds it; the reports do not show the history), the order of the checks (the first
  broken message wins), that several unanswered ids are joined with ``", "`` (as in #5989) and
  several unexpected ids are reported one block at a time; the real body's ``request_id`` (and the
  ``request-id`` header) are left out so that a notebook's output stays deterministic. Other rules
  Anthropic enforces (tool_result blocks first in their message, alternating roles, schemas) are
  not checked.

Use it as a context manager (``with LoopbackAnthropic() as server:``) and point
``ChatAnthropic(base_url=server.base_url, api_key="placeholder", max_retries=0)`` at it; the
HTTP lifecycle and the request log are :class:`helpers.model.loopback_server.LoopbackServer`'s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from .loopback_anthropic_replies import chat_view, message_object, message_stream_events
from .loopback_replies import plan_reply
from .loopback_server import JSONRequestHandler, LoopbackServer

__all__ = [
    "ANTHROPIC_PAIRING_ERRORS",
    "TOOL_ID_PATTERN",
    "AnthropicError",
    "LoopbackAnthropic",
    "find_id_error",
    "find_pairing_error",
    "find_request_error",
]

#: Anthropic's wording for the two pairing rules (verified: see the module docstring).
ANTHROPIC_PAIRING_ERRORS: Mapping[str, str] = {
    "unanswered_tool_use": (
        "messages.{message}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    ),
    "unexpected_tool_result": (
        "messages.{message}.content.{block}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    ),
    "invalid_tool_id": "messages.{message}.content.{block}.{field}: String should match pattern '{pattern}'",
}

#: The ids Anthropic accepts for ``tool_use.id`` (verified) and ``tool_result.tool_use_id`` (modelled): see the
#: module docstring.
TOOL_ID_PATTERN = "^[a-zA-Z0-9_-]+$"


@dataclass(frozen=True)
class AnthropicError:
    """An HTTP 400 answer in Anthropic's shape (without ``request_id``: see the module docstring)."""

    message: str

    def body(self) -> dict[str, Any]:
        """``{"type": "error", "error": {"type": "invalid_request_error", "message": ...}}``."""
        return {"type": "error", "error": {"type": "invalid_request_error", "message": self.message}}


def _blocks(message: Any, kind: str) -> list[tuple[int, Mapping[str, Any]]]:
    """``(position, block)`` for each content block of type ``kind`` (a string content has none)."""
    content = message.get("content") if isinstance(message, Mapping) else None
    if not isinstance(content, list):
        return []
    return [(n, block) for n, block in enumerate(content) if isinstance(block, Mapping) and block.get("type") == kind]


def find_id_error(body: Mapping[str, Any]) -> AnthropicError | None:
    """The 400 for the first ``tool_use.id`` or ``tool_result.tool_use_id`` outside :data:`TOOL_ID_PATTERN`.

    Args:
        body: a ``POST /v1/messages`` body.

    Returns:
        the error naming ``messages.N.content.M.tool_use.id`` (or ``...tool_result.tool_use_id``) and the
        pattern (``messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'``), for the
        first such block in message order (a missing or non-string id included); ``None`` when every id fits; a
        body without a ``messages`` list is left to other checks.
    """
    messages = body.get("messages")
    if not isinstance(messages, list):
        return None
    for position, message in enumerate(messages):
        for kind, field in (("tool_use", "id"), ("tool_result", "tool_use_id")):
            for number, block in _blocks(message, kind):
                value = block.get(field)
                if not isinstance(value, str) or not re.fullmatch(TOOL_ID_PATTERN[1:-1], value):
                    return AnthropicError(ANTHROPIC_PAIRING_ERRORS["invalid_tool_id"].format(
                        message=position, block=number, field=f"{kind}.{field}", pattern=TOOL_ID_PATTERN))
    return None


def find_request_error(body: Mapping[str, Any]) -> AnthropicError | None:
    """The 400 this stand-in answers for ``body``: :func:`find_id_error` first, then :func:`find_pairing_error`."""
    return find_id_error(body) or find_pairing_error(body)


def find_pairing_error(body: Mapping[str, Any]) -> AnthropicError | None:
    """The 400 Anthropic answers for a Messages API body whose tool blocks do not pair, else ``None``.

    Args:
        body: a ``POST /v1/messages`` body (``{"model", "messages": [{"role", "content"}], ...}``).

    Returns:
        the first broken message's error, walking ``messages`` in order: a ``tool_result`` whose
        ``tool_use_id`` is not a ``tool_use`` of the message just before it (``unexpected_tool_result``,
        named by message and block), or an assistant message whose ``tool_use`` ids are not all
        answered by the next message (``unanswered_tool_use``, named by the assistant message); a body
        without a ``messages`` list is left to other checks (``None``).
    """
    messages = body.get("messages")
    if not isinstance(messages, list):
        return None
    for position, message in enumerate(messages):
        before = messages[position - 1] if position else None
        offered = ({block.get("id") for _, block in _blocks(before, "tool_use")}
                   if isinstance(before, Mapping) and before.get("role") == "assistant" else set())
        for number, block in _blocks(message, "tool_result"):
            if block.get("tool_use_id") not in offered:
                return AnthropicError(ANTHROPIC_PAIRING_ERRORS["unexpected_tool_result"].format(
                    message=position, block=number, id=block.get("tool_use_id")))
        uses = [block.get("id") for _, block in _blocks(message, "tool_use")]
        if not uses or not isinstance(message, Mapping) or message.get("role") != "assistant":
            continue
        after = messages[position + 1] if position + 1 < len(messages) else None
        answered = ({block.get("tool_use_id") for _, block in _blocks(after, "tool_result")}
                    if isinstance(after, Mapping) and after.get("role") == "user" else set())
        missing = [str(use) for use in uses if use not in answered]
        if missing:
            return AnthropicError(ANTHROPIC_PAIRING_ERRORS["unanswered_tool_use"].format(
                message=position, ids=", ".join(missing)))
    return None


class LoopbackAnthropic(LoopbackServer):
    """The stand-in: ``with LoopbackAnthropic() as server:``, then point ``ChatAnthropic`` at :attr:`base_url`.

    Args:
        host: the address to bind (loopback only by default).
        port: the port; ``0`` picks a free one.
        plays_model: ``False`` (the default): an acceptable body gets one short text message, never streamed.
            ``True``: it answers like the OpenAI stand-in's model, in the Messages API's shapes, streamed when the
            body says ``"stream": true`` (:mod:`helpers.model.loopback_anthropic_replies`): a tool call for a
            question while tools are bound, a text answer after a tool result, and a reply cut off at
            ``max_tokens`` with ``stop_reason: "max_tokens"``.

    Attributes:
        requests: every :class:`helpers.model.loopback_server.RecordedHTTPRequest` (``authorization``
            holds the ``x-api-key`` header, else ``Authorization``), in arrival order.
    """

    thread_name = "loopback-anthropic"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, plays_model: bool = False):
        self.plays_model = plays_model
        super().__init__(host, port)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``: ChatAnthropic's ``base_url`` (the SDK adds ``/v1/messages``)."""
        return self.root_url

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies of the ``/v1/messages`` requests received so far."""
        with self._lock:
            return [r.body for r in self.requests if r.path.rstrip("/").endswith("/v1/messages")]

    def _next_id(self) -> str:
        with self._lock:
            self._responses += 1
            return f"msg_loopback_{self._responses:04d}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(JSONRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                key = self.headers.get("x-api-key") or self.headers.get("Authorization")
                if self.path.split("?")[0].rstrip("/") != "/v1/messages":
                    server._record(self.path, None, key, 404)
                    self._send_json(404, {"type": "error", "error": {"type": "not_found_error",
                                                                     "message": "Not found"}})
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                if not isinstance(body, Mapping):
                    server._record(self.path, None, key, 400)
                    self._send_json(400, AnthropicError("There was an error parsing the body of your request."
                                                        ).body())
                    return
                error = find_request_error(body)
                if error is not None:
                    server._record(self.path, body, key, 400)
                    self._send_json(400, error.body())
                    return
                server._record(self.path, body, key, 200)
                if server.plays_model:
                    self._play(body)
                    return
                text = "Hello from the loopback stand-in."
                self._send_json(200, {
                    "id": server._next_id(), "type": "message", "role": "assistant", "model": body.get("model"),
                    "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                    "stop_sequence": None, "usage": {"input_tokens": max(1, len(raw) // 4),
                                                     "output_tokens": max(1, len(text) // 4)},
                })

            def _play(self, body: Mapping[str, Any]) -> None:
                message_id = server._next_id()
                planned, finish = plan_reply(chat_view(body), message_id.replace("msg_", "toolu_"))
                if not body.get("stream"):
                    self._send_json(200, message_object(body, planned, finish, message_id))
                    return
                self._send_events(message_stream_events(body, planned, finish, message_id), named=True)

        return Handler

