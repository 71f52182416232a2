"""Exercise 18.1 (the per-thread run guard) beyond the contract: on PostgreSQL as well as on the SQLite fallback,
and its generated-interleaving check (the pieces in ``helpers.exercises.nb18.GENERATED``).

The contract test runs the exercise on the checks' own SQLite fallback (no server needed). Here the same
answers are judged where a learner with PostgreSQL runs them: in a process whose ``course_database()`` is the
course's server. The generated check's strategy, run and reference are exercised with Hypothesis's own search
(as ``helpers/exercises/generated.py`` runs it): the references agree on every interleaving, each known-wrong
answer differs on one, and the interleaving found is described in words.
"""

from __future__ import annotations

import pytest

from helpers.exercises import nb18
from helpers.postgres import engine
from tests.postgres_here import require_postgres
from tests.solutions import nb18 as answers


@pytest.fixture(scope="module")
def on_postgresql():
    """This process's course database is PostgreSQL (what a learner's kernel has after notebook 18's setup)."""
    require_postgres()
    if engine.current_database() is None:
        engine.course_database()
    database = engine.current_database()
    if database.engine != "postgresql":
        pytest.skip("this process's course database is the fallback")
    return database


def test_the_checks_run_on_the_fallback_without_a_notebook_database():
    if engine.current_database() is not None:
        pytest.skip("another test made this process's course database")
    assert nb18._database().engine == "sqlite"


def test_on_postgresql_the_references_pass_and_the_wrong_answers_fail(on_postgresql):
    assert nb18._database() is on_postgresql
    for name, answer in {**answers.RUN_GUARD.solutions, "transaction": answers.guard_in_a_transaction}.items():
        assert nb18.RUN_GUARD.evaluate(answer).passed, name
    for name, wrong in answers.RUN_GUARD.wrong.items():
        result = nb18.RUN_GUARD.evaluate(wrong.answer)
        failed = {case.name for case in result.results if case.status == "fail"}
        assert set(wrong.fails) <= failed, (name, failed)


def test_a_guard_that_waits_is_told_to_reject_at_once():
    result = nb18.RUN_GUARD.evaluate(answers.waits_for_the_lock)
    first = result.results[0]
    assert first.status == "fail" and "pg_try_advisory_lock, which returns false instead of waiting" in str(first)


def test_lost_turns_are_counted_from_the_outcome():
    interleaving = (("t1", "refund", False, (("after_read", ("t1", "refund", False, ())),)),)
    unguarded = nb18.play(answers.no_guard, interleaving)
    assert nb18.lost_turns(unguarded) == 1 and dict(unguarded[2]) == {"t1": 2}, "one lost turn, two refunds"
    guarded = nb18.play(nb18.reference, interleaving)
    assert nb18.lost_turns(guarded) == 0 and dict(guarded[2]) == {"t1": 1}
    assert [run[2] for run in guarded[0]] == ["done", "busy"]


_REFERENCE: dict = {}


def _search(answer, examples: int = 30, shrink: bool = False):
    """Hypothesis's own search for an interleaving where ``answer`` and the reference differ (None: none)."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import HealthCheck, Phase, Verbosity, settings
    from hypothesis.errors import NoSuchExample

    chosen = settings(database=None, derandomize=True, deadline=None, verbosity=Verbosity.quiet,
                      max_examples=examples, phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,),
                      suppress_health_check=list(HealthCheck))

    def differs(spec) -> bool:
        key = repr(spec)  # the reference's outcome once per interleaving, as Generated.expected keeps it
        if key not in _REFERENCE:
            _REFERENCE[key] = nb18.play(nb18.reference, spec)
        expected = _REFERENCE[key]
        try:
            return nb18.play(answer, spec) != expected
        except AssertionError:
            return True

    try:
        return hypothesis.find(nb18.interleavings(), differs, settings=chosen)
    except NoSuchExample:
        return None


@pytest.mark.parametrize("name", sorted(answers.RUN_GUARD.solutions))
def test_the_generated_check_agrees_with_every_reference(name):
    assert _search(answers.RUN_GUARD.solutions[name]) is None


@pytest.mark.parametrize("name", ["no guard", "one lock for every thread", "never unlocks", "no finally",
                                  "swallows the turn's error"])
def test_the_generated_check_finds_an_interleaving_for_each_wrong_answer(name):
    found = _search(answers.RUN_GUARD.wrong[name].answer)
    assert found is not None, name
    assert nb18.describe(found).startswith("run 1 on t"), nb18.describe(found)


def test_the_generated_pieces_fit_the_generated_interface():
    assert set(nb18.GENERATED) == {"name", "run", "reference", "describe", "hint", "examples"}
    assert nb18.GENERATED["run"] is nb18.play and nb18.GENERATED["reference"] is nb18.reference
    spec = (("t2", "ask", True, ()), ("t1", "refund", False, (("after_write", ("t1", "ask", False, ())),)))
    assert nb18.describe(spec) == ("run 1 on t2 (a question), whose turn fails; run 2 on t1 (a refund); while it "
                                   "runs, after it wrote the thread, run 3 on t1 (a question) arrives")
    assert nb18.play(nb18.reference, spec) == nb18.play(nb18.reference, spec), "fresh objects: the same outcome"
