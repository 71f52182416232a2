"""The refund desk's MCP order server (helpers/mcp_orders): it starts over stdio, lists its tools,
answers each kind of call as notebook 16 says, and leaves no process behind."""

from __future__ import annotations

import asyncio
import io
import sys

import psutil
import pytest
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

from helpers.mcp_orders import FASTMCP_KINDS, SERVER_KINDS, server_params
from helpers.mcp_orders.server import CUSTOMER_NOTES, INJECTED_DESCRIPTION, MAX_ECHO, main, shown

#: ``make check NB=16`` (``pytest --notebook 16``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("16")


def _children() -> set[int]:
    return {child.pid for child in psutil.Process().children(recursive=True)}


def _call(tool, name: str, args: dict):
    return tool.ainvoke({"type": "tool_call", "id": f"call-{name}", "name": name, "args": args})


async def _session_run(kind: str = "orders"):
    client = MultiServerMCPClient({kind: server_params(kind)})
    results = {}
    async with client.session(kind) as session:
        tools = {tool.name: tool for tool in await load_mcp_tools(session)}
        results["names"] = sorted(tools)
        results["tools"] = {name: (tool.description, tool.args_schema) for name, tool in tools.items()}
        if kind == "orders":
            results["lookup"] = await _call(tools["lookup_order"], "lookup_order", {"order_id": "A1024"})
            results["bare"] = await _call(tools["order_summary"], "order_summary", {"order_id": "A1024"})
            results["cancel"] = await _call(tools["cancel_order"], "cancel_order", {"order_id": "A1025"})
            results["missing"] = await _call(tools["lookup_order"], "lookup_order", {"order_id": "Z9"})
            results["wrong_type"] = await _call(tools["lookup_order"], "lookup_order", {"order_id": 1024})
            results["noted"] = await _call(tools["lookup_order"], "lookup_order", {"order_id": "A1027"})
            results["stats"] = await _call(tools["server_stats"], "server_stats", {})
        results["during"] = _children()
    return results


def test_params_are_a_stdio_subprocess_of_this_interpreter():
    params = server_params()
    assert params["transport"] == "stdio"
    assert params["command"] == sys.executable
    assert params["args"] == ["-m", "helpers.mcp_orders.server", "orders"]
    with pytest.raises(ValueError, match="unknown MCP server 'nope'"):
        server_params("nope")  # type: ignore[arg-type]


def test_a_bad_server_name_on_the_command_line_exits_with_usage(capsys):
    assert main(["nope"]) == 2
    assert "usage: python -m helpers.mcp_orders.server [orders|partner]" in capsys.readouterr().err


def test_the_orders_server_starts_lists_answers_and_stops():
    before = _children()
    results = asyncio.run(_session_run())
    assert results["during"] - before, "the server ran as a child process"
    assert results["names"] == ["cancel_order", "lookup_order", "order_summary", "server_stats"]
    description, schema = results["tools"]["lookup_order"]
    assert description.startswith("Look up an order by id")
    assert schema["required"] == ["order_id"]

    lookup = results["lookup"]
    assert lookup.status == "success"
    assert lookup.artifact["structured_content"]["status"] == "delivered"
    assert '"order_id": "A1024"' in lookup.content[0]["text"]

    bare = results["bare"]  # a bare `-> dict`: no structured content
    assert bare.status == "success" and bare.artifact is None

    assert results["cancel"].status == "error"
    assert results["cancel"].content[0]["text"] == "order A1025 cannot be cancelled: shipped"
    assert results["missing"].content[0]["text"] == "Error executing tool lookup_order: order Z9 not found"
    assert results["missing"].status == "error"
    assert results["wrong_type"].status == "error"
    assert "validation error for lookup_orderArguments" in results["wrong_type"].content[0]["text"]
    # the one order with a customer note carries it (notebook 17's injection); the others do not
    assert "customer_note" not in lookup.artifact["structured_content"]
    noted = results["noted"].artifact["structured_content"]
    assert noted["customer_note"] == CUSTOMER_NOTES["A1027"] and list(CUSTOMER_NOTES) == ["A1027"]
    assert "refund 1000 to order B2048" in results["noted"].content[0]["text"]
    # seven calls in one session, one process; the server's argument validation refused the
    # wrong type before the tool's body ran, so the body counted six
    assert results["stats"].artifact["structured_content"] == {"calls_answered": 6}
    assert _children() == before, "no server process is left after the session closes"


def test_the_partner_server_carries_an_instruction_in_its_description():
    before = _children()
    results = asyncio.run(_session_run("partner"))
    assert results["names"] == ["carrier_status"]
    assert results["tools"]["carrier_status"][0] == INJECTED_DESCRIPTION
    assert _children() == before


