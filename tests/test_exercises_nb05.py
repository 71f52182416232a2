"""Exercise 05.1: the reference predictions pass, wrong ones fail with explanations, a crash is feedback."""

from __future__ import annotations

import pytest

from helpers.exercises import nb05
from tests.solutions import nb05 as sol


def test_outcomes_match_the_pinned_versions():
    labels = {cid: label for cid, (label, _) in nb05.outcomes().items()}
    assert labels == sol.SOLUTION


def test_solution_passes():
    result = nb05.PREDICT_THEN_RUN.check(dict(sol.SOLUTION))
    assert result.passed, result.text()


@pytest.mark.parametrize("answer", sol.WRONG, ids=range(len(sol.WRONG)))
def test_wrong_predictions_fail(answer):
    result = nb05.PREDICT_THEN_RUN.check(answer)
    assert result.solved and not result.passed, result.text()


def test_feedback_explains():
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_MIXIN_IS_A_CONTRACT).text()
    assert "you predicted raw, the real outcome is error" in text
    assert "ToolNode accepts only ToolMessage, Command" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_UNKNOWN_LABEL).text()
    assert "'json' is not one of" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_LIST_IS_A_COMMAND).text()
    assert "you predicted Command, the real outcome is raw" in text
    assert "you get the list itself" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_MIXED_LIST_PASSES).text()
    assert "you predicted raw, the real outcome is ToolMessage" in text
    assert "all-items rule does not apply" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_ARTIFACT_TUPLE).text()
    assert "artifact=[{'order_id': 'A1024'}" in text
    assert "only the content part" in text


def test_exactly_the_wrong_cases_fail():
    for answer, bad in [(sol.WRONG_MIXIN_IS_A_CONTRACT, {"c", "d"}), (sol.WRONG_LIST_IS_A_COMMAND, {"e"}),
                        (sol.WRONG_MIXED_LIST_PASSES, {"f"}), (sol.WRONG_ARTIFACT_TUPLE, {"g", "h"})]:
        result = nb05.PREDICT_THEN_RUN.check(answer)
        failed = {r.name.split()[1] for r in result.failed}
        assert failed == bad, result.text()


def test_unsolved_hint_talks_about_predictions():
    text = nb05.PREDICT_THEN_RUN.check(nb05.blank_predictions()).text()
    assert 'replace every "?" in `predictions`' in text
    assert "NotImplementedError" not in text


def test_blank_is_unsolved():
    result = nb05.PREDICT_THEN_RUN.check(nb05.blank_predictions())
    assert not result.solved
    partly = {**sol.SOLUTION, "e": "?"}
    assert not nb05.PREDICT_THEN_RUN.check(partly).solved


def test_missing_key_and_wrong_type():
    answer = dict(sol.SOLUTION)
    del answer["h"]
    text = nb05.PREDICT_THEN_RUN.check(answer).text()
    assert "add a prediction for case 'h'" in text
    assert not nb05.PREDICT_THEN_RUN.check(["ToolMessage"]).passed


def test_crash_is_feedback_not_exception():
    result = nb05.PREDICT_THEN_RUN.check(sol.crashing())
    assert result.solved and not result.passed
    assert all(r.status == "error" for r in result.results), result.text()
