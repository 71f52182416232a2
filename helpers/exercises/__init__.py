"""Exercises: the core (:mod:`helpers.exercises.core`) and one module per notebook (``nbNN``).

A notebook imports its exercise and calls ``check`` on the learner's answer, e.g.::

    from helpers.exercises import nb01
    nb01.REFUND_TOOL.check(request_refund)

``check`` records the outcome in the learner's progress; ``evaluate`` shows the same feedback
without recording (for a demo cell whose answer is not the learner's own).

Every module-level ``Exercise`` in an ``nbNN.py`` here is registered by that file's name
(:mod:`helpers.exercises.registry` finds them: id, notebook, title, checker); its reference
solutions and known-wrong answers live under the same name in ``tests/solutions/nbNN.py``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import DEFAULT_TIMEOUT, Case, CaseResult, CheckResult, Exercise, Generated, Verdict

__all__ = ["DEFAULT_TIMEOUT", "Case", "CaseResult", "CheckResult", "Exercise", "Generated", "Verdict"]


def __getattr__(name: str) -> Any:
    """Load the exercise core's names on first use (PEP 562), so that reading the registry
    (:mod:`helpers.exercises.registry`, for the progress table) does not import the checkers.

    Raises:
        AttributeError: ``name`` is not one of :data:`__all__` (nor a submodule).
    """
    if name not in __all__:
        raise AttributeError(f"module 'helpers.exercises' has no attribute {name!r}")
    value = getattr(importlib.import_module(".core", __name__), name)
    globals()[name] = value
    return value
