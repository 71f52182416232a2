"""Exercise 13.1 beyond the registry's contract: the cases each wrong answer fails, and the generated inputs.

The generated part (``helpers.exercises.nb13_streams.GENERATED``: a Hypothesis strategy, a run function, the
reference, a description) plugs into the generated-input core of issue 27; these tests prove its pieces on their own:
the reference agrees with itself on 200 derandomized inputs (fresh objects each run), every known-wrong answer
differs from it on some input (issue 27: "a provider's other reason runs the refund"), and the space reaches every
stop value each API documents.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.exercises import nb13
from helpers.exercises.nb13_streams import (ENDED_NORMALLY, GENERATED, STREAM_SPECS, StreamSpec, describe, merged,
                                            reference_runnable_calls, run_on)
from helpers.i18n import use
from helpers.model.provider_streams import INCOMPLETE_REASONS, STOP_SIGNALS
from tests.solutions import nb13 as sol

CASES = [case.name for case in nb13.RUNNABLE_CALLS.cases]


def test_wrong_answers_fail_the_expected_cases():
    failed = {name: {r.name for r in nb13.RUNNABLE_CALLS.evaluate(wrong.answer).failed}
              for name, wrong in sol.RUNNABLE_CALLS.wrong.items()}
    assert failed["knows only OpenAI's finish_reason"] == {"Responses API: a complete reply",
                                                           "ChatAnthropic: a complete reply"}
    assert failed["a deny-list of every integration's cut"] == {"a stream without its finish_reason",
                                                                "ChatAnthropic: cut by the context window"}
    assert failed["misses the Responses API"] == {"Responses API: a complete reply"}
    assert "ChatAnthropic: cut at max_tokens" in failed["refuses only length"]
    for name, wrong in sol.RUNNABLE_CALLS.wrong.items():
        assert set(wrong.fails) <= failed[name], name


def test_the_shared_allow_list_is_the_one_the_solutions_teach():
    assert ENDED_NORMALLY == {key: tuple(values) for key, values in sol.ENDED_NORMALLY.items()}


@pytest.fixture(scope="module")
def sample() -> list[StreamSpec]:
    """400 generated inputs, derandomized: the same every run (a check uses the same strategy, fewer examples)."""
    specs: list[StreamSpec] = []

    @settings(max_examples=400, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(STREAM_SPECS)
    def collect(spec):
        specs.append(spec)

    collect()
    return specs


@pytest.fixture(scope="module")
def expected(sample) -> list[list]:
    """The reference's outcome on each input of the sample."""
    return [run_on(reference_runnable_calls, spec) for spec in sample]


def test_the_reference_decides_the_same_on_fresh_objects_every_time(sample, expected):
    assert len(sample) >= 200
    for spec, first in zip(sample, expected):
        assert run_on(reference_runnable_calls, spec) == first
        assert run_on(sol.runnable_calls, spec) == first, describe(spec)
        assert run_on(sol.runnable_calls_by_provider, spec) == first, describe(spec)
        assert isinstance(describe(spec), str) and describe(spec)


def _differs(answer, sample, expected):
    """The smallest generated input (shortest repr) where ``answer`` and the reference disagree, or ``None``."""
    differ = []
    for spec, outcome in zip(sample, expected):
        try:
            if run_on(answer, spec) != outcome:
                differ.append(spec)
        except AssertionError:  # the checker's shape rules: it changed the message, returned a non-list
            differ.append(spec)
    return min(differ, key=lambda spec: len(repr(spec))) if differ else None


@pytest.mark.parametrize("name", [*sol.RUNNABLE_CALLS.wrong, *sol.GENERATED_WRONG])
def test_every_known_wrong_answer_differs_from_the_reference_on_a_generated_input(name, sample, expected):
    wrong = sol.RUNNABLE_CALLS.wrong[name].answer if name in sol.RUNNABLE_CALLS.wrong else sol.GENERATED_WRONG[name]
    assert _differs(wrong, sample, expected) is not None, f"{name} agrees with the reference on every generated input"


def test_a_deny_list_is_caught_by_a_reason_nobody_picked(sample, expected):
    """Issue 27: a deny-list of finish reasons passed every hand-picked case; the space finds the other reasons."""
    spec = _differs(sol.refuses_every_providers_cut, sample, expected)
    assert run_on(reference_runnable_calls, spec) == []
    assert run_on(sol.refuses_every_providers_cut, spec) != []
    print("shortest input a deny-list gets wrong:", describe(spec))


@pytest.mark.parametrize("provider", list(STOP_SIGNALS))
def test_the_space_reaches_every_stop_value_each_api_documents(provider, sample):
    reached = {spec.stop for spec in sample if spec.provider == provider and spec.calls}
    assert reached == set(STOP_SIGNALS[provider].values)
    if provider == "responses":
        assert {spec.incomplete_reason for spec in sample} >= set(INCOMPLETE_REASONS)


@pytest.mark.parametrize("condition", [
    lambda spec: spec.cut is not None, lambda spec: spec.dropped > 0 and bool(spec.calls),
    lambda spec: any(call.arguments is None for call in spec.calls), lambda spec: not spec.calls and bool(spec.text),
    lambda spec: len(spec.calls) >= 2 and [c.id for c in spec.calls] != sorted(c.id for c in spec.calls),
    lambda spec: len(spec.calls) >= 2 and bool(run_on(reference_runnable_calls, spec)),
], ids=["cut", "dropped", "invalid", "text only", "ids not sorted", "several calls that run"])
def test_the_space_holds_cut_dropped_invalid_text_and_unsorted_ids(condition, sample):
    assert any(condition(spec) for spec in sample)


def test_describe_says_where_the_signal_went_in_both_editions():
    lost = StreamSpec("anthropic", "tool_use", calls=(nb13._anthropic(nb13._REFUND),), dropped=1)
    assert "stop_reason" not in merged(lost).response_metadata
    assert describe(lost).startswith("a streamed ChatAnthropic reply whose last chunk never arrived, so the merged "
                                     "message has no stop_reason")
    kept = StreamSpec("chat_completions", "tool_calls", calls=(nb13._REFUND,), dropped=1)
    assert "finish_reason" in merged(kept).response_metadata, "chat.completions' last chunk is the empty one"
    assert "its last chunk never arrived (the signal had)" in describe(kept)
    with use("zh-CN"):
        assert describe(lost) != describe(kept) and "ChatAnthropic" in describe(lost)
        assert "never arrived" not in describe(lost)


def test_a_generated_check_takes_well_under_two_seconds():
    """Figures, not a timed assert: the examples a check runs, generated and compared with the reference."""
    specs = []

    @settings(max_examples=GENERATED["examples"], derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data):
        specs.append(data.draw(GENERATED["inputs"]))

    start = time.perf_counter()
    collect()
    generated = time.perf_counter() - start
    start = time.perf_counter()
    for spec in specs:
        assert GENERATED["run"](GENERATED["reference"], spec) == run_on(reference_runnable_calls, spec)
    print(f"{len(specs)} inputs generated in {generated:.2f} s, run twice in {time.perf_counter() - start:.2f} s")
    assert len(specs) == GENERATED["examples"]
