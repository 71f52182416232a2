"""The exercise core: per-case results, unsolved stubs, learner exceptions never escape,
deadlines that leave no thread behind, async/sync mismatches, the learner's own asserts,
bounded and escaped reports (issue 12 "Exercise core", issue 10 item 6)."""

from __future__ import annotations

import gc
import re
import threading
import warnings

import pytest

from langchain.tools import ToolRuntime, tool

from helpers.exercises import Case, Exercise, nb04, nb11
from helpers.exercises import deadline as deadline_module
from helpers.exercises.results import CheckFailure
from tests.solutions import nb04 as sol04
from tests.learner_cells import learner
from tests.solutions import nb11 as sol10


def _equals(expected):
    def run(answer):
        got = answer(2)
        if got != expected:  # not a bare assert: pytest rewrites those in test files
            raise AssertionError(f"expected {expected}, got {got!r}")
    return run


def _is_int(answer):
    if not isinstance(answer(2), int):
        raise AssertionError()  # no message (pytest would add one to a bare assert in a test file)


EXERCISE = Exercise("99.1", "double it", [Case("doubles 2", _equals(4)), Case("returns an int", _is_int, hint="return an int")])
FAST = Exercise("99.9", "double it quickly", [Case("doubles 2", _equals(4)), Case("returns an int", _is_int)], timeout=0.5)


def stub(x):
    raise NotImplementedError("your code here")


@pytest.fixture
def quick_stop(monkeypatch):
    """Threads that ignore the stop get 0.3 s (not 2 s) before they are reported as stuck."""
    monkeypatch.setattr(deadline_module, "STOP_GRACE", 0.3)


def _threads():
    return set(threading.enumerate())


# -- verdicts and the unsolved stub --------------------------------------------------------


def test_unsolved_stub_is_deterministic():
    first, second = EXERCISE.check(stub), EXERCISE.check(stub)
    assert not first.solved and not first.passed and first.results == []
    assert repr(first) == repr(second) and first._repr_markdown_() == second._repr_markdown_()
    assert first.summary() == ("Exercise 99.1 (double it): not solved yet - replace the `raise NotImplementedError` "
                               "and run the check again")
    markdown = first._repr_markdown_()
    assert "\n" not in markdown, "one line"
    assert ">TO DO</span> <strong>Exercise 99.1 (double it): not solved yet</strong> - replace the " \
           "<code>raise NotImplementedError</code> and run the check again</div>" in markdown


def test_none_is_unsolved():
    assert not EXERCISE.check(None).solved


def test_right_answer_passes():
    result = EXERCISE.check(lambda x: x * 2)
    assert result.passed
    assert result.summary() == "Exercise 99.1 (double it): all 2 checks passed"
    assert result._repr_markdown_().count(">PASS</span>") == 2


def test_wrong_answer_fails_with_feedback_and_hint():
    result = EXERCISE.check(lambda x: x * 2.0)
    assert not result.passed
    assert [(r.name, r.status) for r in result.results] == [("doubles 2", "pass"), ("returns an int", "fail")]
    assert result.failed[0].feedback == "return an int"
    assert "[FAIL] returns an int - return an int" in result.text()


def test_verdicts_are_words_in_colour_not_only_emoji():
    result = EXERCISE.check(learner("def answer(x):\n    return 4.0 if x == 2 else {}['x']\n"))
    markdown = result._repr_markdown_()
    assert ">PASS</span>" in markdown and ">FAIL</span>" in markdown
    assert "background-color: #1a7f37" in markdown and "background-color: #cf222e" in markdown
    crashing = EXERCISE.check(lambda x: {}["missing"])._repr_markdown_()
    assert ">ERROR</span>" in crashing and "background-color: #8250df" in crashing
    assert not re.search("[\u2600-\u27bf\U0001F300-\U0001FAFF]", markdown + crashing), "no emoji needed"


def test_learner_exception_is_feedback_not_a_crash():
    def broken(x):
        return {}["missing"]

    result = EXERCISE.check(broken)
    assert result.solved and not result.passed
    assert {r.status for r in result.results} == {"error"}
    assert result.results[0].feedback == "your code raised KeyError: 'missing'"
    assert result.results[1].hint == "return an int"


def test_a_crash_that_fails_every_case_is_reported_once():
    result = EXERCISE.check(lambda x: {}["missing"])
    text, markdown = result.text(), result._repr_markdown_()
    assert text.count("KeyError") == 1 and markdown.count("KeyError") == 1
    assert "[ERROR] all 2 checks (doubles 2; returns an int) - your code raised KeyError: 'missing'" in text
    assert "(hint:" not in text, "a case's hint fits only that case"


