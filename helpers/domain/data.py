"""The order store: the data files (``data/*.json``) read and checked field by field, and
:class:`OrderStore`, which serves orders, users and policies with ownership enforced on every read.

One floor of :mod:`helpers.domain` (which re-exports every public name here).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Mapping

from .errors import (
    DataFileError,
    OrderNotFound,
    PermissionDenied,
    _kind,
    _show,
)
from .records import ORDER_STATUSES, Order, RefundPolicy, User
from .values import _cents, _require_text
from ..files import NotARegularFile, read_regular

#: The course's data folder (``<repo>/data``).
DATA_DIR = Path(__file__).resolve().parents[2] / "data"


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
