"""A 127.0.0.1 HTTP server for the key tests (issue 27): it records every request whole (method, path or
absolute URL as a proxy receives it, headers, body) and answers with an OpenAI chat.completions reply.

``echo_key=True`` makes the reply's text quote the request's key (``Your key: sk-...``), streamed in
pieces of 5 characters, so a key arrives split across chunks. Used as an endpoint, as a proxy (an
``http://`` request through an HTTP proxy carries the absolute URL in its request line) and as a
LangSmith collector (any path, any body: it only has to record that something came).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from helpers.model.loopback_server import POLL_INTERVAL


@dataclass(frozen=True)
class Received:
    """One request: ``target`` is the request line's path (a proxy gets the absolute URL)."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")


def _completion(text: str) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": text}}]}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}
    return b"data: " + json.dumps(body).encode() + b"\n\n"


class RecordingEndpoint:
    """Start with ``with RecordingEndpoint() as endpoint:``; ``endpoint.received`` lists the requests."""

    def __init__(self, *, echo_key: bool = False) -> None:
        self.received: list[Received] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {name.lower(): value for name, value in self.headers.items()}
                endpoint.received.append(Received(self.command, self.path, headers, body))
                key = (headers.get("authorization") or "").removeprefix("Bearer ")
                text = f"Your key: {key}." if echo_key else "hi"
                try:
                    streamed = bool(json.loads(body or b"{}").get("stream"))
                except (ValueError, AttributeError):
                    streamed = False
                if streamed:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    self.wfile.write(_chunk({"role": "assistant", "content": ""}))
                    for start in range(0, len(text), 5):
                        self.wfile.write(_chunk({"content": text[start:start + 5]}))
                    self.wfile.write(_chunk({}, "stop") + b"data: [DONE]\n\n")
                    self.close_connection = True
                    return
                data = json.dumps(_completion(text)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET = do_PUT = do_PATCH = _answer  # noqa: N815 - http.server API

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": POLL_INTERVAL},
                                       daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>`` (no path)."""
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> RecordingEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