def test_a_crash_in_some_cases_is_grouped_and_the_passing_case_keeps_its_line():
    exercise = Exercise("99.6", "three", [Case("a", lambda f: f("a")), Case("b", lambda f: None), Case("c", lambda f: f("c"))])
    result = exercise.check(lambda value: value.missing)
    rows = result.groups()
    assert [(status, names) for status, names, _ in rows] == [("error", ["a", "c"]), ("pass", ["b"])]
    assert "[ERROR] 2 checks (a; c) - your code raised AttributeError" in result.text()


def _fails_with(situation: str, advice: str):
    def run(answer):
        raise CheckFailure(situation, advice)
    return run


def test_fails_sharing_one_advice_are_one_row_led_by_the_first_case():
    """Issue 16: a wrong 09.1 answer got 8 FAIL lines with one hint; they are one row now, where the first is."""
    exercise = Exercise("99.20", "grouped", [
        Case("a", lambda f: None),
        Case("b", _fails_with("B leaked", "catch DomainError")),
        Case("c", _fails_with("C other", "do something else")),
        Case("d", _fails_with("D leaked", "catch DomainError")),
        Case("e", _fails_with("E leaked", "catch DomainError")),
    ])
    result = exercise.check(lambda x: x)
    assert [(status, names) for status, names, _ in result.groups()] == [
        ("pass", ["a"]), ("fail", ["b", "d", "e"]), ("fail", ["c"])]
    text = result.text()
    assert text.count("catch DomainError") == 1
    assert "[FAIL] 3 checks (b; d; e) - B leaked: catch DomainError (the other 2 checks failed for the same " \
           "reason)" in text
    assert [r.advice for r in result.results] == ["", "catch DomainError", "do something else", "catch DomainError",
                                                  "catch DomainError"]
    assert [r.feedback for r in result.failed][:2] == ["B leaked: catch DomainError", "C other: do something else"]


def test_fails_with_the_same_feedback_are_one_row_without_the_same_reason_note():
    """Issue 16: 11.1 repeated one FAIL line 5 times (an answer that returns nothing)."""
    same = lambda answer: (_ for _ in ()).throw(AssertionError("must return the agent, got NoneType"))  # noqa: E731
    exercise = Exercise("99.21", "same", [Case("a", same), Case("b", same), Case("c", lambda f: None)])
    text = exercise.check(lambda x: x).text()
    assert "[FAIL] 2 checks (a; b) - must return the agent, got NoneType\n" in text + "\n"
    assert "same reason" not in text and text.count("NoneType") == 1


def test_real_checkers_group_their_shared_advice():
    result = nb11.CONFIRMATION_GUARD.check(sol10.wrong_unguarded)
    rows = [(status, len(names)) for status, names, _ in result.groups() if status == "fail"]
    # six named cases share one advice; the named case with its own advice, then the generated check, stand alone
    assert rows == [("fail", 6), ("fail", 1), ("fail", 1)], result.text()
    assert result.results[-1].name.startswith("agrees with the reference"), result.text()
    assert result.text().count("refuse before calling submit_to_service") == 1


def test_not_a_function_is_feedback():
    result = EXERCISE.check("not callable")
    assert result.results[0].status == "error"
    assert "TypeError" in result.results[0].feedback


def test_exercise_needs_cases_and_a_positive_timeout():
    with pytest.raises(ValueError, match="needs at least one case"):
        Exercise("99.2", "empty", [])
    for bad in (0, -1, "5", float("nan")):
        with pytest.raises(ValueError, match="timeout must be a positive number"):
            Exercise("99.2", "bad timeout", [Case("c", lambda f: None)], timeout=bad)


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


@pytest.mark.parametrize("raises", [RuntimeError("no"), SystemExit(1), GeneratorExit()], ids=type)
def test_an_exception_whose_message_cannot_be_shown(raises):
    class Weird(Exception):
        def __str__(self):
            raise raises

    def answer(x):
        raise Weird()

    result = EXERCISE.check(answer)
    assert result.results[0].feedback == "your code raised Weird: <Weird whose message could not be shown>"


def test_an_assertion_whose_message_raises_system_exit_cannot_escape():
    class Sneaky(AssertionError):
        def __str__(self):
            raise SystemExit("bye")

    def _case(answer):
        raise Sneaky()

    result = Exercise("99.7", "sneaky", [Case("c", _case, hint="the hint")]).check(lambda: None)
    assert result.results[0].status == "fail" and "could not be shown" in result.results[0].feedback


def test_a_hostile_answer_object_cannot_escape():
    class Hostile:
        def __getattr__(self, name):
            raise SystemExit("attribute access ends the kernel")

        def __call__(self, x):
            raise SystemExit("calling ends the kernel")

    result = EXERCISE.check(Hostile())
    assert result.solved and not result.passed
    assert all(r.status == "error" for r in result.results), result.text()


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


