"""Exercise 19.1's generated-input pieces (``helpers/exercises/nb19.py``), ready for the generated-input core
(issue 27): the strategy's specs build well-formed histories, the reference passes on them, and Hypothesis finds
an input that tells each known-wrong answer from the reference."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from helpers.exercises.nb19 import GENERATED, build_history, describe_spec, reference_cut_point, run_cut
from tests.solutions.nb19 import CUT_POINT

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402

SPECS = GENERATED["inputs"]()


@settings(max_examples=80, deadline=None)
@given(SPECS)
def test_every_generated_history_pairs_each_call_with_its_results(spec):
    turns, keep = spec
    messages = build_history(turns)
    asked = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    assert asked == answered and len(set(asked)) == len(asked)
    assert len(messages) == 1 + sum(2 if t == 0 else 1 + t for t in turns)


@settings(max_examples=80, deadline=None)
@given(SPECS)
def test_the_reference_keeps_at_least_keep_and_never_starts_on_a_result(spec):
    turns, keep = spec
    messages = build_history(turns)
    start = run_cut(reference_cut_point, spec)
    assert len(messages) - start >= min(keep, len(messages))
    assert start == 0 or not isinstance(messages[start], ToolMessage)
    kept_ids = {m.tool_call_id for m in messages[start:] if isinstance(m, ToolMessage)}
    calls_kept = {c["id"] for m in messages[start:] if isinstance(m, AIMessage) for c in m.tool_calls}
    assert kept_ids <= calls_kept, "every result kept has its call"
    for solution in CUT_POINT.solutions.values():
        assert run_cut(solution, spec) == start


@pytest.mark.parametrize("name", sorted(CUT_POINT.wrong))
def test_generated_inputs_tell_each_known_wrong_answer_from_the_reference(name):
    wrong = CUT_POINT.wrong[name].answer

    def differs(spec):
        try:
            return run_cut(wrong, spec) != run_cut(reference_cut_point, spec)
        except AssertionError:  # the checker refused the answer's value: also a difference
            return True

    found = hypothesis.find(SPECS, differs, settings=settings(max_examples=500, database=None))
    assert describe_spec(found).startswith("history [0:human")


def test_run_builds_fresh_messages_for_every_call():
    spec = ((2, 0), 3)
    seen = []
    run_cut(lambda messages, keep: seen.append(messages) or 0, spec)
    run_cut(lambda messages, keep: seen.append(messages) or 0, spec)
    assert seen[0] is not seen[1] and seen[0][1] is not seen[1][1]
