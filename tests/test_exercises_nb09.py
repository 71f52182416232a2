"""Exercises 09.1 and 09.2 beyond the registry's contract: feedback texts and the traps each answer meets."""

import pytest
from langchain.agents.middleware import wrap_tool_call

from helpers.domain import ERROR_CODES
from helpers.exercises import Case, Exercise, nb09
from tests.named_cases import named_cases_only
from tests.solutions import nb09 as sol



def test_crash_feedback_names_the_cause():
    text = named_cases_only(nb09.MAP_ERRORS).check(sol.crashing_mapping).text()
    assert "AttributeError" in text and "tool_call_id" in text
    text = named_cases_only(nb09.CHOOSE_KEY).check(sol.crashing_key).text()
    assert "AttributeError" in text and "user" in text


def test_decorated_stub_is_not_solved():
    @wrap_tool_call
    def map_refund_errors(request, handler):
        raise NotImplementedError("not yet")

    assert not named_cases_only(nb09.MAP_ERRORS).check(map_refund_errors).solved


def test_a_middleware_that_forgets_return_is_told_so_not_unsolved():
    """langchain-core raises NotImplementedError("Unsupported message type: <class 'NoneType'>") for the None:
    a library's error, not the learner's stub (hostile_1.md item 2)."""
    result = named_cases_only(nb09.MAP_ERRORS).check(sol.wrong_forgets_return)
    assert result.solved, result.text()
    feedback = result.results[0].feedback
    assert feedback.startswith("your code raised NotImplementedError: Unsupported message type: <class 'NoneType'>")
    assert feedback.endswith("(did you forget to return the handler's result (`return handler(request)`)? Without "
                             "`return` the middleware gives None)")


def test_no_middleware_at_all_fails_with_a_hint():
    """Passing handler(request) through only: every domain error ends the run and the hint says what to catch."""
    result = named_cases_only(nb09.MAP_ERRORS).check(lambda request, handler: handler(request))
    failed = {r.name: r.feedback for r in result.failed}
    assert "a bug still propagates" not in failed and "an interrupt inside a tool still pauses the run" not in failed
    feedback = failed["permission_denied becomes an error ToolMessage with its code"]
    assert "propagated out of the agent" in feedback and "catch DomainError" in feedback


def test_every_domain_error_code_has_a_case():
    """One case per code of helpers.domain.ErrorCode, so an answer that forgets a class cannot pass."""
    names = {case.name for case in nb09.MAP_ERRORS.cases}
    missing = [code for code in ERROR_CODES if f"{code} becomes an error ToolMessage with its code" not in names]
    assert not missing


def test_the_invalid_request_case_is_raised_by_the_service_itself():
    """The empty order id passes the tool's schema and the service refuses it with InvalidRequest."""
    result = named_cases_only(nb09.MAP_ERRORS).check(sol.wrong_seven_classes)
    (case,) = [r for r in result.results if r.name.startswith("invalid_request")]
    assert case.status == "fail" and "InvalidRequest (invalid_request) propagated" in case.feedback
    assert [r.name for r in result.failed] == [case.name]


def test_not_a_function_is_reported():
    result = named_cases_only(nb09.MAP_ERRORS).check(42)
    assert result.solved and not result.passed
    assert "expected a function" in result.text()


def test_leak_check_sees_the_other_users_id():
    result = named_cases_only(nb09.MAP_ERRORS).check(sol.wrong_leaks_message)
    (leak,) = [r for r in result.results if r.name == "no internals reach the model"]
    assert leak.status == "fail" and "user-7" in leak.feedback


def test_key_checks_report_a_non_string_key():
    result = named_cases_only(nb09.CHOOSE_KEY).check(lambda order_id, line, amount, runtime: None)
    assert result.solved and not result.passed
    assert "non-empty string" in result.text()


def test_refund_key_fails_only_where_two_lines_share_an_amount_or_a_line_gets_two():
    """Copying the course's refund_key is the trap of 09.2: it merges lines of the same amount."""
    result = named_cases_only(nb09.CHOOSE_KEY).check(sol.wrong_key_refund_key)
    assert {r.name for r in result.failed} == {"two lines of the same amount are two refunds",
                                               "a second amount for a refunded line creates no second refund"}
    assert "refund_key" in result.text() and "the line identifies the request" in result.text()


@pytest.mark.parametrize("name, case", [
    ("today's date", "the same line asked for on two days creates one refund"),
    ("datetime.now()", "the same line asked for on two days creates one refund"),
    ("thread id", "the same line asked for from two threads creates one refund"),
    ("amount // 100", "a second amount for a refunded line creates no second refund"),
    ("the customer's words", "the same line asked for again in a later run creates one refund"),
])
def test_keys_with_a_date_a_thread_or_hundreds_fail_exactly_their_case(name, case):
    """Issue 16: keys with today's date, the thread id or `amount // 100` passed every case."""
    result = named_cases_only(nb09.CHOOSE_KEY).check(sol.CHOOSE_KEY.wrong[name].answer)
    assert [(r.name, r.status) for r in result.failed] == [(case, "fail")], result.text()


