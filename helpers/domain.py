"""The running example: an after-sales refund desk.

Data comes from ``data/*.json`` (users, orders, refund policies), checked field by field when it
is loaded. Two services sit on it:

* :class:`OrderStore` reads orders and enforces ownership: a user sees only their orders.
* :class:`RefundService` validates refunds (request shape, status, window, policy, amount),
  de-duplicates submissions by idempotency key, and writes an append-only audit log.

Every business refusal is a :class:`DomainError` subclass with a stable ``code`` from the closed
set :data:`ERROR_CODES` (the ``Literal`` :data:`ErrorCode`), so tools and middleware can map them
to error results without parsing messages:

=============================  =====================================================================
code                           meaning
=============================  =====================================================================
``invalid_request``            a field has the wrong type or is empty (a list as order id, ``None``
                               as idempotency key, ...): what a model can send through a tool's JSON
``order_not_found``            no order with this id
``permission_denied``          the order belongs to another user
``not_refundable``             not delivered, already refunded, outside the window, or by policy
``invalid_amount``             not a finite positive number with at most two decimals (NaN, ±inf,
                               ``10**400``, ``"10"``, ``True`` included)
``amount_exceeds_refundable``  more than is left to refund on the order
``idempotency_conflict``       a key reused for a different request
``service_unavailable``        the backend did not answer (transient: ``retryable``)
=============================  =====================================================================

No input, however hostile, makes the services raise anything but a :class:`DomainError`
(``InvalidRequest`` is also a ``ValueError``, for callers that caught the old ``ValueError`` of an
empty key). Audit-log events form the closed set :data:`AUDIT_EVENTS`.

Dates are deterministic: "today" is the ``as_of`` date in ``data/orders.json`` unless given.
"""

from __future__ import annotations

import json
import math
import reprlib
import threading
from collections import deque
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Mapping, get_args

from .files import NotARegularFile, read_regular

__all__ = [
    "AUDIT_EVENTS",
    "AmountExceedsRefundable",
    "AuditEntry",
    "AuditEvent",
    "DATA_DIR",
    "DETAIL_TEXT_LIMIT",
    "DataFileError",
    "DomainError",
    "ERROR_CODES",
    "ErrorCode",
    "IdempotencyConflict",
    "InvalidAmount",
    "InvalidRequest",
    "NotRefundable",
    "ORDER_STATUSES",
    "Order",
    "OrderNotFound",
    "OrderStatus",
    "OrderStore",
    "PermissionDenied",
    "RefundPolicy",
    "RefundQuote",
    "RefundRequest",
    "RefundService",
    "RequestStatus",
    "ServiceUnavailable",
    "Submission",
    "User",
    "refund_key",
]

#: The course's data folder (``<repo>/data``).
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

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

#: Audit-log events: a request was created; a repeated key returned the earlier request; a
#: submit was refused (``detail["code"]`` says why); the backend failed before the commit
#: (nothing created); the backend committed but the reply was lost (the caller saw
#: ``service_unavailable``; a retry with the same key then shows as ``refund_replayed``).
AuditEvent = Literal["refund_created", "refund_replayed", "refund_refused", "refund_failed", "refund_reply_lost"]
AUDIT_EVENTS: tuple[AuditEvent, ...] = get_args(AuditEvent)

#: A refund request's status: created requests are ``submitted`` (an application, not money sent).
RequestStatus = Literal["submitted"]

#: Order statuses in the data; only ``delivered`` orders can be refunded.
OrderStatus = Literal["shipped", "delivered", "cancelled"]
ORDER_STATUSES: tuple[OrderStatus, ...] = get_args(OrderStatus)


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


# -- records -----------------------------------------------------------------------------


class FrozenDict(dict):
    """A ``dict`` that refuses every change (``d[k] = v``, ``del``, ``update``, ``pop``, ...).

    Used for :attr:`AuditEntry.detail`: it reads, prints, compares and serialises (``json.dumps``,
    ``dataclasses.asdict``) like the dict it was built from, and raises ``TypeError`` on a write.
    """

    __slots__ = ("_sealed",)

    def __init__(self, *args: Any, **kwargs: Any):
        if getattr(self, "_sealed", False):
            self._refuse()
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "_sealed", True)

    def _refuse(self, *args: Any, **kwargs: Any):
        raise TypeError("the audit log is append-only: an entry's detail cannot be changed")

    __setitem__ = __delitem__ = __ior__ = __setattr__ = __delattr__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenDict:
        return self


