"""The course's error contract for tools: one refusal, three readers.

Notebook 09 writes this contract in its cells (the concept); notebook 11 imports it from here,
so the refund agent reports errors exactly the way 09 teaches. When a tool call fails with a
*refusal* (see below), each reader gets its own view:

* the **model** gets :func:`model_view`, a JSON object
  ``{"error": code, "outcome": "refused" | "unknown", "message": guidance, **safe details}``:
  a stable code, whether the write is known not to have happened (``refused``) or may have
  happened (``unknown``: the service committed and its reply was lost), and our own guidance
  for the next step. The exception's message never goes in: it is written for developers
  and may carry internals (another customer's id, a host name, a traceback);
* the **user** gets :attr:`ErrorView.user`, one sentence per code;
* the **log** gets :func:`log_record`: the code, the call, its arguments, the signed-in user
  and the exception itself (internals belong there).

A *refusal* is a :class:`helpers.domain.DomainError` (decided by the refund service) or a
:class:`ToolRefusal` (decided by a tool's own guard before the service is asked, e.g. notebook
10's ``ConfirmationRequired``). Anything else is a bug: :func:`error_mapping` lets it propagate.

:func:`error_mapping` wires the contract into ``ToolErrorMiddleware`` (langchain 1.5.2,
``langchain/agents/middleware/tool_error.py``): ``on_error`` returning content answers the call
with ``ToolMessage(content, tool_call_id=<the call's id>, status="error")``; returning ``None``
re-raises; LangGraph's interrupts never reach ``on_error``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from langchain.agents.middleware import ToolErrorMiddleware
from langchain_core.messages import BaseMessage

from .display import format_error
from .domain import DomainError

__all__ = [
    "CONTRACT",
    "FALLBACK",
    "SAFE_DETAILS",
    "ErrorView",
    "Outcome",
    "ToolRefusal",
    "domain_codes",
    "error_mapping",
    "is_refusal",
    "log_record",
    "missing_codes",
    "model_view",
    "read_error",
    "view_for",
]

#: ``refused``: the service decided no, and asking again gets the same no.
#: ``unknown``: the write may or may not have happened (a lost reply); never report it as refused.
Outcome = Literal["refused", "unknown"]

#: The only ``details`` fields of a refusal that the model may see.
SAFE_DETAILS: tuple[str, ...] = ("order_id", "requested", "refundable")


@dataclass(frozen=True)
class ErrorView:
    """How one error code is reported.

    Attributes:
        outcome: ``"refused"`` or ``"unknown"`` (see :data:`Outcome`).
        model: what the model is told: what to do next, no internals.
        user: what the customer is told.
    """

    outcome: Outcome
    model: str
    user: str


class ToolRefusal(Exception):
    """A refusal decided by a tool's own guard, before the refund service is asked.

    Subclass it with a ``code`` (e.g. notebook 11's ``ConfirmationRequired`` with
    ``code = "confirmation_required"``) and give the code an entry in the contract you pass to
    :func:`error_mapping`. The refund service's own refusals are
    :class:`helpers.domain.DomainError`, whose codes are the domain's.

    Args:
        message: for developers and the log, never for the model.
        **details: extra fields; only those in :data:`SAFE_DETAILS` reach the model.
    """

    code: ClassVar[str] = "tool_refusal"
    retryable: ClassVar[bool] = False

    def __init__(self, message: str, **details: Any):
        super().__init__(message)
        self.details = details


#: One entry per error code of :mod:`helpers.domain` (``invalid_request`` is the code the
#: domain gives a field of the wrong type). Read-only; extend it with ``CONTRACT | {...}``.
CONTRACT: Mapping[str, ErrorView] = MappingProxyType({
    "order_not_found": ErrorView(
        "refused",
        "There is no order with this id. Ask the customer to check the order number; do not guess one.",
        "I could not find that order. Could you check the number?"),
    "permission_denied": ErrorView(
        "refused",
        "This is not one of the signed-in customer's orders. Do not retry and do not try other ids.",
        "That order is not on your account, so I cannot refund it."),
    "not_refundable": ErrorView(
        "refused",
        "This order cannot be refunded (status, refund window or product type). Explain the refund "
        "policy; do not retry.",
        "This order cannot be refunded under our policy."),
    "invalid_amount": ErrorView(
        "refused",
        "The amount must be a positive number with at most two decimals. Ask the customer for the amount.",
        "Which amount would you like refunded?"),
    "invalid_request": ErrorView(
        "refused",
        "An argument has the wrong type or is empty. Send the order id as text and the amount as a "
        "number; ask the customer if one is missing.",
        "Could you tell me the order number and the amount again?"),
    "amount_exceeds_refundable": ErrorView(
        "refused",
        "The amount is more than what is left to refund (see 'refundable'). Tell the customer and ask "
        "before submitting a smaller amount.",
        "That is more than can be refunded on this order."),
    "idempotency_conflict": ErrorView(
        "refused",
        "An earlier request used the same key with other details. Do not retry; hand over to a human.",
        "A colleague will check this request."),
    "service_unavailable": ErrorView(
        "unknown",
        "Outcome unknown: the refund service did not confirm, so the request may or may not have been "
        "created. Do not tell the customer it was refused. Submitting the same order_id and amount "
        "again is safe: if the request exists, the service returns it and creates nothing new.",
        "I could not confirm your refund request yet; it may already be registered. We will check and "
        "confirm, and you will not be refunded twice."),
})

#: The view of a code the contract does not list: refused, handed to a person.
FALLBACK = ErrorView("refused", "The request was refused. Do not retry; hand over to a human.",
                     "I could not complete this; a colleague will look at it.")


def is_refusal(exc: BaseException) -> bool:
    """True for a :class:`helpers.domain.DomainError` or a :class:`ToolRefusal`; False for a bug."""
    return isinstance(exc, (DomainError, ToolRefusal))


def view_for(code: str, contract: Mapping[str, ErrorView] = CONTRACT) -> ErrorView:
    """The contract's entry for ``code``, or :data:`FALLBACK` when it has none."""
    return contract.get(code, FALLBACK)


