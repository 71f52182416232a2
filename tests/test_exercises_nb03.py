"""Exercise 03.1: reference solutions pass, known-wrong answers fail, crashes become feedback."""

import pytest

from helpers.exercises import nb03
from tests.solutions import nb03 as sol


@pytest.mark.parametrize("answer", sol.SOLUTIONS, ids=lambda f: f.__name__)
def test_solutions_pass(answer):
    result = nb03.RUN_TOOL_CALLS.check(answer)
    assert result.passed, result.text()


@pytest.mark.parametrize("answer", sol.WRONG, ids=lambda f: f.__name__)
def test_wrong_answers_fail(answer):
    result = nb03.RUN_TOOL_CALLS.check(answer)
    assert result.solved and not result.passed, result.text()


def test_pairing_by_completion_order_is_caught_by_the_out_of_order_case():
    result = nb03.RUN_TOOL_CALLS.check(sol.wrong_pairs_by_completion)
    failed = {r.name for r in result.failed}
    assert "out-of-order completion still pairs by id" in failed, result.text()


def test_crash_is_reported_not_raised():
    result = nb03.RUN_TOOL_CALLS.check(sol.crashing)
    assert result.solved and not result.passed
    assert all(r.status == "error" for r in result.results), result.text()
    assert "your code raised TypeError: boom inside run_tool_calls" in result.results[0].feedback


def test_async_stub_is_not_solved_yet():
    result = nb03.RUN_TOOL_CALLS.check(sol.stub)
    assert not result.solved
    assert "not solved yet" in result.summary()
