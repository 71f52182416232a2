"""Self-check questions for notebook 01 · from a function to a tool."""

from __future__ import annotations

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
        prompt="A plain `@tool` (no `parse_docstring=True`) on a function whose docstring has an `Args:` section. "
               "What does this print?",
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
        explanation="Plain @tool puts the whole docstring, Args: block included, into the tool's description and "
                    "describes no argument; a default makes an argument optional.",
        section="section 4a, A docstring with an Args: section",
        why_not={"['order_id'] True": "Only parse_docstring=True turns the Args: lines into argument descriptions.",
                 "['order_id', 'include_items'] False": "include_items has a default, so the schema does not "
                                                        "require it."},
    ),
    Question(
        id="what-the-model-receives",
        prompt=("`lookup_order` is `@tool def lookup_order(order_id: str) -> dict` with a one-line docstring. "
                "What does a provider receive about it after `bind_tools([lookup_order])`?"),
        choices=("Its name, its description (the docstring) and a JSON Schema of its arguments",
                 "The same, plus its return type, so the model knows the result is a dict",
                 "The function's source code, so the model can see what it does",
                 "Only its name: the description stays in the application"),
        answer="Its name, its description (the docstring) and a JSON Schema of its arguments",
        explanation="convert_to_openai_tool shows exactly what bind_tools sends: name, description, parameters; "
                    "no return type, no body.",
        section="section 3, What the model sees vs. what the application holds",
        why_not={"The same, plus its return type, so the model knows the result is a dict":
                     "The schema has no return type: the model learns what a result looks like only by reading one.",
                 "Only its name: the description stays in the application":
                     "The description is sent with every request: it is how the model chooses a tool."},
    ),
    Question(
        id="schema-refusal-goes-back",
        prompt=("`request_refund` is section 4c's tool (its `reason` is a `Literal`); `runs` lists every time its "
                "body ran. The scripted model sends `reason=\"broken\"`. What does this print?"),
        code=('model = scripted_model([[tool_call("request_refund", {"order_id": "A1024", "amount": 49.5, '
              '"reason": "broken"})],\n'
              '                        "Which reason should I use?"])\n'
              'result = create_agent(model, [request_refund]).invoke({"messages": [("user", "Refund A1024, it broke.")]})\n'
              'print(len(runs), result["messages"][2].status)'),
        choices=("0 error", "1 success", "1 error", "nothing: the run stops with a ValidationError"),
        answer="0 error",
        explanation="The schema is checked before the function runs; in an agent the refusal goes back to the "
                    "model as an error ToolMessage listing the allowed values, so it can fix its call.",
        section="section 4d, Fix the schema before lengthening the prompt",
        why_not={"1 success": "That is the tool whose rule lives only in a prompt sentence; this schema refuses "
                              "'broken'.",
                 "1 error": "Validation fails before the body is called, so it never runs.",
                 "nothing: the run stops with a ValidationError":
                     "ToolNode answers argument-validation errors with an error result; other exceptions stop "
                     "the run."},
    ),
    Question(
        id="signature-out-of-step",
        prompt=("The `args_schema` `QuoteArgs` has the fields `order_id` and `amount`; the decorated function is "
                "`def quote_refund(order_id: str, refund_amount: float)`. When does it go wrong?"),
        choices=("At every call: validation passes, then the function gets an unexpected keyword argument 'amount'",
                 "At definition: @tool checks that the signature matches the args_schema",
                 "Never: the validated arguments are passed by position",
                 "Never: the model is shown refund_amount, so it sends the right name"),
        answer="At every call: validation passes, then the function gets an unexpected keyword argument 'amount'",
        explanation="Nothing compares the two when the tool is defined; the validated arguments are passed by name, "
                    "so each call is a TypeError: invoke every tool once in a test.",
        section="section 4c, A Pydantic args_schema (and pitfall 6)",
        why_not={"Never: the model is shown refund_amount, so it sends the right name":
                     "The model is shown the args_schema: amount."},
    ),
    Question(
        id="snapshot-blind-spot",
        prompt=("A test compares `request_refund`'s schema with its released snapshot using section 6's "
                "`breaking_changes`. Which change does it NOT report?"),
        choices=("amount is now read in cents, and only its description says so",
                 "amount is renamed refund_amount",
                 "a new required argument currency",
                 "amount gets a maximum of 1000"),
        answer="amount is now read in cents, and only its description says so",
        explanation="breaking_changes compares names, required arguments and each argument's rules, never "
                    "descriptions: a change of meaning under the same schema needs a reviewer.",
        section="section 6, A schema change is an API change",
        why_not={"amount gets a maximum of 1000": "A bound is a rule of the argument: it is reported "
                                                  "(maximum None -> 1000), although nothing was renamed."},
    ),
)
