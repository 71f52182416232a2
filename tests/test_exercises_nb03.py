"""Exercise 03.1: reference solutions pass, known-wrong answers fail, crashes become feedback."""

import pytest
from langchain_core.messages import ToolMessage

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


def test_forgotten_await_is_named_and_leaves_no_runtime_warning():
    import gc
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = nb03.RUN_TOOL_CALLS.check(sol.wrong_forgets_await)
        gc.collect()
    assert result.solved and not result.passed
    assert "did you forget await?" in result.text(), result.text()
    never_awaited = [w for w in caught if "never awaited" in str(w.message)]
    assert not never_awaited, [str(w.message) for w in never_awaited]


def test_unknown_tool_and_exception_text_feedback():
    def names_nothing(ai_message, tools):
        return [ToolMessage(content="Error: something went wrong", tool_call_id=c["id"], status="error")
                for c in [*ai_message.tool_calls, *ai_message.invalid_tool_calls]]

    text = nb03.RUN_TOOL_CALLS.check(names_nothing).text()
    assert "name the unknown tool" in text, text
    assert "put the error text in the content" in text, text
