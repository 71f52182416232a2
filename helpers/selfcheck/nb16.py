"""Self-check questions for notebook 16 (MCP tools).

Each question is proven by a verifier in ``tests/selfcheck_verifiers/nb16.py`` that starts the
course's MCP order server (``helpers/mcp_orders``) and runs the behaviour the question asks about.
"""

from __future__ import annotations

from .format import Question

CODE_CONTEXT = '''
from langchain_mcp_adapters.client import MultiServerMCPClient

from helpers import tool_call
from helpers.mcp_orders import server_params

CONNECTIONS = {"orders": server_params("orders")}
client = MultiServerMCPClient(CONNECTIONS)
'''

QUESTIONS = (
    Question(
        id="where-structured-content",
        prompt=("`lookup_order` on the MCP server is annotated `-> dict[str, Any]`. An agent calls it. "
                "Where does the server's structured content end up?"),
        choices=(
            "In ToolMessage.artifact; the provider receives only the text content",
            "In the ToolMessage content the provider receives, as a JSON object",
            "Nowhere: the adapter drops structured content",
            "In the AIMessage's tool_calls, next to the arguments",
        ),
        answer="In ToolMessage.artifact; the provider receives only the text content",
        explanation=("The tools use response_format='content_and_artifact': text blocks are the content, "
                     "structuredContent is the artifact, and no provider request carries an artifact."),
        section="section 3, A result in two parts",
        why_not={"In the ToolMessage content the provider receives, as a JSON object":
                 "The content holds the same data as text; the structured object stays in the artifact."},
    ),
    Question(
        id="bare-dict",
        prompt="A server's tool is annotated with a bare `-> dict`. What is `ToolMessage.artifact` after a call?",
        choices=(
            "None: FastMCP builds no output schema, so the server sends no structured content",
            "{'structured_content': {...}}, as for dict[str, Any]",
            "The call fails: the ToolMessage has status='error'",
        ),
        answer="None: FastMCP builds no output schema, so the server sends no structured content",
        explanation="A bare dict is not a type FastMCP can build a model from; annotate dict[str, Any] instead.",
        section="section 3, A result in two parts",
        why_not={"The call fails: the ToolMessage has status='error'": "The call succeeds; only the artifact is missing."},
    ),
    Question(
        id="who-validates",
        prompt="The model writes `{\"order_id\": 1024}` (an integer) for the MCP tool `lookup_order(order_id: str)`. What happens?",
        choices=(
            "The server rejects the arguments and the ToolMessage has status='error'",
            "LangChain raises a ValidationError before anything is sent to the server",
            "The tool runs with order_id '1024'",
        ),
        answer="The server rejects the arguments and the ToolMessage has status='error'",
        explanation="The client's schema is a dict, which LangChain passes on unchanged; FastMCP validates on the server.",
        section="section 4, Errors come back as results",
        why_not={"LangChain raises a ValidationError before anything is sent to the server":
                 "That happens for a @tool with a Pydantic schema, not for an MCP tool's dict schema."},
    ),
    Question(
        id="processes-per-call",
        prompt="You call `server_stats` three times with the tool from `await client.get_tools()`. How many server processes answer?",
        choices=(
            "Three: each call starts its own server process",
            "One: get_tools() started it and keeps it for its tools",
            "One per get_tools() call, shared by every tool it returned",
        ),
        answer="Three: each call starts its own server process",
        explanation="A get_tools() tool holds the connection, not a session; open client.session(...) once to reuse one process.",
        section="section 5, Sessions and cost",
    ),
)
