"""An overall deadline per HTTP request for the real model (``COURSE_MODEL_TIMEOUT`` seconds).

The OpenAI SDK's ``timeout`` is an httpx timeout: it limits each *single* connect, read or write,
so an endpoint that sends one byte a second (of its headers or of its body) never trips it and a
live cell runs for ever. The clients built here give every request one deadline instead: from the
moment the request is sent, its connect, writes and reads together may take at most the request's
own read timeout (the SDK sets it from ``timeout=``); past it the next read fails with the HTTP
library's ``ReadTimeout`` (``WriteTimeout``, ``ConnectTimeout``), which the SDK turns into
``openai.APITimeoutError`` and retries like any timeout. With ``max_retries=1`` a cell therefore
stops after about ``2 x COURSE_MODEL_TIMEOUT`` (plus the SDK's short back-off), for a silent
endpoint and for a slow one alike.

How: a ``request`` event hook (public httpx API) stores the deadline in a context variable; the
connection pools' network backend (httpcore2 1.x's ``NetworkBackend`` interface) is wrapped so that
every connect, read and write gets at most the time left. The pools are reached through
``client._transport`` / ``client._mounts`` and ``transport._pool._network_backend`` (httpx2 2.16 /
httpcore2 2.16, the versions openai 3.57 uses); :func:`deadline_clients` raises ``RuntimeError``
when it finds no pool to wrap, so a library upgrade that moves them fails loudly, not silently.
A response read in a context other than the one that sent the request (no deadline there) keeps
the per-read timeouts only.
"""

from __future__ import annotations

import contextvars
import sys
import time
from typing import Any

__all__ = ["deadline_clients", "time_left"]

#: When the current request must be finished (``time.monotonic()``), or ``None``.
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("course_request_deadline", default=None)


def time_left() -> float | None:
    """Seconds left before the current request's deadline (may be negative), or ``None`` without one."""
    deadline = _DEADLINE.get()
    return None if deadline is None else deadline - time.monotonic()


def _start(request: Any) -> None:
    timeouts = request.extensions.get("timeout") or {}
    seconds = timeouts.get("read") if isinstance(timeouts, dict) else None
    _DEADLINE.set(None if seconds is None else time.monotonic() + float(seconds))


async def _astart(request: Any) -> None:
    _start(request)


def _cap_retry_after(response: Any) -> None:
    """Cut a server's ``Retry-After`` / ``Retry-After-Ms`` to the request's own deadline.

    openai 3.57 sleeps as long as a 429 or 5xx reply's ``Retry-After`` says (up to 120 s, per
    retry) before it retries: a rate-limited gateway saying ``Retry-After: 120`` kept a cell silent
    for minutes whatever ``COURSE_MODEL_TIMEOUT`` was. A value that is not a number of seconds in
    ``(0, deadline]`` (too long, an HTTP date, garbage) becomes the deadline itself.
    """
    timeouts = response.request.extensions.get("timeout") or {}
    seconds = timeouts.get("read") if isinstance(timeouts, dict) else None
    if seconds is None:
        return
    for name, unit in (("retry-after", 1.0), ("retry-after-ms", 1000.0)):
        value = response.headers.get(name)
        if value is None:
            continue
        try:
            wait = float(value) / unit
        except ValueError:
            wait = float("inf")
        if not 0 < wait <= seconds:  # NaN and inf too
            response.headers[name] = f"{float(seconds) * unit:g}"


async def _acap_retry_after(response: Any) -> None:
    _cap_retry_after(response)


class _Limits:
    """The timeout errors of the HTTP core library a pool belongs to (``httpcore2``)."""

    def __init__(self, library: Any) -> None:
        self.library = library

    def clamp(self, timeout: float | None, error: str) -> float | None:
        """``timeout`` cut to the time left; raises ``library.<error>`` when none is left."""
        left = time_left()
        if left is None:
            return timeout
        if left <= 0:
            raise getattr(self.library, error)(
                "the request took longer than its overall deadline (COURSE_MODEL_TIMEOUT seconds)")
        return left if timeout is None else min(timeout, left)


