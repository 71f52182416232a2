"""The refund desk's order service as an MCP server (notebook 16), and how to launch it.

* :mod:`helpers.mcp_orders.server`: the server, written with the ``mcp`` SDK's ``FastMCP``
  (mcp 1.30.0), run over stdio: ``python -m helpers.mcp_orders.server [orders|partner]``.
* :mod:`helpers.mcp_orders.stalled`: a server that answers the handshake and never a tool call
  (the standard library only: it starts in about 0.1 s);
* :func:`server_params`: the stdio launch parameters ``langchain-mcp-adapters`` 0.3.2's
  ``MultiServerMCPClient`` takes for one server (a local subprocess, no network).
"""

from .launch import FASTMCP_KINDS, SERVER_KINDS, ServerKind, server_params

__all__ = ["FASTMCP_KINDS", "SERVER_KINDS", "ServerKind", "server_params"]
