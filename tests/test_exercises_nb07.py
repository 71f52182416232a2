"""Exercise 07.1: the reference reducers pass, known-wrong reducers fail, a crash is reported."""

import pytest

from helpers.exercises import nb07
from tests.solutions import nb07 as sol


@pytest.mark.parametrize("name", sorted(sol.SOLUTIONS))
def test_solutions_pass(name):
    result = nb07.MERGE_QUOTES.check(sol.SOLUTIONS[name])
    assert result.passed, result.text()


@pytest.mark.parametrize("name", sorted(sol.WRONG))
def test_wrong_answers_fail(name):
    result = nb07.MERGE_QUOTES.check(sol.WRONG[name])
    assert result.solved and not result.passed, result.text()
    assert all(r.status == "fail" for r in result.failed), result.text()


def test_wrong_answers_fail_the_expected_case():
    failed = {name: {r.name for r in nb07.MERGE_QUOTES.check(fn).failed} for name, fn in sol.WRONG.items()}
    assert "a conflict keeps the smaller amount, whichever write comes first" in failed["last write wins"]
    assert "two parallel nodes in a StateGraph, in both orders" in failed["last write wins"]
    assert failed["mutates its argument"] == {"the arguments are not modified"}
    assert "a conflict keeps the smaller amount, whichever write comes first" in failed["keeps the larger amount"]
    assert "different orders are merged; empty sides change nothing" in failed["drops earlier orders"]
    assert failed["forgets to return"] == {r.name for r in nb07.MERGE_QUOTES.check(sol.wrong_forgets_return).results}


def test_reducer_returning_none_fails_every_case_with_a_hint():
    """A reducer that returns None fails each case (also the no-mutation one) and names the likely cause."""
    result = nb07.MERGE_QUOTES.check(sol.wrong_forgets_return)
    assert result.solved and not result.passed
    assert all(r.status == "fail" and "did you forget `return`?" in r.feedback for r in result.results), result.text()


def test_crashing_answer_is_reported_not_raised():
    result = nb07.MERGE_QUOTES.check(sol.crashing)
    assert not result.passed
    assert any(r.status == "error" and "KeyError" in r.feedback for r in result.results), result.text()


def test_stub_is_not_solved():
    def stub(current, update):
        raise NotImplementedError("write the reducer")

    result = nb07.MERGE_QUOTES.check(stub)
    assert not result.solved
    assert "not solved yet" in result.text()


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
