"""The refund desk's records in the shared database: orders, and refund requests made once per idempotency key.

Notebooks 08-11 kept refund requests in :class:`helpers.domain.RefundService`, a Python object: each
worker process would have its own, and two workers would each create "the" refund. Here the requests
live in a table every worker writes to, and the database itself refuses a second request with the same
key: ``UNIQUE (user_id, idempotency_key)`` (:data:`LEDGER_TABLES`). :meth:`RefundLedger.submit` inserts
with ``ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING ...``: the one worker whose row went
in gets it back; every other worker's insert waits for that one to commit, then returns nothing, and the
worker reads the row that won (a replay), whoever came first. After its insert, a request locks the order's
row (``SELECT ... FOR UPDATE``) and checks the refundable amount with its own row counted, so two
*different* keys cannot both take the last refundable cents (the one that would overdraw rolls back).
The order's row is locked first, when its owner is checked, before the insert: the insert's foreign key
takes a key-share lock on that row, and two requests that each held one and then asked for ``FOR UPDATE``
would deadlock (PostgreSQL 15 aborts one with ``DeadlockDetected``; seen when two turns refund one order at once). The keys are the course's :func:`helpers.domain.refund_key`
(``refund:<order>:<amount>``), the refusals the domain's :class:`~helpers.domain.DomainError` codes.

:meth:`RefundLedger.submit_check_then_insert` is the tempting version without the constraint (look for
the key, insert if it is not there): notebook 18 races two workers through it to show the double row.

Every method takes a connection from :meth:`helpers.postgres.engine.CourseDatabase.connect` (PostgreSQL,
or the SQLite fallback, whose DDL differs only in the id column).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..domain import (
    AmountExceedsRefundable,
    IdempotencyConflict,
    InvalidAmount,
    NotRefundable,
    OrderNotFound,
    OrderStore,
    PermissionDenied,
    RefundRequest,
    RefundService,
    Submission,
)

__all__ = ["LEDGER_TABLES", "NAIVE_TABLE", "SUBMIT_SQL", "LedgerOrder", "RefundLedger", "simulated_orders"]

#: The two tables (PostgreSQL's DDL; the fallback writes ``INTEGER PRIMARY KEY`` for ``BIGSERIAL``).
LEDGER_TABLES = """
CREATE TABLE IF NOT EXISTS orders (
    order_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    refundable_cents INTEGER NOT NULL,
    refused TEXT                                -- why it cannot be refunded, or NULL
);
CREATE TABLE IF NOT EXISTS refund_requests (
    id BIGSERIAL PRIMARY KEY,
    user_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (order_id),
    amount_cents INTEGER NOT NULL,
    UNIQUE (user_id, idempotency_key)           -- one request per key, whichever worker comes first
);
"""

#: :meth:`RefundLedger.submit_check_then_insert`'s table: the same columns, no ``UNIQUE``.
NAIVE_TABLE = """
CREATE TABLE IF NOT EXISTS refund_requests_naive (
    id BIGSERIAL PRIMARY KEY,
    user_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    order_id TEXT NOT NULL,
    amount_cents INTEGER NOT NULL
)
"""

#: The insert at the heart of :meth:`RefundLedger.submit`.
SUBMIT_SQL = """
INSERT INTO refund_requests (user_id, idempotency_key, order_id, amount_cents)
VALUES (%s, %s, %s, %s)
ON CONFLICT (user_id, idempotency_key) DO NOTHING
RETURNING id
"""


@dataclass(frozen=True)
class LedgerOrder:
    """An order as the ledger keeps it: who owns it, how many cents may still be refunded, or why none."""

    order_id: str
    user_id: str
    refundable_cents: int
    refused: str | None = None


def _course_orders() -> list[LedgerOrder]:
    """The course's orders (``data/orders.json``) with what :class:`~helpers.domain.RefundService` quotes today."""
    store, service = OrderStore(), RefundService()
    orders = []
    for user_id in store.user_ids:
        for order in store.orders_for(user_id):
            try:
                cents = round(service.quote(order.order_id, user_id=user_id).refundable_amount * 100)
                orders.append(LedgerOrder(order.order_id, user_id, cents))
            except NotRefundable as exc:
                orders.append(LedgerOrder(order.order_id, user_id, 0, str(exc)))
    return orders


