"""Reference solutions and known-wrong answers for exercises 09.1 (``MAP_ERRORS``) and 09.2 (``CHOOSE_KEY``).

Each exercise has an :class:`~helpers.exercises.registry.AnswerSet`, named like its checker in
``helpers/exercises/nb09.py``, for the registry's contract test.
"""

from __future__ import annotations

import datetime
import json
import uuid
from datetime import date

from langchain.agents.middleware import wrap_tool_call
from langchain.messages import ToolMessage
from langgraph.errors import GraphBubbleUp

from helpers.domain import (
    AmountExceedsRefundable,
    DomainError,
    IdempotencyConflict,
    InvalidAmount,
    InvalidRequest,
    NotRefundable,
    OrderNotFound,
    PermissionDenied,
    ServiceUnavailable,
    refund_key,
)
from helpers.exercises.registry import AnswerSet, KnownWrong
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


def wrong_forgets_return(request, handler):
    """Calls the handler but forgets `return`: the middleware gives None (langchain-core then raises
    NotImplementedError, which is not the unsolved stub)."""
    handler(request)


def wrong_only_permission(request, handler):
    """Wrong: maps only PermissionDenied; the other domain errors still end the run."""
    from helpers.domain import PermissionDenied

    try:
        return handler(request)
    except PermissionDenied as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], status="error")


def wrong_seven_classes(request, handler):
    """Wrong: lists seven of the eight domain error classes and forgets InvalidRequest (an empty order id,
    which the tool's schema lets through), so that refusal still ends the run."""
    try:
        return handler(request)
    except (OrderNotFound, PermissionDenied, NotRefundable, InvalidAmount, AmountExceedsRefundable,
            IdempotencyConflict, ServiceUnavailable) as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], status="error")


def wrong_refund_tool_only(request, handler):
    """Wrong (issue 27): maps the domain errors of the refund tool only. Every named case's domain error comes from
    submit_refund_request; lookup_order refusing another customer's order then ends the run."""
    try:
        return handler(request)
    except DomainError as exc:
        if request.tool_call["name"] != "submit_refund_request":
            raise
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], status="error")


def wrong_rebuilds_the_result(request, handler):
    """Wrong (issue 27): returns a new ToolMessage built from the handler's result instead of the result itself.
    Every named tool returns text; a tool's Command (a state update) then crashes it, and an artifact is lost."""
    try:
        result = handler(request)
    except DomainError as exc:
        return ToolMessage(model_view(exc), tool_call_id=request.tool_call["id"], status="error")
    return ToolMessage(result.content, tool_call_id=request.tool_call["id"], status=result.status)


def wrong_maps_value_errors(request, handler):
    """Wrong (issue 27): catches ValueError too ('InvalidRequest is a ValueError'), so a ValueError bug becomes an
    invalid_request answer instead of ending the run. The named bug is a KeyError."""
    try:
        return handler(request)
    except (DomainError, ValueError) as exc:
        error = exc if isinstance(exc, DomainError) else InvalidRequest(str(exc))
        return ToolMessage(model_view(error), tool_call_id=request.tool_call["id"], status="error")


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


def wrong_key_today(order_id, line, amount, runtime):
    """Wrong: today's date in the key (from `from datetime import date`): the same line tomorrow is new."""
    return f"refund:{order_id}:line-{line}:{date.today().isoformat()}"


def wrong_key_now(order_id, line, amount, runtime):
    """Wrong: the hour of the request (datetime.datetime.now(), the C clock) in the key."""
    return f"refund:{order_id}:line-{line}:{datetime.datetime.now():%Y-%m-%d}"


def wrong_key_thread(order_id, line, amount, runtime):
    """Wrong: the thread id in the key: the same line asked for in another chat is new."""
    return f"{runtime.config.get('configurable', {}).get('thread_id')}:{order_id}:{line}"


def wrong_key_hundreds(order_id, line, amount, runtime):
    """Wrong: the amount in hundreds in the key: 20.00 and 25.00 collide, 120.00 is a new request."""
    return f"refund:{order_id}:{line}:{int(amount) // 100}"


def wrong_key_customer_words(order_id, line, amount, runtime):
    """Wrong: the customer's last message in the key: the same line asked for in other words is new."""
    said = [m.content for m in runtime.state.get("messages", []) if getattr(m, "type", "") == "human"][-1:]
    return f"refund:{order_id}:{line}:{said}"