# -- deadlines -------------------------------------------------------------------------------


def test_an_endless_loop_is_stopped_with_clear_feedback_and_no_thread_left():
    before = _threads()
    result = FAST.check(learner("def answer(x):\n    while True:\n        x += 1\n"))
    assert _threads() == before
    assert [r.status for r in result.results] == ["error", "error"]
    assert result.results[0].feedback == "your code was still running after 0.5 s: an endless loop? It was stopped."
    assert result.results[1].feedback.startswith("not run:"), "the other cases are not run after a timeout"


def test_code_that_catches_exception_is_stopped_too():
    answer = learner(
        "def answer(x):\n"
        "    while True:\n"
        "        try:\n"
        "            x += 1\n"
        "        except Exception:\n"
        "            pass\n"
    )
    before = _threads()
    result = FAST.check(answer)
    assert _threads() == before
    assert "still running after 0.5 s" in result.results[0].feedback


def test_threads_the_answer_started_are_stopped_too():
    from concurrent.futures import ThreadPoolExecutor

    def answer(x):
        def spin():
            while True:
                pass

        with ThreadPoolExecutor(max_workers=2) as pool:  # as ToolNode runs tools
            futures = [pool.submit(spin) for _ in range(2)]
            return [f.result() for f in futures]

    before = _threads()
    result = FAST.check(answer)
    assert _threads() == before
    assert "still running after 0.5 s" in result.results[0].feedback


def test_a_tool_that_loops_inside_toolnode_leaves_no_thread(monkeypatch):
    assert nb04.USER_SCOPED_LOOKUP.check(sol04.solution).passed  # warm up what LangGraph starts once
    monkeypatch.setattr(nb04.USER_SCOPED_LOOKUP, "timeout", 1.0)

    @tool
    def lookup_my_order(order_id: str, runtime: ToolRuntime[nb04.CheckContext]) -> dict:
        """Never returns."""
        while True:
            pass

    before = _threads()
    result = nb04.USER_SCOPED_LOOKUP.check(lookup_my_order)
    assert _threads() == before
    assert result.solved and not result.passed
    assert "still running after 1 s: an endless loop?" in result.summary()


def test_a_thread_blocked_in_c_is_reported_and_ends_when_it_wakes(quick_stop):
    release = threading.Event()
    started = []

    def answer(x):
        started.append(threading.current_thread())
        release.wait()  # one C call: cannot be interrupted
        return x * 2

    result = FAST.check(answer)
    assert "could not be stopped" in result.results[0].feedback
    release.set()
    started[0].join()
    assert not started[0].is_alive()


def test_code_that_swallows_every_stop_is_reported_as_stuck(quick_stop):
    stop = threading.Event()
    threads = []

    def answer(x):
        threads.append(threading.current_thread())
        while not stop.is_set():
            try:
                stop.wait(0.01)
            except BaseException:  # noqa: BLE001 - the learner's bare except
                pass

    result = FAST.check(answer)
    assert "1 thread(s) it started are blocked" in result.results[0].feedback or \
        "could not be stopped" in result.results[0].feedback
    stop.set()
    threads[0].join()


def test_keyboard_interrupt_during_a_long_check_stops_it_and_its_threads():
    import os
    import signal

    answer = learner("def answer(x):\n    while True:\n        x += 1\n")
    slow = Exercise("99.8", "slow", [Case("c", _equals(4))], timeout=60)
    before = _threads()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        slow.check(answer)
    timer.join()
    assert _threads() == before


def test_a_slow_probe_is_a_notice():
    exercise = Exercise("99.10", "probe", [Case("c", lambda f: None)], probe=lambda f: f(), timeout=0.5)
    result = exercise.check(learner("def answer():\n    while True:\n        pass\n"))
    assert not result.passed and result.results == []
    assert "still running after 0.5 s" in result.summary()


# -- async or not -----------------------------------------------------------------------------


def test_an_async_answer_to_a_plain_def_exercise_is_told_so_without_a_warning():
    runs = []

    async def answer(x):
        runs.append(x)
        return x * 2

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = EXERCISE.check(answer)
        gc.collect()
    assert result.solved and not result.passed
    assert "this exercise wants a plain `def`: `answer` is an `async def`" in result.summary()
    assert "not solved yet" not in result.text()
    assert runs == [] and not [w for w in caught if "never awaited" in str(w.message)]
    assert ">ERROR</span>" in result._repr_markdown_()


def test_async_partials_callables_and_tools_are_recognised():
    import functools

    async def double(x, y=2):
        return x * y

    class AsyncCallable:
        async def __call__(self, x):
            return x

    @tool
    async def async_tool(order_id: str) -> str:
        """An async tool."""
        return order_id

    for answer in (functools.partial(double, y=2), AsyncCallable(), async_tool):
        result = EXERCISE.check(answer)
        assert "this exercise wants a plain `def`" in result.summary(), result.text()
    assert "your tool wraps an `async def` function" in EXERCISE.check(async_tool).summary()


