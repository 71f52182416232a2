"""Exercises: the core (:mod:`helpers.exercises.core`) and one module per notebook (``nbNN``).

A notebook imports its exercise and calls ``check`` on the learner's answer, e.g.::

    from helpers.exercises import nb01
    nb01.REFUND_TOOL.check(request_refund)

Reference solutions and known-wrong answers live in ``tests/solutions/``.
"""

from .core import Case, CaseResult, CheckResult, Exercise

__all__ = ["Case", "CaseResult", "CheckResult", "Exercise"]