def wrong_key_opening_words(order_id, line, amount, runtime):
    """Wrong (issue 27): the thread's first customer message (the 'original request') in the key. Every named
    thread opens with the same words, so it passed; a thread that opens otherwise refunds the line again."""
    said = [m.content for m in runtime.state.get("messages", []) if getattr(m, "type", "") == "human"][:1]
    return f"refund:{order_id}:line-{line}:{said}"


def crashing_key(order_id, line, amount, runtime):
    """Crashes: the runtime has no user attribute."""
    return f"{runtime.user}:{order_id}:{line}"


_MAP = "{} becomes an error ToolMessage with its code"
_REPLIES = "agrees with the reference on generated replies"

MAP_ERRORS = AnswerSet(
    solutions={"decorated": map_refund_errors, "plain": map_refund_errors_plain},
    wrong={
        "catch all": KnownWrong(wrong_catch_all, fails=("an interrupt inside a tool still pauses the run",
                                                        "a bug still propagates")),
        "catch all but interrupts": KnownWrong(wrong_catch_all_but_interrupts, fails=("a bug still propagates",)),
        "leaks the message": KnownWrong(wrong_leaks_message, fails=("no internals reach the model",), status="fail"),
        "status success": KnownWrong(wrong_success_status, fails=(_MAP.format("permission_denied"),), status="fail"),
        "fixed id": KnownWrong(wrong_fixed_id, fails=("each of two calls in one reply gets its own answer",)),
        "lost reply as refused": KnownWrong(wrong_lost_reply_refused, fails=(_MAP.format("service_unavailable"),),
                                            status="fail"),
        "only permission": KnownWrong(wrong_only_permission, fails=(_MAP.format("amount_exceeds_refundable"),)),
        "handles only seven classes": KnownWrong(wrong_seven_classes, fails=(_MAP.format("invalid_request"),),
                                                 status="fail"),
        "forgets return": KnownWrong(wrong_forgets_return, fails=("a successful call comes back unchanged",),
                                     status="error"),
        "the refund tool's errors only": KnownWrong(wrong_refund_tool_only, fails=(_REPLIES,), status="fail"),
        "rebuilds the result": KnownWrong(wrong_rebuilds_the_result, fails=(_REPLIES,)),
        "maps ValueError too": KnownWrong(wrong_maps_value_errors, fails=(_REPLIES,), status="fail"),
    },
    crashing={"no tool_call_id attribute": crashing_mapping},
    answer_from=lambda body: lambda request, handler: body(),
)

_LATER_RUN, _TWO_THREADS, _TWO_DAYS = (
    "the same line asked for again in a later run creates one refund",
    "the same line asked for from two threads creates one refund",
    "the same line asked for on two days creates one refund",
)

CHOOSE_KEY = AnswerSet(
    solutions={"order and line": key_order_and_line, "with user": key_with_user},
    wrong={
        "refund_key": KnownWrong(wrong_key_refund_key, fails=("two lines of the same amount are two refunds",),
                                 status="fail"),
        "with the amount": KnownWrong(wrong_key_with_amount,
                                      fails=("a second amount for a refunded line creates no second refund",),
                                      status="fail"),
        "line only": KnownWrong(wrong_key_line_only, fails=("the same line number on two orders is two refunds",),
                                status="fail"),
        "tool call id": KnownWrong(wrong_key_call_id,
                                   fails=("the model's retry with a new tool call creates one refund",), status="fail"),
        "random": KnownWrong(wrong_key_random, fails=("a replay of the same call creates one refund",), status="fail"),
        "today's date": KnownWrong(wrong_key_today, fails=(_TWO_DAYS,), status="fail"),
        "datetime.now()": KnownWrong(wrong_key_now, fails=(_TWO_DAYS,), status="fail"),
        "thread id": KnownWrong(wrong_key_thread, fails=(_TWO_THREADS,), status="fail"),
        "amount // 100": KnownWrong(wrong_key_hundreds,
                                    fails=("a second amount for a refunded line creates no second refund",),
                                    status="fail"),
        "the customer's words": KnownWrong(wrong_key_customer_words, fails=(_LATER_RUN,), status="fail"),
        "the thread's opening words": KnownWrong(wrong_key_opening_words,
                                                 fails=("agrees with the reference on generated requests",),
                                                 status="fail"),
    },
    crashing={"no user attribute": crashing_key},
    answer_from=lambda body: lambda order_id, line, amount, runtime: body(),
)
