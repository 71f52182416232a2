"""Launch parameters for the course's MCP servers: a subprocess over stdio, never the network."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Literal, get_args

ServerKind = Literal["orders", "partner"]
"""``"orders"``: the desk's own order service; ``"partner"``: a third-party server whose tool
description instructs the model (notebook 15, section 7)."""

SERVER_KINDS: tuple[ServerKind, ...] = get_args(ServerKind)

ROOT = Path(__file__).resolve().parent.parent.parent
"""The checkout that holds ``helpers/``: the server's working directory, so ``-m`` imports it."""

_PASSED_ON = ("PYTHONPATH", "COURSE_NET_GUARD_LOG")
"""Variables the server inherits beside ``mcp``'s safe defaults (HOME, PATH, ...): the import path
and the test suite's offline guard (``tests/offline_guard``), so the server is guarded like a kernel."""


def server_params(kind: ServerKind = "orders") -> dict[str, Any]:
    """The connection of one server for ``MultiServerMCPClient({name: server_params()})``.

    Args:
        kind: which server, one of :data:`SERVER_KINDS`.

    Returns:
        A ``StdioConnection`` dict (langchain-mcp-adapters 0.3.2, ``sessions.py``):
        ``transport="stdio"``, ``command`` this interpreter (``sys.executable``), ``args``
        ``["-m", "helpers.mcp_orders.server", kind]``, ``cwd`` the checkout and ``env`` the
        variables in :data:`_PASSED_ON` that are set (``mcp`` 1.30.0's ``stdio_client`` adds
        HOME, PATH, ... itself). The server reads stdin and writes stdout: no socket.

    Raises:
        ValueError: ``kind`` is not one of :data:`SERVER_KINDS`.
    """
    if kind not in SERVER_KINDS:
        raise ValueError(f"unknown MCP server {kind!r}: use one of {', '.join(SERVER_KINDS)}")
    env = {name: os.environ[name] for name in _PASSED_ON if os.environ.get(name)}
    return {
        "transport": "stdio",
        "command": sys.executable,
        "args": ["-m", "helpers.mcp_orders.server", kind],
        "cwd": str(ROOT),
        "env": env,
    }
