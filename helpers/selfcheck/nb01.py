"""Self-check questions for notebook 01 · from a function to a tool."""

from __future__ import annotations

from ..i18n import N_
from .format import Question

#: The names the questions' ``code`` uses, defined as notebook 01 defines them (section 4c's
#: ``request_refund``, plus ``runs``: the reasons its body ran with). ``tests/test_selfcheck_questions.py``
#: runs each snippet after this and compares what it prints with the answer.
CODE_CONTEXT = '''
from typing import Literal

from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field

from helpers import scripted_model, tool_call

runs = []


class RefundRequestArgs(BaseModel):
    order_id: str = Field(description="Order id: one capital letter and four digits, e.g. A1024", pattern=r"^[A-Z]\\d{4}$")
    amount: float = Field(description="Amount to refund, in the order currency", gt=0)
    reason: Literal["damaged", "not_as_described", "changed_mind", "other"] = Field(description="Why the customer wants a refund")


@tool(args_schema=RefundRequestArgs)
def request_refund(order_id: str, amount: float, reason: str) -> str:
    """Create a refund REQUEST for one order of the current customer. It does not send money."""
    runs.append(reason)
    return f"refund request for {order_id}: {amount:.2f} ({reason})"
'''

QUESTIONS = (
    Question(
        id="args-section-not-parsed",
        prompt=N_("A plain `@tool` (no `parse_docstring=True`) on a function whose docstring has an `Args:` section. "
                  "What does this print?"),
        code=('@tool\n'
              'def lookup_order_v2(order_id: str, include_items: bool = False) -> dict:\n'
              '    """Look up one order of the current customer.\n'
              '\n'
              '    Args:\n'
              '        order_id: The order id, e.g. "A1024".\n'
              '        include_items: Whether to include line items.\n'
              '    """\n'
              '    return {}\n'
              '\n'
              'params = convert_to_openai_tool(lookup_order_v2)["function"]["parameters"]\n'
              'print(params["required"], "description" in params["properties"]["order_id"])'),
        choices=("['order_id'] False", "['order_id'] True", "['order_id', 'include_items'] False",
                 "['order_id', 'include_items'] True"),
        answer="['order_id'] False",
        explanation=N_("Plain @tool puts the whole docstring, Args: block included, into the tool's description and "
                       "describes no argument; a default makes an argument optional."),
        section=N_("section 4a, A docstring with an `Args:` section, without and with `parse_docstring=True`"),
        why_not={"['order_id'] True": N_("Only parse_docstring=True turns the Args: lines into argument descriptions."),
                 "['order_id', 'include_items'] False": N_("include_items has a default, so the schema does not "
                                                           "require it.")},
    ),
    Question(
        id="what-the-model-receives",
        prompt=N_("`lookup_order` is `@tool def lookup_order(order_id: str) -> dict` with a one-line docstring. "
                  "What does a provider receive about it after `bind_tools([lookup_order])`?"),
        choices=(N_("Its name, its description (the docstring) and a JSON Schema of its arguments"),
                 N_("The same, plus its return type, so the model knows the result is a dict"),
                 N_("The function's source code, so the model can see what it does"),
                 N_("Only its name: the description stays in the application")),
        answer=N_("Its name, its description (the docstring) and a JSON Schema of its arguments"),
        explanation=N_("convert_to_openai_tool shows exactly what bind_tools sends: name, description, parameters; "
                       "no return type, no body."),
        section=N_("section 3, What the model sees vs. what the application holds"),
        why_not={N_("The same, plus its return type, so the model knows the result is a dict"):
                     N_("The schema has no return type: the model learns what a result looks like only by reading one."),
                 N_("Only its name: the description stays in the application"):
                     N_("The description is sent with every request: it is how the model chooses a tool.")},
    ),
    Question(
        id="schema-refusal-goes-back",
        prompt=N_("`request_refund` is section 4c's tool (its `reason` is a `Literal`); `runs` lists every time its "
                  "body ran. The scripted model sends `reason=\"broken\"`. What does this print?"),
        code=('model = scripted_model([[tool_call("request_refund", {"order_id": "A1024", "amount": 49.5, '
              '"reason": "broken"})],\n'
              '                        "Which reason should I use?"])\n'
              'result = create_agent(model, [request_refund]).invoke({"messages": [("user", "Refund A1024, it broke.")]})\n'
              'print(len(runs), result["messages"][2].status)'),
        choices=("0 error", "1 success", "1 error", N_("nothing: the run stops with a ValidationError")),
        answer="0 error",
        explanation=N_("The schema is checked before the function runs; in an agent the refusal goes back to the "
                       "model as an error ToolMessage listing the allowed values, so it can fix its call."),
        section=N_("section 4d, Fix the schema before lengthening the prompt"),
        why_not={"1 success": N_("That is the tool whose rule lives only in a prompt sentence; this schema refuses "
                                 "'broken'."),
                 "1 error": N_("Validation fails before the body is called, so it never runs."),
                 N_("nothing: the run stops with a ValidationError"):
                     N_("ToolNode answers argument-validation errors with an error result; other exceptions stop "
                        "the run.")},
    ),
    Question(
        id="signature-out-of-step",
        prompt=N_("The `args_schema` `QuoteArgs` has the fields `order_id` and `amount`; the decorated function is "
                  "`def quote_refund(order_id: str, refund_amount: float)`. When does it go wrong?"),
        choices=(N_("At every call: validation passes, then the function gets an unexpected keyword argument 'amount'"),
                 N_("At definition: @tool checks that the signature matches the args_schema"),
                 N_("Never: the validated arguments are passed by position"),
                 N_("Never: the model is shown refund_amount, so it sends the right name")),
        answer=N_("At every call: validation passes, then the function gets an unexpected keyword argument 'amount'"),
        explanation=N_("Nothing compares the two when the tool is defined; the validated arguments are passed by name, "
                       "so each call is a TypeError: invoke every tool once in a test."),
        section=N_("section 4c, A Pydantic `args_schema`; pitfall 6, Signature and `args_schema` out of step"),
        why_not={N_("Never: the model is shown refund_amount, so it sends the right name"):
                     N_("The model is shown the args_schema: amount.")},
    ),
    Question(
        id="snapshot-blind-spot",
        prompt=N_("A test compares `request_refund`'s schema with its released snapshot using section 6's "
                  "`breaking_changes`. Which change does it NOT report?"),
        choices=(N_("amount is now read in cents, and only its description says so"),
                 N_("amount is renamed refund_amount"),
                 N_("a new required argument currency"),
                 N_("amount gets a maximum of 1000")),
        answer=N_("amount is now read in cents, and only its description says so"),
        explanation=N_("breaking_changes compares names, required arguments and each argument's rules, never "
                       "descriptions: a change of meaning under the same schema needs a reviewer."),
        section=N_("section 6, A schema change is an API change"),
        why_not={N_("amount gets a maximum of 1000"): N_("A bound is a rule of the argument: it is reported "
                                                     "(maximum None -> 1000), although nothing was renamed.")},
    ),
)
