"""The running example: an after-sales refund desk.

Data comes from ``data/*.json`` (users, orders, refund policies). Two services sit on it:

* :class:`OrderStore` reads orders and enforces ownership: a user sees only their orders.
* :class:`RefundService` validates refunds (status, window, policy, amount), de-duplicates
  submissions by idempotency key, and writes an append-only audit log.

Every business refusal is a :class:`DomainError` subclass with a stable ``code``
(``order_not_found``, ``permission_denied``, ``not_refundable``, ``invalid_amount``,
``amount_exceeds_refundable``, ``idempotency_conflict``, ``service_unavailable``), so tools
and middleware can map them to error results without parsing messages.

Dates are deterministic: "today" is the ``as_of`` date in ``data/orders.json`` unless given.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Mapping

__all__ = [
    "AmountExceedsRefundable",
    "AuditEntry",
    "DATA_DIR",
    "DataFileError",
    "DomainError",
    "IdempotencyConflict",
    "InvalidAmount",
    "NotRefundable",
    "Order",
    "OrderNotFound",
    "OrderStore",
    "PermissionDenied",
    "RefundPolicy",
    "RefundQuote",
    "RefundRequest",
    "RefundService",
    "ServiceUnavailable",
    "User",
    "refund_key",
]

#: The course's data folder (``<repo>/data``).
DATA_DIR = Path(__file__).resolve().parent.parent / "data"


# -- errors ------------------------------------------------------------------------------


class DataFileError(RuntimeError):
    """A data file is missing or not valid JSON of the expected shape (names the file, not its path)."""


class DomainError(Exception):
    """A business refusal with a stable machine-readable ``code``.

    Attributes:
        code: stable error code (class attribute), e.g. ``"permission_denied"``.
        details: extra fields (order id, amounts, ...) for an error payload.
    """

    code: ClassVar[str] = "domain_error"
    #: True when retrying the same call later may succeed (transient).
    retryable: ClassVar[bool] = False

    def __init__(self, message: str, **details: Any):
        super().__init__(message)
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """``{"error": code, "message": str, **details}``: a payload for a ToolMessage."""
        return {"error": self.code, "message": str(self), **self.details}


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
    """The amount is not a positive number with at most two decimals."""

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
    status: str
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
    status: str = "submitted"
    needs_approval: bool = False


@dataclass(frozen=True)
class AuditEntry:
    """One audit-log line. ``event`` is e.g. ``refund_created``, ``refund_replayed``, ``refund_refused``."""

    seq: int
    event: str
    user_id: str
    order_id: str
    detail: dict[str, Any] = field(default_factory=dict)


# -- loading -----------------------------------------------------------------------------


def _read_json(data_dir: Path, name: str) -> Any:
    path = data_dir / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(f"data file {name} is missing from the data folder") from None
    except json.JSONDecodeError as exc:
        raise DataFileError(f"data file {name} is not valid JSON (line {exc.lineno}: {exc.msg})") from None


def _cents(amount: Any) -> float | None:
    """The amount rounded to cents, or ``None`` if it is not a positive number with at most 2 decimals.

    Float noise is tolerated (``0.1 + 0.2`` is 0.30); ``bool`` and strings are rejected.
    """
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        return None
    rounded = round(float(amount), 2)
    if rounded <= 0 or abs(rounded - amount) > 1e-9:
        return None
    return rounded


def _parse_date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def refund_key(order_id: str, amount: Any) -> str:
    """The course's idempotency key for a refund: built from the business facts, ``refund:<order>:<amount>``.

    A key from the facts (which order, how much; :class:`RefundService` scopes keys per user)
    catches both kinds of repeat: a replay of the same tool call (a node re-run on resume) and
    the model retrying with a *new* tool call id after a lost reply. A key built from the tool
    call id catches only the first. The price: two genuinely separate refunds of the same
    amount on the same order count as one request (notebook 09 discusses it).

    Args:
        order_id: the order id as the model sent it.
        amount: the amount; a valid amount is written with two decimals (``12.5`` -> ``12.50``),
            anything else as its ``repr`` (the service then refuses it as ``invalid_amount``).

    Returns:
        e.g. ``"refund:A1024:499.00"``.
    """
    cents = _cents(amount)
    return f"refund:{order_id}:{cents:.2f}" if cents is not None else f"refund:{order_id}:{amount!r}"


class OrderStore:
    """Orders, users and policies, with ownership enforced on every read.

    Args:
        data_dir: folder holding ``users.json``, ``orders.json``, ``refund_policies.json``;
            defaults to :data:`DATA_DIR`.

    Raises:
        DataFileError: a file is missing, not JSON, or lacks a required field.
    """

    def __init__(self, data_dir: Path | str | None = None):
        folder = Path(data_dir) if data_dir is not None else DATA_DIR
        try:
            users = _read_json(folder, "users.json")
            orders = _read_json(folder, "orders.json")
            policies = _read_json(folder, "refund_policies.json")
            self.as_of: date = date.fromisoformat(orders["as_of"])
            self.approval_threshold: float = float(policies["approval_threshold"])
            self._users = {u["user_id"]: User(**u) for u in users}
            self._policies = {
                name: RefundPolicy(product_type=name, **p) for name, p in policies["policies"].items()
            }
            self._orders = {
                o["order_id"]: Order(**{**o, "delivered_on": _parse_date(o.get("delivered_on"))})
                for o in orders["orders"]
            }
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, DataFileError):
                raise
            raise DataFileError(f"data files have an unexpected shape: {type(exc).__name__}: {exc}") from None

    # reads ------------------------------------------------------------------------------

    def get_order(self, order_id: str, *, user_id: str) -> Order:
        """Return the order if ``user_id`` owns it.

        Raises:
            OrderNotFound: no such order id.
            PermissionDenied: the order belongs to another user (the message does not
                reveal the owner).
        """
        order = self._orders.get(order_id)
        if order is None:
            raise OrderNotFound(f"order {order_id} does not exist", order_id=order_id)
        if order.user_id != user_id:
            raise PermissionDenied(f"order {order_id} does not belong to {user_id}", order_id=order_id)
        return order

    def orders_for(self, user_id: str) -> list[Order]:
        """All orders of one user, sorted by id."""
        return sorted((o for o in self._orders.values() if o.user_id == user_id), key=lambda o: o.order_id)

    def user(self, user_id: str) -> User:
        """The user record. Raises ``KeyError`` for an unknown id."""
        return self._users[user_id]

    @property
    def user_ids(self) -> list[str]:
        """All known user ids, sorted."""
        return sorted(self._users)

    def policy_for(self, product_type: str) -> RefundPolicy:
        """The refund policy of a product type. Raises ``KeyError`` for an unknown type."""
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
        today: the date used for refund windows; defaults to ``store.as_of``.

    ``submit`` creates a *request* (status ``submitted``); amounts above
    ``store.approval_threshold`` are marked ``needs_approval``.
    """

    def __init__(self, store: OrderStore | None = None, *, today: date | None = None):
        self.store = store if store is not None else OrderStore()
        self.today = today or self.store.as_of
        self._requests: dict[str, RefundRequest] = {}
        self._by_key: dict[tuple[str, str], RefundRequest] = {}  # (user_id, idempotency key)
        self._lock = threading.RLock()  # ToolNode runs sync tools in a thread pool
        self._audit: list[AuditEntry] = []
        self._outages: list[bool] = []  # one entry per coming submit: after_commit?
        self.submit_attempts = 0

    # queries ----------------------------------------------------------------------------

    def quote(self, order_id: str, *, user_id: str) -> RefundQuote:
        """How much of an order may be refunded today.

        Raises:
            OrderNotFound, PermissionDenied: from :meth:`OrderStore.get_order`.
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
        """The audit log, oldest first (a tuple: entries cannot be changed or removed)."""
        return tuple(self._audit)

    @property
    def requests(self) -> tuple[RefundRequest, ...]:
        """All refund requests created, in creation order."""
        return tuple(self._requests.values())

    # commands ---------------------------------------------------------------------------

    def simulate_outage(self, times: int = 1, *, after_commit: bool = False) -> None:
        """Make the next ``times`` submits raise :class:`ServiceUnavailable`.

        Args:
            times: how many coming submits fail.
            after_commit: if True, the request *is* created before the error (the reply
                was lost), which is the case an idempotency key exists for.
        """
        self._outages.extend([after_commit] * times)

    def submit(
        self,
        order_id: str,
        amount: float,
        *,
        user_id: str,
        idempotency_key: str,
        reason: str = "",
    ) -> RefundRequest:
        """Create a refund request once per idempotency key.

        Args:
            order_id: the order to refund.
            amount: the amount (positive, at most two decimals, at most the refundable amount).
            user_id: the acting user (trusted, from the runtime context, not from the model).
            idempotency_key: repeated submits by the same user with the same key and
                parameters return the first request and create nothing new (keys are scoped
                per user; ownership is checked first).
            reason: free text for the audit log.

        Returns:
            the :class:`RefundRequest` (new, or the earlier one for a repeated key).

        Raises:
            InvalidAmount, AmountExceedsRefundable, NotRefundable, OrderNotFound,
            PermissionDenied, IdempotencyConflict, ServiceUnavailable;
            ``ValueError`` for an empty idempotency key.
        """
        with self._lock:
            self.submit_attempts += 1
            if not idempotency_key:
                raise ValueError("idempotency_key is required: pass a key that stays the same across retries")
            try:
                self.store.get_order(order_id, user_id=user_id)  # authorise before anything else
            except DomainError as exc:
                self._log("refund_refused", user_id, order_id, code=exc.code)
                raise
            previous = self._by_key.get((user_id, idempotency_key))
            if previous is not None:
                if (previous.order_id, previous.amount) != (order_id, _cents(amount)):
                    self._log("refund_refused", user_id, order_id, code=IdempotencyConflict.code)
                    raise IdempotencyConflict(
                        f"idempotency key {idempotency_key!r} was used for a different request",
                        order_id=order_id,
                    )
                self._log("refund_replayed", user_id, order_id, request_id=previous.request_id)
                return previous
            outage = self._outages.pop(0) if self._outages else None
            if outage is False:
                self._log("refund_failed", user_id, order_id, code=ServiceUnavailable.code)
                raise ServiceUnavailable("refund service did not answer (nothing was created)", order_id=order_id)
            try:
                request = self._create(order_id, amount, user_id, idempotency_key, reason)
            except DomainError as exc:
                self._log("refund_refused", user_id, order_id, code=exc.code)
                raise
            if outage is True:
                raise ServiceUnavailable("refund service timed out after accepting the request", order_id=order_id)
            return request

    def _create(self, order_id: str, amount: Any, user_id: str, key: str, reason: str) -> RefundRequest:
        cents = _cents(amount)
        if cents is None:
            raise InvalidAmount(f"amount must be a positive number with at most 2 decimals, got {amount!r}", order_id=order_id)
        amount = cents
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
            amount=float(amount),
            reason=reason,
            idempotency_key=key,
            needs_approval=amount > self.store.approval_threshold,
        )
        self._requests[request.request_id] = request
        self._by_key[(user_id, key)] = request
        self.store._record_refund(order_id, float(amount))
        self._log("refund_created", user_id, order_id, request_id=request.request_id, amount=float(amount))
        return request

    def _log(self, event: str, user_id: str, order_id: str, **detail: Any) -> None:
        self._audit.append(
            AuditEntry(seq=len(self._audit) + 1, event=event, user_id=user_id, order_id=order_id,
                       detail=dict(detail))
        )
