"""Checking the values a request carries: an amount to cents (``_cents``), a required non-empty
text (``_require_text``) and the course's idempotency key built from them (:func:`refund_key`).

One floor of :mod:`helpers.domain` (which re-exports :func:`refund_key`).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import InvalidRequest, _kind, _show

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
