"""The refund domain: data loading, ownership, every error code, idempotency, audit log."""

from __future__ import annotations

import dataclasses
import shutil
from datetime import date

import pytest

from helpers.domain import (
    DATA_DIR,
    AmountExceedsRefundable,
    DataFileError,
    DomainError,
    IdempotencyConflict,
    InvalidAmount,
    NotRefundable,
    OrderNotFound,
    OrderStore,
    PermissionDenied,
    RefundService,
    ServiceUnavailable,
)


@pytest.fixture
def service() -> RefundService:
    return RefundService()


def test_data_has_the_cases_the_course_needs():
    store = OrderStore()
    orders = {o.order_id: o for uid in store.user_ids for o in store.orders_for(uid)}
    assert len(orders) >= 8
    assert orders["A1024"].user_id == "user-42" and orders["A1024"].amount == 499.0
    statuses = {o.status for o in orders.values()}
    assert {"delivered", "shipped", "cancelled"} <= statuses
    assert any(o.refunded_amount == o.amount for o in orders.values()), "an already refunded order"
    assert any(o.amount > store.approval_threshold for o in orders.values()), "a high-value order"
    assert {o.user_id for o in orders.values()} >= {"user-42", "user-7"}
    assert not store.policy_for("gift_card").refundable


def test_owner_reads_an_order():
    order = OrderStore().get_order("A1024", user_id="user-42")
    assert order.to_dict()["delivered_on"] == "2026-11-10"


def test_error_codes_are_stable():
    codes = {cls.code for cls in (OrderNotFound, PermissionDenied, NotRefundable, InvalidAmount,
                                  AmountExceedsRefundable, IdempotencyConflict, ServiceUnavailable)}
    assert codes == {"order_not_found", "permission_denied", "not_refundable", "invalid_amount",
                     "amount_exceeds_refundable", "idempotency_conflict", "service_unavailable"}
    assert ServiceUnavailable.retryable and not PermissionDenied.retryable


def test_order_not_found():
    with pytest.raises(OrderNotFound) as caught:
        OrderStore().get_order("Z9999", user_id="user-42")
    assert caught.value.code == "order_not_found"
    assert caught.value.to_dict() == {"error": "order_not_found", "message": "order Z9999 does not exist", "order_id": "Z9999"}


def test_permission_denied_for_another_users_order():
    with pytest.raises(PermissionDenied) as caught:
        OrderStore().get_order("B2048", user_id="user-42")
    assert caught.value.code == "permission_denied"
    assert "user-7" not in str(caught.value), "the message must not reveal the owner"


@pytest.mark.parametrize("order_id, fragment", [
    ("A1025", "shipped, not delivered"),
    ("A1026", "already fully refunded"),
    ("A1027", "delivered 66 days ago"),
    ("A1028", "gift_card orders cannot be refunded"),
])
def test_not_refundable_cases(service, order_id, fragment):
    with pytest.raises(NotRefundable, match=fragment) as caught:
        service.quote(order_id, user_id="user-42")
    assert caught.value.code == "not_refundable"


def test_quote_and_approval_threshold(service):
    assert service.quote("A1024", user_id="user-42").refundable_amount == 499.0
    assert service.quote("A1030", user_id="user-42").refundable_amount == 120.0
    assert service.quote("A1029", user_id="user-42").needs_approval


def test_window_depends_on_today():
    late = RefundService(today=date(2026, 12, 31))
    with pytest.raises(NotRefundable, match="window is 30 days"):
        late.quote("A1024", user_id="user-42")


def test_float_noise_is_tolerated_and_rounded(service):
    request = service.submit("A1024", 0.1 + 0.2, user_id="user-42", idempotency_key="k1")
    assert request.amount == 0.3
    assert service.submit("A1024", 0.3, user_id="user-42", idempotency_key="k1") is request


def test_keys_are_scoped_per_user_and_ownership_comes_first(service):
    service.submit("A1024", 10.0, user_id="user-42", idempotency_key="shared-key")
    other = service.submit("B2048", 10.0, user_id="user-7", idempotency_key="shared-key")
    assert other.user_id == "user-7" and len(service.requests) == 2
    with pytest.raises(PermissionDenied):
        service.submit("A1024", 10.0, user_id="user-7", idempotency_key="shared-key")