def test_an_async_tool_met_inside_a_case_is_named_not_called_unsolved():
    @tool
    async def async_tool(order_id: str) -> str:
        """An async tool."""
        return order_id

    exercise = Exercise("99.11", "factory", [Case("runs the tool", lambda factory: factory().invoke({"order_id": "A1"}))])
    result = exercise.check(lambda: async_tool)
    assert result.solved, "not the unsolved stub"
    assert "your tool wraps an `async def` function" in result.results[0].feedback


def test_a_plain_answer_to_an_async_exercise_is_told_so_and_either_takes_both():
    async_only = Exercise("99.12", "async", [Case("c", lambda f: None)], wants="async def")

    def plain(x):
        return x

    async def coroutine(x):
        return x

    assert "this exercise wants an `async def`: `plain` is a plain `def`" in async_only.check(plain).summary()
    assert async_only.check(coroutine).passed
    either = Exercise("99.13", "either", [Case("c", lambda f: None)], wants="either")
    assert either.check(plain).passed and either.check(coroutine).passed


# -- the learner's own assert -------------------------------------------------------------------


def test_the_learners_own_assert_is_an_error_in_their_code_with_its_line():
    answer = learner(
        "def answer(x):\n"
        "    result = x * 2\n"
        "    assert result > 10, 'result too small'\n"
        "    return result\n"
    )
    result = EXERCISE.check(answer)
    assert [r.status for r in result.results] == ["error", "error"]
    feedback = result.results[0].feedback
    assert feedback == ("an `assert` in your own code failed (line 3: `assert result > 10, 'result too small'`): "
                        "AssertionError: result too small")
    assert "return an int" not in result.text(), "not the checker's hint"


def test_a_bare_learner_assert_says_it_is_not_a_hidden_check():
    result = EXERCISE.check(learner("def answer(x):\n    assert x > 5\n"))
    assert result.results[0].feedback == ("an `assert` in your own code failed (line 2: `assert x > 5`) "
                                          "(it is not one of the hidden checks)")


def test_a_checker_assert_after_the_answer_returned_is_still_a_failure():
    result = EXERCISE.check(learner("def answer(x):\n    return 5\n"))
    assert result.results[0].status == "fail" and result.results[0].feedback == "expected 4, got 5"


# -- bounded and escaped reports -------------------------------------------------------------


def test_a_huge_answer_gives_a_report_of_bounded_size():
    result = EXERCISE.check(lambda x: list(range(200_000)))
    markdown, text = result._repr_markdown_(), result.text()
    assert len(markdown) < 4_000 and len(text) < 3_000
    assert "[cut: " in result.results[0].feedback and "characters in all]" in result.results[0].feedback


def test_a_huge_exception_message_is_cut():
    def answer(x):
        raise ValueError("x" * 5_000_000)

    result = EXERCISE.check(answer)
    assert len(result._repr_markdown_()) < 3_000 and "[cut: " in result.text()


@pytest.mark.parametrize("value", [
    "<!-- everything below is hidden",
    "a | b | c",
    "``` a fence",
    "`code` and ``double``",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "**bold** _it_ [link](http://example.com) # heading",
    "line one\n\n\nline two",
    "&lt;already escaped&gt; &amp;",
])
def test_values_from_the_answer_are_escaped(value):
    result = EXERCISE.check(lambda x: value)
    markdown = result._repr_markdown_()
    assert "<!--" not in markdown and "<script" not in markdown and "<img" not in markdown
    assert "\n\n" not in markdown, "a blank line would end the HTML block and let Markdown in"
    assert markdown.startswith('<div class="course-check"') and markdown.endswith("</div>")
    body = re.sub(r"<(/?)(div|ul|li|span|strong|code)\b[^>]*>", "", markdown)
    assert "<" not in body and ">" not in body, body


def test_long_feedback_wraps_at_word_boundaries():
    exercise = Exercise("99.14", "long", [Case("c", lambda f: (_ for _ in ()).throw(AssertionError("word " * 80)))])
    markdown = exercise.check(lambda: None)._repr_markdown_()
    assert "overflow-wrap: break-word" in markdown and "white-space: pre" not in markdown and "<pre" not in markdown
    assert ("word " * 79 + "word") in markdown, "spaces kept: the browser wraps between words"


def test_evaluate_gives_the_same_result_as_check():
    assert EXERCISE.evaluate(lambda x: x * 2).text() == EXERCISE.check(lambda x: x * 2).text()


