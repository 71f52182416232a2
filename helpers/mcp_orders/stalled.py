"""A stalled MCP server: it answers the handshake and lists its tool, then never answers a call.

Run: ``python -m helpers.mcp_orders.stalled`` (stdio, newline-delimited JSON-RPC, as the MCP stdio
transport frames it). It plays the carrier's tracking service on a day its backend is down: the
process is alive and its listing is fine, but ``carrier_eta`` never gets an answer, neither a result
nor an error (langchain-mcp-adapters issue 609: a stdio session with no read timeout then waits for
ever). Notebook 16 (Pitfalls) calls it with the session's read timeout set.

Written with the standard library only, not ``FastMCP``: it starts in about 0.1 s instead of the
1-3 s a ``FastMCP`` server needs to import ``mcp``. A session's read timeout covers every request,
the ``initialize`` handshake too, so the notebook's short timeout (about 1 s) needs a server that
starts well within it, on a busy machine too.
"""

from __future__ import annotations

import json
import sys
from typing import Any

SERVER_NAME = "carrier"
ETA_TOOL = {
    "name": "carrier_eta",
    "description": "Estimated delivery date of an order, from the carrier's own system.",
    "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
}
"""The one tool it lists (an MCP ``Tool``: name, description, input schema)."""


def reply(message: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON-RPC answer to one incoming message, or ``None`` for no answer.

    ``initialize`` gets the client's own protocol version back (mcp 1.30.0 accepts every version it
    sends), with the ``tools`` capability; ``tools/list`` gets :data:`ETA_TOOL`; ``ping`` an empty
    result. ``tools/call`` and every notification get nothing, ever; another request gets JSON-RPC's
    "method not found" error.
    """
    method, request_id = message.get("method"), message.get("id")
    if request_id is None or method == "tools/call":
        return None
    if method == "initialize":
        version = (message.get("params") or {}).get("protocolVersion", "2025-06-18")
        result: dict[str, Any] = {"protocolVersion": version, "capabilities": {"tools": {"listChanged": False}},
                                  "serverInfo": {"name": SERVER_NAME, "version": "1.0"}}
    elif method == "tools/list":
        result = {"tools": [ETA_TOOL]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"unknown method {method}"}}
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def main() -> int:
    """Serve stdin / stdout until the client closes stdin. Returns 0."""
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        answer = reply(message) if isinstance(message, dict) else None
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
