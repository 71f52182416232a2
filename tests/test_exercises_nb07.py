"""Exercise 07.1 beyond the contract (tests/test_exercise_contract.py): reducer feedback and the real parallel step."""

import pytest

from helpers.exercises import nb07
from tests.solutions import nb07 as sol


def test_reducer_returning_none_fails_every_case_with_a_hint():
    """A reducer that returns None fails each case (also the no-mutation one) and names the likely cause."""
    result = nb07.MERGE_QUOTES.check(sol.wrong_forgets_return)
    assert result.solved and not result.passed
    assert all(r.status == "fail" and "did you forget `return`?" in r.feedback for r in result.results), result.text()


def test_parallel_writes_really_run_in_one_step():
    """Without a reducer the same graph shape raises InvalidUpdateError: the writes are concurrent."""
    from typing import TypedDict

    from langgraph.errors import InvalidUpdateError
    from langgraph.graph import START, StateGraph

    class Plain(TypedDict):
        refundable: dict

    graph = StateGraph(Plain)
    graph.add_node("write_1", lambda s: {"refundable": {"A1024": 1.0}})
    graph.add_node("write_2", lambda s: {"refundable": {"A1024": 2.0}})
    graph.add_edge(START, "write_1")
    graph.add_edge(START, "write_2")
    with pytest.raises(InvalidUpdateError):
        graph.compile().invoke({"refundable": {}})
    assert nb07.run_parallel_writes(sol.merge_quotes, {}, [{"A1024": 1.0}, {"A1024": 2.0}]) == {"A1024": 1.0}


def test_a_zero_amount_is_the_smallest_quote():
    """Issue 27: a reducer that tests the amount's truth instead of the id's presence passed every named case
    (no named amount is 0.0); 0.0, nothing left to refund, must win any conflict."""
    spec = ((("A1024", 0.0),), ((("A1024", 450.0), ("A1030", 120.0)), (("A1030", 0.0),)))
    want = {"direct": {"A1024": 0.0, "A1030": 120.0}, "graph": {"A1024": 0.0, "A1030": 0.0}}
    assert nb07.step_outcome(nb07.merge_quotes, spec) == want
    assert nb07.step_outcome(sol.wrong_truthy_amount, spec) != want
    assert nb07.MERGE_QUOTES.generated[0].describe(spec) == (
        "the input {'A1024': 0.0}, then parallel writes {'A1024': 450.0, 'A1030': 120.0} / {'A1030': 0.0}")