def test_the_report_is_one_html_block_that_a_markdown_renderer_passes_through():
    """JupyterLab renders text/markdown with a CommonMark renderer; mistune (pinned) stands in for it."""
    import mistune

    render = mistune.create_markdown(escape=False)
    for answer in (lambda x: "<!-- x | *y* `z`\n\n# heading", lambda x: {}["k"], lambda x: x * 2, stub):
        markdown = EXERCISE.evaluate(answer)._repr_markdown_()
        assert render(markdown).strip() == markdown, "nothing in it is read as Markdown"


# -- hostile answers, second round (hostile_1.md items 2-5) ----------------------------------------


def _finishes(fn, within: float = 60.0):
    """Run ``fn()`` in a helper thread; its value, or a test failure if it hangs (a hang guard, not a speed test)."""
    box = {}
    helper = threading.Thread(target=lambda: box.setdefault("value", fn()), daemon=True)
    helper.start()
    helper.join(within)
    assert "value" in box, f"still running after {within} s: the check hangs"
    return box["value"]


def _wait_until_gone(threads, within: float = 30.0):
    import time

    end = time.monotonic() + within
    while any(t.is_alive() for t in threads) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(t.is_alive() for t in threads)


def _none_to_a_library(answer):
    from langchain_core.messages.utils import convert_to_messages

    convert_to_messages([answer()])  # langchain-core raises NotImplementedError for None


FORGOT_RETURN = learner("def answer():\n    result = 'a message'\n")


@pytest.mark.parametrize("probe", [_none_to_a_library, None], ids=["probe", "first case"])
def test_a_not_implemented_error_from_a_library_is_not_the_stub(probe):
    exercise = Exercise("99.20", "returns a message", [Case("c", _none_to_a_library)], probe=probe)
    result = exercise.evaluate(FORGOT_RETURN)
    assert result.solved, "a library's NotImplementedError is not the unsolved stub"
    feedback = result.results[0].feedback
    assert feedback.startswith("your code raised NotImplementedError: Unsupported message type: <class 'NoneType'>")
    assert feedback.endswith("(did your function forget to `return` its result? Without `return` it gives None)")
    assert not exercise.evaluate(lambda: stub(1)).solved, "the learner's own raise NotImplementedError still is"


def test_the_none_hint_is_the_exercises_own_and_only_for_library_errors():
    exercise = Exercise("99.21", "returns a message", [Case("c", _none_to_a_library)], none_hint="return handler(request)")
    assert exercise.evaluate(FORGOT_RETURN).results[0].feedback.endswith("(return handler(request))")
    own = learner("def answer():\n    value = None\n    return value.upper()\n")
    feedback = exercise.evaluate(own).results[0].feedback
    assert feedback == "your code raised AttributeError: 'NoneType' object has no attribute 'upper'", \
        "the learner's own line raised it: no guess about a missing return"


def test_an_exception_whose_str_loops_cannot_hang_the_check():
    answer = learner(
        "class Sneaky(Exception):\n"
        "    def __str__(self):\n"
        "        while True:\n"
        "            pass\n"
        "def answer(x):\n"
        "    raise Sneaky()\n")
    before = _threads()
    result = _finishes(lambda: FAST.check(answer))
    assert _threads() == before
    assert result.results[0].feedback == ("your code raised an exception whose message (its `__str__`) was still "
                                          "being built after 0.5 s: an endless loop? It was stopped.")


def test_an_exception_whose_str_sleeps_is_reported_as_blocked(quick_stop):
    workers = []
    answer = learner(
        "import threading, time\n"
        "class Slow(Exception):\n"
        "    def __str__(self):\n"
        "        WORKERS.append(threading.current_thread())\n"
        "        time.sleep(1.5)\n"
        "        return 'slow'\n"
        "def answer(x):\n"
        "    raise Slow()\n")
    answer.__globals__["WORKERS"] = workers
    result = _finishes(lambda: FAST.check(answer))
    feedback = result.results[0].feedback
    assert "It could not be stopped: 1 thread(s) (check-99.9-1) are blocked inside one call that Python cannot " \
           "interrupt" in feedback, feedback
    _wait_until_gone(workers)


def test_an_answer_whose_attribute_lookup_loops_cannot_hang_the_check():
    answer = learner(
        "class Answer:\n"
        "    def __getattr__(self, name):\n"
        "        while True:\n"
        "            pass\n"
        "    def __call__(self, x):\n"
        "        return x * 2\n", "Answer")()
    before = _threads()
    result = _finishes(lambda: FAST.check(answer))
    assert _threads() == before
    assert not result.passed and "still running after 0.5 s" in result.text(), result.text()


