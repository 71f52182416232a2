"""Exercise 20.1's own checks: the generated-input pieces (issue 27) tell every known-wrong answer from the
reference, the references agree on generated trajectories, and the pieces keep their promises (fresh inputs,
a readable repr, the learner's words in both editions).

The pieces are written to the interface of ``helpers/exercises/generated.py``; until that module is on main,
this file is what proves them. Hypothesis runs derandomized, so a failure is the same on every run."""

from __future__ import annotations

import pytest

from helpers.exercises import nb20
from helpers.i18n import use
from tests.solutions import nb20 as answers

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402

SETTINGS = settings(max_examples=300, derandomize=True, database=None, deadline=None)
REFERENCE = nb20.reference_order_violations


@pytest.mark.parametrize("name", sorted(answers.ORDER_RULES.wrong))
def test_generated_inputs_catch_every_known_wrong_answer(name):
    wrong = answers.ORDER_RULES.wrong[name].answer
    found = hypothesis.find(nb20.order_inputs(),
                            lambda spec: nb20.run_order(wrong, spec) != nb20.run_order(REFERENCE, spec),
                            settings=settings(max_examples=2000, derandomize=True, database=None))
    # the shrunk input is small and shown in the learner's words
    assert len(found.turns) <= 3 and len(found.rules) <= 2, found
    assert "before" in nb20.describe_order(found)


@SETTINGS
@given(nb20.order_inputs())
def test_the_references_agree_on_generated_trajectories(spec):
    want = nb20.run_order(REFERENCE, spec)
    for solution in answers.ORDER_RULES.solutions.values():
        assert nb20.run_order(solution, spec) == want
    # every broken rule is one of the rules, in their order
    rules = list(spec.rules)
    assert [rules.index(rule) for rule in want] == sorted(rules.index(rule) for rule in want)


def test_each_call_gets_fresh_lists_and_odd_values_become_an_outcome():
    spec = nb20.OrderSpec(turns=(("lookup_order", "refund"),), rules=(("lookup_order", "refund"),))

    def mutating(turns, rules):
        turns[0].clear()
        rules.clear()
        return []

    assert nb20.run_order(mutating, spec) == ()
    assert spec.turns == (("lookup_order", "refund"),)  # the spec is untouched
    assert nb20.run_order(REFERENCE, spec) == (("lookup_order", "refund"),)
    assert nb20.run_order(lambda turns, rules: "nothing", spec) == ("not a list of (first, then) pairs",)
    assert nb20.run_order(lambda turns, rules: [("a",)], spec) == ("not a list of (first, then) pairs",)


def test_the_spec_reads_like_the_notebook():
    spec = nb20.OrderSpec(turns=(("lookup_order", "refund"), ("refund",)), rules=(("lookup_order", "refund"),))
    assert repr(spec) == ("OrderSpec(turns=[['lookup_order', 'refund'], ['refund']], "
                          "rules=[('lookup_order', 'refund')])")
    assert nb20.describe_order(spec) == ("turns [['lookup_order', 'refund'], ['refund']] with the rules: "
                                         "lookup_order before refund")
    with use("zh-CN"):
        described = nb20.describe_order(spec)
    assert described != nb20.describe_order(spec) and "lookup_order" in described
