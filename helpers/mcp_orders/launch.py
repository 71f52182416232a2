"""Launch parameters for the course's MCP servers: a subprocess over stdio, never the network."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any, Literal, get_args

ServerKind = Literal["orders", "partner", "stalled"]
"""``"orders"``: the desk's own order service; ``"partner"``: a third-party server whose tool
description instructs the model (notebook 16, section 7); ``"stalled"``: a carrier's server that
never answers a tool call (notebook 16, Pitfalls)."""

SERVER_KINDS: tuple[ServerKind, ...] = get_args(ServerKind)
FASTMCP_KINDS: tuple[ServerKind, ...] = ("orders", "partner")
"""The kinds :mod:`helpers.mcp_orders.server` serves (``FastMCP``); ``stalled`` is
:mod:`helpers.mcp_orders.stalled` (the standard library only)."""

ROOT = Path(__file__).resolve().parent.parent.parent
"""The checkout that holds ``helpers/``: the server's working directory, so ``-m`` imports it."""

_PASSED_ON = ("PYTHONPATH", "COURSE_NET_GUARD_LOG")
"""Variables the server inherits beside ``mcp``'s safe defaults (HOME, PATH, ...): the import path
and the test suite's offline guard (``tests/offline_guard``), so the server is guarded like a kernel."""


def _give_servers_a_real_stderr() -> None:
    """Let ``mcp``'s ``stdio_client`` start a server when ``sys.stderr`` has no file descriptor.

    ``stdio_client(server, errlog=sys.stderr)`` (mcp 1.30.0, ``mcp/client/stdio/__init__.py:106``)
    binds the ``sys.stderr`` of import time as the server's stderr, and ``langchain-mcp-adapters``
    0.3.2 passes no ``errlog``. In a Jupyter kernel started under pytest (strict nbval: ipykernel
    does not capture file descriptors while ``PYTEST_CURRENT_TEST`` is set) that stream's
    ``fileno()`` raises ``io.UnsupportedOperation`` and every server start fails. Then the default
    becomes the process's own stderr (``sys.__stderr__``): the server's warnings go to the kernel's
    log, never into a notebook's output. A stream with a file descriptor is left as it is.
    """
    from mcp.client import stdio

    (errlog,) = stdio.stdio_client.__wrapped__.__defaults__
    try:
        errlog.fileno()
    except (io.UnsupportedOperation, AttributeError, ValueError):
        stdio.stdio_client.__wrapped__.__defaults__ = (sys.__stderr__,)


def server_params(kind: ServerKind = "orders") -> dict[str, Any]:
    """The connection of one server for ``MultiServerMCPClient({name: server_params()})``.

    Args:
        kind: which server, one of :data:`SERVER_KINDS`.

    Returns:
        A ``StdioConnection`` dict (langchain-mcp-adapters 0.3.2, ``sessions.py``):
        ``transport="stdio"``, ``command`` this interpreter (``sys.executable``), ``args``
        ``["-m", "helpers.mcp_orders.server", kind]`` (``["-m", "helpers.mcp_orders.stalled"]`` for
        ``stalled``), ``cwd`` the checkout and ``env`` the
        variables in :data:`_PASSED_ON` that are set (``mcp`` 1.30.0's ``stdio_client`` adds
        HOME, PATH, ... itself). The server reads stdin and writes stdout: no socket. Also makes
        sure the server gets a stderr it can write to (:func:`_give_servers_a_real_stderr`).

    Raises:
        ValueError: ``kind`` is not one of :data:`SERVER_KINDS`.
    """
    if kind not in SERVER_KINDS:
        raise ValueError(f"unknown MCP server {kind!r}: use one of {', '.join(SERVER_KINDS)}")
    _give_servers_a_real_stderr()
    env = {name: os.environ[name] for name in _PASSED_ON if os.environ.get(name)}
    return {
        "transport": "stdio",
        "command": sys.executable,
        "args": ["-m", "helpers.mcp_orders.stalled"] if kind == "stalled" else ["-m", "helpers.mcp_orders.server", kind],
        "cwd": str(ROOT),
        "env": env,
    }
