"""Exercise 02.1 beyond the contract (tests/test_exercise_contract.py): what the feedback says."""

from helpers.exercises import nb02
from tests.solutions import nb02 as sol


def test_crash_names_the_exception():
    result = nb02.EXECUTE_CALLS.check(sol.crashing)
    assert "your code raised KeyError" in result.failed[0].feedback


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
