"""Exercises of notebook 09 (tool errors and idempotency).

``MAP_ERRORS`` (09.1): the learner writes the error-mapping middleware, a ``wrap_tool_call``
function ``map_refund_errors(request, handler)`` (decorated with
``langchain.agents.middleware.wrap_tool_call`` or plain; both are accepted). The rules:

* a tool call that succeeds returns ``handler(request)``'s result unchanged;
* a :class:`helpers.domain.DomainError` becomes ``ToolMessage(status="error")`` answering the
  call's own ``tool_call_id``, whose content is ``model_view(exc)`` (the notebook's, which is
  :func:`helpers.error_contract.model_view`): a JSON object with the stable ``error`` code and
  an ``outcome`` (``"unknown"`` for ``service_unavailable``: the write may have happened), and
  none of the exception's internal text;
* anything else is a bug and propagates (the run ends), and LangGraph's control-flow
  exceptions (an ``interrupt()`` inside a tool raises ``GraphInterrupt``, an ``Exception``
  subclass) pass through untouched.

``CHOOSE_KEY`` (09.2): the learner writes ``line_key(order_id, line, amount, runtime) -> str``,
the idempotency key of a tool that refunds single order lines (``submit_line_refund``; each
line is refunded at most once), passed to :meth:`RefundService.submit`. The decision is which
facts identify the request: the order and the line do; the amount is a detail of it (a second
amount for the same line must be refused as ``idempotency_conflict``, not refunded again), and
the tool call id must not appear (a model retry with a new call id is the same request).
``refund_key`` (order and amount) is the wrong answer here: it merges two lines of equal amount.
Nothing outside the request belongs in the key either: the same line asked for in a later run of
the thread, from another thread of the same customer, or on another day is the same request (the
day case moves the clock one day on while the key is made: ``time.time`` and friends, and
``datetime.datetime.now``, see :func:`_days_later`), and a second amount is a detail whatever its
size (20.00, 25.00 and 120.00 for one line: a key with ``amount // 100`` in it fails).

Every hidden check builds a fresh :class:`RefundService` and runs a real ``create_agent``
(langchain 1.5.2) with the offline scripted model, so the middleware sits exactly where
``ToolErrorMiddleware`` would.
"""

from __future__ import annotations

from ..i18n import N_
from .core import Case, Exercise, Generated
from .nb09_agent import CheckContext, as_middleware
from .nb09_errors import (_CODES, REPLIES, _argument_errors_unchanged, _bug_propagates, _domain_error_case,
                          _interrupt_passes, _no_internals, _parallel_calls, _probe_mapping, _success_unchanged,
                          describe_reply, map_refund_errors, reply_outcome)
# _REAL_CLOCK, _REAL_DATETIME and _days_later are read as nb09.NAME by tests/test_exercises_nb09.py
from .nb09_keys import (_REAL_CLOCK, _REAL_DATETIME, REQUESTS, _days_later, _key_is_the_request,  # noqa: F401
                        _later_run_same_thread, _model_retries_after_lost_reply, _probe_key, _same_call_replayed,
                        _same_line_two_orders, _second_amount_same_line, _two_days, _two_lines_same_amount,
                        _two_threads, describe_requests, line_key, requests_outcome)

__all__ = ["CHOOSE_KEY", "CheckContext", "MAP_ERRORS", "as_middleware", "line_key", "map_refund_errors"]


MAP_ERRORS = Exercise(
    "09.1",
    "map domain errors to error ToolMessages",
    [
        Case("a successful call comes back unchanged", _success_unchanged),
        *[Case(f"{code} becomes an error ToolMessage with its code", _domain_error_case(code)) for code in _CODES],
        Case("no internals reach the model", _no_internals),
        Case("each of two calls in one reply gets its own answer", _parallel_calls),
        Case("argument errors keep ToolNode's answer", _argument_errors_unchanged),
        Case("a bug still propagates", _bug_propagates),
        Case("an interrupt inside a tool still pauses the run", _interrupt_passes),
    ],
    probe=_probe_mapping,
    generated=Generated(
        "agrees with the reference on generated replies", REPLIES, reply_outcome, map_refund_errors, describe_reply,
        hint=N_("return handler(request)'s result itself (a Command or an artifact included), answer a DomainError "
                "from any tool with ToolMessage(model_view(exc), tool_call_id=request.tool_call['id'], "
                "status='error'), and let every other exception, an interrupt included, propagate"),
        examples=100),
    none_hint=N_("did you forget to return the handler's result (`return handler(request)`)? Without `return` the "
                 "middleware gives None"),
)



CHOOSE_KEY = Exercise(
    "09.2",
    "a key for refunds per order line",
    [
        Case("the key depends only on the request", _key_is_the_request),
        Case("a replay of the same call creates one refund", _same_call_replayed),
        Case("the model's retry with a new tool call creates one refund", _model_retries_after_lost_reply),
        Case("two lines of the same amount are two refunds", _two_lines_same_amount),
        Case("a second amount for a refunded line creates no second refund", _second_amount_same_line),
        Case("the same line number on two orders is two refunds", _same_line_two_orders),
        Case("the same line asked for again in a later run creates one refund", _later_run_same_thread),
        Case("the same line asked for from two threads creates one refund", _two_threads),
        Case("the same line asked for on two days creates one refund", _two_days),
    ],
    probe=_probe_key,
    generated=Generated(
        "agrees with the reference on generated requests", REQUESTS, requests_outcome, line_key, describe_requests,
        hint=N_("the order and the line identify the request; the amount, the call, the run, the thread, the "
                "customer's words and the day do not"),
        examples=150),
    # The run, thread and day cases run two agent turns each; on a loaded 2-core machine that can take
    # seconds, so the deadline (which only ever matters for an endless loop) is longer than the default 5 s.
    timeout=30,
)
