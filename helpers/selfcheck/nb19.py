"""Self-check questions for notebook 19 (Many tools, long runs): the skeleton's protocol case.

The "predict the output" questions run after :data:`CODE_CONTEXT` (section 1's cell) and must print
their answer; "nothing-has-run" is proven by ``verify_nothing_has_run`` in
``tests/selfcheck_verifiers/nb19.py``. Replace them with questions on the lesson (3 to 5).
"""

from __future__ import annotations

from .format import Question

CODE_CONTEXT = '''
from langchain.tools import tool

from helpers import scripted_model, tool_call

runs = []  # the order ids lookup_order was run with


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    runs.append(order_id)
    return f"Order {order_id}: wireless headphones, delivered."


# protocol case: the model asks for one tool call, whatever model is configured
model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})]])
reply = model.bind_tools([lookup_order]).invoke("Where is my order A1024?")
print("tool calls:", [(call["name"], call["args"], call["id"]) for call in reply.tool_calls])
print("lookup_order ran for:", runs)
'''

QUESTIONS = (
    Question(
        id="the-call-id",
        prompt="Section 1's scripted model wrote one tool call. What id does it carry?",
        code='print(reply.tool_calls[0]["id"])',
        choices=("call_1", "lookup_order", "A1024", "None"),
        answer="call_1",
        explanation="Every tool call carries an id; the ToolMessage that answers it repeats it as tool_call_id.",
        section="section 1, A protocol case",
        why_not={"lookup_order": "That is the call's name: the tool it asks for."},
    ),
    Question(
        id="the-reply-text",
        prompt="What text does the reply that asks for the tool call carry?",
        code="print(repr(reply.content))",
        choices=("''", "'lookup_order'", "None", "'Where is my order A1024?'"),
        answer="''",
        explanation="A reply that only asks for tools has empty content; the request is in tool_calls.",
        section="section 1, A protocol case",
    ),
    Question(
        id="nothing-has-run",
        prompt="When `invoke` has returned the reply of section 1, how often has `lookup_order` run?",
        choices=("Never: a tool call is a request; the application decides whether to run it",
                 "Once: bind_tools runs the tools the model asks for",
                 "Once per tool bound to the model"),
        answer="Never: a tool call is a request; the application decides whether to run it",
        explanation="The model only writes tool calls; nothing runs until your code (or an agent loop) runs them.",
        section="section 1, A protocol case",
    ),
)
