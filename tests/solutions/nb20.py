"""Reference solutions, known-wrong and crashing answers for exercise 20.1 (``helpers.exercises.nb20.ORDER_RULES``).

The known-wrong answers are the mistakes the notebook warns about: reading the trajectory as one flat list
(calls asked together count as ordered), requiring `first` in the turn just before, comparing the first
`first` with the last `then`, calling a rule broken when `then` never runs, returning the rules sorted.
``tests/test_exercises_nb20.py`` proves that the generated inputs catch each of them too.
"""

from __future__ import annotations

from helpers.exercises.nb20 import reference_order_violations as order_violations
from helpers.exercises.registry import AnswerSet, KnownWrong


def order_violations_by_turn_number(turns, rules):
    """Reference, second style: the turn of the first `first` against the turn of the first `then`."""
    def first_turn(name):
        return next((number for number, turn in enumerate(turns) if name in turn), None)

    broken = []
    for first, then in rules:
        then_at, first_at = first_turn(then), first_turn(first)
        if then_at is not None and (first_at is None or first_at >= then_at):
            broken.append((first, then))
    return broken


def wrong_flat(turns, rules):
    """Wrong: one flat list, so a call earlier in the same reply counts as before."""
    flat = [name for turn in turns for name in turn]
    return [(first, then) for first, then in rules
            if then in flat and (first not in flat or flat.index(first) > flat.index(then))]


def wrong_previous_turn_only(turns, rules):
    """Wrong: `first` must be in the turn just before each call of `then`."""
    broken = []
    for first, then in rules:
        if any(then in turn and (number == 0 or first not in turns[number - 1])
               for number, turn in enumerate(turns)):
            broken.append((first, then))
    return broken


def wrong_last_then(turns, rules):
    """Wrong: compares the first call of `first` with the LAST call of `then`."""
    broken = []
    for first, then in rules:
        thens = [n for n, turn in enumerate(turns) if then in turn]
        firsts = [n for n, turn in enumerate(turns) if first in turn]
        if thens and (not firsts or firsts[0] >= thens[-1]):
            broken.append((first, then))
    return broken


def wrong_never_called_breaks(turns, rules):
    """Wrong: a rule whose `then` is never called counts as broken when `first` is missing too."""
    called = {name for turn in turns for name in turn}
    return [rule for rule in rules if rule in order_violations(turns, [rule]) or rule[0] not in called]


def wrong_sorted(turns, rules):
    """Wrong: the right rules, sorted instead of in the order of `rules`."""
    return sorted(order_violations(turns, rules))


def wrong_lists(turns, rules):
    """Right rules as lists: accepted (a pair may be a list), so it is a solution in disguise."""
    return [list(rule) for rule in order_violations(turns, rules)]


def crashing_index(turns, rules):
    """Crashes with ValueError when a tool of a rule is never called (list.index)."""
    flat = [name for turn in turns for name in turn]
    return [(a, b) for a, b in rules if flat.index(a) > flat.index(b)]


ORDER_RULES = AnswerSet(
    solutions={"the checker's reference (one walk per rule)": order_violations, "first turn of each": order_violations_by_turn_number,
               "pairs as lists": wrong_lists},
    wrong={
        "a flat list": KnownWrong(wrong_flat, fails=("both asked in one reply",), status="fail"),
        "only the turn just before": KnownWrong(wrong_previous_turn_only, fails=("first two turns earlier",),
                                                status="fail"),
        "the last call of then": KnownWrong(wrong_last_then,
                                            fails=("a later call of then without an earlier first",), status="fail"),
        "never called breaks": KnownWrong(wrong_never_called_breaks, fails=("then never called",), status="fail"),
        "sorted": KnownWrong(wrong_sorted, fails=("several rules, in their order",), status="fail"),
    },
    crashing={"list.index of a tool never called": crashing_index},
    answer_from=lambda body: lambda turns, rules: body(),
)
