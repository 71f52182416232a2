"""A loopback OpenAI-compatible chat.completions server (stdlib ``http.server`` in a thread).

A local stand-in that speaks OpenAI's wire format: the live track's tests point the course's
real model at it, and notebook 03 starts one on 127.0.0.1 to show the ``openai.BadRequestError``
a real ``ChatOpenAI`` gets for a history a provider refuses. It lives in ``helpers`` so that a
notebook can import it; ``tests/loopback_openai.py`` re-exports it with the pytest fixtures.

It answers ``POST /v1/responses`` too, with the same model in the Responses API's shapes, streamed or not
(:mod:`helpers.model.loopback_responses`: a reply cut at ``max_output_tokens`` ends with ``response.incomplete``).
It answers ``POST /v1/chat/completions`` (also ``/chat/completions``) like a plausible model,
streaming (Server-Sent Events, ``"stream": true``, with ``tool_calls`` deltas and a usage chunk
when ``stream_options.include_usage`` is set) and not:

* the last message is a tool result -> a text answer that uses it;
* tools are bound (and ``tool_choice`` is not ``"none"``) and the last message is from the user
  -> one tool call: the tool ``tool_choice`` names, else the one whose name and description share
  most words with the question (the first on a tie), with arguments that fit its JSON schema
  (:func:`helpers.model.schema_values.arguments_for`; an order id such as ``A1024`` in the question is
  used for an ``order_id``);
* ``response_format`` with a JSON schema -> JSON text that fits it, also as the answer after a tool
  result (:func:`structured_content`; ``honours_response_format = False`` plays a provider that
  ignores the option and answers in text);
* otherwise -> a short text answer.

Two request options shape the reply the way a provider's do (notebook 13's live cells use them):

* ``"parallel_tool_calls": true`` and a question naming several order ids (``A1024 and A1025``)
  -> one call of the chosen tool per id, and a streamed reply interleaves their argument pieces
  (index 0, 1, 0, 1, ...), as providers do for parallel calls;
* ``max_completion_tokens`` (or ``max_tokens``) smaller than the reply (about 4 characters a token)
  -> the reply cut off there, mid-arguments if need be, with ``finish_reason: "length"``.

With ``behaviour="answers_in_text"`` it never calls a tool (a model that answers a question it
should have looked up in prose): the live track runs every notebook against that too.

``parallel_tool_calls`` is honoured (:func:`_tool_calls_for`): with ``"parallel_tool_calls": true``
a question that names several order ids gets one call per order id; otherwise (``false``, or not
sent) one call. ``behaviour="ignores_tool_options"`` plays a provider that ignores ``tool_choice``
and ``parallel_tool_calls``: it picks the tool by the question's words and makes one call per order
id named, whatever the body asks (notebook 14's live cell must still run to its end against it).

On ``/v1/responses`` a request that names a reasoning model (``gpt-5...``, ``o3...``:
:func:`helpers.model.loopback_responses.plays_reasoning`) gets a ``reasoning`` item before its tool calls, and
every Responses request is checked first: a call sent back without its reasoning item, an output without its
call or a call without its output is refused with OpenAI's wording (:mod:`helpers.model.responses_rules`, which
says what is verified and what is modelled; notebook 14, section 8).

An outage can be staged: with :attr:`LoopbackOpenAI.overloaded_after` set to ``n``, the first ``n``
acceptable requests are answered as above and every later one gets HTTP 503 with OpenAI's overloaded
error (``{"error": {"message": "That model is currently overloaded with other requests. ...", "type":
"server_error", "param": null, "code": null}}``, quoted from a real answer in ikechan8370/chatgpt-plugin#125,
without its request id): a provider that fails in the middle of a conversation (notebook 20's fallback).

It records every request body (:attr:`LoopbackOpenAI.requests`) and rejects, with HTTP 400 and
OpenAI's own wording and error shape (``{"error": {"message", "type": "invalid_request_error",
"param", "code"}}``), an empty message list, a tool name outside ``^[a-zA-Z0-9_-]+$`` (or longer
than 64), a tool call without an id or with an id longer than 40 characters (``Invalid
'messages[10].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string
with length 53 instead.``, code ``string_above_max_length``, quoted from a real answer in agno-agi/agno#5382;
ids another provider or a gateway made, e.g. Portkey's 44-character ones, Portkey-AI/gateway#1062), an
unanswered tool call, an orphan tool message and a second
answer to one tool call id. The checks are written from OpenAI's behaviour, independently of
``helpers.model.rules`` (the wording is shared: :data:`helpers.model.rules.OPENAI_ERRORS`).

Use it in tests with the ``loopback_openai`` fixture of ``tests/loopback_openai.py`` (import it
into the test module), in a notebook as a context manager (``with LoopbackOpenAI() as server:``),
or run it for a human, to point JupyterLab at it::

    python -m tests.loopback_openai --port 8765
    # then, in the shell that starts JupyterLab:
    export COURSE_MODEL=loopback-model OPENAI_API_KEY=sk-loopback OPENAI_BASE_URL=http://127.0.0.1:8765/v1
"""


