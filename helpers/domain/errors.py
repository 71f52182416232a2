"""The refund desk's refusals: the closed set of error codes, one :class:`DomainError` subclass per
code, and how an error shows a hostile value (short, never raising).

One floor of :mod:`helpers.domain` (which re-exports every public name here); the table of codes
and what each means is in that module's docstring. It imports nothing of the course.
"""

from __future__ import annotations

import math
import reprlib
from typing import Any, ClassVar, Literal, get_args

#: Every code a :class:`DomainError` can carry (the table in the module docstring).
ErrorCode = Literal[
    "invalid_request",
    "order_not_found",
    "permission_denied",
    "not_refundable",
    "invalid_amount",
    "amount_exceeds_refundable",
    "idempotency_conflict",
    "service_unavailable",
]
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)


# -- showing hostile values --------------------------------------------------------------

#: The longest text a message or an error's ``details`` shows for one value (in characters): a
#: longer string is cut to its first ``DETAIL_TEXT_LIMIT - 3`` characters followed by ``...``.
DETAIL_TEXT_LIMIT = 60

_REPR = reprlib.Repr()
_REPR.maxstring = DETAIL_TEXT_LIMIT
_REPR.maxother = DETAIL_TEXT_LIMIT
_REPR.maxlong = 40


def _show(value: Any) -> str:
    """A short, never-raising text for a value in a message (strings as-is, cut at
    :data:`DETAIL_TEXT_LIMIT` characters).

    ``repr`` can raise (an int of more than 4300 digits, an object whose ``__repr__`` fails), so
    anything but a plain string goes through a bounded ``reprlib`` with a fallback.
    """
    if isinstance(value, str):
        text = str.__str__(value)
        return text if len(text) <= DETAIL_TEXT_LIMIT else text[: DETAIL_TEXT_LIMIT - 3] + "..."
    try:
        return _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a message must never fail
        if isinstance(value, int):
            return f"<an int of about {int(value.bit_length() * 0.30103)} digits>"
        return f"<{type(value).__name__}>"


def _kind(value: Any) -> str:
    """``"a string"``, ``"a list"``, ``"null"``: how a JSON-ish value's type reads in a message."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "an object", type(None): "null", bytes: "bytes", tuple: "a tuple"}
    return names.get(type(value), f"a {type(value).__name__}")


# -- errors ------------------------------------------------------------------------------


class DataFileError(RuntimeError):
    """A data file is missing, unreadable, not JSON, or of the wrong shape.

    The message names the file (``orders.json``) and, for a shape error, the field
    (``orders[2].amount``); never an absolute path.
    """


def _detail(value: Any) -> Any:
    """A value as an error's ``details`` keep it: short and JSON-serialisable.

    ``None``, booleans, finite floats and ints of at most 40 digits stay as they are; a string
    longer than :data:`DETAIL_TEXT_LIMIT` is cut to that length (ending ``...``); anything else
    (NaN, a list, an object, a huge int) becomes its short text (:func:`_show`).
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, int) and value.bit_length() < 128:
        return int(value)
    return _show(value)


class DomainError(Exception):
    """A business refusal with a stable machine-readable ``code`` (one of :data:`ERROR_CODES`).

    Raise a subclass, never this class itself (it has no code).

    Attributes:
        code: stable error code (class attribute), e.g. ``"permission_denied"``.
        retryable: True when retrying the same call later may succeed (transient).
        details: extra fields (order id, amounts, ...) for an error payload; JSON-serialisable
            and short: a string longer than :data:`DETAIL_TEXT_LIMIT` (60) characters is kept as
            its first 57 characters and ``...``, any other value that is not a plain number,
            bool or ``None`` as its short text (see ``_detail``).
    """

    code: ClassVar[ErrorCode]
    retryable: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        code = cls.__dict__.get("code")
        if code is not None and code not in ERROR_CODES:
            raise TypeError(f"{cls.__name__}.code {code!r} is not one of ERROR_CODES; add it to ErrorCode")

    def __init__(self, message: str, **details: Any):
        if not hasattr(type(self), "code"):
            raise TypeError("raise a DomainError subclass (it carries the code), not DomainError itself")
        super().__init__(message)
        self.details = {name: _detail(value) for name, value in details.items()}

    def to_dict(self) -> dict[str, Any]:
        """``{"error": code, "message": str, **details}``: a payload for a ToolMessage."""
        return {"error": self.code, "message": str(self), **self.details}


class InvalidRequest(DomainError, ValueError):
    """A field of the request has the wrong type or is empty (e.g. a list as order id)."""

    code = "invalid_request"


class OrderNotFound(DomainError):
    """No order with this id exists."""

    code = "order_not_found"


class PermissionDenied(DomainError):
    """The order exists but belongs to another user."""

    code = "permission_denied"


class NotRefundable(DomainError):
    """The order cannot be refunded (not delivered, already refunded, window passed, policy)."""

    code = "not_refundable"


class InvalidAmount(DomainError):
    """The amount is not a finite positive number with at most two decimals."""

    code = "invalid_amount"


class AmountExceedsRefundable(DomainError):
    """The amount is more than what is left to refund on the order."""

    code = "amount_exceeds_refundable"


class IdempotencyConflict(DomainError):
    """An idempotency key was reused with different parameters."""

    code = "idempotency_conflict"


class ServiceUnavailable(DomainError):
    """The refund backend did not answer; the request may or may not have been applied."""

    code = "service_unavailable"
    retryable = True
