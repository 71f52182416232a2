"""Amount parsing for the widgets: what a reviewer types into an amount field, checked as a refund amount.

One rule set, the one ``helpers.domain.RefundService`` applies to a submitted amount (a finite
number above 0, whole cents, float noise such as ``0.1 + 0.2`` tolerated), plus the rules for
typed text: plain decimal notation only. ``float()`` would also read ``"1_20"`` as ``120.0``,
``"1e2"`` as ``100.0`` and ``"nan"`` as NaN; a reviewer who typed those did not mean an amount.
No ipywidgets import.
"""

from __future__ import annotations

import math
import numbers
import re
from decimal import Decimal
from typing import Any

from ..i18n import _
from .text import shorten

__all__ = ["AmountError", "parse_amount"]

#: Plain decimal notation in ASCII digits only: ``\d`` would also accept full-width ``１２０`` and other
#: scripts' digits, which ``float()`` reads but a reviewer may not recognise as the amount sent.
_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_TOLERANCE = 1e-9  # the tolerance of helpers.domain._cents: float noise, not a third decimal
#: The largest amount taken: above about 2**53 / 100 a float cannot hold every cent, so a larger typed
#: amount would be sent changed without a word.
MAX_AMOUNT = 999_999_999_999.99


def _too_large(value: Any) -> AmountError:
    """The refusal of an amount above :data:`MAX_AMOUNT`."""
    return AmountError(_("The amount {value} is too large: an amount is at most {max}.").format(
        value=_shown(value), max=f"{MAX_AMOUNT:,.2f}"))


def _not_finite(value: Any) -> AmountError:
    """The refusal of NaN or an infinity."""
    return AmountError(_("The amount {value} is not a finite number.").format(value=_shown(value)))


def _shown(value: Any) -> str:
    """``repr(value)`` for a message, at most 60 characters (a pasted megabyte stays out of it)."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - an int past Python's digit limit, a broken __repr__
        text = _("<a {type}>").format(type=type(value).__name__)
    return shorten(text, 60)


class AmountError(ValueError):
    """An amount the refund service would refuse; ``str(error)`` is one sentence for the learner."""


def parse_amount(value: Any) -> float:
    """Read an amount typed as text or given as a number.

    Args:
        value: text in plain decimal notation (``"120"``, ``"120.50"``, surrounding spaces
            allowed), or a real number (``int``, ``float``, ``Decimal``, ``Fraction``; not ``bool``).

    Returns:
        the amount as a float rounded to cents, e.g. ``120.5``.

    Raises:
        AmountError: not a plain number (``"abc"``, ``"1_20"``, ``"1e2"``, ``"120,50"``, ``"1,000.50"``
            (thousands separators: the message says to type ``1000.50``), full-width
            ``"１２０"``, ``True``),
            not finite, not above 0, above :data:`MAX_AMOUNT`, more than 2 decimals, or rounding to
            0.00. The message shows at most 60 characters of the value.
    """
    if isinstance(value, str):
        text = value.strip()
        if not _PLAIN.fullmatch(text):
            if re.fullmatch(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?", text):
                plain = text.replace(",", "")
                raise AmountError(_("The amount {value} has thousands separators, which are not accepted "
                                    "(a comma could also be a decimal comma): type {plain} instead.").format(
                                      value=_shown(value), plain=plain))
            if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
                raise _not_finite(value)
            if re.fullmatch(r"[+-]?[0-9]+,[0-9]+", text):
                message = _("The amount {value} is not a number (use a decimal point): write digits with an "
                            "optional decimal point, e.g. 120 or 120.50.")
            elif any(ch.isdigit() and ch not in "0123456789" for ch in text):
                message = _("The amount {value} is not a number (type the digits 0-9): write digits with an "
                            "optional decimal point, e.g. 120 or 120.50.")
            else:
                message = _("The amount {value} is not a number: write digits with an optional decimal point, "
                            "e.g. 120 or 120.50.")
            raise AmountError(message.format(value=_shown(value)))
        amount = float(text)
        if math.isinf(amount):
            raise _too_large(value)
    elif isinstance(value, (numbers.Real, Decimal)) and not isinstance(value, bool):
        try:
            amount = float(value)
        except OverflowError:
            raise _too_large(value) from None
        except ValueError:
            raise _not_finite(value) from None
    else:
        raise AmountError(_("The amount {value} is not a number.").format(value=_shown(value)))
    if not math.isfinite(amount):
        raise _not_finite(value)
    if amount > MAX_AMOUNT:
        raise _too_large(value)
    if amount <= 0:
        raise AmountError(_("The amount must be more than 0, got {amount}.").format(amount=amount))
    cents = round(amount, 2)
    if abs(cents - amount) > _TOLERANCE:
        raise AmountError(_("The amount {value} has more than 2 decimals: refunds are paid in whole cents.").format(
            value=_shown(value)))
    if cents <= 0:
        raise AmountError(_("The amount {value} rounds to 0.00: it must be at least 0.01.").format(
            value=_shown(value)))
    return cents
