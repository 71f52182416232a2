"""The refund domain against hostile input: what a model can send through a tool's JSON arguments,
broken data files, and attempts to rewrite the audit log (issue 12, "Domain").

Every bad input must end as a :class:`DomainError` with a stable code (or a :class:`DataFileError`
naming the file and the field), never as a raw ``TypeError`` / ``OverflowError`` / ``KeyError``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import shutil

import pytest

from helpers.domain import (
    AUDIT_EVENTS,
    DATA_DIR,
    ERROR_CODES,
    AmountExceedsRefundable,
    DataFileError,
    DomainError,
    InvalidAmount,
    InvalidRequest,
    OrderStore,
    RefundService,
    ServiceUnavailable,
    refund_key,
)


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr for you")

    __str__ = __repr__


HUGE_INT = 10**5000  # repr() of it raises ValueError (Python's 4300-digit limit)


@pytest.fixture
def service() -> RefundService:
    return RefundService()


# -- amounts ------------------------------------------------------------------------------

BAD_AMOUNTS = [math.nan, -math.nan, math.inf, -math.inf, 10**400, HUGE_INT, 1e308 * 10, "NaN", None, [499.0],
               {"amount": 1}, b"10"]


def _id(value):
    """A test id that never calls ``str()`` on the value (it raises for HUGE_INT and _BadRepr)."""
    if isinstance(value, float):
        return repr(value)
    return type(value).__name__


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=_id)
def test_non_finite_huge_and_non_numbers_are_invalid_amount(service, amount):
    with pytest.raises(InvalidAmount) as caught:
        service.submit("A1024", amount, user_id="user-42", idempotency_key="k-bad")
    assert caught.value.code == "invalid_amount"
    json.dumps(caught.value.to_dict())  # the payload can go into a ToolMessage
    assert len(str(caught.value)) < 200
    assert service.requests == ()
    assert service.quote("A1024", user_id="user-42").refundable_amount == 499.0
    assert [e.event for e in service.audit_log] == ["refund_refused"]
    assert service.audit_log[0].detail == {"code": "invalid_amount"}


def test_a_nan_attempt_does_not_open_the_order_to_unlimited_refunds(service):
    with pytest.raises(InvalidAmount):
        service.submit("A1024", math.nan, user_id="user-42", idempotency_key="nan")
    for number in range(3):
        with pytest.raises(AmountExceedsRefundable):
            service.submit("A1024", 1_000_000, user_id="user-42", idempotency_key=f"big-{number}")
    assert service.requests == ()


def test_a_nan_retry_of_a_used_key_is_invalid_amount_not_a_conflict(service):
    service.submit("A1024", 10.0, user_id="user-42", idempotency_key="k1")
    with pytest.raises(InvalidAmount):
        service.submit("A1024", math.nan, user_id="user-42", idempotency_key="k1")


# -- request fields of the wrong type -----------------------------------------------------

HOSTILE = [["A1024"], {"id": "A1024"}, None, b"A1024", 1024, 10**400, True, "", _BadRepr()]


@pytest.mark.parametrize("order_id", HOSTILE, ids=_id)
def test_hostile_order_id_is_invalid_request(service, order_id):
    with pytest.raises(InvalidRequest) as caught:
        service.submit(order_id, 10.0, user_id="user-42", idempotency_key="k1")
    assert caught.value.code == "invalid_request"
    assert "order_id must be a non-empty string" in str(caught.value)
    assert json.loads(json.dumps(caught.value.to_dict()))["field"] == "order_id"
    assert service.requests == ()
    (entry,) = service.audit_log
    assert entry.event == "refund_refused" and entry.detail == {"code": "invalid_request"}
    assert isinstance(entry.order_id, str)


@pytest.mark.parametrize("key", HOSTILE, ids=_id)
def test_hostile_idempotency_key_is_invalid_request(service, key):
    with pytest.raises(InvalidRequest, match="idempotency_key must be a non-empty string") as caught:
        service.submit("A1024", 10.0, user_id="user-42", idempotency_key=key)
    assert isinstance(caught.value, ValueError), "callers that caught ValueError for an empty key still do"
    assert service.requests == ()


@pytest.mark.parametrize("field, value", [("user_id", ["user-42"]), ("user_id", None), ("reason", ["x"]),
                                          ("reason", None)])
def test_hostile_user_and_reason_are_invalid_request(service, field, value):
    args = {"user_id": "user-42", "idempotency_key": "k1", "reason": "ok", field: value}
    with pytest.raises(InvalidRequest, match=field):
        service.submit("A1024", 10.0, **args)


@pytest.mark.parametrize("order_id", HOSTILE, ids=_id)
def test_hostile_order_id_in_reads_is_invalid_request(order_id):
    store = OrderStore()
    with pytest.raises(InvalidRequest):
        store.get_order(order_id, user_id="user-42")
    with pytest.raises(InvalidRequest):
        RefundService(store).quote(order_id, user_id="user-42")


def test_a_huge_order_id_gives_a_bounded_message(service):
    with pytest.raises(DomainError) as caught:
        service.quote("A" * 1_000_000, user_id="user-42")
    assert caught.value.code == "order_not_found" and len(str(caught.value)) < 200


@pytest.mark.parametrize("order_id", [*HOSTILE, "A1024", "x" * 10_000], ids=_id)
@pytest.mark.parametrize("amount", [*BAD_AMOUNTS, _BadRepr(), 12.5, 0.1 + 0.2], ids=_id)
def test_refund_key_never_raises(order_id, amount):
    key = refund_key(order_id, amount)
    assert isinstance(key, str) and key.startswith("refund:")
    assert key == refund_key(order_id, amount), "deterministic"


def test_refund_key_keeps_its_format():
    assert refund_key("A1024", 499) == "refund:A1024:499.00"
    assert refund_key("A1024", 0.1 + 0.2) == "refund:A1024:0.30"
    assert refund_key("A1024", math.nan) == "refund:A1024:nan"
    assert refund_key(["A1024"], 10**400).startswith("refund:['A1024']:1000")


# -- error codes are a closed set --------------------------------------------------------


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_error_class_has_one_code_from_the_closed_set():
    codes = [cls.code for cls in _subclasses(DomainError)]
    assert sorted(codes) == sorted(ERROR_CODES)


def test_a_code_outside_the_closed_set_is_refused_when_the_class_is_defined():
    with pytest.raises(TypeError, match="not one of ERROR_CODES"):
        type("Typo", (DomainError,), {"code": "permision_denied"})


def test_the_base_class_carries_no_code_and_cannot_be_raised_itself():
    with pytest.raises(TypeError, match="subclass"):
        DomainError("no code")


# -- the audit log is append-only for real -------------------------------------------------


def test_audit_detail_cannot_be_changed(service):
    service.submit("A1024", 10.0, user_id="user-42", idempotency_key="k1")
    entry = service.audit_log[0]
    attempts = [
        lambda d: d.__setitem__("amount", 0.01),
        lambda d: d.__delitem__("amount"),
        lambda d: d.update(amount=0.01),
        lambda d: d.pop("amount"),
        lambda d: d.popitem(),
        lambda d: d.clear(),
        lambda d: d.setdefault("new", 1),
        lambda d: d.__ior__({"amount": 0.01}),
        lambda d: d.__init__({"amount": 0.01}),
    ]
    for attempt in attempts:
        with pytest.raises(TypeError, match="append-only"):
            attempt(entry.detail)
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.detail = {}
    assert service.audit_log[0].detail == {"request_id": "RF-0001", "amount": 10.0}


def test_nested_detail_values_are_frozen_too():
    from helpers.domain import AuditEntry

    entry = AuditEntry(1, "refund_created", "user-42", "A1024", detail={"items": [{"a": 1}], "tags": {"x"}})
    with pytest.raises(TypeError):
        entry.detail["items"][0]["a"] = 2
    with pytest.raises(AttributeError):
        entry.detail["items"].append(3)
    assert entry.detail == {"items": ({"a": 1},), "tags": frozenset({"x"})}


def test_a_frozen_detail_still_reads_prints_and_serialises_like_a_dict(service):
    service.submit("A1024", 10.0, user_id="user-42", idempotency_key="k1")
    entry = service.audit_log[0]
    assert repr(entry.detail) == "{'request_id': 'RF-0001', 'amount': 10.0}"
    assert json.loads(json.dumps(entry.detail)) == {"request_id": "RF-0001", "amount": 10.0}
    assert dataclasses.asdict(entry)["detail"] == {"request_id": "RF-0001", "amount": 10.0}
    assert copy.deepcopy(entry) == entry and copy.copy(entry.detail) == entry.detail


def test_the_detail_passed_in_is_copied(service):
    from helpers.domain import AuditEntry

    detail = {"code": "x"}
    entry = AuditEntry(1, "refund_refused", "user-42", "A1024", detail=detail)
    detail["code"] = "changed"
    assert entry.detail == {"code": "x"}


def test_reply_lost_is_in_the_audit_log_and_explains_the_retry(service):
    service.simulate_outage(times=1, after_commit=True)
    with pytest.raises(ServiceUnavailable):
        service.submit("A1024", 50.0, user_id="user-42", idempotency_key=refund_key("A1024", 50.0))
    service.submit("A1024", 50.0, user_id="user-42", idempotency_key=refund_key("A1024", 50.0))
    assert [(e.event, dict(e.detail)) for e in service.audit_log] == [
        ("refund_created", {"request_id": "RF-0001", "amount": 50.0}),
        ("refund_reply_lost", {"request_id": "RF-0001", "code": "service_unavailable"}),
        ("refund_replayed", {"request_id": "RF-0001"}),
    ]
    assert {e.event for e in service.audit_log} <= set(AUDIT_EVENTS)


# -- data files ----------------------------------------------------------------------------


def _data(tmp_path, name=None, content=None):
    for file in ("users.json", "orders.json", "refund_policies.json"):
        shutil.copy(DATA_DIR / file, tmp_path)
    if name is not None:
        (tmp_path / name).write_text(content, encoding="utf-8")
    return tmp_path


def _orders_with(change):
    data = json.loads((DATA_DIR / "orders.json").read_text(encoding="utf-8"))
    change(data)
    return json.dumps(data)


def _policies_with(change):
    data = json.loads((DATA_DIR / "refund_policies.json").read_text(encoding="utf-8"))
    change(data)
    return json.dumps(data)


WRONG_FIELDS = [
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(amount="499.0")), "orders[0].amount must be a number"),
    ("orders.json", _orders_with(lambda d: d["orders"][1].update(refunded_amount=None)), "orders[1].refunded_amount"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(amount=-1)), "orders[0].amount must be a number >= 0"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(delivered_on="last week")), "orders[0].delivered_on"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(delivered_on=20261110)), "orders[0].delivered_on"),
    ("orders.json", _orders_with(lambda d: d["orders"][2].update(status="lost")), "orders[2].status must be one of"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(order_id=1024)), "orders[0].order_id must be a non-empty"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(user_id=["user-42"])), "orders[0].user_id"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(colour="red")), "orders[0] has an unknown field 'colour'"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].pop("amount")), "orders[0] has no field 'amount'"),
    ("orders.json", _orders_with(lambda d: d["orders"][1].update(order_id="A1024")), "orders[1].order_id repeats"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(user_id="user-1")), "not in users.json"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(product_type="toys")), "has no policy"),
    ("orders.json", _orders_with(lambda d: d["orders"][0].update(refunded_amount=500.0)), "more than the amount"),
    ("orders.json", _orders_with(lambda d: d.update(as_of="soon")), "as_of must be a date"),
    ("orders.json", _orders_with(lambda d: d.update(orders={"A1024": {}})), "orders must be a list"),
    ("orders.json", '{"as_of": "2026-11-20", "orders": [NaN]}', "NaN is not a number JSON allows"),
    ("orders.json", "[]", "the top level must be an object"),
    ("refund_policies.json", _policies_with(lambda d: d["policies"]["electronics"].update(window_days="30")),
     "policies.electronics.window_days must be a whole number"),
    ("refund_policies.json", _policies_with(lambda d: d["policies"]["electronics"].update(refundable="yes")),
     "policies.electronics.refundable must be true or false"),
    ("refund_policies.json", _policies_with(lambda d: d.update(approval_threshold="1000")),
     "approval_threshold must be a number"),
    ("refund_policies.json", _policies_with(lambda d: d.update(policies=[])), "policies must be an object"),
    ("users.json", '[{"user_id": "user-42", "name": "Lin Mei"}]', "[0] has no field 'tier'"),
    ("users.json", '[{"user_id": 42, "name": "Lin Mei", "tier": "standard"}]', "[0].user_id must be a non-empty"),
    ("users.json", '{"user-42": {}}', "the top level must be a list"),
]


@pytest.mark.parametrize("name, content, fragment", WRONG_FIELDS, ids=[f[2][:40] for f in WRONG_FIELDS])
def test_a_wrong_field_is_a_data_file_error_naming_file_and_field_at_load_time(tmp_path, name, content, fragment):
    with pytest.raises(DataFileError) as caught:
        OrderStore(_data(tmp_path, name, content))
    message = str(caught.value)
    assert message.startswith(f"data file {name}"), message
    assert fragment in message, message
    assert str(tmp_path) not in message


def test_a_data_file_that_is_a_folder(tmp_path):
    _data(tmp_path)
    (tmp_path / "orders.json").unlink()
    (tmp_path / "orders.json").mkdir()
    with pytest.raises(DataFileError, match="data file orders.json is a folder, not a file") as caught:
        OrderStore(tmp_path)
    assert "/" not in str(caught.value)


def test_a_data_folder_that_is_a_file(tmp_path):
    not_a_folder = tmp_path / "data"
    not_a_folder.write_text("{}", encoding="utf-8")
    with pytest.raises(DataFileError, match="data file users.json cannot be read: the data folder is a file") as caught:
        OrderStore(not_a_folder)
    assert "/" not in str(caught.value)


def test_a_data_folder_that_does_not_exist(tmp_path):
    with pytest.raises(DataFileError, match="data file users.json is missing from a data folder that does not exist") \
            as caught:
        OrderStore(tmp_path / "nowhere")
    assert "/" not in str(caught.value)


@pytest.mark.parametrize("raw, fragment", [
    (b"\xff\xfe\x00junk\x80", "is not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"as_of": "2026-11-20", "orders": [], "x": ' + b"1" * 5000 + b"}", "is not valid JSON"),
])
def test_binary_junk_deep_nesting_and_huge_numbers_are_data_file_errors(tmp_path, raw, fragment):
    _data(tmp_path)
    (tmp_path / "orders.json").write_bytes(raw)
    with pytest.raises(DataFileError, match=fragment) as caught:
        OrderStore(tmp_path)
    assert str(caught.value).startswith("data file orders.json") and str(tmp_path) not in str(caught.value)


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_lookups_by_a_hostile_value_are_a_key_error_not_a_type_error(value):
    store = OrderStore()
    with pytest.raises(KeyError):
        store.user(value)
    with pytest.raises(KeyError):
        store.policy_for(value)
    assert store.orders_for(value) == []
