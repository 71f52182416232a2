"""Self-check questions for notebook 15 (Structured output and tools).

"retry-status" is a "predict the output" question whose snippet runs after :data:`CODE_CONTEXT` (the
notebook's setup: ``RefundDecision``, ``lookup_order``, ``question``); the others are proven by the
verifiers in ``tests/selfcheck_verifiers/nb15.py``.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

CODE_CONTEXT = '''
from langchain.agents import create_agent
from langchain.agents.structured_output import (
    ProviderStrategy,
    StructuredOutputValidationError,
    ToolStrategy,
)
from langchain.tools import tool
from pydantic import BaseModel, Field

from helpers import scripted_model, tool_call


class RefundDecision(BaseModel):
    """The refund desk's decision on one order."""

    order_id: str
    approve: bool
    amount: float = Field(ge=0)


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    return f"Order {order_id}: wireless headphones, 49.50, delivered damaged."


question = {"role": "user", "content": "Decide on the refund for order A1024."}
'''

QUESTIONS = (
    Question(
        id="where-the-run-ends",
        prompt=N_("An agent built with `response_format=ToolStrategy(RefundDecision)` receives a valid "
                  "`RefundDecision` tool call from the model. What is the last message of the run?"),
        choices=(N_("A ToolMessage the agent wrote itself, answering the RefundDecision call"),
                 N_("The AIMessage with the RefundDecision call; nothing answers it, the run just stops"),
                 N_("A final AIMessage in text: the model is asked once more after the decision"),
                 N_("An AIMessage whose text is the decision as JSON")),
        answer=N_("A ToolMessage the agent wrote itself, answering the RefundDecision call"),
        explanation=N_("The agent answers the synthetic call ('Returning structured response: ...') so pairing "
                       "stays valid, and the run ends there without another model call."),
        section=N_("section 1, `ToolStrategy`: the answer is a tool call the agent answers itself"),
        why_not={N_("An AIMessage whose text is the decision as JSON"): N_("That is ProviderStrategy's last message."),
                 N_("The AIMessage with the RefundDecision call; nothing answers it, the run just stops"):
                     N_("An unanswered call would make the next request to the provider fail; the agent answers it.")},
    ),
    Question(
        id="retry-status",
        prompt=N_("The first decision breaks the schema (`amount=-5`), the second is valid. What does this print?"),
        code='''model = scripted_model([
    [tool_call("RefundDecision", {"order_id": "A1024", "approve": True, "amount": -5})],
    [tool_call("RefundDecision", {"order_id": "A1024", "approve": True, "amount": 49.5})],
])
agent = create_agent(model, tools=[lookup_order], response_format=ToolStrategy(RefundDecision))
messages = agent.invoke({"messages": [question]})["messages"]
print(messages[2].status, len(model.requests))''',
        choices=("success 2", "error 2", "error 1", "success 1"),
        answer="success 2",
        explanation=N_("The retry ToolMessage is built without a status, so it says 'success'; the model is "
                       "asked again, 2 requests in all."),
        section=N_("section 5.1, `ToolStrategy`: a retry message with `status=\"success\"`"),
        why_not={"error 2": N_("Tempting, it reports a validation error: but the agent never sets status='error'."),
                 "error 1": N_("ToolStrategy retries (handle_errors=True by default); only handle_errors=False "
                               "raises at once.")},
    ),
    Question(
        id="provider-strategy-prose",
        prompt=N_("With `response_format=ProviderStrategy(RefundDecision)` the model's final reply is prose, "
                  "not JSON. What happens?"),
        choices=(N_("`invoke` raises StructuredOutputValidationError, and the model is not asked again"),
                 N_("The agent answers with a retry message and asks the model again, up to recursion_limit"),
                 N_("The run ends normally with structured_response None"),
                 N_("The agent parses what it can and fills the missing fields with defaults")),
        answer=N_("`invoke` raises StructuredOutputValidationError, and the model is not asked again"),
        explanation=N_("With ProviderStrategy there is no tool call to answer with a retry: the model node raises."),
        section=N_("section 5.3, `ProviderStrategy`: raises at once"),
        why_not={N_("The agent answers with a retry message and asks the model again, up to recursion_limit"):
                     N_("That is ToolStrategy, whose retry answers the synthetic tool call.")},
    ),
    Question(
        id="cut-function-calling",
        prompt=N_("`ChatOpenAI(...).with_structured_output(RefundDecision, method=\"function_calling\", "
                  "include_raw=True)` receives tool-call arguments cut at `max_tokens` "
                  "(`finish_reason: \"length\"`). What does `invoke` do?"),
        choices=(N_("It returns parsed None and parsing_error None: no error anywhere"),
                 N_("It returns parsed None, with the JSON error in parsing_error"),
                 N_("It raises LengthFinishReasonError, as method=\"json_schema\" does"),
                 N_("It returns the call completed by parse_partial_json, with amount 4")),
        answer=N_("It returns parsed None and parsing_error None: no error anywhere"),
        explanation=N_("The cut arguments become an invalid tool call, the parser finds no tool call and returns "
                       "None; only finish_reason says why."),
        section=N_("section 5.4, `with_structured_output` on a reply cut at `max_tokens`"),
        why_not={N_("It raises LengthFinishReasonError, as method=\"json_schema\" does"):
                     N_("Only json_schema goes through the OpenAI SDK's parse(), which raises."),
                 N_("It returns the call completed by parse_partial_json, with amount 4"):
                     N_("That happens to streamed chunks; invoke parses the arguments strictly.")},
    ),
    Question(
        id="strict-flags",
        prompt=N_("`create_agent(ChatOpenAI(model=\"gpt-4.1\"), tools=[lookup_order], "
                  "response_format=ProviderStrategy(RefundDecision))`: what does the request send with "
                  "`strict: true`?"),
        choices=(N_("Only the function tool lookup_order; the response schema is sent strict: false"),
                 N_("Only the response schema RefundDecision"),
                 N_("Both the function tool and the response schema"),
                 N_("Neither: strict is sent only after bind_tools(..., strict=True) in your code")),
        answer=N_("Only the function tool lookup_order; the response schema is sent strict: false"),
        explanation=N_("create_agent binds OpenAI-compatible models with strict=True for ProviderStrategy, while "
                       "the schema keeps ProviderStrategy's strict=None, sent as false."),
        section=N_("section 4, What `ChatOpenAI` sends: `strict` differs between the schema and the tools"),
        why_not={N_("Both the function tool and the response schema"):
                     N_("Only ProviderStrategy(RefundDecision, strict=True) makes the schema strict too.")},
    ),
)
