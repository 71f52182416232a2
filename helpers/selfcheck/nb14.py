"""Self-check questions for notebook 14 (wire formats and bind_tools).

"strict-makes-required" is a "predict the output" question: its snippet runs after
:data:`CODE_CONTEXT` (section 4's ``tag_order`` tool) and must print its answer. The others are proven
by the verifiers in ``tests/selfcheck_verifiers/nb14.py``, which build the real request bodies with
langchain-openai 1.7.4 and langchain-anthropic 1.7.10 (offline) or send one to the loopback server.
"""

from __future__ import annotations

from .format import Question

CODE_CONTEXT = '''
from typing import Any

from langchain.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool


@tool
def tag_order(order_id: str, note: str | None = None, metadata: dict[str, Any] | None = None) -> str:
    """Tag an order for the support team, with an optional note and free-form metadata."""
    return f"tagged {order_id}"
'''

QUESTIONS = (
    Question(
        id="which-body-marks-the-error",
        prompt=("A ToolMessage with `status=\"error\"` is sent by ChatOpenAI (chat.completions), ChatOpenAI "
                "(Responses API) and ChatAnthropic. In which request bodies is the failure marked by a field, "
                "not only by the text of the content?"),
        choices=("Only Anthropic's: `is_error: true` on the tool_result block",
                 "All three: each format has its own error field",
                 "Only the two OpenAI APIs: they keep `status: \"error\"`",
                 "None of them: every format keeps only the content"),
        answer="Only Anthropic's: `is_error: true` on the tool_result block",
        explanation=("OpenAI's two APIs keep only the content and the call id; ChatAnthropic sets is_error from "
                     "status, so for OpenAI the content itself must say the call failed."),
        section="section 2, What survives the trip",
        why_not={"All three: each format has its own error field":
                     "_convert_message_to_dict keeps content, role and tool_call_id only; a "
                     "function_call_output has output and call_id only.",
                 "None of them: every format keeps only the content":
                     "ChatAnthropic's _merge_messages writes is_error = status == 'error'."},
    ),
    Question(
        id="portable-force",
        prompt=("Your application must make the model call *some* tool, and runs on ChatOpenAI or ChatAnthropic "
                "depending on the customer. Which `bind_tools(tools, tool_choice=...)` forces a call on both?"),
        choices=('tool_choice="any"', 'tool_choice="required"', "tool_choice=True", 'tool_choice="auto"'),
        answer='tool_choice="any"',
        explanation=('ChatOpenAI sends "any" as "required"; ChatAnthropic sends {"type": "any"}. Any other string '
                     "is a tool name on ChatAnthropic."),
        section="section 4, bind_tools options",
        why_not={'tool_choice="required"': 'ChatAnthropic forces a tool named "required": {"type": "tool", '
                                           '"name": "required"}.',
                 "tool_choice=True": "ChatAnthropic raises ValueError: Unrecognized 'tool_choice' type.",
                 'tool_choice="auto"': "auto lets the model answer in text."},
    ),
    Question(
        id="strict-makes-required",
        prompt="With `strict=True`, which fields of `tag_order` does the schema list as required?",
        code='schema = convert_to_openai_tool(tag_order, strict=True)["function"]["parameters"]\n'
             'print(schema["required"])',
        choices=("['order_id', 'note', 'metadata']", "['order_id']", "['order_id', 'note']", "[]"),
        answer="['order_id', 'note', 'metadata']",
        explanation=("Strict mode makes every property required (optional ones stay nullable), and the free-form "
                     "metadata object gets additionalProperties: false, so only {} fits."),
        section="section 4, bind_tools options",
        why_not={"['order_id']": "That is the schema without strict: the optional fields are not required."},
    ),
    Question(
        id="who-catches-a-lost-answer",
        prompt=("The application lost the ToolMessage of the second of two calls and calls the model again. "
                "Where is the broken pairing first refused?"),
        choices=("By the provider, when the request arrives: the SDK raises (HTTP 400 for OpenAI)",
                 "By the integration's payload builder (`_get_request_payload`), before anything is sent",
                 "By `bind_tools`, which checks the history against the bound tools",
                 "Nowhere: the model simply ignores the unanswered call"),
        answer="By the provider, when the request arrives: the SDK raises (HTTP 400 for OpenAI)",
        explanation=("All three payload builders build the body without a check; only the provider applies the "
                     "pairing rule, so check the body yourself or answer every call."),
        section="section 5, Who catches a broken pairing",
        why_not={"Nowhere: the model simply ignores the unanswered call":
                     "OpenAI refuses the request with HTTP 400; so does Anthropic for a tool_use without result."},
    ),
    Question(
        id="server-tool-owes-nothing",
        prompt=("A reply holds a `server_tool_call` content block (the provider's own web search) and its "
                "`server_tool_result`. How many ToolMessages does your application owe for it?"),
        choices=("None: it is not in `.tool_calls`, and its result is already in the message",
                 "One, with the server tool call's id",
                 "One with `status=\"error\"`, since the application did not run it"),
        answer="None: it is not in `.tool_calls`, and its result is already in the message",
        explanation=("The provider ran the tool and put the result in the same reply; a ToolMessage for its id "
                     "would answer no call of yours: an orphan."),
        section="section 3, Standard content blocks",
    ),
)
