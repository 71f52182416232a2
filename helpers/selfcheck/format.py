"""The self-check question format, by its place in the self-check package.

The format lives one floor down, in :mod:`helpers.selfcheck_format`, which imports nothing of the
course: the widget's engine reads questions without running this package's ``__init__`` (which
builds the widget), so the two do not import each other. A question module here writes
``from .format import Question`` as before.
"""

from __future__ import annotations

from ..selfcheck_format import (
    MAX_QUESTIONS,
    MIN_QUESTIONS,
    Question,
    QuestionKind,
    check_questions,
)

__all__ = ["MAX_QUESTIONS", "MIN_QUESTIONS", "Question", "QuestionKind", "check_questions"]
