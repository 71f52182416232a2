"""Self-check questions for notebook 09 · tool errors and idempotency.

Each right answer is run on the pins by ``tests/test_selfcheck_questions.py`` with the verifiers in
``tests/selfcheck_verifiers/nb09.py``.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="who-answers-a-bad-argument",
        prompt=N_("The agent has `middleware=[ToolErrorMiddleware(on_refund_error)]`, whose `on_error` maps every "
                  "`DomainError` to a ToolMessage with a stable code. The model calls `submit_refund_request` with "
                  "`{\"order_id\": \"A1024\"}` (no amount). Who writes the error ToolMessage the model reads?"),
        choices=(N_("on_refund_error, with the code invalid_request"),
                 N_("ToolNode, before the tool runs: the argument check fails, and on_error never sees it"),
                 N_("Nobody: the run ends with a ValidationError")),
        answer=N_("ToolNode, before the tool runs: the argument check fails, and on_error never sees it"),
        explanation=N_("ToolNode validates the arguments against the tool's schema first and answers a failed check "
                       "itself; the tool, and the middleware around it, never run."),
        section=N_("section 2, `ToolErrorMiddleware`"),
        why_not={N_("on_refund_error, with the code invalid_request"):
                     N_("on_error only sees exceptions raised while the tool runs, and this tool never started."),
                 N_("Nobody: the run ends with a ValidationError"):
                     N_("Argument errors are the one layer ToolNode's default turns into an error ToolMessage.")},
    ),
    Question(
        id="default-retry-on-a-refusal",
        prompt=N_("A tool raises `PermissionDenied` (another customer's order). The agent has "
                  "`ToolRetryMiddleware(max_retries=2)` with its default `retry_on`. How many attempts reach the "
                  "refund service?"),
        choices=(N_("1"), N_("3"), N_("0")),
        answer=N_("3"),
        explanation=N_("The default retry_on retries every Exception except a model error marked not retryable, so a "
                       "refusal is tried 1 + 2 times; pass retry_on= to retry the transient class only."),
        section=N_("section 3, Retry at one layer only"),
        why_not={N_("1"): N_("That is what retry_on=is_transient gives; the default does not know which errors are "
                             "refusals.")},
    ),
    Question(
        id="key-for-a-new-call",
        prompt=N_("The refund service commits, the reply is lost, and the model asks again with a new tool call "
                  "(`call_2`, same order and amount). Which idempotency key keeps it to one refund?"),
        choices=(N_("f\"call:{runtime.tool_call_id}\", a key from the tool call id"),
                 N_("refund_key(order_id, amount), a key from the business facts"),
                 N_("f\"attempt-{uuid4()}\", a fresh key per attempt")),
        answer=N_("refund_key(order_id, amount), a key from the business facts"),
        explanation=N_("A new call has a new id but the same facts, so only the facts key finds the committed request "
                       "and returns it."),
        section=N_("section 4, Which repeats each key catches"),
        why_not={N_("f\"call:{runtime.tool_call_id}\", a key from the tool call id"):
                     N_("It catches a replay of the same call only; call_2 gets a new key and a second refund.")},
    ),
)
