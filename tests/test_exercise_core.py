"""The exercise core: per-case results, unsolved stubs, learner exceptions never escape."""

from __future__ import annotations

import pytest

from helpers.exercises import Case, Exercise


def _equals(expected):
    def run(answer):
        got = answer(2)
        assert got == expected, f"expected {expected}, got {got}"
    return run


EXERCISE = Exercise("99.1", "double it", [Case("doubles 2", _equals(4)), Case("returns an int", lambda f: isinstance(f(2), int) or (_ for _ in ()).throw(AssertionError()), hint="return an int")])


def stub(x):
    raise NotImplementedError("your code here")


def test_unsolved_stub_is_deterministic():
    first, second = EXERCISE.check(stub), EXERCISE.check(stub)
    assert not first.solved and not first.passed and first.results == []
    assert repr(first) == repr(second)
    assert first._repr_markdown_() == ("⏳ **Exercise 99.1 (double it): not solved yet - replace the "
                                       "`raise NotImplementedError` and run the check again**")


def test_none_is_unsolved():
    assert not EXERCISE.check(None).solved


def test_right_answer_passes():
    result = EXERCISE.check(lambda x: x * 2)
    assert result.passed
    assert result.summary() == "Exercise 99.1 (double it): all 2 checks passed"
    assert result._repr_markdown_().startswith("🎉 ")


def test_wrong_answer_fails_with_feedback_and_hint():
    result = EXERCISE.check(lambda x: x * 2.0)
    assert not result.passed
    assert [(r.name, r.status) for r in result.results] == [("doubles 2", "pass"), ("returns an int", "fail")]
    assert result.failed[0].feedback == "return an int"
    assert "[FAIL] returns an int - return an int" in result.text()


def test_learner_exception_is_feedback_not_a_crash():
    def broken(x):
        return {}["missing"]

    result = EXERCISE.check(broken)
    assert result.solved and not result.passed
    assert {r.status for r in result.results} == {"error"}
    assert result.results[0].feedback == "your code raised KeyError: 'missing'"
    assert "💥" in result._repr_markdown_()


def test_not_a_function_is_feedback():
    result = EXERCISE.check("not callable")
    assert result.results[0].status == "error"
    assert "TypeError" in result.results[0].feedback


def test_exercise_needs_cases():
    with pytest.raises(ValueError, match="needs at least one case"):
        Exercise("99.2", "empty", [])


def test_probe_detects_stub_before_cases_run():
    calls = []
    exercise = Exercise("99.3", "probe", [Case("c", lambda f: calls.append(f()))], probe=lambda f: f())
    assert not exercise.check(lambda: stub(1)).solved
    assert calls == []


def test_custom_unsolved_hint():
    exercise = Exercise("99.4", "predict", [Case("c", lambda d: None)], probe=lambda d: (_ for _ in ()).throw(NotImplementedError()),
                        unsolved_hint='replace every "?" in predictions')
    assert exercise.check({}).summary() == 'Exercise 99.4 (predict): not solved yet - replace every "?" in predictions'


def test_system_exit_and_cancelled_error_become_feedback():
    import asyncio

    def exits(x):
        raise SystemExit(3)

    def cancelled(x):
        raise asyncio.CancelledError()

    for answer, name in ((exits, "SystemExit"), (cancelled, "CancelledError")):
        result = EXERCISE.check(answer)
        assert result.solved and not result.passed
        assert all(r.status == "error" and name in r.feedback for r in result.results)


def test_an_exception_whose_message_cannot_be_shown():
    class Weird(Exception):
        def __str__(self):
            raise RuntimeError("no")

    def answer(x):
        raise Weird()

    result = EXERCISE.check(answer)
    assert result.results[0].feedback == "your code raised Weird: <Weird whose message could not be shown>"


def test_keyboard_interrupt_still_stops_the_check():
    def answer(x):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        EXERCISE.check(answer)


def test_not_implemented_in_a_later_branch_is_reported_not_hidden():
    def answer(x):
        if x == 2:
            return 4
        raise NotImplementedError

    exercise = Exercise("99.5", "branches", [Case("two", lambda f: f(2) == 4 or (_ for _ in ()).throw(AssertionError())),
                                             Case("three", lambda f: f(3))])
    result = exercise.check(answer)
    assert result.solved
    assert [(r.name, r.status) for r in result.results] == [("two", "pass"), ("three", "error")]
    assert "not finished" in result.results[1].feedback
