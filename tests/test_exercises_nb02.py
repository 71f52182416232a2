"""Exercise 02.1: reference solutions pass, known-wrong answers fail, crashes become feedback."""

import pytest

from helpers.exercises import nb02
from tests.solutions import nb02 as sol


@pytest.mark.parametrize("answer", sol.SOLUTIONS, ids=lambda f: f.__name__)
def test_solutions_pass(answer):
    result = nb02.EXECUTE_CALLS.check(answer)
    assert result.passed, result.text()


@pytest.mark.parametrize("answer", sol.WRONG, ids=lambda f: f.__name__)
def test_wrong_answers_fail(answer):
    result = nb02.EXECUTE_CALLS.check(answer)
    assert result.solved and not result.passed, result.text()


def test_crash_is_reported_not_raised():
    result = nb02.EXECUTE_CALLS.check(sol.crashing)
    assert result.solved and not result.passed
    assert all(r.status == "error" for r in result.failed), result.text()
    assert "your code raised KeyError" in result.failed[0].feedback


def test_stub_is_not_solved_yet():
    result = nb02.EXECUTE_CALLS.check(sol.stub)
    assert not result.solved
    assert "not solved yet" in result.summary()


def test_missing_answer_is_named_not_blamed_on_ids():
    result = nb02.EXECUTE_CALLS.check(sol.wrong_first_call_only)
    feedback = {r.name: r.feedback for r in result.failed}
    ids_case = "ids come from the calls, not from positions"
    assert ids_case in feedback, result.text()
    assert "no ToolMessage for toolu_A" in feedback[ids_case], result.text()
    assert "positions" not in feedback[ids_case], result.text()


def test_invented_ids_still_get_the_positions_hint():
    result = nb02.EXECUTE_CALLS.check(sol.wrong_invented_ids)
    assert "never build them from positions" in result.text(), result.text()
