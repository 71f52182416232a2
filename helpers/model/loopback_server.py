"""The plumbing every loopback stand-in shares: a stdlib HTTP server on 127.0.0.1 in a thread, its request log.

:class:`LoopbackServer` (start, stop, the recorded requests), :class:`JSONRequestHandler` (a quiet handler
that answers JSON) and :class:`RecordedHTTPRequest` (one logged request). The wire formats live in
:mod:`helpers.model.loopback_openai` and :mod:`helpers.model.loopback_anthropic`.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Iterable, Mapping
from typing import Any, Self

#: Seconds between the serving thread's looks for a stop (``serve_forever(poll_interval=...)``,
#: ``socketserver``): ``shutdown()`` waits up to this long. The standard library's 0.5 s made every
#: ``with LoopbackOpenAI():`` block half a second longer than its requests (a notebook has several).
POLL_INTERVAL = 0.02

__all__ = ["JSONRequestHandler", "LoopbackServer", "RecordedHTTPRequest"]


@dataclass(frozen=True)
class RecordedHTTPRequest:
    """One request the server received.

    Attributes:
        path: the request path, e.g. ``/v1/chat/completions``.
        body: the parsed JSON body (``None`` when it was not JSON).
        authorization: the ``Authorization`` header (``Bearer <key>``), or ``None``.
        status: the HTTP status the server answered with.
    """

    path: str
    body: Any
    authorization: str | None
    status: int


class JSONRequestHandler(BaseHTTPRequestHandler):
    """A quiet request handler with :meth:`_send_json` (the base of each stand-in's handler)."""

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _send_events(self, events: Iterable[Mapping[str, Any]], *, named: bool, done_line: bool = False) -> None:
        """Answer 200 with Server-Sent Events: one ``data: <json>`` per event, preceded by ``event: <its type>``
        when ``named`` (the Responses API, Anthropic), and a last ``data: [DONE]`` when ``done_line``
        (chat.completions)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for event in events:
            name = f"event: {event['type']}\n" if named else ""
            self.wfile.write(f"{name}data: {json.dumps(event)}\n\n".encode())
        if done_line:
            self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class LoopbackServer:
    """A stdlib HTTP server on 127.0.0.1 in a daemon thread that records its requests (the lifecycle of a stand-in).

    Subclasses give :meth:`_handler` (the ``BaseHTTPRequestHandler`` class) and :attr:`thread_name`;
    :class:`LoopbackOpenAI` here, :class:`helpers.model.loopback_anthropic.LoopbackAnthropic`.

    Args:
        host: the address to bind (loopback only by default).
        port: the port; ``0`` picks a free one.

    Attributes:
        requests: every :class:`RecordedHTTPRequest`, in arrival order.
    """

    thread_name = "loopback"

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.requests: list[RecordedHTTPRequest] = []
        self._lock = threading.Lock()
        self._responses = 0
        self._server = ThreadingHTTPServer((host, port), self._handler())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def reset(self) -> None:
        """Forget the recorded requests (ids keep counting)."""
        with self._lock:
            self.requests.clear()

    def start(self) -> Self:
        """Serve in a daemon thread; returns ``self``."""
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": POLL_INTERVAL},
                                        name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._server.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _record(self, path: str, body: Any, authorization: str | None, status: int) -> None:
        with self._lock:
            self.requests.append(RecordedHTTPRequest(path, body, authorization, status))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError
