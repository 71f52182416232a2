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

The desk is four floors, one job each; every public name is importable from here as before:

* :mod:`helpers.domain.errors`: the error codes and :class:`DomainError` with its subclasses;
* :mod:`helpers.domain.records`: the records (:class:`Order`, :class:`AuditEntry`, ...) and the
  closed sets of statuses and audit events;
* :mod:`helpers.domain.values`: amounts to cents, required text, :func:`refund_key`;
* :mod:`helpers.domain.data`: the data files, checked, and :class:`OrderStore`;
* this module: :class:`RefundService`.
"""

from __future__ import annotations

import threading
from collections import deque
from datetime import date, datetime
from typing import Any

from .data import DATA_DIR, DataFileError, OrderStore
from .errors import (
    DETAIL_TEXT_LIMIT,
    ERROR_CODES,
    AmountExceedsRefundable,
    DomainError,
    ErrorCode,
    IdempotencyConflict,
    InvalidAmount,
    InvalidRequest,
    NotRefundable,
    OrderNotFound,
    PermissionDenied,
    ServiceUnavailable,
    _kind,
    _show,
)
from .records import (
    AUDIT_EVENTS,
    ORDER_STATUSES,
    AuditEntry,
    AuditEvent,
    Order,
    OrderStatus,
    RefundPolicy,
    RefundQuote,
    RefundRequest,
    RequestStatus,
    Submission,
    User,
)
from .values import _cents, _require_text, refund_key

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
