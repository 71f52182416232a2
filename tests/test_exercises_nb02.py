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