def test_concurrent_submits_with_one_key_create_one_request(service):
    import sys
    import threading

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        results = []
        threads = [threading.Thread(target=lambda: results.append(
            service.submit("A1024", 100.0, user_id="user-42", idempotency_key="same"))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert len(service.requests) == 1
    assert {r.request_id for r in results} == {"RF-0001"}


@pytest.mark.parametrize("amount", [0, -5, 10.001, "10", True])
def test_invalid_amounts(service, amount):
    with pytest.raises(InvalidAmount) as caught:
        service.submit("A1024", amount, user_id="user-42", idempotency_key=f"k-{amount!r}")
    assert caught.value.code == "invalid_amount"
    assert service.requests == ()


def test_amount_exceeds_refundable(service):
    with pytest.raises(AmountExceedsRefundable) as caught:
        service.submit("A1030", 150.0, user_id="user-42", idempotency_key="k1")
    assert caught.value.code == "amount_exceeds_refundable"
    assert caught.value.details == {"order_id": "A1030", "requested": 150.0, "refundable": 120.0}


def test_submit_creates_a_request_and_updates_the_refundable_amount(service):
    request = service.submit("A1024", 100.0, user_id="user-42", idempotency_key="k1", reason="damaged")
    assert (request.request_id, request.status, request.amount) == ("RF-0001", "submitted", 100.0)
    assert service.quote("A1024", user_id="user-42").refundable_amount == 399.0


def test_idempotency_key_returns_the_same_request_and_creates_nothing(service):
    first = service.submit("A1024", 100.0, user_id="user-42", idempotency_key="k1")
    again = service.submit("A1024", 100.0, user_id="user-42", idempotency_key="k1")
    assert again is first
    assert len(service.requests) == 1
    assert service.quote("A1024", user_id="user-42").refundable_amount == 399.0
    assert [e.event for e in service.audit_log] == ["refund_created", "refund_replayed"]


def test_reused_key_with_other_parameters_is_a_conflict(service):
    service.submit("A1024", 100.0, user_id="user-42", idempotency_key="k1")
    with pytest.raises(IdempotencyConflict) as caught:
        service.submit("A1024", 200.0, user_id="user-42", idempotency_key="k1")
    assert caught.value.code == "idempotency_conflict"
    assert len(service.requests) == 1


def test_empty_idempotency_key_is_rejected(service):
    with pytest.raises(ValueError, match="idempotency_key is required"):
        service.submit("A1024", 10.0, user_id="user-42", idempotency_key="")


def test_service_unavailable_before_commit_creates_nothing(service):
    service.simulate_outage(times=1)
    with pytest.raises(ServiceUnavailable) as caught:
        service.submit("A1024", 50.0, user_id="user-42", idempotency_key="k1")
    assert caught.value.code == "service_unavailable"
    assert service.requests == ()
    retry = service.submit("A1024", 50.0, user_id="user-42", idempotency_key="k1")
    assert retry.request_id == "RF-0001"


def test_reply_lost_after_commit_then_retry_with_same_key_returns_the_request(service):
    service.simulate_outage(times=1, after_commit=True)
    with pytest.raises(ServiceUnavailable, match="after accepting"):
        service.submit("A1024", 50.0, user_id="user-42", idempotency_key="k1")
    assert len(service.requests) == 1, "the request was created although the caller saw an error"
    retry = service.submit("A1024", 50.0, user_id="user-42", idempotency_key="k1")
    assert retry.request_id == "RF-0001" and len(service.requests) == 1


def test_audit_log_is_append_only(service):
    service.submit("A1024", 10.0, user_id="user-42", idempotency_key="k1")
    with pytest.raises(PermissionDenied):
        service.submit("B2048", 10.0, user_id="user-42", idempotency_key="k2")
    log = service.audit_log
    assert isinstance(log, tuple)
    assert [(e.seq, e.event) for e in log] == [(1, "refund_created"), (2, "refund_refused")]
    assert log[1].detail == {"code": "permission_denied"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        log[0].event = "edited"
    assert service.audit_log[0].event == "refund_created"


def test_all_domain_errors_share_a_base():
    assert issubclass(ServiceUnavailable, DomainError) and issubclass(PermissionDenied, DomainError)


def test_missing_data_file_is_a_clear_error(tmp_path):
    shutil.copy(DATA_DIR / "users.json", tmp_path)
    shutil.copy(DATA_DIR / "orders.json", tmp_path)
    with pytest.raises(DataFileError, match="data file refund_policies.json is missing") as caught:
        OrderStore(tmp_path)
    assert str(tmp_path) not in str(caught.value)


def test_corrupt_data_file_is_a_clear_error(tmp_path):
    for name in ("users.json", "refund_policies.json"):
        shutil.copy(DATA_DIR / name, tmp_path)
    (tmp_path / "orders.json").write_text('{"as_of": "2026-11-20", "orders": [', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"orders.json is not valid JSON \(line 1"):
        OrderStore(tmp_path)


def test_wrong_shape_is_a_clear_error(tmp_path):
    for name in ("users.json", "refund_policies.json"):
        shutil.copy(DATA_DIR / name, tmp_path)
    (tmp_path / "orders.json").write_text('{"orders": []}', encoding="utf-8")
    with pytest.raises(DataFileError, match="data file orders.json: the top level has no field 'as_of'"):
        OrderStore(tmp_path)
