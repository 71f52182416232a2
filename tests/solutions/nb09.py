"""Reference solutions and known-wrong answers for exercises 09.1 (``MAP_ERRORS``) and 09.2 (``CHOOSE_KEY``).

``SOLUTIONS``, ``WRONG`` and ``CRASHING`` map an exercise id to ``{name: answer}``. ``EXPECTED_FAILURE``
names, for each wrong answer, the hidden case it must fail.
"""

from __future__ import annotations

import json
import uuid

from langchain.agents.middleware import wrap_tool_call
from langchain.messages import ToolMessage
from langgraph.errors import GraphBubbleUp

from helpers.domain import DomainError, refund_key
from helpers.error_contract import model_view  # the notebook's model_view is this one

# -- 09.1 ----------------------------------------------------------------------------------------

_UNKNOWN = {"service_unavailable"}


@wrap_tool_call
def map_refund_errors(request, handler):
    """Reference: a DomainError becomes an error ToolMessage; everything else propagates."""
    try:
        return handler(request)
    except DomainError as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], name=request.tool_call["name"],
                           status="error")


def map_refund_errors_plain(request, handler):
    """Reference, undecorated, with an explicit pass-through of LangGraph's control flow."""
    try:
        return handler(request)
    except GraphBubbleUp:
        raise
    except Exception as exc:
        if not isinstance(exc, DomainError):
            raise
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], status="error")


def wrong_catch_all(request, handler):
    """Wrong: catches every exception, so a bug and an interrupt become messages too."""
    try:
        return handler(request)
    except Exception as exc:
        code = exc.code if isinstance(exc, DomainError) else "internal_error"
        outcome = "unknown" if code in _UNKNOWN else "refused"
        return ToolMessage(json.dumps({"error": code, "outcome": outcome}), tool_call_id=request.tool_call["id"],
                           status="error")


def wrong_catch_all_but_interrupts(request, handler):
    """Wrong: lets interrupts through, but reports a bug as internal_error instead of letting it propagate."""
    try:
        return handler(request)
    except GraphBubbleUp:
        raise
    except Exception as exc:
        code = exc.code if isinstance(exc, DomainError) else "internal_error"
        return ToolMessage(json.dumps({"error": code, "outcome": "unknown" if code in _UNKNOWN else "refused"}),
                           tool_call_id=request.tool_call["id"], status="error")


def wrong_leaks_message(request, handler):
    """Wrong: the content carries str(exc), i.e. whatever internals the backend put there."""
    try:
        return handler(request)
    except DomainError as exc:
        return ToolMessage(json.dumps(exc.to_dict()), tool_call_id=request.tool_call["id"], status="error")


def wrong_success_status(request, handler):
    """Wrong: answers with the code but leaves status='success', so nothing marks the failure."""
    try:
        return handler(request)
    except DomainError as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"])


def wrong_fixed_id(request, handler):
    """Wrong: a hard-coded tool_call_id answers some other call."""
    try:
        return handler(request)
    except DomainError as exc:
        return ToolMessage(model_view(exc), tool_call_id="call_1", status="error")


def wrong_lost_reply_refused(request, handler):
    """Wrong: reports every error, the lost reply included, as refused."""
    try:
        return handler(request)
    except DomainError as exc:
        payload = json.loads(model_view(exc)) | {"outcome": "refused"}
        return ToolMessage(json.dumps(payload), tool_call_id=request.tool_call["id"], status="error")


def wrong_only_permission(request, handler):
    """Wrong: maps only PermissionDenied; the other domain errors still end the run."""
    from helpers.domain import PermissionDenied

    try:
        return handler(request)
    except PermissionDenied as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], status="error")


def crashing_mapping(request, handler):
    """Crashes: reads a field that ToolCallRequest does not have."""
    try:
        return handler(request)
    except DomainError as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call_id, status="error")


# -- 09.2 ----------------------------------------------------------------------------------------


def key_order_and_line(order_id, line, amount, runtime):
    """Reference: the order and the line identify the request; the amount is a detail of it."""
    return f"refund:{order_id}:line-{line}"


def key_with_user(order_id, line, amount, runtime):
    """Reference: the user in the key too (redundant, as the service scopes by user, but correct)."""
    return f"{runtime.context.user_id}:{order_id}:{line}"


def wrong_key_refund_key(order_id, line, amount, runtime):
    """Wrong: the course's refund_key, copied: two lines of the same amount look like one request."""
    return refund_key(order_id, amount)


def wrong_key_with_amount(order_id, line, amount, runtime):
    """Wrong: the amount in the key makes a second amount for the same line a new request."""
    return f"refund:{order_id}:{line}:{amount:.2f}"


def wrong_key_line_only(order_id, line, amount, runtime):
    """Wrong: line 1 of one order looks like line 1 of another."""
    return f"line-{line}"


def wrong_key_call_id(order_id, line, amount, runtime):
    """Wrong: catches a replay of the same call only, not a model retry with a new call."""
    return f"call:{runtime.tool_call_id}"


def wrong_key_random(order_id, line, amount, runtime):
    """Wrong: a new key on every attempt is no idempotency at all."""
    return f"attempt:{uuid.uuid4()}"


def crashing_key(order_id, line, amount, runtime):
    """Crashes: the runtime has no user attribute."""
    return f"{runtime.user}:{order_id}:{line}"


SOLUTIONS = {
    "09.1": {"decorated": map_refund_errors, "plain": map_refund_errors_plain},
    "09.2": {"order and line": key_order_and_line, "with user": key_with_user},
}
WRONG = {
    "09.1": {
        "catch all": wrong_catch_all,
        "catch all but interrupts": wrong_catch_all_but_interrupts,
        "leaks the message": wrong_leaks_message,
        "status success": wrong_success_status,
        "fixed id": wrong_fixed_id,
        "lost reply as refused": wrong_lost_reply_refused,
        "only permission": wrong_only_permission,
    },
    "09.2": {
        "refund_key": wrong_key_refund_key,
        "with the amount": wrong_key_with_amount,
        "line only": wrong_key_line_only,
        "tool call id": wrong_key_call_id,
        "random": wrong_key_random,
    },
}
CRASHING = {"09.1": {"no tool_call_id attribute": crashing_mapping}, "09.2": {"no user attribute": crashing_key}}

#: For each wrong answer, one hidden case it must fail (it may fail others too).
EXPECTED_FAILURE = {
    "09.1": {
        "catch all": "an interrupt inside a tool still pauses the run",
        "catch all but interrupts": "a bug still propagates",
        "leaks the message": "no internals reach the model",
        "status success": "permission_denied becomes an error ToolMessage with its code",
        "fixed id": "each of two calls in one reply gets its own answer",
        "lost reply as refused": "service_unavailable becomes an error ToolMessage with its code",
        "only permission": "amount_exceeds_refundable becomes an error ToolMessage with its code",
    },
    "09.2": {
        "refund_key": "two lines of the same amount are two refunds",
        "with the amount": "a second amount for a refunded line creates no second refund",
        "line only": "the same line number on two orders is two refunds",
        "tool call id": "the model's retry with a new tool call creates one refund",
        "random": "a replay of the same call creates one refund",
    },
}
