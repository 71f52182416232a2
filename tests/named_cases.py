"""``named_cases_only(exercise)``: an exercise's check without its generated inputs, for the per-exercise test
files that assert which named cases an answer fails (the generated checks are the contract's,
``tests/test_exercise_contract.py``, and each file's own tests of its generated inputs)."""

from __future__ import annotations

import copy

from helpers.exercises import Exercise


def named_cases_only(exercise: Exercise) -> Exercise:
    """A shallow copy of ``exercise`` whose ``generated`` checks are left out."""
    named = copy.copy(exercise)
    named.generated = []
    return named
