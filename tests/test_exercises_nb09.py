"""Exercises 09.1 and 09.2 beyond the registry's contract: feedback texts and the traps each answer meets."""

import pytest
from langchain.agents.middleware import wrap_tool_call

from helpers.exercises import nb09
from tests.solutions import nb09 as sol



def test_crash_feedback_names_the_cause():
    text = nb09.MAP_ERRORS.check(sol.crashing_mapping).text()
    assert "AttributeError" in text and "tool_call_id" in text
    text = nb09.CHOOSE_KEY.check(sol.crashing_key).text()
    assert "AttributeError" in text and "user" in text


def test_decorated_stub_is_not_solved():
    @wrap_tool_call
    def map_refund_errors(request, handler):
        raise NotImplementedError("not yet")

    assert not nb09.MAP_ERRORS.check(map_refund_errors).solved


def test_a_middleware_that_forgets_return_is_told_so_not_unsolved():
    """langchain-core raises NotImplementedError("Unsupported message type: <class 'NoneType'>") for the None:
    a library's error, not the learner's stub (hostile_1.md item 2)."""
    result = nb09.MAP_ERRORS.check(sol.wrong_forgets_return)
    assert result.solved, result.text()
    feedback = result.results[0].feedback
    assert feedback.startswith("your code raised NotImplementedError: Unsupported message type: <class 'NoneType'>")
    assert feedback.endswith("(did you forget to return the handler's result (`return handler(request)`)? Without "
                             "`return` the middleware gives None)")


def test_no_middleware_at_all_fails_with_a_hint():
    """Passing handler(request) through only: every domain error ends the run and the hint says what to catch."""
    result = nb09.MAP_ERRORS.check(lambda request, handler: handler(request))
    failed = {r.name: r.feedback for r in result.failed}
    assert "a bug still propagates" not in failed and "an interrupt inside a tool still pauses the run" not in failed
    feedback = failed["permission_denied becomes an error ToolMessage with its code"]
    assert "propagated out of the agent" in feedback and "catch DomainError" in feedback


def test_not_a_function_is_reported():
    result = nb09.MAP_ERRORS.check(42)
    assert result.solved and not result.passed
    assert "expected a function" in result.text()


def test_leak_check_sees_the_other_users_id():
    result = nb09.MAP_ERRORS.check(sol.wrong_leaks_message)
    (leak,) = [r for r in result.results if r.name == "no internals reach the model"]
    assert leak.status == "fail" and "user-7" in leak.feedback


def test_key_checks_report_a_non_string_key():
    result = nb09.CHOOSE_KEY.check(lambda order_id, line, amount, runtime: None)
    assert result.solved and not result.passed
    assert "non-empty string" in result.text()


def test_refund_key_fails_only_where_two_lines_share_an_amount_or_a_line_gets_two():
    """Copying the course's refund_key is the trap of 09.2: it merges lines of the same amount."""
    result = nb09.CHOOSE_KEY.check(sol.wrong_key_refund_key)
    assert {r.name for r in result.failed} == {"two lines of the same amount are two refunds",
                                               "a second amount for a refunded line creates no second refund"}
    assert "refund_key" in result.text() and "the line identifies the request" in result.text()