def test_a_learners_keyboard_interrupt_stops_the_check_as_a_plain_one_and_stops_its_threads():
    answer = learner(
        "import threading\n"
        "class Loud(KeyboardInterrupt):\n"
        "    def __str__(self):\n"
        "        while True:\n"
        "            pass\n"
        "def spin():\n"
        "    while True:\n"
        "        pass\n"
        "def answer(x):\n"
        "    threading.Thread(target=spin, daemon=True).start()\n"
        "    raise Loud()\n")
    before = _threads()
    with pytest.raises(KeyboardInterrupt) as caught:
        EXERCISE.check(answer)
    assert type(caught.value) is KeyboardInterrupt, "a fresh KeyboardInterrupt: the learner's object stays inside"
    assert _threads() == before


def test_a_thread_the_answer_leaves_running_is_stopped_and_reported():
    answer = learner(
        "import threading\n"
        "def spin():\n"
        "    while True:\n"
        "        pass\n"
        "def answer(x):\n"
        "    threading.Thread(target=spin, name='spinner', daemon=True).start()\n"
        "    return x * 2\n")
    before = _threads()
    result = EXERCISE.check(answer)
    assert _threads() == before
    assert not result.passed
    assert [r.status for r in result.results] == ["error", "error"]
    assert result.results[0].feedback == ("your code left a thread running (spinner); it was stopped. Let every "
                                          "thread you start finish (`thread.join()`) before your function returns")


def test_a_thread_left_running_is_added_to_a_failure():
    answer = learner(
        "import threading\n"
        "def answer(x):\n"
        "    threading.Thread(target=lambda: [None for _ in iter(int, 1)], name='spinner', daemon=True).start()\n"
        "    return 5\n")
    result = EXERCISE.check(answer)
    assert result.results[0].status == "fail"
    assert result.results[0].feedback.startswith("expected 4, got 5. Also, your code left a thread running (spinner)")


def test_a_thread_that_ends_by_itself_is_not_reported():
    answer = learner(
        "import threading, time\n"
        "def answer(x):\n"
        "    threading.Thread(target=time.sleep, args=(0.01,)).start()\n"
        "    return x * 2\n")
    assert EXERCISE.check(answer).passed


def test_an_idle_pool_the_answer_leaves_open_is_shut_down():
    answer = learner(
        "from concurrent.futures import ThreadPoolExecutor\n"
        "POOL = []\n"
        "def answer(x):\n"
        "    pool = ThreadPoolExecutor(max_workers=2)\n"
        "    POOL.append(pool)\n"
        "    return pool.submit(lambda: x * 2).result()\n")
    before = _threads()
    result = EXERCISE.check(answer)
    assert _threads() == before, "the idle workers waited in queue.get: the pool's shutdown ends them"
    assert "your code left a thread running" in result.results[0].feedback
    assert all(pool._shutdown for pool in answer.__globals__["POOL"])


def test_a_tool_that_loops_inside_a_toolnode_pool_is_stopped_without_a_traceback(capfd, monkeypatch):
    monkeypatch.setattr(nb11.CONFIRMATION_GUARD, "timeout", 1.0)

    @tool("submit_refund_request")
    def submit(order_id: str, amount: float, runtime: ToolRuntime[nb11.CheckContext]) -> dict:
        """Submit a refund request."""
        while True:
            pass

    capfd.readouterr()
    before = _threads()
    result = nb11.CONFIRMATION_GUARD.evaluate(submit)
    assert _threads() == before, "ToolNode's pool and the check's worker are stopped too"
    first = result.results[0].feedback
    assert first == "your code was still running after 1 s: an endless loop? It was stopped.", first
    err = capfd.readouterr().err
    assert "CheckTimeout" not in err and "Exception in worker" not in err, err


def _feedback_while_stuck(source: str, thread_name: str) -> str:
    """The first case's feedback for an answer that keeps ``thread_name`` alive until its ``EVENT`` is set;
    the event is set and the thread gone before this returns."""
    event = threading.Event()
    answer = learner(source)
    answer.__globals__["EVENT"] = event
    feedback = FAST.check(answer).results[0].feedback
    event.set()
    _wait_until_gone([t for t in threading.enumerate() if t.name == thread_name])
    return feedback


def test_code_that_catches_the_stop_is_said_to_keep_running(quick_stop):
    feedback = _feedback_while_stuck(
        "def answer(x):\n"
        "    while not EVENT.is_set():\n"
        "        try:\n"
        "            for _ in range(10_000):\n"
        "                pass\n"
        "        except BaseException:\n"
        "            pass\n", "check-99.9-1")
    assert "It could not be stopped: 1 thread(s) (check-99.9-1) catch the stop (a bare `except:` or " \
           "`except BaseException:` in a loop) and keep running" in feedback, feedback


