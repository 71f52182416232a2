"""Self-check questions for notebook 14 (wire formats and bind_tools).

"strict-makes-required" is a "predict the output" question: its snippet runs after
:data:`CODE_CONTEXT` (section 4's ``tag_order`` tool) and must print its answer. The others are proven
by the verifiers in ``tests/selfcheck_verifiers/nb14.py``, which build the real request bodies with
langchain-openai 1.7.4 and langchain-anthropic 1.7.10 (offline) or send one to the loopback server.
"""

from __future__ import annotations

from ..i18n import N_
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
        prompt=N_("A ToolMessage with `status=\"error\"` is sent by ChatOpenAI (chat.completions), ChatOpenAI "
                  "(Responses API) and ChatAnthropic. In which request bodies is the failure marked by a field, "
                  "not only by the text of the content?"),
        choices=(N_("Only Anthropic's: `is_error: true` on the tool_result block"),
                 N_("All three: each format has its own error field"),
                 N_("Only the two OpenAI APIs: they keep `status: \"error\"`"),
                 N_("None of them: every format keeps only the content")),
        answer=N_("Only Anthropic's: `is_error: true` on the tool_result block"),
        explanation=N_("OpenAI's two APIs keep only the content and the call id; ChatAnthropic sets is_error from "
                       "status, so for OpenAI the content itself must say the call failed."),
        section=N_("section 2, What survives the trip"),
        why_not={N_("All three: each format has its own error field"):
                     N_("_convert_message_to_dict keeps content, role and tool_call_id only; a "
                        "function_call_output has output and call_id only."),
                 N_("None of them: every format keeps only the content"):
                     N_("ChatAnthropic's _merge_messages writes is_error = status == 'error'.")},
    ),
    Question(
        id="portable-force",
        prompt=N_("Your application must make the model call *some* tool, and runs on ChatOpenAI or ChatAnthropic "
                  "depending on the customer. Which `bind_tools(tools, tool_choice=...)` forces a call on both?"),
        choices=(N_('tool_choice="any"'), N_('tool_choice="required"'), N_("tool_choice=True"), N_('tool_choice="auto"')),
        answer=N_('tool_choice="any"'),
        explanation=N_('ChatOpenAI sends "any" as "required"; ChatAnthropic sends {"type": "any"}. Any other string '
                       "is a tool name on ChatAnthropic."),
        section=N_("section 4, `bind_tools` options, as each provider receives them"),
        why_not={N_('tool_choice="required"'): N_('ChatAnthropic forces a tool named "required": {"type": "tool", '
                                              '"name": "required"}.'),
                 N_("tool_choice=True"): N_("ChatAnthropic raises ValueError: Unrecognized 'tool_choice' type."),
                 N_('tool_choice="auto"'): N_("auto lets the model answer in text.")},
    ),
    Question(
        id="strict-makes-required",
        prompt=N_("With `strict=True`, which fields of `tag_order` does the schema list as required?"),
        code='schema = convert_to_openai_tool(tag_order, strict=True)["function"]["parameters"]\n'
             'print(schema["required"])',
        choices=("['order_id', 'note', 'metadata']", "['order_id']", "['order_id', 'note']", "[]"),
        answer="['order_id', 'note', 'metadata']",
        explanation=N_("Strict mode makes every property required (optional ones stay nullable), and the free-form "
                       "metadata object gets additionalProperties: false, so only {} fits."),
        section=N_("section 4, `bind_tools` options, as each provider receives them"),
        why_not={"['order_id']": N_("That is the schema without strict: the optional fields are not required.")},
    ),
    Question(
        id="who-catches-a-lost-answer",
        prompt=N_("The application lost the ToolMessage of the second of two calls and calls the model again. "
                  "Where is the broken pairing first refused?"),
        choices=(N_("By the provider, when the request arrives: the SDK raises (HTTP 400 for OpenAI)"),
                 N_("By the integration's payload builder (`_get_request_payload`), before anything is sent"),
                 N_("By `bind_tools`, which checks the history against the bound tools"),
                 N_("Nowhere: the model simply ignores the unanswered call")),
        answer=N_("By the provider, when the request arrives: the SDK raises (HTTP 400 for OpenAI)"),
        explanation=N_("All three payload builders build the body without a check; only the provider applies the "
                       "pairing rule, so check the body yourself or answer every call."),
        section=N_("section 5, Who catches a broken pairing"),
        why_not={N_("Nowhere: the model simply ignores the unanswered call"):
                     N_("OpenAI refuses the request with HTTP 400; so does Anthropic for a tool_use without result.")},
    ),
    Question(
        id="server-tool-owes-nothing",
        prompt=N_("A reply holds a `server_tool_call` content block (the provider's own web search) and its "
                  "`server_tool_result`. How many ToolMessages does your application owe for it?"),
        choices=(N_("None: it is not in `.tool_calls`, and its result is already in the message"),
                 N_("One, with the server tool call's id"),
                 N_("One with `status=\"error\"`, since the application did not run it")),
        answer=N_("None: it is not in `.tool_calls`, and its result is already in the message"),
        explanation=N_("The provider ran the tool and put the result in the same reply; a ToolMessage for its id "
                       "would answer no call of yours: an orphan."),
        section=N_("section 3, Standard content blocks, and tools the provider runs itself"),
    ),
)
