"""Exercise 03.1 beyond the contract (tests/test_exercise_contract.py): pairing, await and fresh-data feedback."""

from langchain_core.messages import ToolMessage

from helpers.exercises import nb03, nb03_run
from tests.solutions import nb03 as sol


def test_pairing_by_completion_order_is_caught_by_the_out_of_order_case():
    result = nb03.RUN_TOOL_CALLS.check(sol.wrong_pairs_by_completion)
    failed = {r.name for r in result.failed}
    assert "out-of-order completion still pairs by id" in failed, result.text()


def test_crash_is_reported_not_raised():
    result = nb03.RUN_TOOL_CALLS.check(sol.crashing)
    assert result.solved and not result.passed
    assert all(r.status == "error" for r in result.results), result.text()
    assert "your code raised TypeError: boom inside run_tool_calls" in result.results[0].feedback


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


def test_error_results_without_a_stable_code_are_told_which_code():
    def names_nothing(ai_message, tools):
        return [ToolMessage(content="Error: something went wrong", tool_call_id=c["id"], status="error")
                for c in [*ai_message.tool_calls, *ai_message.invalid_tool_calls]]

    text = nb03.RUN_TOOL_CALLS.check(names_nothing).text()
    for code in ("unknown_tool", "not_refundable", "invalid_arguments"):
        assert f"put the stable code '{code}' in the content" in text, text


def test_the_old_catch_all_answer_fails_because_it_turns_a_bug_into_text():
    """Issue 17: 03.1 used to require every exception as text; 09 calls that the catch-all anti-pattern."""
    result = nb03.RUN_TOOL_CALLS.check(sol.wrong_catch_all)
    bug = [r for r in result.results if r.name == "a bug in a tool is not turned into text for the model"]
    assert bug and bug[0].status == "fail", result.text()
    assert "KeyError: 'carrier'" in bug[0].feedback and "let anything else raise" in bug[0].feedback


def test_a_bug_may_leave_wrapped_but_not_replaced():
    from pydantic import ValidationError

    from helpers.domain import DomainError

    def wrapping(ai_message, tools):
        try:
            return sol.run_tool_calls_sync(ai_message, tools)
        except (DomainError, ValidationError):
            raise
        except KeyError as exc:
            raise RuntimeError("run_tool_calls: a tool failed") from exc

    def replacing(ai_message, tools):
        try:
            return sol.run_tool_calls_sync(ai_message, tools)
        except KeyError:
            raise RuntimeError("something failed") from None

    assert nb03.RUN_TOOL_CALLS.check(wrapping).passed
    result = nb03.RUN_TOOL_CALLS.check(replacing)
    failed = {r.name: r for r in result.results if r.status != "pass"}
    # the named case, and the generated inputs (some call track_parcel or parcel_weight, whose bug is replaced too)
    assert set(failed) == {"a bug in a tool is not turned into text for the model",
                           "agrees with the reference on generated messages"}, result.text()
    assert all(r.status == "error" and "RuntimeError: something failed" in r.feedback for r in failed.values()), (
        result.text())


def test_an_answer_that_edits_a_tool_result_in_place_cannot_break_the_next_attempt():
    """Issue 12: the tools hand out fresh copies, so the checker's orders stay as they were."""
    assert not nb03.RUN_TOOL_CALLS.check(sol.wrong_edits_tool_results).passed
    assert nb03_run.ORDERS["A1024"]["product"] == "Wireless headphones"
    for solution in sol.RUN_TOOL_CALLS.solutions.values():
        assert nb03.RUN_TOOL_CALLS.check(solution).passed


def test_a_plain_def_and_an_async_def_are_both_accepted():
    assert nb03.RUN_TOOL_CALLS.wants == "either"
    assert nb03.RUN_TOOL_CALLS.check(sol.run_tool_calls).passed
    assert nb03.RUN_TOOL_CALLS.check(sol.run_tool_calls_sync).passed


def test_an_async_answer_that_never_finishes_is_stopped(monkeypatch):
    import threading

    async def hangs(ai_message, tools):
        import asyncio

        while True:
            await asyncio.sleep(0.01)

    monkeypatch.setattr(nb03.RUN_TOOL_CALLS, "timeout", 0.5)
    before = set(threading.enumerate())
    result = nb03.RUN_TOOL_CALLS.check(hangs)
    assert set(threading.enumerate()) == before
    assert "still running after 0.5 s" in result.results[0].feedback