def test_a_blocked_thread_beside_a_stopped_worker_is_named(quick_stop):
    feedback = _feedback_while_stuck(
        "import threading\n"
        "def answer(x):\n"
        "    threading.Thread(target=EVENT.wait, name='waiter', daemon=True).start()\n"
        "    while True:\n"
        "        pass\n", "waiter")
    assert feedback.startswith("your code was still running after 0.5 s: an endless loop? It was stopped, but not "
                               "every thread it started: 1 thread(s) (waiter) are blocked inside one call"), feedback


def test_a_check_inside_a_check_is_refused():
    inner = []

    def answer(x):
        inner.append(EXERCISE.evaluate(lambda y: y * 2))
        return x * 2

    before = _threads()
    result = _finishes(lambda: EXERCISE.check(answer))
    assert _threads() == before
    assert [r.status for r in result.results] == ["error", "error"]
    assert result.results[0].feedback == (
        "your code runs a check itself (it calls `.evaluate(...)` or `.check(...)` of an exercise): a check cannot "
        "run inside another check. Remove that call and run the check again")
    assert inner and not inner[0].passed
    assert inner[0].notice == "not run: another check is running (a check cannot run inside another check)"
    assert EXERCISE.check(lambda x: x * 2).passed, "the guard is released"


def test_a_check_from_a_thread_the_answer_starts_is_refused_too():
    def answer(x):
        thread = threading.Thread(target=lambda: FAST.check(answer))
        thread.start()
        thread.join()
        return x * 2

    result = _finishes(lambda: EXERCISE.check(answer))
    assert "a check cannot run inside another check" in result.results[0].feedback


def test_an_answer_that_checks_itself_does_not_multiply_threads():
    def answer(x):
        FAST.evaluate(answer)
        return x * 2

    before = _threads()
    result = _finishes(lambda: FAST.evaluate(answer))
    assert _threads() == before
    assert "a check cannot run inside another check" in result.text()


def test_the_stops_traces_are_dropped_and_nothing_else_is():
    import logging
    import sys

    seen = []
    hook = deadline_module._drop_stop(seen.append)
    stop, bug = threading.ExceptHookArgs([deadline_module.CheckTimeout, deadline_module.CheckTimeout(), None, None]), \
        threading.ExceptHookArgs([ValueError, ValueError("a real bug"), None, None])
    hook(stop)
    hook(bug)
    assert seen == [bug]
    deadline_module._install_quiet_hooks()
    assert threading.excepthook._drops_check_timeout and sys.unraisablehook._drops_check_timeout
    logger = logging.getLogger("concurrent.futures")

    def record(exc):
        return logger.makeRecord(logger.name, logging.CRITICAL, __file__, 1, "Exception in worker", (),
                                 (type(exc), exc, None))

    assert not all(f.filter(record(deadline_module.CheckTimeout())) for f in logger.filters)
    assert all(f.filter(record(ValueError("x"))) for f in logger.filters)
    deadline_module._install_quiet_hooks()
    assert sum(isinstance(f, deadline_module._DropStop) for f in logger.filters) == 1, "installed once"


# -- one bounded formatter -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [
    [1, "a", None, 2.5, True], {"b": 1, "a": [1, (2,), {3}]}, (), ("x",), frozenset(), set(), b"bytes", "it's",
    10 ** 40, -7, {"k": {"deep": {"deeper": [1]}}},
], ids=repr)
def test_shown_is_repr_for_a_small_value(value):
    from helpers.exercises.results import shown

    assert shown(value) == repr(value)


def test_shown_is_repr_for_langchain_messages():
    from langchain_core.messages import AIMessage, ToolMessage

    from helpers.exercises.results import shown

    for message in (AIMessage(content="", tool_calls=[{"name": "f", "args": {"a": 1}, "id": "c1"}]),
                    ToolMessage(content="ok", tool_call_id="c1", status="error")):
        assert shown(message) == repr(message)


def test_shown_stays_small_without_building_the_whole_repr():
    import tracemalloc

    from langchain_core.messages import ToolMessage

    from helpers.exercises.results import MAX_SHOWN, shown

    values = [list(range(2_000_000)), "z" * 10_000_000, {i: str(i) for i in range(200_000)},
              ToolMessage(content="q" * 5_000_000, tool_call_id="c1"), [[[[[[[["deep"]]]]]]]]]
    for value in values:
        tracemalloc.start()
        text = shown(value)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert len(text) <= MAX_SHOWN and peak < 200_000, (type(value).__name__, len(text), peak)


def test_shown_never_raises_nor_shows_an_address():
    from helpers.exercises.results import shown

    class Broken:
        def __repr__(self):
            raise SystemExit("no")

    assert shown(Broken()) == "<Broken object whose repr failed>"
    assert shown([Broken()]) == "[<Broken object whose repr failed>]"
    assert shown(10 ** 5000) == "<an int of about 5001 digits>", "repr() refuses more than 4300 digits"


