"""Verifiers of notebook 16's self-check questions (``helpers/selfcheck/nb16.py``): see
``tests/selfcheck_verifiers/__init__.py``. Each starts the course's MCP order server over stdio."""

import asyncio
import json

from langchain.agents import create_agent
from langchain_mcp_adapters.tools import load_mcp_tools

from helpers import scripted_model, tool_call
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def _client():
    return context_namespace("16")["client"]


async def _session_call(name, args):
    async with _client().session("orders") as session:
        tools = {t.name: t for t in await load_mcp_tools(session)}
        return await tools[name].ainvoke(tool_call(name, args, id="call_q"))


def verify_where_structured_content(q):
    async def run():
        tools = await _client().get_tools()
        model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})], "done"])
        agent = create_agent(model, tools=tools)
        result = await agent.ainvoke({"messages": [{"role": "user", "content": "A1024?"}]})
        return result["messages"][2], model.requests[1].payload()

    message, payload = asyncio.run(run())
    assert message.artifact["structured_content"]["order_id"] == "A1024"
    sent = json.dumps(payload)
    assert "structured_content" not in sent and "artifact" not in sent
    assert isinstance(payload["messages"][-1]["content"], (str, list))
    return pick(q, "ToolMessage.artifact")


def verify_bare_dict(q):
    message = asyncio.run(_session_call("order_summary", {"order_id": "A1024"}))
    assert message.status == "success" and message.artifact is None
    structured = asyncio.run(_session_call("lookup_order", {"order_id": "A1024"}))
    assert structured.artifact is not None  # dict[str, Any] does give structured content
    return pick(q, "None: FastMCP")


def verify_who_validates(q):
    async def run():
        tools = {t.name: t for t in await _client().get_tools()}
        lookup = tools["lookup_order"]
        passed_on = lookup._parse_input({"order_id": 1024}, "call_q")
        return passed_on, await lookup.ainvoke(tool_call("lookup_order", {"order_id": 1024}, id="call_q"))

    passed_on, message = asyncio.run(run())
    assert passed_on == {"order_id": 1024}  # the client did not validate or convert
    assert message.status == "error" and "validation error for lookup_orderArguments" in message.text
    return pick(q, "The server rejects")


def verify_processes_per_call(q):
    async def run():
        tools = {t.name: t for t in await _client().get_tools()}
        answered = []
        for _ in range(3):
            reply = await tools["server_stats"].ainvoke(tool_call("server_stats", {}, id="call_q"))
            answered.append(reply.artifact["structured_content"]["calls_answered"])
        return answered

    assert asyncio.run(run()) == [1, 1, 1]  # each process answered only its one call
    return pick(q, "Three")