class _Stream:
    """A network stream whose reads and writes end at the request's deadline."""

    def __init__(self, inner: Any, limits: _Limits) -> None:
        self._inner, self._limits = inner, limits

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, timeout=self._limits.clamp(timeout, "ReadTimeout"))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, timeout=self._limits.clamp(timeout, "WriteTimeout"))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        stream = self._inner.start_tls(ssl_context, server_hostname=server_hostname,
                                       timeout=self._limits.clamp(timeout, "ConnectTimeout"))
        return _Stream(stream, self._limits)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _AsyncStream(_Stream):
    """The asynchronous form of :class:`_Stream`."""

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # type: ignore[override]
        return await self._inner.read(max_bytes, timeout=self._limits.clamp(timeout, "ReadTimeout"))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # type: ignore[override]
        await self._inner.write(buffer, timeout=self._limits.clamp(timeout, "WriteTimeout"))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(self, ssl_context: Any, server_hostname: str | None = None,  # type: ignore[override]
                        timeout: float | None = None) -> Any:
        stream = await self._inner.start_tls(ssl_context, server_hostname=server_hostname,
                                             timeout=self._limits.clamp(timeout, "ConnectTimeout"))
        return _AsyncStream(stream, self._limits)


class _Backend:
    """A network backend whose connections end at the request's deadline."""

    def __init__(self, inner: Any, limits: _Limits) -> None:
        self._inner, self._limits = inner, limits

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, **kwargs: Any) -> Any:
        stream = self._inner.connect_tcp(host, port, timeout=self._limits.clamp(timeout, "ConnectTimeout"), **kwargs)
        return _Stream(stream, self._limits)

    def connect_unix_socket(self, path: str, timeout: float | None = None, **kwargs: Any) -> Any:
        stream = self._inner.connect_unix_socket(path, timeout=self._limits.clamp(timeout, "ConnectTimeout"),
                                                 **kwargs)
        return _Stream(stream, self._limits)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _AsyncBackend(_Backend):
    """The asynchronous form of :class:`_Backend`."""

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,  # type: ignore[override]
                          **kwargs: Any) -> Any:
        stream = await self._inner.connect_tcp(host, port, timeout=self._limits.clamp(timeout, "ConnectTimeout"),
                                               **kwargs)
        return _AsyncStream(stream, self._limits)

    async def connect_unix_socket(self, path: str, timeout: float | None = None,  # type: ignore[override]
                                  **kwargs: Any) -> Any:
        stream = await self._inner.connect_unix_socket(
            path, timeout=self._limits.clamp(timeout, "ConnectTimeout"), **kwargs)
        return _AsyncStream(stream, self._limits)

    async def sleep(self, seconds: float) -> None:  # type: ignore[override]
        await self._inner.sleep(seconds)


def _wrap_pools(client: Any, backend_type: type[_Backend]) -> None:
    transports = [client._transport, *(t for t in client._mounts.values() if t is not None)]
    wrapped = 0
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        inner = getattr(pool, "_network_backend", None)
        if inner is None:
            continue
        library = sys.modules[type(pool).__module__.split(".")[0]]
        pool._network_backend = backend_type(inner, _Limits(library))
        wrapped += 1
    if not wrapped:
        raise RuntimeError("helpers.model.deadline found no connection pool to wrap in the OpenAI SDK's HTTP "
                           "client: the HTTP library changed; see the module docstring")


def deadline_clients(proxy: str | None = None) -> tuple[Any, Any]:
    """A sync and an async HTTP client for ``ChatOpenAI(http_client=..., http_async_client=...)``.

    Both are the OpenAI SDK's own defaults (``openai.DefaultHttpxClient`` /
    ``openai.DefaultAsyncHttpxClient``: its connection limits, redirects, and the proxy settings of
    the environment), with the overall deadline of the module docstring, and a server's
    ``Retry-After`` cut to that deadline (:func:`_cap_retry_after`), so the wait between two tries
    is bounded by it too.

    Args:
        proxy: a proxy URL (what ``ChatOpenAI`` reads from ``OPENAI_PROXY``), or ``None``.

    Returns:
        ``(sync client, async client)``.

    Raises:
        RuntimeError: the HTTP library's pools are not where this module expects them.
    """
    import openai

    extra = {"proxy": proxy} if proxy else {}
    sync_client = openai.DefaultHttpxClient(event_hooks={"request": [_start], "response": [_cap_retry_after]},
                                            **extra)
    async_client = openai.DefaultAsyncHttpxClient(
        event_hooks={"request": [_astart], "response": [_acap_retry_after]}, **extra)
    _wrap_pools(sync_client, _Backend)
    _wrap_pools(async_client, _AsyncBackend)
    return sync_client, async_client
