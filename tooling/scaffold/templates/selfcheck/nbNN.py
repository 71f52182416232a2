"""Self-check questions for notebook NN (TITLE): the skeleton's protocol case.

The "predict the output" questions run after :data:`CODE_CONTEXT` (section 1's cell) and must print
their answer; "nothing-has-run" is proven by ``verify_nothing_has_run`` in
``tests/selfcheck_verifiers/nbNN.py``. Replace them with questions on the lesson (3 to 5), marking
every learner-facing text with ``N_()`` (CONTRIBUTING.md, "Adding self-check questions").
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

CODE_CONTEXT = '''
PROTOCOL_CASE
'''

QUESTIONS = (
    Question(
        id="the-call-id",
        prompt=N_("Section 1's scripted model wrote one tool call. What id does it carry?"),
        code='print(reply.tool_calls[0]["id"])',
        choices=("call_1", "lookup_order", "A1024", "order_id"),
        answer="call_1",
        explanation=N_("Every tool call carries an id; the ToolMessage that answers it repeats it as tool_call_id."),
        section=N_("section 1, A protocol case"),
        why_not={"lookup_order": N_("That is the call's name: the tool it asks for.")},
    ),
    Question(
        id="the-reply-text",
        prompt=N_("What text does the reply that asks for the tool call carry?"),
        code="print(repr(reply.content))",
        choices=("''", "'lookup_order'", "'call_1'", "'Where is my order A1024?'"),
        answer="''",
        explanation=N_("A reply that only asks for tools has empty content; the request is in tool_calls."),
        section=N_("section 1, A protocol case"),
    ),
    Question(
        id="nothing-has-run",
        prompt=N_("When `invoke` has returned the reply of section 1, how often has `lookup_order` run?"),
        choices=(N_("Never: a tool call is a request; the application decides whether to run it"),
                 N_("Once: bind_tools runs the tools the model asks for"),
                 N_("Once per tool bound to the model")),
        answer=N_("Never: a tool call is a request; the application decides whether to run it"),
        explanation=N_("The model only writes tool calls; nothing runs until your code (or an agent loop) runs them."),
        section=N_("section 1, A protocol case"),
    ),
)