def model_view(exc: DomainError | ToolRefusal, contract: Mapping[str, ErrorView] = CONTRACT) -> str:
    """What the model is told about a refusal: JSON with the code, the outcome, the guidance, safe details.

    Args:
        exc: the refusal (its ``code`` and ``details`` are read; its message is not).
        contract: code -> :class:`ErrorView` (default :data:`CONTRACT`).

    Returns:
        e.g. ``'{"error": "permission_denied", "outcome": "refused", "message": "This is not ...",
        "order_id": "B2048"}'``.
    """
    view = view_for(exc.code, contract)
    details = {key: value for key, value in exc.details.items() if key in SAFE_DETAILS}
    return json.dumps({"error": exc.code, "outcome": view.outcome, "message": view.model, **details},
                      ensure_ascii=False, default=str)


def log_record(exc: BaseException, request: Any) -> dict[str, Any]:
    """What the log records about a failed tool call.

    Args:
        exc: the exception the tool raised.
        request: the ``ToolCallRequest`` (``request.tool_call`` with ``name``, ``args``, ``id``;
            ``request.runtime.context.user_id`` when the run has such a context).

    Returns:
        ``{"code", "tool", "tool_call_id", "args", "user_id", "exception"}``; ``code`` is ``None``
        for a bug, ``user_id`` is ``None`` without a context, ``exception`` is ``Type: message``.
    """
    call = request.tool_call
    context = getattr(getattr(request, "runtime", None), "context", None)
    return {"code": getattr(exc, "code", None) if is_refusal(exc) else None, "tool": call.get("name"),
            "tool_call_id": call.get("id"), "args": call.get("args"),
            "user_id": getattr(context, "user_id", None), "exception": format_error(exc)}


def error_mapping(contract: Mapping[str, ErrorView] = CONTRACT, *, log: list | None = None) -> ToolErrorMiddleware:
    """A ``ToolErrorMiddleware`` that reports every refusal by the contract and lets a bug end the run.

    Args:
        contract: code -> :class:`ErrorView`; pass ``CONTRACT | {...}`` for codes of your own
            :class:`ToolRefusal` subclasses.
        log: if given, a :func:`log_record` is appended for every refusal.

    Returns:
        the middleware, for ``create_agent(middleware=[...])``. A refusal becomes
        ``ToolMessage(model_view(exc), tool_call_id=<the call's id>, status="error")``; any other
        exception propagates (``on_error`` returns ``None``).
    """

    def on_error(exc: Exception, request: Any) -> str | None:
        if not is_refusal(exc):
            return None  # a bug: the model cannot fix our code
        if log is not None:
            log.append(log_record(exc, request))
        return model_view(exc, contract)

    return ToolErrorMiddleware(on_error)


def read_error(message: BaseMessage) -> dict[str, Any] | None:
    """The payload of an error ToolMessage written by :func:`model_view`, or ``None``.

    ``None`` for a success, for an error that is not such JSON (e.g. ``ToolNode``'s own answer to
    bad arguments, or a reviewer's rejection), and for anything that is not a message.
    """
    if getattr(message, "status", None) != "error" or not isinstance(getattr(message, "content", None), str):
        return None
    try:
        payload = json.loads(message.content)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) and "error" in payload and "outcome" in payload else None


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def domain_codes() -> list[str]:
    """The error codes of :mod:`helpers.domain`'s refusals (every ``DomainError`` subclass), sorted."""
    return sorted({sub.code for sub in _subclasses(DomainError) if sub.__module__ == DomainError.__module__})


def missing_codes(contract: Mapping[str, ErrorView] = CONTRACT) -> list[str]:
    """The domain's error codes that have no entry in ``contract`` (``[]`` when it is complete)."""
    return [code for code in domain_codes() if code not in contract]
