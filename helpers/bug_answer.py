"""What an agent that keeps its thread answers for a tool call that a bug stopped (notebooks 09 and 11).

Under ``create_agent`` with a checkpointer, an exception that propagates out of a tool ends the run after
the model's reply with the call was saved: the call stays unanswered in the checkpoint, and every later
message on the thread is refused by the provider. :func:`answer_bugs` answers such a call with a generic
``internal_error`` (no internals reach the model) and records the bug in full in the log, so the bug is
not hidden and the thread stays usable. Refusals (:func:`helpers.error_contract.is_refusal`) are left to
the error mapping (:func:`helpers.error_contract.error_mapping`), placed inside it.
"""

from __future__ import annotations

import json
from typing import Any

from langchain.agents.middleware import ToolErrorMiddleware

from .error_contract import ErrorView, is_refusal, log_record

__all__ = ["INTERNAL_ERROR", "BugAnswerMiddleware", "answer_bugs", "bug_answer"]

#: The view of a bug: the outcome is unknown (a bug after a write may follow a created request).
INTERNAL_ERROR = ErrorView(
    "unknown",
    "An internal error stopped this tool call, so whether it took effect is unknown. Do not call it "
    "again; tell the customer that a colleague will check and get back to them.",
    "Something went wrong on our side, so I cannot tell whether this step went through. A colleague "
    "will check and get back to you.",
)


def bug_answer() -> str:
    """The text a call stopped by a bug is answered with: JSON with the code ``internal_error``,
    the outcome ``unknown`` and :data:`INTERNAL_ERROR`'s guidance (nothing from the exception)."""
    return json.dumps({"error": "internal_error", "outcome": INTERNAL_ERROR.outcome,
                       "message": INTERNAL_ERROR.model})


class BugAnswerMiddleware(ToolErrorMiddleware):
    """A ``ToolErrorMiddleware`` under a name of its own: ``create_agent`` refuses two middleware
    with the same name, and the error mapping is a ``ToolErrorMiddleware`` too."""


def answer_bugs(*, log: list | None = None) -> BugAnswerMiddleware:
    """A ``ToolErrorMiddleware`` (langchain 1.5.2) that answers a call stopped by a bug.

    Args:
        log: if given, a :func:`helpers.error_contract.log_record` (with the exception's type and
            message) is appended for every bug, so it can be alerted on.

    Returns:
        the middleware. A bug (any exception that is not a refusal) becomes
        ``ToolMessage(bug_answer(), tool_call_id=<the call's id>, status="error")``; a refusal is
        raised again. List it *before* the error mapping, so that it is the outer layer and the
        mapping answers refusals first: ``middleware=[answer_bugs(), error_mapping(...)]``.
        LangGraph's interrupts pass through (``ToolErrorMiddleware`` re-raises ``GraphBubbleUp``).
    """

    def on_error(exc: Exception, request: Any) -> str | None:
        if is_refusal(exc):
            return None  # the error mapping's job
        if log is not None:
            log.append(log_record(exc, request))
        return bug_answer()

    return BugAnswerMiddleware(on_error)
