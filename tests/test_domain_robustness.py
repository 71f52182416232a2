"""The refund domain, second hostile round (review hostile_1, items 10 and 12): a data file that is a
FIFO or a device, amounts with three decimals, a NUL byte in the data folder, ``simulate_outage`` and
``RefundService(today=...)`` arguments checked when given, and error details kept short.

Every failure is a :class:`DataFileError` naming the file, or a clear ``TypeError`` / ``ValueError``
at the call that got the bad argument; never a hang, never a raw error later.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from datetime import date, datetime

import pytest

from helpers.domain import (
    DATA_DIR,
    DETAIL_TEXT_LIMIT,
    DataFileError,
    OrderNotFound,
    RefundService,
    ServiceUnavailable,
    OrderStore,
    refund_key,
)

USER = "user-42"


def _copy_data(tmp_path):
    for file in ("users.json", "orders.json", "refund_policies.json"):
        shutil.copy(DATA_DIR / file, tmp_path)
    return tmp_path


def _load_in_thread(folder):
    """``OrderStore(folder)`` in a thread; returns (finished, raised). A hang shows as finished=False."""
    outcome = {}

    def load():
        try:
            OrderStore(folder)
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            outcome["raised"] = exc

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(30)
    return not worker.is_alive(), outcome.get("raised")


# -- data files that are not regular files ---------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_a_fifo_named_like_a_data_file_is_a_data_file_error_not_a_hang(tmp_path):
    _copy_data(tmp_path)
    (tmp_path / "users.json").unlink()
    os.mkfifo(tmp_path / "users.json")
    finished, raised = _load_in_thread(tmp_path)
    if not finished:  # unblock the reader so the test run can end
        with open(tmp_path / "users.json", "w", encoding="utf-8") as writer:
            writer.write("[]")
    assert finished, "reading a FIFO must not wait for a writer"
    assert isinstance(raised, DataFileError)
    assert str(raised) == "data file users.json is not a regular file (it is a FIFO)"


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_as_a_data_file_is_a_data_file_error(tmp_path):
    _copy_data(tmp_path)
    (tmp_path / "orders.json").unlink()
    (tmp_path / "orders.json").symlink_to("/dev/null")
    with pytest.raises(DataFileError) as caught:
        OrderStore(tmp_path)
    assert str(caught.value) == "data file orders.json is not a regular file (it is a device)"


def test_a_nul_byte_in_the_data_folder_is_a_data_file_error(tmp_path):
    with pytest.raises(DataFileError) as caught:
        OrderStore(str(tmp_path) + "\x00x")
    assert str(caught.value) == "the data folder's name contains a NUL byte, so no data file can be read from it"
    assert str(tmp_path) not in str(caught.value)


# -- amounts in the data ---------------------------------------------------------------------


def _orders_with_amount(tmp_path, field, value):
    _copy_data(tmp_path)
    path = tmp_path / "orders.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["orders"][0][field] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("field, value", [("amount", 499.999), ("refunded_amount", 0.001), ("amount", 1e-7)])
def test_a_data_amount_with_more_than_two_decimals_is_refused_at_load_time(tmp_path, field, value):
    with pytest.raises(DataFileError) as caught:
        OrderStore(_orders_with_amount(tmp_path, field, value))
    assert str(caught.value).startswith(f"data file orders.json: orders[0].{field} must be a number >= 0 with at "
                                        "most two decimals, got a number (")


def test_the_approval_threshold_is_an_amount_with_two_decimals_too(tmp_path):
    _copy_data(tmp_path)
    path = tmp_path / "refund_policies.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["approval_threshold"] = 1000.005
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"approval_threshold must be a number >= 0 with at most two decimals"):
        OrderStore(tmp_path)


def test_an_integer_amount_too_large_for_a_float_is_a_data_file_error(tmp_path):
    _copy_data(tmp_path)
    path = tmp_path / "orders.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"amount": 499.0', '"amount": 1' + "0" * 400, 1),
                    encoding="utf-8")
    with pytest.raises(DataFileError, match=r"orders\[0\]\.amount must be a number >= 0 with at most two decimals"):
        OrderStore(tmp_path)


def test_a_refund_can_never_exceed_the_amount_in_the_data():
    """The course data itself: every amount has at most two decimals, so refunded <= amount holds."""
    service = RefundService()
    quote = service.quote("A1024", user_id=USER)
    service.submit("A1024", quote.refundable_amount, user_id=USER,
                   idempotency_key=refund_key("A1024", quote.refundable_amount))
    order = service.store.get_order("A1024", user_id=USER)
    assert order.refunded_amount == order.amount


# -- simulate_outage and today -----------------------------------------------------------------


@pytest.mark.parametrize("after_commit", ["yes", 1, 0, None, 1.0])
def test_simulate_outage_wants_a_bool_after_commit(after_commit):
    service = RefundService()
    with pytest.raises(TypeError) as caught:
        service.simulate_outage(after_commit=after_commit)
    assert str(caught.value).startswith("simulate_outage(after_commit=...) must be True or False, got ")
    service.submit("A1024", 10, user_id=USER, idempotency_key="k")  # nothing was scheduled
    assert [e.event for e in service.audit_log] == ["refund_created"]


@pytest.mark.parametrize("times, error", [(1.5, TypeError), (None, TypeError), ("2", TypeError), (True, TypeError),
                                          (0, ValueError), (-3, ValueError)])
def test_simulate_outage_wants_a_positive_whole_number_of_times(times, error):
    service = RefundService()
    with pytest.raises(error) as caught:
        service.simulate_outage(times)
    assert str(caught.value).startswith("simulate_outage(times=...) must be a whole number >= 1, got ")


def test_a_huge_number_of_outages_costs_no_memory():
    service = RefundService()
    service.simulate_outage(10**12)
    for _ in range(3):
        with pytest.raises(ServiceUnavailable):
            service.submit("A1024", 10, user_id=USER, idempotency_key="k")


def test_outages_are_used_in_the_order_they_were_scheduled():
    service = RefundService()
    service.simulate_outage(2)
    service.simulate_outage(1, after_commit=True)
    for _ in range(3):
        with pytest.raises(ServiceUnavailable):
            service.submit("A1024", 10, user_id=USER, idempotency_key="k")
    assert [e.event for e in service.audit_log] == ["refund_failed", "refund_failed", "refund_created",
                                                     "refund_reply_lost"]
    service.submit("A1024", 10, user_id=USER, idempotency_key="k")
    assert service.audit_log[-1].event == "refund_replayed"


@pytest.mark.parametrize("today", [datetime(2026, 11, 20, 9, 0), "2026-11-20", 20261120])
def test_today_must_be_a_date_at_construction(today):
    with pytest.raises(TypeError) as caught:
        RefundService(today=today)
    assert str(caught.value).startswith("RefundService(today=...) must be a datetime.date (not a datetime), got ")


def test_a_date_today_still_works():
    assert RefundService(today=date(2026, 11, 20)).quote("A1024", user_id=USER).refundable_amount == 499.0


# -- details stay short ----------------------------------------------------------------------------


def test_error_details_keep_long_strings_short():
    long_id = "Z" * 10_000
    with pytest.raises(OrderNotFound) as caught:
        RefundService().submit(long_id, 10, user_id=USER, idempotency_key="k")
    payload = caught.value.to_dict()
    assert len(json.dumps(payload)) < 400
    shown = payload["order_id"]
    assert len(shown) == DETAIL_TEXT_LIMIT and shown.endswith("...") and shown.startswith("ZZZ")
    assert caught.value.details["order_id"] == shown


def test_short_details_are_kept_as_they_are():
    with pytest.raises(OrderNotFound) as caught:
        RefundService().submit("Z9999", 10, user_id=USER, idempotency_key="k")
    assert caught.value.details == {"order_id": "Z9999"}
