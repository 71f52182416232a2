"""Exercise 05.1 beyond the contract (tests/test_exercise_contract.py): outcomes, the grid and explanations."""

from __future__ import annotations

import itertools

import pytest

from helpers.exercises import nb05
from tests.solutions import nb05 as sol

#: Every point of the generated grid: each kind of return value (lists of 0 to 3 items), each way of calling.
GRID = [(returns, called) for returns in (*nb05.RETURNS, *(items for size in range(4)
                                                           for items in itertools.product(nb05.ITEMS, repeat=size)))
        for called in nb05.CALLS]


def test_outcomes_match_the_pinned_versions():
    labels = {cid: label for cid, (label, _) in nb05.outcomes().items()}
    assert labels == sol.SOLUTION
    assert {cid: nb05.real_outcome(*nb05.CASE_INPUTS[cid]) for cid in nb05.CASES} == sol.SOLUTION


@pytest.mark.parametrize("solution", sol.PREDICT_THEN_RUN.solutions.values(), ids=list(sol.PREDICT_THEN_RUN.solutions))
def test_the_rules_are_what_the_pinned_versions_do_on_the_whole_grid(solution):
    """The reference runs each call for real; the notebook's rules (the solutions) give the same label everywhere."""
    differ = [(returns, called) for returns, called in GRID
              if solution(list(returns) if isinstance(returns, tuple) else returns, called)
              != nb05.real_outcome(returns, called)]
    assert differ == []


def test_the_grid_holds_each_label_for_each_way_of_calling_a_list():
    labels = {(called, nb05.real_outcome(returns, called)) for returns, called in GRID if isinstance(returns, tuple)}
    assert {("ToolCall", "raw"), ("ToolCall", "ToolMessage"), ("ToolNode", "error"), ("ToolNode", "ToolMessage"),
            ("plain arguments", "raw"), ("ToolCall without type", "error")} <= labels


def test_feedback_explains():
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_MIXIN_IS_A_CONTRACT).text()
    assert "you predicted raw, the real outcome is error" in text
    assert "ToolNode accepts only ToolMessage, Command" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_UNKNOWN_LABEL).text()
    assert "predict returned 'json', which is not one of" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_LIST_IS_A_COMMAND).text()
    assert "predict(['Command', 'Command'], 'ToolCall'): you predicted Command, the real outcome is raw" in text
    assert "you get the list itself" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_MIXED_LIST_PASSES).text()
    assert "you predicted raw, the real outcome is ToolMessage" in text
    assert "all-items rule does not apply" in text
    text = nb05.PREDICT_THEN_RUN.check(sol.WRONG_ARTIFACT_TUPLE).text()
    assert "artifact=[{'order_id': 'A1024'}" in text
    assert "only the content part" in text


def test_a_generated_difference_names_the_call_and_what_really_came_out():
    text = nb05.PREDICT_THEN_RUN.evaluate(sol.wrong_empty_list_passes).text()
    assert ("predict([], 'ToolCall'); the real call gives ToolMessage(content=[], tool_call_id='call_1'). The "
            "reference gives 'ToolMessage'; your answer gives 'raw'") in text


def test_the_stub_is_unsolved():
    def predict(returns, called):
        raise NotImplementedError("predict what comes out")

    result = nb05.PREDICT_THEN_RUN.check(predict)
    assert not result.solved
    assert "not solved yet - replace the `raise NotImplementedError`" in result.text()


def test_an_answer_that_empties_its_list_cannot_break_the_next_check():
    def pops(returns, called):
        if isinstance(returns, list):
            returns.clear()
        return sol.predict(returns, called)

    assert not nb05.PREDICT_THEN_RUN.evaluate(pops).passed  # it then predicts for []: another point of the grid
    assert nb05.CASE_INPUTS["e"] == (("Command", "Command"), "ToolCall")  # the checker's own data is untouched
    assert nb05.PREDICT_THEN_RUN.evaluate(sol.predict).passed


def test_the_dict_of_predictions_of_an_older_copy_is_named():
    """A learner's copy of 05 from before the grid holds ``predictions = {"a": ..., ...}``: the check says why."""
    result = nb05.PREDICT_THEN_RUN.evaluate({**sol.SOLUTION})
    assert result.solved and not result.passed
    assert all("got a dict: the predictions are a function predict(returns, called) now" in r.feedback
               for r in result.results), result.text()