from __future__ import annotations

import argparse
import json
import re
from collections.abc import Mapping, Sequence
from http.server import BaseHTTPRequestHandler
from typing import Any

# the reply planning and the server plumbing live in their own modules; re-exported here, where notebooks
# and tests import them
from .loopback_replies import (Behaviour, _stream_events, _usage, plan_reply, structured_content,
                               without_response_format)
from .loopback_responses import chat_view, output_items, response_object, response_stream_events
from .loopback_server import JSONRequestHandler, LoopbackServer, RecordedHTTPRequest
from .openai_error import OpenAIError
from .responses_rules import ReasoningLedger, find_responses_error
from .rules import OPENAI_ERRORS, TOOL_NAME_PATTERN, ProviderRule
from .schema_values import arguments_for

__all__ = ["LOOPBACK_KEY", "LOOPBACK_MODEL", "MAX_TOOL_CALL_ID", "OVERLOADED_MESSAGE", "Behaviour", "JSONRequestHandler", "LoopbackOpenAI", "LoopbackServer", "OpenAIError",
           "RecordedHTTPRequest", "find_request_error", "main", "plan_reply", "structured_content", "without_response_format"]

#: The key the loopback fixture hands out (fake; tests assert it never appears in an output).
LOOPBACK_KEY = "sk-loopback-0123456789abcdef0123"
#: The model name the loopback fixture's environment uses.
LOOPBACK_MODEL = "loopback-model"


#: The longest tool call id chat.completions accepts (verified: see the module docstring).
MAX_TOOL_CALL_ID = 40

#: OpenAI's 503 message for an overloaded model (verified: see the module docstring).
OVERLOADED_MESSAGE = ("That model is currently overloaded with other requests. You can retry your request, or contact "
                      "us through our help center at help.openai.com if the error persists.")


def find_request_error(body: Mapping[str, Any]) -> OpenAIError | None:
    """The 400 OpenAI answers for a chat.completions body, or ``None`` when the body is acceptable.

    Checks, in order: an empty ``messages`` list; each tool's ``function.name`` (pattern, then length
    64); per assistant turn with ``tool_calls``: each call has an id of at most 40 characters, the tool messages right after it
    answer only its calls, none twice (also not an id answered earlier in the history), and every
    call is answered; a tool message anywhere else is an orphan.
    """
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return OpenAIError(OPENAI_ERRORS[ProviderRule.EMPTY_MESSAGES], "messages", "empty_array")
    for index, tool in enumerate(body.get("tools") or []):
        name = (tool.get("function") or {}).get("name") if isinstance(tool, Mapping) else None
        if not isinstance(name, str) or not re.fullmatch(r"[a-zA-Z0-9_-]+", name):
            return OpenAIError(OPENAI_ERRORS[ProviderRule.INVALID_TOOL_NAME].format(index=index),
                               f"tools[{index}].function.name", "invalid_value")
        if not TOOL_NAME_PATTERN.match(name):
            return OpenAIError(f"Invalid 'tools[{index}].function.name': string too long. Expected a string with "
                               f"maximum length 64, but got a string with length {len(name)} instead.",
                               f"tools[{index}].function.name", "string_above_max_length")
    answered_at: dict[str, int] = {}
    position = 0
    while position < len(messages):
        message = messages[position]
        role = message.get("role") if isinstance(message, Mapping) else None
        if role == "tool":
            return OpenAIError(OPENAI_ERRORS[ProviderRule.ORPHAN_TOOL_MESSAGE], f"messages.[{position}].role")
        calls = message.get("tool_calls") if role == "assistant" else None
        if not calls:
            position += 1
            continue
        for number, call in enumerate(calls):
            if not call.get("id"):
                return OpenAIError(OPENAI_ERRORS[ProviderRule.TOOL_CALL_WITHOUT_ID].format(message=position, call=number),
                                   f"messages[{position}].tool_calls[{number}].id", "missing_required_parameter")
            if isinstance(call["id"], str) and len(call["id"]) > MAX_TOOL_CALL_ID:
                where = f"messages[{position}].tool_calls[{number}].id"
                return OpenAIError(f"Invalid '{where}': string too long. Expected a string with maximum length "
                                   f"{MAX_TOOL_CALL_ID}, but got a string with length {len(call['id'])} instead.",
                                   where, "string_above_max_length")
        waiting = [call["id"] for call in calls]
        after = position + 1
        while after < len(messages) and isinstance(messages[after], Mapping) and messages[after].get("role") == "tool":
            call_id = messages[after].get("tool_call_id")
            if call_id in answered_at:
                return OpenAIError(
                    OPENAI_ERRORS[ProviderRule.DUPLICATE_TOOL_MESSAGE].format(id=call_id, first=answered_at[call_id],
                                                                             second=after),
                    f"messages.[{after}].tool_call_id")
            if call_id not in waiting:
                return OpenAIError(OPENAI_ERRORS[ProviderRule.ORPHAN_TOOL_MESSAGE], f"messages.[{after}].role")
            waiting.remove(call_id)
            answered_at[call_id] = after
            after += 1
        if waiting:
            return OpenAIError(OPENAI_ERRORS[ProviderRule.UNANSWERED_TOOL_CALL].format(ids=", ".join(waiting)),
                               f"messages.[{min(after, len(messages) - 1)}].role")
        position = after
    return None


