"""Exercise 05.1 beyond the contract (tests/test_exercise_contract.py): outcomes and explanations."""

from __future__ import annotations

from helpers.exercises import nb05
from tests.solutions import nb05 as sol


def test_outcomes_match_the_pinned_versions():
    labels = {cid: label for cid, (label, _) in nb05.outcomes().items()}
    assert labels == sol.SOLUTION


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