def simulated_orders(users: int) -> list[LedgerOrder]:
    """One delivered order for each of ``users`` simulated customers: ``u-0001`` owns ``S-0001``, refundable
    100.00 to 199.00 (``100 + i % 100`` whole units; the numbers only need to differ)."""
    return [LedgerOrder(f"S-{i:04d}", f"u-{i:04d}", (100 + i % 100) * 100) for i in range(1, users + 1)]


def _cents(amount: Any, order_id: str) -> int:
    """``amount`` in cents; :class:`~helpers.domain.InvalidAmount` unless a finite positive number with two decimals."""
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or not math.isfinite(amount) or amount <= 0 \
            or abs(round(amount, 2) - amount) > 1e-9:
        raise InvalidAmount(f"amount must be a finite positive number with at most 2 decimals, got {amount!r}",
                            order_id=order_id)
    return round(amount * 100)


class RefundLedger:
    """Orders and refund requests in the shared database (see the module docstring).

    Args:
        conn: a connection (autocommit) from :meth:`~helpers.postgres.engine.CourseDatabase.connect`.
        engine: ``"postgresql"`` or ``"sqlite"`` (only the DDL differs).
    """

    def __init__(self, conn: Any, engine: str) -> None:
        self.conn = conn
        self.engine = engine

    def setup(self, extra_orders: Iterable[LedgerOrder] = ()) -> None:
        """Create the tables (if missing: :data:`LEDGER_TABLES`, :data:`NAIVE_TABLE`) and load the course's
        orders and ``extra_orders`` (if missing). Run it once, before workers use the ledger (two sessions
        creating one table at the same moment can clash in PostgreSQL's catalog)."""
        for statement in [*filter(str.strip, LEDGER_TABLES.split(";")), NAIVE_TABLE]:
            self.conn.execute(statement if self.engine == "postgresql" else statement.replace("BIGSERIAL", "INTEGER"))
        self.add_orders([*_course_orders(), *extra_orders])

    def add_orders(self, orders: Iterable[LedgerOrder]) -> None:
        """Insert ``orders`` (an order already there is left as it is), in one transaction."""
        with self.conn.transaction():
            for order in orders:
                self.conn.execute("INSERT INTO orders VALUES (%s, %s, %s, %s) ON CONFLICT (order_id) DO NOTHING",
                                  (order.order_id, order.user_id, order.refundable_cents, order.refused))

    def _owned(self, order_id: str, user_id: str) -> str | None:
        """Why ``user_id``'s order cannot be refunded at all, or ``None``; ownership checked first, with the
        order's row locked (``FOR UPDATE`` on PostgreSQL) until the transaction ends.

        Raises:
            OrderNotFound, PermissionDenied.
        """
        row = self.conn.execute("SELECT user_id, refused FROM orders WHERE order_id = %s"
                                + (" FOR UPDATE" if self.engine == "postgresql" else ""), (order_id,)).fetchone()
        if row is None:
            raise OrderNotFound(f"no order {order_id}", order_id=order_id)
        if row[0] != user_id:
            raise PermissionDenied(f"order {order_id} does not belong to {user_id}", order_id=order_id)
        return row[1]

    def _left(self, order_id: str) -> int:
        """Cents of ``order_id`` still refundable after every request so far (this transaction's included),
        with the order's row locked (``FOR UPDATE``), so two requests with different keys take turns here."""
        cap = self.conn.execute("SELECT refundable_cents FROM orders WHERE order_id = %s"
                                + (" FOR UPDATE" if self.engine == "postgresql" else ""), (order_id,)).fetchone()[0]
        spent = self.conn.execute("SELECT COALESCE(SUM(amount_cents), 0) FROM refund_requests WHERE order_id = %s",
                                  (order_id,)).fetchone()[0]
        return cap - spent

    def _request(self, row_id: int, user_id: str, key: str, order_id: str, cents: int) -> RefundRequest:
        return RefundRequest(request_id=f"RF-{row_id:04d}", order_id=order_id, user_id=user_id, amount=cents / 100,
                             reason="", idempotency_key=key, needs_approval=False)

    def submit(self, order_id: str, amount: float, *, user_id: str, idempotency_key: str) -> Submission:
        """Create a refund request once per ``(user_id, idempotency_key)``, whichever worker asks first.

        Args:
            order_id, amount: what to refund (``amount`` in the order's currency, two decimals at most).
            user_id: the acting customer (from the runtime context, never from the model).
            idempotency_key: the same for every retry of one refund: :func:`helpers.domain.refund_key`.

        Returns:
            a :class:`~helpers.domain.Submission`: the request (new, or the one an earlier submit with this
            key created) and ``replayed``.

        Raises:
            OrderNotFound, PermissionDenied, NotRefundable, InvalidAmount, AmountExceedsRefundable,
            IdempotencyConflict (the key was used for another order or amount): the domain's errors.
        """
        cents = _cents(amount, order_id)
        with self.conn.transaction():
            refused = self._owned(order_id, user_id)
            if refused:
                raise NotRefundable(refused, order_id=order_id)
            # the key decides first: of two inserts with one key, the database lets one in and makes the
            # other wait until the first commits, then skip (DO NOTHING): nothing comes back
            inserted = self.conn.execute(SUBMIT_SQL, (user_id, idempotency_key, order_id, cents)).fetchone()
            if inserted is not None:
                left = self._left(order_id)  # the order's row is locked from here to the commit
                if left < 0:
                    raise AmountExceedsRefundable(  # leaving the block rolls the insert back
                        f"amount {cents / 100:.2f} exceeds the refundable {(left + cents) / 100:.2f} for order "
                        f"{order_id}", order_id=order_id)
                return Submission(self._request(inserted[0], user_id, idempotency_key, order_id, cents), False)
        earlier = self.conn.execute(
            "SELECT id, order_id, amount_cents FROM refund_requests WHERE user_id = %s AND idempotency_key = %s",
            (user_id, idempotency_key)).fetchone()
        if (earlier[1], earlier[2]) != (order_id, cents):
            raise IdempotencyConflict(f"idempotency key {idempotency_key!r} was used for a different request",
                                      order_id=order_id)
        return Submission(self._request(earlier[0], user_id, idempotency_key, order_id, cents), True)

    def submit_check_then_insert(self, order_id: str, amount: float, *, user_id: str, idempotency_key: str,
                                 between: Callable[[], None] = lambda: None) -> Submission:
        """The tempting version, for notebook 18's race: look for the key, insert when it is missing.

        Two statements, no constraint on the key and no lock: two workers can both look, both find
        nothing, both insert. ``between()`` runs between the look and the insert (the notebook makes the
        two workers meet there, so the race happens every time instead of now and then). Writes to the
        table ``refund_requests_naive`` (same columns, no ``UNIQUE``).
        """
        cents = _cents(amount, order_id)
        earlier = self.conn.execute("SELECT id FROM refund_requests_naive WHERE user_id = %s AND idempotency_key = %s",
                                    (user_id, idempotency_key)).fetchone()
        between()
        if earlier is not None:
            return Submission(self._request(earlier[0], user_id, idempotency_key, order_id, cents), True)
        row = self.conn.execute("INSERT INTO refund_requests_naive (user_id, idempotency_key, order_id, amount_cents) "
                                "VALUES (%s, %s, %s, %s) RETURNING id", (user_id, idempotency_key, order_id,
                                                                         cents)).fetchone()
        return Submission(self._request(row[0], user_id, idempotency_key, order_id, cents), False)

    def count(self, table: str = "refund_requests", **where: str) -> int:
        """How many rows ``table`` holds (``where``: column = value filters)."""
        if table not in ("refund_requests", "refund_requests_naive", "orders"):
            raise ValueError(f"not a ledger table: {table!r}")
        sql = f"SELECT count(*) FROM {table}" + (" WHERE " + " AND ".join(f"{k} = %s" for k in where) if where else "")
        return self.conn.execute(sql, tuple(where.values())).fetchone()[0]

