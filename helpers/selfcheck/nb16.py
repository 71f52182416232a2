"""Self-check questions for notebook 16 (MCP tools).

Each question is proven by a verifier in ``tests/selfcheck_verifiers/nb16.py`` that starts the
course's MCP order server (``helpers/mcp_orders``) and runs the behaviour the question asks about.
"""

from __future__ import annotations

from ..i18n import N_
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
        prompt=N_("`lookup_order` on the MCP server is annotated `-> dict[str, Any]`. An agent calls it. "
                  "Where does the server's structured content end up?"),
        choices=(
            N_("In ToolMessage.artifact; the provider receives only the text content"),
            N_("In the ToolMessage content the provider receives, as a JSON object"),
            N_("Nowhere: the adapter drops structured content"),
            N_("In the AIMessage's tool_calls, next to the arguments"),
        ),
        answer=N_("In ToolMessage.artifact; the provider receives only the text content"),
        explanation=N_("The tools use response_format='content_and_artifact': text blocks are the content, "
                       "structuredContent is the artifact, and no provider request carries an artifact."),
        section=N_("section 3, A result in two parts: content for the model, the artifact for the app"),
        why_not={N_("In the ToolMessage content the provider receives, as a JSON object"):
                 N_("The content holds the same data as text; the structured object stays in the artifact.")},
    ),
    Question(
        id="bare-dict",
        prompt=N_("A server's tool is annotated with a bare `-> dict`. What is `ToolMessage.artifact` after a call?"),
        choices=(
            N_("None: FastMCP builds no output schema, so the server sends no structured content"),
            N_("{'structured_content': {...}}, as for dict[str, Any]"),
            N_("The call fails: the ToolMessage has status='error'"),
        ),
        answer=N_("None: FastMCP builds no output schema, so the server sends no structured content"),
        explanation=N_("A bare dict is not a type FastMCP can build a model from; annotate dict[str, Any] instead."),
        section=N_("section 3, A result in two parts: content for the model, the artifact for the app"),
        why_not={N_("The call fails: the ToolMessage has status='error'"): N_("The call succeeds; only the artifact is missing.")},
    ),
    Question(
        id="who-validates",
        prompt=N_("The model writes `{\"order_id\": 1024}` (an integer) for the MCP tool `lookup_order(order_id: str)`. What happens?"),
        choices=(
            N_("The server rejects the arguments and the ToolMessage has status='error'"),
            N_("LangChain raises a ValidationError before anything is sent to the server"),
            N_("The tool runs with order_id '1024'"),
        ),
        answer=N_("The server rejects the arguments and the ToolMessage has status='error'"),
        explanation=N_("The client's schema is a dict, which LangChain passes on unchanged; FastMCP validates on the server."),
        section=N_("section 4, Errors come back as results; the server validates the arguments"),
        why_not={N_("LangChain raises a ValidationError before anything is sent to the server"):
                 N_("That happens for a @tool with a Pydantic schema, not for an MCP tool's dict schema.")},
    ),
    Question(
        id="processes-per-call",
        prompt=N_("You call `server_stats` three times with the tool from `await client.get_tools()`. How many server processes answer?"),
        choices=(
            N_("Three: each call starts its own server process"),
            N_("One: get_tools() started it and keeps it for its tools"),
            N_("One per get_tools() call, shared by every tool it returned"),
        ),
        answer=N_("Three: each call starts its own server process"),
        explanation=N_("A get_tools() tool holds the connection, not a session; open client.session(...) once to reuse one process."),
        section=N_("section 5, Sessions and cost: one process per call, or one session"),
    ),
)
