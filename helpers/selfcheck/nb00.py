"""Self-check questions for notebook 00 · start here: the two kinds of model cell, pairing by id, the request.

The "predict the output" question runs after :data:`CODE_CONTEXT` (notebook 00's ``lookup_order``
tool and the helpers it imports); ``tests/test_selfcheck_questions.py`` executes it and compares the
printed line with the answer.
"""

from __future__ import annotations

from .format import Question

CODE_CONTEXT = '''
from langchain.tools import tool

from helpers import scripted_model, tool_call


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    return f"Order {order_id}: wireless headphones, delivered on 2026-11-10."
'''

QUESTIONS = (
    Question(
        id="which-cells-change",
        prompt=("You export `COURSE_MODEL`, `OPENAI_BASE_URL` and `DASHSCOPE_API_KEY` for DashScope, restart "
                "JupyterLab and run this notebook again. Which model cells can now show other results than the "
                "committed ones?"),
        choices=("Only the live cells (`live_model`); protocol cases (`scripted_model`) play their script as before",
                 "Every model cell: a configured model replaces every script",
                 "None: a notebook shows the outputs it was committed with",
                 "Only the cells that show an error"),
        answer="Only the live cells (`live_model`); protocol cases (`scripted_model`) play their script as before",
        explanation="scripted_model ignores the environment (the model's move is the lesson's fixture); live_model "
                    "asks your model and plays its script only offline.",
        section="section 3, Two kinds of model cell",
        why_not={"Every model cell: a configured model replaces every script":
                     "A protocol case (two calls in one reply, broken JSON) is the lesson itself: it stays scripted "
                     "whatever you configure.",
                 "None: a notebook shows the outputs it was committed with":
                     "Running a cell computes its output again; a live cell asks your model."},
    ),
    Question(
        id="answers-keep-their-ids",
        prompt=("The scripted model asks for two orders in one reply, and the application answers the calls in "
                "reverse order. What does this print?"),
        code=('model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"}),\n'
              '                         tool_call("lookup_order", {"order_id": "A1030"})]])\n'
              'reply = model.bind_tools([lookup_order]).invoke("Where are A1024 and A1030?")\n'
              'answers = [lookup_order.invoke(call) for call in reversed(reply.tool_calls)]\n'
              'print([answer.tool_call_id for answer in answers])'),
        choices=("['call_2', 'call_1']", "['call_1', 'call_2']", "[None, None]", "['lookup_order', 'lookup_order']"),
        answer="['call_2', 'call_1']",
        explanation="A tool invoked with a whole tool call returns a ToolMessage that carries the call's id, so "
                    "each answer names its own call in any order.",
        section="section 4, A first tool call, end to end",
        why_not={"['call_1', 'call_2']":
                     "The answers were built in reverse order, and each keeps the id of the call it answers.",
                 "[None, None]":
                     "Passing the whole call (not just its args) to invoke fills in tool_call_id.",
                 "['lookup_order', 'lookup_order']":
                     "That is the tool's name; two calls of one tool differ only by their ids."},
    ),
    Question(
        id="second-request",
        prompt=("In section 4 the model asked for `lookup_order` and, after the tool ran, answered in text. What "
                "did the model receive in its second request?"),
        choices=("The whole history (the question, its own tool call, the ToolMessage answering call_1) and the "
                 "tool schema",
                 "Only the ToolMessage: the model remembers its own tool call",
                 "The `lookup_order` function, so that it can check the result",
                 "Nothing: `create_agent` writes the final answer from the tool result"),
        answer=("The whole history (the question, its own tool call, the ToolMessage answering call_1) and the "
                "tool schema"),
        explanation="A chat model keeps nothing between requests: each one carries the whole history and the tool "
                    "schemas, and tool_call_id pairs the result with its call.",
        section="section 4, the model's second request",
        why_not={"Only the ToolMessage: the model remembers its own tool call":
                     "Nothing is remembered between requests; the application sends the history every time.",
                 "The `lookup_order` function, so that it can check the result":
                     "A model only ever gets messages and schemas; your code stays in your application.",
                 "Nothing: `create_agent` writes the final answer from the tool result":
                     "The final text is the model's reply to a second request (the trace's last row)."},
    ),
)
