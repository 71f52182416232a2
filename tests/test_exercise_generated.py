"""Generated inputs in the exercise core (issue 27, ``helpers/exercises/generated.py``): the answer is
compared with the reference on inputs Hypothesis draws, the smallest difference is reported in the
learner's words, the verdict is the same in every run and process, nothing is printed or written, and
a hostile answer on a generated input ends like one on a named case."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from helpers import i18n
from helpers.exercises import Case, Exercise, Generated
from helpers.exercises import deadline as deadline_module
from helpers.exercises.generated import MAX_PLAIN_ITEMS, Opaque, ReferenceFailed, plain
from tests.learner_cells import learner

ROOT = Path(__file__).resolve().parent.parent
NAME = "agrees with the reference on generated lists"


def _sorted(numbers):
    return sorted(numbers)


def _run(answer, spec):
    return answer(list(spec))


def _describe(spec):
    return f"the list {list(spec)}"


def _numbers(**kwargs) -> Generated:
    return Generated(NAME, st.lists(st.integers(0, 9), max_size=8).map(tuple), _run, _sorted, _describe,
                     hint="keep every number, duplicates included", **kwargs)


def _exercise(**kwargs) -> Exercise:
    def two_one(answer):
        if answer([2, 1]) != [1, 2]:
            raise AssertionError("sort [2, 1]")
    return Exercise("99.7", "sort", [Case("sorts [2, 1]", two_one)], generated=_numbers(**kwargs))


# -- verdicts ----------------------------------------------------------------------------------------


def test_the_reference_passes_and_the_check_counts_the_generated_case():
    result = _exercise().evaluate(_sorted)
    assert result.passed, result.text()
    assert [r.name for r in result.results] == ["sorts [2, 1]", NAME]
    assert _exercise().check_names == ["sorts [2, 1]", NAME]


def test_a_wrong_answer_the_named_case_misses_fails_on_the_smallest_input():
    result = _exercise().evaluate(lambda numbers: sorted(set(numbers)))
    assert result.text() == (
        "Exercise 99.7 (sort): 1/2 checks passed\n"
        "  [PASS] sorts [2, 1]\n"
        f"  [FAIL] {NAME} - the smallest input found where your answer and the reference differ: the list [0, 0]. "
        "The reference gives [0, 0]; your answer gives [0] (hint: keep every number, duplicates included)")


def test_the_difference_is_shrunk_to_the_smallest_input():
    def answer(numbers):  # wrong only for lists of at least 3 numbers that hold a 7
        return sorted(numbers, reverse=len(numbers) >= 3 and 7 in numbers)

    report = _numbers().search(answer)
    assert report.differs and report.error is None
    assert report.spec == (0, 0, 7) or sorted(report.spec) == [0, 0, 7], report.spec
    assert report.expected == sorted(report.spec) and report.got == sorted(report.spec, reverse=True)


def test_an_exception_on_a_generated_input_is_an_error_that_names_the_input():
    answer = learner("def answer(numbers):\n    return sorted(numbers) if len(numbers) < 2 else numbers[5]\n")
    text = _exercise().evaluate(answer).text()
    assert (f"[ERROR] {NAME} - your code raised IndexError: list index out of range (on this generated input: the "
            "list [0, 0]) (hint: keep every number, duplicates included)") in text, text


def test_a_hidden_checks_assertion_in_run_is_a_fail_with_the_input():
    def run(answer, spec):
        got = answer(list(spec))
        if not isinstance(got, list):
            raise AssertionError(f"return a list, got {type(got).__name__}")
        return got

    exercise = Exercise("99.7", "sort", [Case("anything", lambda a: None)],
                        generated=Generated(NAME, st.lists(st.integers(0, 9)).map(tuple), run, _sorted, _describe))
    text = exercise.evaluate(lambda numbers: tuple(sorted(numbers))).text()
    assert f"[FAIL] {NAME} - return a list, got tuple (on this generated input: the list [])" in text, text


def test_values_that_claim_to_equal_anything_are_compared_as_plain_data():
    class Yes(list):
        def __eq__(self, other):
            return True

        __hash__ = None

    result = _exercise().evaluate(lambda numbers: Yes(sorted(set(numbers))))
    assert not result.passed and "your answer gives [0]" in result.text(), result.text()


def test_plain_makes_built_in_data_and_bounds_what_it_copies():
    class Text(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    class Thing:
        pass

    made = plain({"a": [Text("x"), (1, 2.5)], "s": {3}, "n": None})
    assert made == {"a": ["x", (1, 2.5)], "s": {3}, "n": None}
    assert type(made["a"][0]) is str
    assert plain(Thing()) == Opaque(plain(Thing()).text) and " at 0x" not in plain(Thing()).text
    huge = plain(list(range(MAX_PLAIN_ITEMS + 1)))
    assert isinstance(huge, Opaque) and huge.text.startswith("<a value too large to compare: [0, 1, 2,")
    deep: list = [1]
    for _ in range(25):
        deep = [deep]
    assert isinstance(plain(deep), Opaque)


def test_the_verdict_is_the_same_on_every_check():
    answer = lambda numbers: sorted(numbers)[1:] if len(numbers) > 3 else sorted(numbers)  # noqa: E731
    texts = {_exercise().evaluate(answer).text() for _ in range(3)}
    assert len(texts) == 1, texts


# -- bounds ------------------------------------------------------------------------------------------


def test_shrinking_tries_at_most_shrinks_inputs_after_the_first_difference():
    calls = []

    def answer(numbers):
        calls.append(len(numbers) >= 4)
        return [-1] if len(numbers) >= 4 else sorted(numbers)  # differs on every list of 4 or more

    report = _numbers(shrinks=3).search(answer)
    assert report.differs and len(report.spec) >= 4 and len(calls[calls.index(True):]) <= 1 + 3, calls
    unbounded = []
    full = _numbers().search(lambda numbers: unbounded.append(1) or ([-1] if len(numbers) >= 4 else sorted(numbers)))
    assert len(unbounded) > len(calls), "without the bound, shrinking runs it more often"
    assert full.spec == (0, 0, 0, 0), "and finds the smallest input"


def test_the_reference_runs_once_per_input_in_a_process():
    counted = []

    def reference(numbers):
        counted.append(tuple(numbers))
        return sorted(numbers)

    generated = Generated(NAME, st.lists(st.integers(0, 9), max_size=4).map(tuple), _run, reference, _describe,
                          examples=30)
    first = generated.search(_sorted)
    runs = len(counted)
    second = generated.search(_sorted)
    assert not first.differs and not second.differs and first.inputs == second.inputs > 10
    assert runs == len(set(counted)) == first.inputs and len(counted) == runs, "the second search reused them"


def test_a_replayed_search_finds_what_a_fresh_search_finds():
    answers = [_sorted, lambda numbers: sorted(set(numbers)), lambda numbers: sorted(numbers)[:5],
               lambda numbers: sorted(numbers, reverse=3 in numbers and len(numbers) > 2)]
    fresh = [_numbers().search(answer) for answer in answers]
    generated = _numbers()
    assert not generated.search(_sorted).differs  # keeps its inputs for the next searches
    replayed = [generated.search(answer) for answer in answers]
    assert [(r.spec, r.expected, r.got) for r in replayed] == [(r.spec, r.expected, r.got) for r in fresh]
    assert [r.differs for r in fresh] == [False, True, True, True]


def test_a_reference_that_raises_is_the_checkers_bug_not_the_learners():
    broken = Generated(NAME, st.lists(st.integers(0, 9)).map(tuple), _run, lambda numbers: numbers[0], _describe)
    with pytest.raises(ReferenceFailed, match=r"the reference raised IndexError: list index out of range on \(\)"):
        broken.search(_sorted)
    exercise = Exercise("99.7", "sort", [Case("anything", lambda a: None)], generated=broken)
    assert "the check could not judge this answer (an error in the checker)" in exercise.evaluate(_sorted).text()


def test_an_answer_that_loops_on_a_generated_input_is_stopped_and_leaves_no_thread():
    answer = learner("def answer(numbers):\n    while len(numbers) > 2:\n        pass\n    return sorted(numbers)\n")
    exercise = _exercise()
    exercise.timeout = 0.2  # the generated check gets TIMEOUT_FACTOR (3) times that
    before = set(threading.enumerate())
    text = exercise.evaluate(answer).text()
    assert f"[ERROR] {NAME} - your code was still running after 0.6 s: an endless loop? It was stopped." in text, text
    assert set(threading.enumerate()) <= before


def test_an_answer_that_leaves_threads_running_ends_the_search_early(monkeypatch):
    monkeypatch.setattr(deadline_module, "LEFTOVER_GRACE", 0.02)
    answer = learner("import threading, time\n"
                     "def answer(numbers):\n"
                     "    if len(numbers) > 1:\n"
                     "        threading.Thread(target=time.sleep, args=(0.3,), name='leaky').start()\n"
                     "    return sorted(numbers)\n")
    calls = []
    generated = _numbers()
    original = generated.run

    def counting(answer, spec):
        calls.append(spec)
        return original(answer, spec)

    object.__setattr__(generated, "run", counting)
    exercise = Exercise("99.7", "sort", [Case("anything", lambda a: None)], generated=generated)
    text = exercise.evaluate(answer).text()
    assert "your code left 2 threads running (leaky, leaky)" in text, text
    answer_calls = [spec for spec in calls if len(spec) > 1]
    assert len(answer_calls) <= 2 * 2, "the search stopped once 2 threads were left"


def test_a_result_too_large_to_compare_ends_the_search_on_the_first_input_that_gives_it():
    calls = []

    def answer(numbers):
        calls.append(numbers)
        return list(range(MAX_PLAIN_ITEMS + 1)) if numbers else []

    report = _numbers().search(answer)
    assert report.differs and report.got.too_big and len(calls) == len([c for c in calls if not c]) + 1, calls


def test_keyboard_interrupt_on_a_generated_input_stops_the_check():
    def answer(numbers):
        if len(numbers) > 1:
            raise KeyboardInterrupt
        return sorted(numbers)

    with pytest.raises(KeyboardInterrupt):
        _exercise().evaluate(answer)


def test_bad_declarations_are_refused():
    with pytest.raises(TypeError, match="inputs must be a Hypothesis strategy"):
        Generated(NAME, [1, 2], _run, _sorted, _describe)
    with pytest.raises(ValueError, match="examples must be a positive int"):
        Generated(NAME, st.just(()), _run, _sorted, _describe, examples=0)
    with pytest.raises(ValueError, match="two checks have the same name"):
        Exercise("99.7", "sort", [Case(NAME, lambda a: None)], generated=_numbers())


def test_hypothesis_local_constants_are_off_during_a_search_and_back_after():
    original = providers._get_local_constants, providers.CONSTANTS_CACHE
    seen = []

    def answer(numbers):
        seen.append((providers._get_local_constants(), providers.CONSTANTS_CACHE is original[1]))
        return sorted(numbers)

    _numbers(examples=3).search(answer)
    assert seen and all(len(pool) == 0 and not shared for pool, shared in seen)
    assert (providers._get_local_constants, providers.CONSTANTS_CACHE) == original


def test_the_feedback_is_in_chinese_in_the_chinese_edition():
    with i18n.use("zh-CN"):
        text = _exercise().evaluate(lambda numbers: sorted(set(numbers))).text()
    assert "the smallest input found" not in text and "[0, 0]" in text, text


# -- the same verdict in every process, nothing printed, nothing written --------------------------------

_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from helpers.exercises.registry import get
from tests.learner_cells import learner
from tests.test_exercise_generated import _exercise
answers = {{
    "wrong": lambda numbers: sorted(set(numbers)),
    "raises": learner("def answer(numbers):\\n    return numbers[3] if numbers else []\\n"),
    "reversed": lambda numbers: sorted(numbers, reverse=sum(numbers) % 3 == 1),
}}
found = {{name: _exercise().evaluate(answer).text() for name, answer in answers.items()}}
for exercise_id in {real!r}:  # the course's own generated checks, on the wrong answers only they catch
    entry = get(exercise_id)
    for generated in entry.exercise().generated:
        for label, wrong in entry.answer_set().wrong.items():
            if wrong.fails == (generated.name,):
                report = generated.search(wrong.answer)
                found[exercise_id + " " + label] = generated.difference_text(report) if report.error is None \\
                    else generated.on_input(repr(report.error), report.spec)
print(json.dumps(found))
"""
#: Exercises whose generated checks the two processes run (cheap ones, of every kind of input).
_REAL = ("00.1", "14.1", "15.1", "16.1", "17.1")


def test_the_verdict_is_the_same_in_every_process_and_nothing_is_printed_or_written(tmp_path):
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
        done = subprocess.run([sys.executable, "-c", _SCRIPT.format(root=str(ROOT), real=_REAL)], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    verdicts = json.loads(outputs[0])
    assert all(f"[FAIL] {NAME}" in text or f"[ERROR] {NAME}" in text for name, text in verdicts.items()
               if name in ("wrong", "raises", "reversed")), verdicts
    real = {name: text for name, text in verdicts.items() if name.split()[0] in _REAL}
    assert {name.split()[0] for name in real} == set(_REAL), real
    assert all(text.startswith("the smallest input found where") for text in real.values()), real
    assert list(tmp_path.iterdir()) == [], "a search wrote into the working directory (a .hypothesis folder?)"
