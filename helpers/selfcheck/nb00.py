"""Self-check questions for notebook 00 · start here: the two kinds of model cell, pairing by id, the request.

Each asks about what 00 shows (section 3's two kinds of model cell; section 4's trace and the
model's second request). The "predict the output" question runs after :data:`CODE_CONTEXT`
(notebook 00's section 4: its ``lookup_order`` tool and the protocol-case run of ``scripted``);
``tests/test_selfcheck_questions.py`` executes it and compares the printed line with the answer.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

CODE_CONTEXT = '''
from langchain.agents import create_agent
from langchain.tools import tool

from helpers import scripted_model, tool_call


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    return f"Order {order_id}: wireless headphones, delivered on 2026-11-10."


script = [
    [tool_call("lookup_order", {"order_id": "A1024"})],        # turn 1: the model asks for a tool call
    "Your headphones (A1024) were delivered on 10 November.",  # turn 2: it answers in text
]
scripted = scripted_model(script)  # protocol case: the same two replies, whatever the environment
run = create_agent(scripted, tools=[lookup_order]).invoke(
    {"messages": [{"role": "user", "content": "Where is my order A1024?"}]})
'''

QUESTIONS = (
    Question(
        id="which-cells-change",
        prompt=N_("You export `COURSE_MODEL`, `OPENAI_BASE_URL` and `DASHSCOPE_API_KEY` for DashScope, restart "
                  "JupyterLab and run this notebook again. Which model cells can now show other results than the "
                  "committed ones?"),
        choices=(N_("Only the live cells (`live_model`); protocol cases (`scripted_model`) play their script as before"),
                 N_("Every model cell: a configured model replaces every script"),
                 N_("None: a notebook shows the outputs it was committed with"),
                 N_("Only the cells that show an error")),
        answer=N_("Only the live cells (`live_model`); protocol cases (`scripted_model`) play their script as before"),
        explanation=N_("scripted_model ignores the environment (the model's move is the lesson's fixture); live_model "
                       "asks your model and plays its script only offline."),
        section=N_("section 3, Two kinds of model cell"),
        why_not={N_("Every model cell: a configured model replaces every script"):
                     N_("A protocol case (two calls in one reply, broken JSON) is the lesson itself: it stays scripted "
                        "whatever you configure."),
                 N_("None: a notebook shows the outputs it was committed with"):
                     N_("Running a cell computes its output again; a live cell asks your model.")},
    ),
    Question(
        id="what-pairs-the-answer",
        prompt=N_("Section 4's trace says the tool's result `answers call_1`, and the model's second request "
                  "carries that result as its last message. Which keys does that message have, so which one tells "
                  "the model what call the result answers?"),
        code=("# section 4's protocol case: `scripted` played the script, create_agent ran the loop\n"
              'sent = scripted.requests[1].payload()["messages"][-1]   # the tool\'s result, as sent\n'
              "print(sorted(sent))"),
        choices=("['content', 'role', 'tool_call_id']",
                 "['content', 'name', 'role']",
                 "['content', 'name', 'role', 'tool_call_id']",
                 "['content', 'role']"),
        answer="['content', 'role', 'tool_call_id']",
        explanation=N_("The tool's result goes back with the id of the call it answers (tool_call_id, here call_1): "
                       "the id pairs them, not the tool's name or the message's place."),
        section=N_("section 4, A first tool call, end to end"),
        why_not={"['content', 'name', 'role']":
                     N_("A name cannot pair a result with its call (two calls of one tool share it); the message "
                        "carries the call's id."),
                 "['content', 'name', 'role', 'tool_call_id']":
                     N_("LangChain's ToolMessage does hold the tool's name, but the chat request sends only role, "
                        "content and tool_call_id."),
                 "['content', 'role']":
                     N_("Without an id nothing would pair it: a result placed right after the call but with no "
                        "matching id is refused as an answer to no call.")},
    ),
    Question(
        id="second-request",
        prompt=N_("In section 4 the model asked for `lookup_order` and, after the tool ran, answered in text. What "
                  "did the model receive in its second request?"),
        choices=(N_("The whole history (the question, its own tool call, the ToolMessage answering call_1) and the "
                    "tool schema"),
                 N_("Only the ToolMessage: the model remembers its own tool call"),
                 N_("The `lookup_order` function, so that it can check the result"),
                 N_("Nothing: `create_agent` writes the final answer from the tool result")),
        answer=N_("The whole history (the question, its own tool call, the ToolMessage answering call_1) and the "
                  "tool schema"),
        explanation=N_("A chat model keeps nothing between requests: each one carries the whole history and the tool "
                       "schemas, and tool_call_id pairs the result with its call."),
        section=N_("section 4, A first tool call, end to end"),
        why_not={N_("Only the ToolMessage: the model remembers its own tool call"):
                     N_("Nothing is remembered between requests; the application sends the history every time."),
                 N_("The `lookup_order` function, so that it can check the result"):
                     N_("A model only ever gets messages and schemas; your code stays in your application."),
                 N_("Nothing: `create_agent` writes the final answer from the tool result"):
                     N_("The final text is the model's reply to a second request (the trace's last row).")},
    ),
)
