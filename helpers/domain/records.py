"""The refund desk's records: users, policies, orders, quotes, refund requests, submissions and
audit-log entries (frozen dataclasses; an audit entry's detail is a read-only :class:`FrozenDict`),
with the closed sets of order statuses, request statuses and audit events.

One floor of :mod:`helpers.domain` (which re-exports every public name here). It imports nothing
of the course.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Literal, Mapping, get_args

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