def _freeze(value: Any) -> Any:
    """Read-only copy of a JSON-ish value: dicts become :class:`FrozenDict`, lists tuples, sets frozensets."""
    if isinstance(value, Mapping):
        return FrozenDict({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_freeze(item) for item in value)
    return value


@dataclass(frozen=True)
class User:
    """A customer: ``user_id`` (e.g. ``"user-42"``), display ``name`` and ``tier``."""

    user_id: str
    name: str
    tier: str


@dataclass(frozen=True)
class RefundPolicy:
    """Refund rules for one product type; ``window_days`` counts days after delivery."""

    product_type: str
    refundable: bool
    window_days: int
    summary: str


@dataclass(frozen=True)
class Order:
    """One order. Amounts are in the shop currency (two decimals)."""

    order_id: str
    user_id: str
    product: str
    product_type: str
    amount: float
    status: OrderStatus
    delivered_on: date | None
    refunded_amount: float
    note: str = ""

    @property
    def remaining_refundable(self) -> float:
        """``amount - refunded_amount``, rounded to cents."""
        return round(self.amount - self.refunded_amount, 2)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly fields (dates as ISO strings), without the internal ``note``."""
        data = asdict(self)
        data.pop("note")
        data["delivered_on"] = self.delivered_on.isoformat() if self.delivered_on else None
        return data


@dataclass(frozen=True)
class RefundQuote:
    """What may be refunded on an order today and whether a human must approve it."""

    order_id: str
    refundable_amount: float
    policy: str
    needs_approval: bool


@dataclass(frozen=True)
class RefundRequest:
    """A created refund request (an application, not money sent)."""

    request_id: str
    order_id: str
    user_id: str
    amount: float
    reason: str
    idempotency_key: str
    status: RequestStatus = "submitted"
    needs_approval: bool = False


@dataclass(frozen=True)
class Submission:
    """What :meth:`RefundService.submit_or_replay` returns.

    Attributes:
        request: the refund request: new, or the earlier one for a repeated idempotency key.
        replayed: True when the key was seen before: ``request`` is the earlier one and this
            submit created nothing (the audit log says ``refund_replayed``).
    """

    request: RefundRequest
    replayed: bool


@dataclass(frozen=True)
class AuditEntry:
    """One audit-log line; nothing in it can be changed after it is written.

    Attributes:
        seq: 1, 2, ... in log order.
        event: one of :data:`AUDIT_EVENTS`.
        user_id, order_id: as given (a hostile value is kept as its short text).
        detail: read-only (:class:`FrozenDict`; nested lists become tuples), e.g.
            ``{"request_id": "RF-0001", "amount": 499.0}`` or ``{"code": "permission_denied"}``.
    """

    seq: int
    event: AuditEvent
    user_id: str
    order_id: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "detail", _freeze(dict(self.detail)))


# -- amounts and keys --------------------------------------------------------------------


def _cents(amount: Any) -> float | None:
    """The amount rounded to cents, or ``None`` if it is not a finite positive number with at most 2 decimals.

    Float noise is tolerated (``0.1 + 0.2`` is 0.30); ``bool``, strings, NaN, ±inf and ints too
    large for a float (``10**400``) are rejected. Never raises.
    """
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        return None
    try:
        value = float(amount)
    except OverflowError:
        return None
    if not math.isfinite(value):
        return None
    rounded = round(value, 2)
    if rounded <= 0 or abs(rounded - value) > 1e-9:
        return None
    return rounded


def refund_key(order_id: Any, amount: Any) -> str:
    """The course's idempotency key for a refund: built from the business facts, ``refund:<order>:<amount>``.

    A key from the facts (which order, how much; :class:`RefundService` scopes keys per user)
    catches both kinds of repeat: a replay of the same tool call (a node re-run on resume) and
    the model retrying with a *new* tool call id after a lost reply. A key built from the tool
    call id catches only the first. The price: two genuinely separate refunds of the same
    amount on the same order count as one request (notebook 09 discusses it).

    Args:
        order_id: the order id as the model sent it (a string; anything else is written as a
            short ``repr`` and the service then refuses it as ``invalid_request``).
        amount: the amount; a valid amount is written with two decimals (``12.5`` -> ``12.50``),
            anything else as a short ``repr`` (the service then refuses it as ``invalid_amount``).

    Returns:
        e.g. ``"refund:A1024:499.00"``. Never raises, whatever the values (NaN, ``10**5000``,
        lists, ``None``, bytes, objects whose ``repr`` fails).
    """
    order = str.__str__(order_id) if isinstance(order_id, str) else _show(order_id)
    cents = _cents(amount)
    amount_text = f"{cents:.2f}" if cents is not None else _show(amount)
    return "".join(("refund:", order, ":", amount_text))


def _require_text(value: Any, name: str, hint: str = "") -> str:
    """``value`` if it is a non-empty string, else :class:`InvalidRequest` naming the field."""
    if isinstance(value, str) and value:
        return value
    got = "an empty string" if value == "" else f"{_kind(value)} ({_show(value)})"
    raise InvalidRequest(f"{name} must be a non-empty string, got {got}{hint}", field=name)


# -- loading -----------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _read_json(data_dir: Path, name: str) -> Any:
    """Parse ``data_dir/name``; every failure is a :class:`DataFileError` naming ``name`` only."""
    path = data_dir / name
    try:
        text = read_regular(path).decode("utf-8")
    except NotARegularFile as exc:
        if exc.kind == "a folder":
            raise DataFileError(f"data file {name} is a folder, not a file") from None
        raise DataFileError(f"data file {name} is not a regular file (it is {exc.kind})") from None
    except FileNotFoundError:
        where = "the data folder" if data_dir.is_dir() else "a data folder that does not exist"
        raise DataFileError(f"data file {name} is missing from {where}") from None
    except NotADirectoryError:
        raise DataFileError(f"data file {name} cannot be read: the data folder is a file, not a folder") from None
    except PermissionError:
        raise DataFileError(f"data file {name} cannot be read (permission denied)") from None
    except UnicodeDecodeError:
        raise DataFileError(f"data file {name} is not UTF-8 text") from None
    except OSError as exc:
        raise DataFileError(f"data file {name} cannot be read ({exc.strerror or type(exc).__name__})") from None
    except ValueError:  # os.stat: "embedded null byte" (OrderStore checks the folder; a caller may not)
        raise DataFileError(f"data file {name} cannot be read: its path contains a NUL byte") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"data file {name} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise DataFileError(f"data file {name} is nested too deeply to be read") from None
    except ValueError as exc:  # NaN / Infinity, an integer of more than 4300 digits
        raise DataFileError(f"data file {name} is not valid JSON ({' '.join(str(exc).split())[:80]})") from None


def _data_amount(value: Any) -> bool:
    """True for an amount a data file may hold: a finite number >= 0 with at most two decimals
    (the same rule as :func:`_cents`, with 0 allowed), never raising (an int too large for a
    float is refused)."""
    return value == 0 and not isinstance(value, bool) or _cents(value) is not None


_FieldKind = Literal["id", "text", "bool", "days", "amount", "date", "date_or_null", "status"]


class _Shape:
    """Checks one data file's parsed JSON; every error names the file and the field (``orders[2].amount``)."""

    _WANT: ClassVar[dict[str, str]] = {
        "id": "a non-empty string", "text": "a string", "bool": "true or false", "days": "a whole number >= 0",
        "amount": "a number >= 0 with at most two decimals", "date": "a date YYYY-MM-DD", "date_or_null": "a date YYYY-MM-DD or null",
        "status": f"one of {', '.join(ORDER_STATUSES)}",
    }

    def __init__(self, file: str):
        self.file = file

    def fail(self, where: str, message: str) -> DataFileError:
        return DataFileError(f"data file {self.file}: {where} {message}")

    def object(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be an object, got {_kind(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"must be a list, got {_kind(value)}")
        return value

    def key(self, data: dict[str, Any], name: str, where: str) -> Any:
        if name not in data:
            raise self.fail(where, f"has no field {name!r}")
        return data[name]

    def value(self, value: Any, kind: _FieldKind, where: str) -> Any:
        ok = {
            "id": isinstance(value, str) and bool(value.strip()),
            "text": isinstance(value, str),
            "bool": isinstance(value, bool),
            "days": isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            "amount": _data_amount(value),
            "status": value in ORDER_STATUSES,
        }.get(kind)
        if kind in ("date", "date_or_null"):
            if value is None and kind == "date_or_null":
                return None
            try:
                return date.fromisoformat(value) if isinstance(value, str) else self._bad(value, kind, where)
            except ValueError:
                self._bad(value, kind, where)
        if not ok:
            self._bad(value, kind, where)
        return round(float(value), 2) if kind == "amount" else value

    def _bad(self, value: Any, kind: _FieldKind, where: str):
        raise self.fail(where, f"must be {self._WANT[kind]}, got {_kind(value)} ({_show(value)})")

    def record(self, data: Any, where: str, fields: dict[str, _FieldKind], optional: frozenset[str] = frozenset()
               ) -> dict[str, Any]:
        data = self.object(data, where)
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise self.fail(where, f"has an unknown field {unknown[0]!r} (known: {', '.join(fields)})")
        out = {}
        for name, kind in fields.items():
            if name in data:
                out[name] = self.value(data[name], kind, f"{where}.{name}")
            elif name not in optional:
                raise self.fail(where, f"has no field {name!r}")
        return out


_USER_FIELDS: dict[str, _FieldKind] = {"user_id": "id", "name": "text", "tier": "text"}
_POLICY_FIELDS: dict[str, _FieldKind] = {"refundable": "bool", "window_days": "days", "summary": "text"}
_ORDER_FIELDS: dict[str, _FieldKind] = {
    "order_id": "id", "user_id": "id", "product": "text", "product_type": "id", "amount": "amount",
    "status": "status", "delivered_on": "date_or_null", "refunded_amount": "amount", "note": "text",
}


def _load_users(raw: Any) -> dict[str, User]:
    shape = _Shape("users.json")
    users: dict[str, User] = {}
    for number, item in enumerate(shape.array(raw, "the top level")):
        user = User(**shape.record(item, f"[{number}]", _USER_FIELDS))
        if user.user_id in users:
            raise shape.fail(f"[{number}].user_id", f"repeats the id {user.user_id!r}")
        users[user.user_id] = user
    return users


def _load_policies(raw: Any) -> tuple[float, dict[str, RefundPolicy]]:
    shape = _Shape("refund_policies.json")
    top = shape.object(raw, "the top level")
    threshold = shape.value(shape.key(top, "approval_threshold", "the top level"), "amount", "approval_threshold")
    table = shape.object(shape.key(top, "policies", "the top level"), "policies")
    policies = {name: RefundPolicy(product_type=name, **shape.record(spec, f"policies.{name}", _POLICY_FIELDS))
                for name, spec in table.items()}
    return threshold, policies


def _load_orders(raw: Any, users: Mapping[str, User], policies: Mapping[str, RefundPolicy]
                 ) -> tuple[date, dict[str, Order]]:
    shape = _Shape("orders.json")
    top = shape.object(raw, "the top level")
    as_of = shape.value(shape.key(top, "as_of", "the top level"), "date", "as_of")
    orders: dict[str, Order] = {}
    for number, item in enumerate(shape.array(shape.key(top, "orders", "the top level"), "orders")):
        where = f"orders[{number}]"
        order = Order(**shape.record(item, where, _ORDER_FIELDS, optional=frozenset({"note"})))
        if order.order_id in orders:
            raise shape.fail(f"{where}.order_id", f"repeats the id {order.order_id!r}")
        if order.user_id not in users:
            raise shape.fail(f"{where}.user_id", f"names {order.user_id!r}, who is not in users.json")
        if order.product_type not in policies:
            raise shape.fail(f"{where}.product_type",
                             f"{order.product_type!r} has no policy in refund_policies.json")
        if order.refunded_amount > order.amount:
            raise shape.fail(f"{where}.refunded_amount", f"({order.refunded_amount}) is more than the amount")
        orders[order.order_id] = order
    return as_of, orders


class OrderStore:
    """Orders, users and policies, with ownership enforced on every read.

    Args:
        data_dir: folder holding ``users.json``, ``orders.json``, ``refund_policies.json``;
            defaults to :data:`DATA_DIR`.

    Raises:
        DataFileError: a file is missing, unreadable (a folder, a FIFO or a device, not UTF-8),
            not JSON, or has a field of the wrong type (an amount with more than two decimals
            included), a missing or unknown field, a repeated id, or an order that names an
            unknown user or product type; the folder's name holds a NUL byte. The message names
            the file and the field, never the folder's path.
    """

    def __init__(self, data_dir: Path | str | None = None):
        folder = Path(data_dir) if data_dir is not None else DATA_DIR
        if "\x00" in str(folder):
            raise DataFileError("the data folder's name contains a NUL byte, so no data file can be read from it")
        self._users = _load_users(_read_json(folder, "users.json"))
        self.approval_threshold: float
        self.approval_threshold, self._policies = _load_policies(_read_json(folder, "refund_policies.json"))
        self.as_of: date
        self.as_of, self._orders = _load_orders(_read_json(folder, "orders.json"), self._users, self._policies)

    # reads ------------------------------------------------------------------------------

    def get_order(self, order_id: str, *, user_id: str) -> Order:
        """Return the order if ``user_id`` owns it.

        Raises:
            InvalidRequest: ``order_id`` or ``user_id`` is not a non-empty string.
            OrderNotFound: no such order id.
            PermissionDenied: the order belongs to another user (the message does not
                reveal the owner).
        """
        _require_text(order_id, "order_id")
        _require_text(user_id, "user_id")
        order = self._orders.get(order_id)
        if order is None:
            raise OrderNotFound(f"order {_show(order_id)} does not exist", order_id=order_id)
        if order.user_id != user_id:
            raise PermissionDenied(f"order {order_id} does not belong to {_show(user_id)}", order_id=order_id)
        return order

    def orders_for(self, user_id: str) -> list[Order]:
        """All orders of one user, sorted by id (empty for an unknown or non-string id)."""
        return sorted((o for o in self._orders.values() if o.user_id == user_id), key=lambda o: o.order_id)

    def user(self, user_id: str) -> User:
        """The user record. Raises ``KeyError`` for an unknown id (a non-string id included)."""
        if not isinstance(user_id, str) or user_id not in self._users:
            raise KeyError(f"no user {_show(user_id)}")
        return self._users[user_id]

    @property
    def user_ids(self) -> list[str]:
        """All known user ids, sorted."""
        return sorted(self._users)

    def policy_for(self, product_type: str) -> RefundPolicy:
        """The refund policy of a product type. Raises ``KeyError`` for an unknown type (a non-string included)."""
        if not isinstance(product_type, str) or product_type not in self._policies:
            raise KeyError(f"no refund policy for {_show(product_type)}")
        return self._policies[product_type]

    @property
    def policies(self) -> Mapping[str, RefundPolicy]:
        """All policies by product type (read-only)."""
        return MappingProxyType(self._policies)

    def _record_refund(self, order_id: str, amount: float) -> None:
        order = self._orders[order_id]
        self._orders[order_id] = Order(
            **{**asdict(order), "refunded_amount": round(order.refunded_amount + amount, 2)}
        )


class RefundService:
    """Refund requests with validation, idempotency and an append-only audit log.

    Args:
        store: the :class:`OrderStore` (a fresh one from ``data/`` if omitted).
        today: the date used for refund windows (a ``datetime.date``, not a ``datetime``);
            defaults to ``store.as_of``.

    Raises:
        TypeError: ``today`` is not a ``date`` (a ``datetime``, a string, ...); checked here, so
            the mistake does not surface later as a raw error inside :meth:`quote`.

    ``submit`` creates a *request* (status ``submitted``); amounts above
    ``store.approval_threshold`` are marked ``needs_approval``. Thread-safe (``ToolNode`` runs
    sync tools in a thread pool).
    """

    def __init__(self, store: OrderStore | None = None, *, today: date | None = None):
        if today is not None and (not isinstance(today, date) or isinstance(today, datetime)):
            raise TypeError(f"RefundService(today=...) must be a datetime.date (not a datetime), got {_kind(today)} "
                            f"({_show(today)})")
        self.store = store if store is not None else OrderStore()
        self.today = today if today is not None else self.store.as_of
        self._requests: dict[str, RefundRequest] = {}
        self._by_key: dict[tuple[str, str], RefundRequest] = {}  # (user_id, idempotency key)
        self._lock = threading.RLock()
        self._audit: list[AuditEntry] = []
        self._outages: deque[list[Any]] = deque()  # [after_commit, how many submits] in order
        self.submit_attempts = 0

    # queries ----------------------------------------------------------------------------

    def quote(self, order_id: str, *, user_id: str) -> RefundQuote:
        """How much of an order may be refunded today.

        Raises:
            InvalidRequest, OrderNotFound, PermissionDenied: from :meth:`OrderStore.get_order`.
            NotRefundable: not delivered, fully refunded, outside the window, or the
                product type is never refundable.
        """
        order = self.store.get_order(order_id, user_id=user_id)
        policy = self.store.policy_for(order.product_type)
        if not policy.refundable:
            raise NotRefundable(f"{order.product_type} orders cannot be refunded", order_id=order_id)
        if order.status != "delivered" or order.delivered_on is None:
            raise NotRefundable(f"order {order_id} is {order.status}, not delivered", order_id=order_id)
        if order.remaining_refundable <= 0:
            raise NotRefundable(f"order {order_id} is already fully refunded", order_id=order_id)
        age = (self.today - order.delivered_on).days
        if age > policy.window_days:
            raise NotRefundable(
                f"order {order_id} was delivered {age} days ago; the {order.product_type} window is "
                f"{policy.window_days} days",
                order_id=order_id,
            )
        return RefundQuote(
            order_id=order_id,
            refundable_amount=order.remaining_refundable,
            policy=policy.summary,
            needs_approval=order.remaining_refundable > self.store.approval_threshold,
        )

    @property
    def audit_log(self) -> tuple[AuditEntry, ...]:
        """The audit log, oldest first: a tuple of frozen entries with read-only details."""
        with self._lock:
            return tuple(self._audit)

    @property
    def requests(self) -> tuple[RefundRequest, ...]:
        """All refund requests created, in creation order."""
        with self._lock:
            return tuple(self._requests.values())

    # commands ---------------------------------------------------------------------------

    def simulate_outage(self, times: int = 1, *, after_commit: bool = False) -> None:
        """Make the next ``times`` submits raise :class:`ServiceUnavailable`.

        Calls add up, in order: ``simulate_outage(2)`` then ``simulate_outage(after_commit=True)``
        makes two submits fail before the commit and the third after it.

        Args:
            times: how many coming submits fail (a whole number >= 1; any size, it is a counter).
            after_commit: if True, the request *is* created before the error (the reply
                was lost), which is the case an idempotency key exists for. The audit log
                then shows ``refund_created`` followed by ``refund_reply_lost``.

        Raises:
            TypeError: ``times`` is not an int (a bool, 1.5, None, "2") or ``after_commit`` is not
                a bool (``"yes"``, 1 and None would otherwise silently simulate nothing).
            ValueError: ``times`` is 0 or negative.
        """
        if isinstance(times, bool) or not isinstance(times, int):
            raise TypeError(f"simulate_outage(times=...) must be a whole number >= 1, got {_kind(times)} "
                            f"({_show(times)})")
        if times < 1:
            raise ValueError(f"simulate_outage(times=...) must be a whole number >= 1, got {_show(times)}")
        if not isinstance(after_commit, bool):
            raise TypeError(f"simulate_outage(after_commit=...) must be True or False, got {_kind(after_commit)} "
                            f"({_show(after_commit)})")
        with self._lock:
            if self._outages and self._outages[-1][0] is after_commit:
                self._outages[-1][1] += times
            else:
                self._outages.append([after_commit, times])

    def submit(self, order_id: str, amount: float, **options: str) -> RefundRequest:
        """Create a refund request once per idempotency key: :meth:`submit_or_replay`'s request.

        Same arguments (``user_id``, ``idempotency_key`` and ``reason`` by keyword), checks and
        errors as :meth:`submit_or_replay`; returns only the :class:`RefundRequest` (new, or the
        earlier one for a repeated key: the same object).
        """
        return self.submit_or_replay(order_id, amount, **options).request

    def submit_or_replay(
        self,
        order_id: str,
        amount: float,
        *,
        user_id: str,
        idempotency_key: str,
        reason: str = "",
    ) -> Submission:
        """Create a refund request once per idempotency key, and say whether this call created it.

        The checks run in this order: the request's shape, ownership, the amount, the
        idempotency key, the backend (a simulated outage), the order's refundable amount.

        Args:
            order_id: the order to refund.
            amount: the amount (finite, positive, at most two decimals, at most the refundable amount).
            user_id: the acting user (trusted, from the runtime context, not from the model).
            idempotency_key: repeated submits by the same user with the same key and
                parameters return the first request and create nothing new (keys are scoped
                per user; ownership is checked first). Use :func:`refund_key`.
            reason: free text for the audit log.

        Returns:
            a :class:`Submission`: the :class:`RefundRequest` (new, or the earlier one for a
            repeated key) and ``replayed`` (True when the key was seen before and nothing was
            created), so a tool can tell the model "already registered".

        Raises:
            InvalidRequest (also a ``ValueError``): a field of the wrong type or empty;
            InvalidAmount, AmountExceedsRefundable, NotRefundable, OrderNotFound,
            PermissionDenied, IdempotencyConflict, ServiceUnavailable. Every refusal is logged
            as ``refund_refused`` (or ``refund_failed`` for an outage) with its code.
        """
        with self._lock:
            self.submit_attempts += 1
            who, what = _show(user_id), _show(order_id)
            try:
                _require_text(user_id, "user_id")
                _require_text(order_id, "order_id")
                _require_text(idempotency_key, "idempotency_key",
                              " (idempotency_key is required: pass a key that stays the same across retries,"
                              " e.g. refund_key(order_id, amount))")
                if not isinstance(reason, str):
                    raise InvalidRequest(f"reason must be a string, got {_kind(reason)} ({_show(reason)})",
                                         field="reason")
                self.store.get_order(order_id, user_id=user_id)  # authorise before anything else
                cents = _cents(amount)
                if cents is None:
                    raise InvalidAmount(
                        f"amount must be a finite positive number with at most 2 decimals, got {_show(amount)}",
                        order_id=order_id)
            except DomainError as exc:
                self._log("refund_refused", who, what, code=exc.code)
                raise
            previous = self._by_key.get((user_id, idempotency_key))
            if previous is not None:
                if (previous.order_id, previous.amount) != (order_id, cents):
                    self._log("refund_refused", user_id, order_id, code=IdempotencyConflict.code)
                    raise IdempotencyConflict(
                        f"idempotency key {_show(idempotency_key)!r} was used for a different request",
                        order_id=order_id,
                    )
                self._log("refund_replayed", user_id, order_id, request_id=previous.request_id)
                return Submission(previous, replayed=True)
            outage = self._next_outage()
            if outage is False:
                self._log("refund_failed", user_id, order_id, code=ServiceUnavailable.code)
                raise ServiceUnavailable("refund service did not answer (nothing was created)", order_id=order_id)
            try:
                request = self._create(order_id, cents, user_id, idempotency_key, reason)
            except DomainError as exc:
                self._log("refund_refused", user_id, order_id, code=exc.code)
                raise
            if outage is True:
                self._log("refund_reply_lost", user_id, order_id, request_id=request.request_id,
                          code=ServiceUnavailable.code)
                raise ServiceUnavailable("refund service timed out after accepting the request", order_id=order_id)
            return Submission(request, replayed=False)

    def _next_outage(self) -> bool | None:
        """Use up one scheduled outage: its ``after_commit``, or ``None`` when none is scheduled."""
        if not self._outages:
            return None
        run = self._outages[0]
        run[1] -= 1
        if run[1] == 0:
            self._outages.popleft()
        return run[0]

    def _create(self, order_id: str, amount: float, user_id: str, key: str, reason: str) -> RefundRequest:
        quote = self.quote(order_id, user_id=user_id)
        if amount > quote.refundable_amount:
            raise AmountExceedsRefundable(
                f"amount {amount:.2f} exceeds the refundable {quote.refundable_amount:.2f} for order {order_id}",
                order_id=order_id,
                requested=amount,
                refundable=quote.refundable_amount,
            )
        request = RefundRequest(
            request_id=f"RF-{len(self._requests) + 1:04d}",
            order_id=order_id,
            user_id=user_id,
            amount=amount,
            reason=reason,
            idempotency_key=key,
            needs_approval=amount > self.store.approval_threshold,
        )
        self._requests[request.request_id] = request
        self._by_key[(user_id, key)] = request
        self.store._record_refund(order_id, amount)
        self._log("refund_created", user_id, order_id, request_id=request.request_id, amount=amount)
        return request

    def _log(self, event: AuditEvent, user_id: str, order_id: str, **detail: Any) -> None:
        self._audit.append(AuditEntry(seq=len(self._audit) + 1, event=event, user_id=user_id, order_id=order_id,
                                      detail=detail))