class LoopbackOpenAI(LoopbackServer):
    """The server: start it (``with LoopbackOpenAI() as server:`` or :meth:`start`), point a client at :attr:`base_url`.

    Args:
        host: the address to bind (loopback only by default).
        port: the port; ``0`` picks a free one.
        behaviour: how it answers a question while tools are bound (see :data:`Behaviour`).

    Attributes:
        overloaded_after: ``None`` (default): never overloaded; ``n``: after ``n`` answered requests, every
            acceptable chat.completions request gets HTTP 503 with OpenAI's overloaded error (recorded with
            status 503). Set it before or between requests.
        requests: every :class:`RecordedHTTPRequest`, in arrival order.
        unfit_arguments: ``(tool name, arguments, validation error)`` for every bound tool (in any
            accepted request) whose schema-derived arguments do not validate against its schema;
            empty when the generator handled every schema it saw (tests assert that).
    """

    thread_name = "loopback-openai"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, behaviour: Behaviour = "calls_tools"):
        self.behaviour: Behaviour = behaviour
        #: False: answer as if ``response_format`` were not in the body (a provider that ignores it).
        self.honours_response_format = True
        self.unfit_arguments: list[tuple[str, dict[str, Any], str]] = []
        self.overloaded_after: int | None = None
        #: the reasoning items this server issued on ``/v1/responses``, and the items that came with them.
        self.reasoning = ReasoningLedger()
        super().__init__(host, port)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: the value for ``OPENAI_BASE_URL``."""
        return f"{self.root_url}/v1"

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies of the chat.completions requests received so far."""
        with self._lock:
            return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def responses_bodies(self) -> list[Any]:
        """The JSON bodies of the ``/v1/responses`` requests received so far (refused ones included)."""
        with self._lock:
            return [r.body for r in self.requests if r.path.split("?")[0].rstrip("/").endswith("/responses")]

    def env(self, model: str = LOOPBACK_MODEL, key: str = LOOPBACK_KEY) -> dict[str, str]:
        """The environment that points the course's model factory at this server."""
        return {"COURSE_MODEL": model, "OPENAI_API_KEY": key, "OPENAI_BASE_URL": self.base_url}

    def _check_arguments(self, body: Mapping[str, Any]) -> None:
        """Validate the arguments this server would send for every bound tool (jsonschema, Draft 2020-12)."""
        import jsonschema

        for tool in body.get("tools") or []:
            function = tool.get("function") or {}
            parameters = function.get("parameters") or {"type": "object", "properties": {}}
            arguments = arguments_for(parameters)
            try:
                jsonschema.validate(arguments, parameters)
            except jsonschema.ValidationError as error:
                with self._lock:
                    self.unfit_arguments.append((function.get("name", "?"), arguments, error.message))
            except jsonschema.SchemaError:
                pass  # not this server's concern: the schema itself is broken

    def _overloaded(self) -> bool:
        """True when :attr:`overloaded_after` requests were answered already."""
        with self._lock:
            answered = sum(r.status == 200 for r in self.requests if r.path.endswith("/chat/completions"))
        return self.overloaded_after is not None and answered >= self.overloaded_after

    def _next_number(self) -> int:
        """The number of the answer about to be sent (1, 2, ...; shared by both endpoints)."""
        with self._lock:
            self._responses += 1
            return self._responses

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(JSONRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server API
                if self.path.rstrip("/").endswith("/models"):
                    self._send_json(200, {"object": "list", "data": [{"id": LOOPBACK_MODEL, "object": "model",
                                                                      "created": 0, "owned_by": "loopback"}]})
                else:
                    self._send_json(404, {"error": {"message": f"Unknown path {self.path}", "type": "invalid_request_error",
                                                    "param": None, "code": "unknown_url"}})

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                authorization = self.headers.get("Authorization")
                if self.path.split("?")[0].rstrip("/").endswith("/responses"):
                    self._answer_responses(raw, authorization)
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    server._record(self.path, None, authorization, 404)
                    self._send_json(404, {"error": {"message": f"Unknown path {self.path}",
                                                    "type": "invalid_request_error", "param": None, "code": "unknown_url"}})
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    server._record(self.path, None, authorization, 400)
                    self._send_json(400, OpenAIError("We could not parse the JSON body of your request.", None).body())
                    return
                error = find_request_error(body)
                if error is not None:
                    server._record(self.path, body, authorization, 400)
                    self._send_json(400, error.body())
                    return
                if server._overloaded():
                    server._record(self.path, body, authorization, 503)
                    self._send_json(503, OpenAIError(OVERLOADED_MESSAGE, None, type="server_error").body())
                    return
                server._record(self.path, body, authorization, 200)
                server._check_arguments(body)
                number = server._next_number()
                call_id, response_id = f"call_lb_{number:04d}", f"chatcmpl-loopback-{number:04d}"
                planned = body if server.honours_response_format else without_response_format(body)
                message, finish = plan_reply(planned, call_id, server.behaviour)
                if body.get("stream"):
                    self._send_events(_stream_events(body, message, finish, response_id), named=False, done_line=True)
                    return
                self._send_json(200, {
                    "id": response_id, "object": "chat.completion", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": finish, "message": message, "logprobs": None}],
                    "usage": _usage(body, message),
                })

            def _answer_responses(self, raw: bytes, authorization: str | None) -> None:
                """``POST /v1/responses``: the same model, in the Responses API's shapes (:mod:`.loopback_responses`)."""
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                if not isinstance(body, Mapping):
                    server._record(self.path, None, authorization, 400)
                    self._send_json(400, OpenAIError("We could not parse the JSON body of your request.", None).body())
                    return
                error = find_responses_error(body, server.reasoning)
                if error is not None:
                    server._record(self.path, body, authorization, 400)
                    self._send_json(400, error.body())
                    return
                server._record(self.path, body, authorization, 200)
                number = server._next_number()
                message, finish = plan_reply(chat_view(body), f"call_lb_{number:04d}", server.behaviour)
                server.reasoning.record(output_items(body, message, finish, number))
                if not body.get("stream"):
                    self._send_json(200, response_object(body, message, finish, number))
                    return
                self._send_events(response_stream_events(body, message, finish, number), named=True)

        return Handler


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server in the foreground: ``python -m tests.loopback_openai --port 8765`` (the same as
    ``python -m helpers.model.loopback_openai``)."""
    parser = argparse.ArgumentParser(description="A loopback OpenAI-compatible chat.completions server for the course.")
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    args = parser.parse_args(argv)
    server = LoopbackOpenAI(args.host, args.port)
    print(f"loopback OpenAI server on {server.base_url}; point the course at it with:", flush=True)
    print(f"  export COURSE_MODEL={LOOPBACK_MODEL} OPENAI_API_KEY={LOOPBACK_KEY} OPENAI_BASE_URL={server.base_url}",
          flush=True)
    try:
        server._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