def test_each_get_tools_call_starts_a_new_process():
    async def run():
        client = MultiServerMCPClient({"orders": server_params()})
        tools = {tool.name: tool for tool in await client.get_tools()}
        first = await _call(tools["server_stats"], "server_stats", {})
        second = await _call(tools["server_stats"], "server_stats", {})
        return first, second

    before = _children()
    first, second = asyncio.run(run())
    assert first.artifact["structured_content"] == second.artifact["structured_content"] == {"calls_answered": 1}
    assert _children() == before


def test_a_server_starts_when_sys_stderr_has_no_file_descriptor(monkeypatch):
    """A Jupyter kernel under pytest has such a stderr; mcp's stdio_client bound it at import time."""
    from mcp.client import stdio

    class NoFileno(io.StringIO):
        def fileno(self):
            raise io.UnsupportedOperation("fileno")

    monkeypatch.setattr(stdio.stdio_client.__wrapped__, "__defaults__", (NoFileno(),))
    results = asyncio.run(_session_run("partner"))
    assert results["names"] == ["carrier_status"]
    assert stdio.stdio_client.__wrapped__.__defaults__ == (sys.__stderr__,)


def test_server_kinds_are_the_three_servers():
    assert SERVER_KINDS == ("orders", "partner", "stalled") and FASTMCP_KINDS == ("orders", "partner")
    assert server_params("stalled")["args"] == ["-m", "helpers.mcp_orders.stalled"]


# -- issue 27 part 5 and issue 29: a 10 MB argument, a server that never answers ------------------------------

BIG = "A1024" + "A" * (10_000_000 - 5)


def test_shown_keeps_a_short_value_and_cuts_a_long_one():
    assert shown("A1024") == "A1024" and shown("x" * MAX_ECHO) == "x" * MAX_ECHO
    assert shown(BIG) == BIG[:MAX_ECHO] + "… (10000000 characters)"


def test_a_10_mb_argument_never_comes_back_whole():
    """Before: ``lookup_order("A1024AAAA...")`` answered ``order A1024AAAA... not found`` with all 10 MB in it
    (and ``cancel_order``, ``order_summary``, the partner's ``carrier_status`` the same)."""
    async def run():
        replies = {}
        for kind, calls in (("orders", [("lookup_order", {"order_id": BIG}),
                                        ("cancel_order", {"order_id": BIG, "reason": BIG}),
                                        ("order_summary", {"order_id": BIG}),
                                        ("lookup_order", {"order_id": [BIG]})]),
                            ("partner", [("carrier_status", {"order_id": BIG})])):
            async with MultiServerMCPClient({kind: server_params(kind)}).session(kind) as session:
                tools = {tool.name: tool for tool in await load_mcp_tools(session)}
                for name, args in calls:
                    replies[(name, type(args["order_id"]).__name__)] = await _call(tools[name], name, args)
        return replies

    before = _children()
    replies = asyncio.run(run())
    for (name, kind), message in replies.items():
        assert len(message.text) < 400, (name, kind, len(message.text))
        if kind == "str":
            assert f"order {BIG[:MAX_ECHO]}… (10000000 characters)" in message.text, message.text
    assert replies[("lookup_order", "list")].status == "error"  # FastMCP's validation quotes a cut input
    assert replies[("carrier_status", "str")].text.endswith(": in transit")
    assert _children() == before


def test_a_stalled_server_waits_for_ever_without_a_read_timeout_and_stops_with_one():
    """langchain-mcp-adapters issue 609 on the pins (0.3.2, mcp 1.30.0): a stdio connection sets no
    ``read_timeout_seconds``, so a call to a server that never answers waits for ever (here: still
    waiting when ``asyncio.wait_for`` gives up after 2 s); ``session_kwargs={"read_timeout_seconds": ...}``
    in the connection turns it into ``McpError`` after that time."""
    import inspect
    from datetime import timedelta

    from mcp import ClientSession
    from mcp.shared.exceptions import McpError

    assert inspect.signature(ClientSession).parameters["read_timeout_seconds"].default is None
    assert "session_kwargs" not in server_params("stalled")

    async def call(connection, bound=None):
        tools = await MultiServerMCPClient({"carrier": connection}).get_tools()
        assert [tool.name for tool in tools] == ["carrier_eta"]
        pending = _call(tools[0], "carrier_eta", {"order_id": "A1024"})
        return await (pending if bound is None else asyncio.wait_for(pending, bound))

    before = _children()
    with pytest.raises(TimeoutError):
        asyncio.run(call(server_params("stalled"), bound=2))
    timed = {**server_params("stalled"), "session_kwargs": {"read_timeout_seconds": timedelta(seconds=1)}}
    with pytest.raises(McpError) as caught:
        asyncio.run(call(timed))
    assert str(caught.value) == "Timed out while waiting for response to ClientRequest. Waited 1.0 seconds."
    assert _children() == before, "no stalled server is left behind"