def test_the_clock_moves_a_day_inside_and_is_put_back_even_after_an_error():
    import datetime as dt
    import time

    from tests.solutions.nb09 import wrong_key_now

    real_time, real_datetime, today = time.time, dt.datetime, dt.date.today()
    with pytest.raises(RuntimeError):
        with nb09._days_later(1, wrong_key_now):
            assert dt.date.today() == today + dt.timedelta(days=1) or dt.date.today() > today
            assert dt.datetime.now().date() == dt.date.today() == dt.datetime.today().date()
            assert wrong_key_now.__globals__["datetime"] is dt  # a module: read through the patched attribute
            assert time.strftime("%Y-%m-%d") == dt.date.today().isoformat()
            raise RuntimeError("the key raised")
    assert time.time is real_time and dt.datetime is real_datetime
    assert abs(time.time() - dt.datetime.now().timestamp()) < 3600


def test_a_datetime_name_in_the_answers_globals_is_moved_and_put_back():
    from datetime import datetime as real_datetime

    namespace = {"datetime": real_datetime}
    exec("def key(o, l, a, r):\n    return f'{o}:{l}:{datetime.now():%Y-%m-%d}'", namespace)
    today = namespace["key"]("A1024", 2, 20.0, None)
    with nb09._days_later(1, namespace["key"]):
        tomorrow = namespace["key"]("A1024", 2, 20.0, None)
    assert today != tomorrow and namespace["datetime"] is real_datetime


def test_a_key_stopped_while_the_clock_is_moved_leaves_the_real_clock():
    """A key that loops for ever only on the moved day is stopped inside _days_later; the clock is real after."""
    import datetime as dt
    import time

    start = time.time()

    def looping_tomorrow(order_id, line, amount, runtime):
        while time.time() > start + 3600:
            pass
        return f"refund:{order_id}:line-{line}"

    only_the_day = Exercise("99.9", "two days", [Case("two days", nb09._two_days)], timeout=3)
    (day,) = only_the_day.evaluate(looping_tomorrow).results
    assert day.status == "error" and "an endless loop?" in day.feedback, day
    assert time.time is nb09._REAL_CLOCK["time"] and dt.datetime is nb09._REAL_DATETIME
    assert abs(time.time() - start) < 3600


def test_a_thread_that_opens_with_other_words_is_the_same_request():
    """Issue 27: a key with the thread's opening words passed every named case (their threads all open alike)."""
    spec = ((("A1024", 2, 20.0), "chat-web", 1, "new call", 0), (("A1024", 2, 20.0), "chat-phone", 0, "new call", 0))
    assert nb09.requests_outcome(nb09.line_key, spec) == ["RF-0001", "RF-0001"]
    assert nb09.requests_outcome(sol.wrong_key_opening_words, spec) == ["RF-0001", "RF-0002"]


def test_generated_requests_replay_lose_replies_and_move_the_clock():
    spec = ((("A1024", 2, 20.0), "chat-web", 0, "reply lost", 0), (("A1024", 2, 25.0), "email", 2, "new call", 366),
            (("A1030", 1, 120.0), "chat-web", 0, "replay of the previous call", 0))
    assert nb09.requests_outcome(nb09.line_key, spec) == ["service_unavailable", "idempotency_conflict",
                                                           "idempotency_conflict"]
    assert nb09.requests_outcome(sol.wrong_key_today, spec) == ["service_unavailable", "RF-0002", "RF-0002"]
    text = nb09.CHOOSE_KEY.generated[0].describe(spec)
    assert text == ("one after the other: 'Please refund line 2 of A1024.' (20.00) in chat-web, its reply lost; "
                    "'Did that work? I still want line 2 of A1024 refunded.' (25.00) in email, 366 day(s) after the "
                    "first request; the previous call run again")


def test_a_refusal_of_another_tool_a_state_update_and_a_value_error_bug():
    """Issue 27: mapping only the refund tool's errors, rebuilding the handler's result, and catching ValueError
    passed every named case (their domain errors come from submit_refund_request, their tools return text, their
    bug is a KeyError)."""
    lookup = (("lookup_order", "raises permission_denied"),)
    assert nb09.reply_outcome(nb09.map_refund_errors, lookup)["answers"][0][1]["error"] == "permission_denied"
    assert nb09.reply_outcome(sol.wrong_refund_tool_only, lookup)["run"] == "ended with PermissionDenied"
    update = (("mark_submitted", "succeeds"), ("find_orders", "succeeds"))
    assert nb09.reply_outcome(nb09.map_refund_errors, update) == {
        "run": "finished", "refund_stage": "submitted",
        "answers": [("success", "A1024 marked as submitted", None), ("success", "1 order found", [{"order_id": "A1030"}])]}
    with pytest.raises(AttributeError):
        nb09.reply_outcome(sol.wrong_rebuilds_the_result, update)
    bug = (("submit_refund_request", "has a ValueError bug"),)
    assert nb09.reply_outcome(nb09.map_refund_errors, bug)["run"] == "ended with ValueError"
    assert nb09.reply_outcome(sol.wrong_maps_value_errors, bug)["answers"][0][1]["error"] == "invalid_request"


def test_a_generated_reply_pauses_and_is_described():
    spec = (("find_orders", "pauses for a manager"), ("lookup_order", "misses an argument"))
    outcome = nb09.reply_outcome(nb09.map_refund_errors, spec)
    assert outcome["run"] == "paused"
    text = nb09.MAP_ERRORS.generated[0].describe(spec)
    assert text == ("the model calls, in one reply: find_orders, which pauses for a manager; lookup_order, which "
                    "misses an argument")
