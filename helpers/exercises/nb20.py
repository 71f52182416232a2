"""Exercises of notebook 20 (middleware that decides for you, and how to test an agent).

``ORDER_RULES`` (20.1) asks for the order check of a trajectory evaluation::

    order_violations(turns: list[list[str]], rules: list[tuple[str, str]]) -> list[tuple[str, str]]

``turns`` is a trajectory of tool names, one list per model reply (the calls of one reply were asked
together: the model had none of their results); ``rules`` are ``(first, then)`` pairs of two different
tools. A rule is broken when some call of ``then`` has no call of ``first`` in an **earlier** turn (the same
turn does not count); a rule whose ``then`` is never called holds. The answer returns the broken rules, in
the order of ``rules``. openevals 0.2.2, the evaluator the notebook uses for must-call constraints, has no
such check (its ``strict`` mode compares whole message sequences).

Named cases give the hints. The generated-input pieces (issue 27) are here too, written to the interface
of ``helpers/exercises/generated.py`` (``Generated(name, inputs=..., run=..., reference=..., describe=...,
hint=..., examples=...)``): :func:`order_inputs` (a Hypothesis strategy of :class:`OrderSpec`),
:func:`run_order`, :func:`reference_order_violations`, :func:`describe_order` and :data:`GENERATED_HINT`.
Until that module is on main they are not wired into ``ORDER_RULES``; ``tests/test_exercises_nb20.py``
proves with Hypothesis that they tell every known-wrong answer from the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, _
from .core import Case, Exercise
from .results import shown

__all__ = ["GENERATED_HINT", "ORDER_RULES", "TOOLS", "OrderSpec", "describe_order", "order_inputs",
           "reference_order_violations", "run_order"]

#: The tool names the checks use (the desk of notebook 20, plus a read tool the desk does not have).
TOOLS = ("lookup_order", "refund", "cancel_order", "quote_refund")

Rule = tuple[str, str]


def reference_order_violations(turns: Sequence[Sequence[str]], rules: Sequence[Rule]) -> list[Rule]:
    """The reference: for each rule, every call of ``then`` needs a call of ``first`` in an earlier turn."""
    broken = []
    for first, then in rules:
        seen_first = False
        for turn in turns:
            if then in turn and not seen_first:
                broken.append((first, then))
                break
            seen_first = seen_first or first in turn
    return broken


def _as_rules(got: Any) -> list[Rule]:
    """The answer's value as plain ``(str, str)`` tuples, or AssertionError naming what is wrong with it.

    Compared as plain values: a list or str subclass cannot decide an equality itself."""
    assert isinstance(got, (list, tuple)), _("return a list of (first, then) tuples, got {type}: {got}").format(
        type=type(got).__name__, got=shown(got))
    rules = []
    for item in got:
        assert isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(x, str) for x in item), _(
            "each broken rule is a (first, then) pair of tool names, got {got}").format(got=shown(item))
        rules.append((str.__str__(item[0]), str.__str__(item[1])))
    return rules


def _expect(answer: Any, turns: list[list[str]], rules: list[Rule], want: list[Rule], hint: str) -> None:
    got = _as_rules(answer([list(turn) for turn in turns], [tuple(rule) for rule in rules]))
    assert got == want, _("for turns {turns} and rules {rules}: expected {want}, got {got}. {hint}").format(
        turns=turns, rules=rules, want=want, got=shown(got), hint=hint)


LOOKUP_FIRST: Rule = ("lookup_order", "refund")


def _in_order(answer: Any) -> None:
    _expect(answer, [["lookup_order"], ["refund"]], [LOOKUP_FIRST], [],
            _("refund comes in a later turn than lookup_order: the rule holds, so nothing is broken."))


def _then_first(answer: Any) -> None:
    _expect(answer, [["refund"], ["lookup_order"]], [LOOKUP_FIRST], [LOOKUP_FIRST],
            _("refund was called before any lookup_order: the rule is broken."))


def _same_turn(answer: Any) -> None:
    _expect(answer, [["lookup_order", "refund"]], [LOOKUP_FIRST], [LOOKUP_FIRST],
            _("Both calls are in one reply: they were asked together, so lookup_order is not in an earlier turn. "
              "Compare turn numbers, not positions in a flat list."))


def _never_called(answer: Any) -> None:
    _expect(answer, [["lookup_order"], ["cancel_order"]],
            [LOOKUP_FIRST, ("quote_refund", "refund"), ("refund", "cancel_order")], [("refund", "cancel_order")],
            _("A rule whose `then` is never called holds, whether or not `first` was called (refund is never "
              "called); cancel_order was called with no refund before it."))


def _every_call(answer: Any) -> None:
    _expect(answer, [["refund"], ["lookup_order"], ["refund"]], [LOOKUP_FIRST], [LOOKUP_FIRST],
            _("Every call of `then` needs an earlier `first`: the first refund has none, although a later one does."))


def _any_earlier_turn(answer: Any) -> None:
    _expect(answer, [["lookup_order"], ["refund"], ["refund"]], [LOOKUP_FIRST], [],
            _("`first` may be in any earlier turn, not only the one just before."))


def _rules_in_order(answer: Any) -> None:
    rules = [("quote_refund", "lookup_order"), ("lookup_order", "cancel_order"), LOOKUP_FIRST]
    _expect(answer, [["refund"], ["lookup_order"], ["cancel_order"]], rules,
            [("quote_refund", "lookup_order"), LOOKUP_FIRST],
            _("Return the broken rules in the order of `rules`, each once, as (first, then) tuples."))


def _no_turns(answer: Any) -> None:
    _expect(answer, [], [LOOKUP_FIRST], [], _("A run without tool calls breaks no order rule."))


# -- generated inputs (issue 27): the pieces for helpers/exercises/generated.py ----------------------------------


@dataclass(frozen=True)
class OrderSpec:
    """One generated input: a trajectory of tool names per turn and the order rules (immutable, readable)."""

    turns: tuple[tuple[str, ...], ...]
    rules: tuple[Rule, ...]

    def __repr__(self) -> str:
        turns = [list(turn) for turn in self.turns]
        return f"OrderSpec(turns={turns}, rules={list(self.rules)})"


def order_inputs() -> Any:
    """A Hypothesis strategy of :class:`OrderSpec`: 0-4 turns of 1-3 calls each, 1-3 distinct rules of two
    different tools, all names from :data:`TOOLS` (so parallel calls, repeated calls, tools never called and
    rules whose tools never appear all occur).

    Hypothesis is imported here, when a check asks for the strategy, not when the notebook imports this module.
    """
    from hypothesis import strategies as st

    name = st.sampled_from(TOOLS)
    turns = st.lists(st.lists(name, min_size=1, max_size=3).map(tuple), max_size=4).map(tuple)
    rule = st.tuples(name, name).filter(lambda pair: pair[0] != pair[1])
    rules = st.lists(rule, min_size=1, max_size=3, unique=True).map(tuple)
    return st.builds(OrderSpec, turns=turns, rules=rules)


def run_order(answer: Any, spec: OrderSpec) -> Any:
    """Call ``answer`` on fresh lists built from ``spec``; the outcome is a tuple of ``(first, then)`` tuples, or
    ``("not a list of (first, then) pairs",)`` when the value has another shape (comparable with ``==``)."""
    got = answer([list(turn) for turn in spec.turns], [tuple(rule) for rule in spec.rules])
    try:
        return tuple(_as_rules(got))
    except AssertionError:
        return ("not a list of (first, then) pairs",)


def describe_order(spec: OrderSpec) -> str:
    """The input in the learner's words."""
    rules = ", ".join(_("{first} before {then}").format(first=first, then=then) for first, then in spec.rules)
    return _("turns {turns} with the rules: {rules}").format(turns=[list(turn) for turn in spec.turns], rules=rules)


#: Shown when a generated input tells the answer from the reference.
GENERATED_HINT = N_("A rule (first, then) is broken when some call of `then` has no `first` in an earlier turn; "
                    "the same turn does not count, and a `then` never called breaks nothing.")


ORDER_RULES = Exercise(
    "20.1",
    "order constraints of a trajectory, turn by turn",
    [
        Case("in order, one turn each", _in_order),
        Case("then before first", _then_first),
        Case("both asked in one reply", _same_turn),
        Case("then never called", _never_called),
        Case("a later call of then without an earlier first", _every_call),
        Case("first two turns earlier", _any_earlier_turn),
        Case("several rules, in their order", _rules_in_order),
        Case("no tool calls at all", _no_turns),
    ],
    probe=lambda answer: answer([["lookup_order"], ["refund"]], [LOOKUP_FIRST]),
    # when helpers/exercises/generated.py is on main (issue 27), add:
    # generated=Generated("agrees with the reference on generated trajectories", order_inputs(), run_order,
    #                     reference_order_violations, describe_order, hint=GENERATED_HINT),
)