def test_clipped_is_str_cut_to_a_limit():
    from helpers.exercises.results import clipped

    assert clipped("short") == "short"
    assert clipped("x" * 100, 10) == "x" * 10 + "..."
    assert clipped([{"a": 1}]) == str([{"a": 1}])
    assert clipped(ValueError("boom")) == "boom"


def test_bounded_slices_a_huge_text_before_splitting_it():
    import tracemalloc

    from helpers.exercises.results import MAX_FEEDBACK, bounded

    text = "word  " * 2_000_000
    tracemalloc.start()
    out = bounded(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 200_000, peak
    assert out.endswith("... [cut: 12000000 characters in all]") and len(out) < MAX_FEEDBACK + 50
    assert bounded("a  b\n c") == "a b c", "a short text is still collapsed whole"


def test_a_huge_answer_is_never_formatted_whole():
    import tracemalloc

    from helpers.exercises import nb00

    huge = list(range(2_000_000))
    tracemalloc.start()
    result = nb00.TOOL_CALL_IDS.evaluate(lambda message: huge)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2_000_000, f"the check allocated {peak} bytes for a result it only shows in part"
    assert "got [0, 1, 2, 3" in result.results[0].feedback and len(result._repr_markdown_()) < 4_000


# -- isolation: what an answer changes in the kernel besides threads (issue 16) -----------------------


def test_an_answer_that_changes_directory_is_told_and_the_directory_is_put_back(tmp_path):
    import os

    here = os.getcwd()
    answer = learner(f"import os\ndef answer(x):\n    os.chdir({str(tmp_path)!r})\n    return x * 2\n")
    result = EXERCISE.check(answer)
    assert os.getcwd() == here
    first = result.results[0]
    assert first.status == "error" and "changed the working directory (os.chdir)" in first.feedback
    assert "the check changed it back" in first.feedback and str(tmp_path) not in result.text()


def test_a_process_an_answer_leaves_running_is_reported_and_stopped():
    import subprocess
    import sys

    started = []

    def answer(x):
        started.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]))
        return x * 2

    try:
        result = EXERCISE.check(answer)
        assert all(p.poll() is not None for p in started), "the processes are stopped"
        feedback = result.results[0].feedback
        assert result.results[0].status == "error", result.text()
        assert feedback.startswith("your code left a process running (python") and "it was stopped" in feedback
        assert "proc.wait()" in feedback
    finally:
        for process in started:
            process.kill()
            process.wait()


def test_a_process_the_answer_waits_for_is_not_reported():
    import subprocess
    import sys

    def answer(x):
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        return x * 2

    assert EXERCISE.check(answer).passed


def test_a_process_started_before_the_check_is_left_alone():
    import subprocess
    import sys

    mine = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        assert EXERCISE.check(lambda x: x * 2).passed
        assert mine.poll() is None
    finally:
        mine.kill()
        mine.wait()


def test_an_answer_that_raises_the_checkers_own_timeout_is_not_called_an_endless_loop():
    from helpers.exercises.deadline import CheckTimeout

    def answer(x):
        raise CheckTimeout()

    result = FAST.check(answer)
    texts = [r.feedback for r in result.results]
    assert all("your code raised CheckTimeout itself" in t for t in texts), result.text()
    assert "endless loop" not in result.text() and "not run:" not in result.text()


def test_a_real_endless_loop_is_still_one(quick_stop):
    # In a notebook cell (learner()), as a learner writes it: the stop is sent at once and the loop
    # ends. Defined in this file, the loop would count as checker code, which is sent the stop only
    # after RESEND_AFTER (0.5 s), past quick_stop's grace: it spun on and slowed every later test.
    answer = learner("def answer(x):\n    while True:\n        pass\n")
    before = _threads()
    result = FAST.check(answer)
    assert _threads() - before == set(), "the loop was stopped"
    assert "still running after 0.5 s: an endless loop?" in result.results[0].feedback
    assert "raised CheckTimeout itself" not in result.text()


def test_a_process_tree_an_answer_leaves_running_is_stopped_whole():
    import subprocess
    import sys
    import time

    import psutil

    started, grandchildren = [], []
    code = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); " \
           "time.sleep(600)"

    def answer(x):
        started.append(subprocess.Popen([sys.executable, "-c", code]))
        while not grandchildren:  # let the child start its own child (the exercise allows 120 s; no timing asserted)
            grandchildren.extend(psutil.Process(started[0].pid).children())
            time.sleep(0.05)
        return x * 2

    patient = Exercise("99.22", "double it", [Case("doubles 2", _equals(4))], timeout=120)
    try:
        feedback = patient.check(answer).results[0].feedback
        assert feedback.startswith("your code left 2 processes running (python") and "they were stopped" in feedback
        assert started[0].poll() is not None and not grandchildren[0].is_running()
    finally:
        for process in started:
            process.kill()
            process.wait()
