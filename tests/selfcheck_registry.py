"""The one registry of self-check verifiers, shared by ``tests/test_selfcheck_questions.py`` (00-08)
and ``tests/selfcheck_verifiers_09_11.py`` (09-11).

A verifier runs the behaviour a question asks about on the pinned stack and returns the choice
that is true; the test then checks it is the question's answer.
"""

from __future__ import annotations

from collections.abc import Callable

from helpers.selfcheck import Question

#: (notebook number, question id) -> a function of the question that returns its true choice.
VERIFIERS: dict[tuple[str, str], Callable[[Question], str]] = {}


def verifies(number: str, question_id: str) -> Callable[[Callable[[Question], str]], Callable[[Question], str]]:
    """Register the decorated function as the verifier of question ``question_id`` of notebook ``number``."""
    def register(function: Callable[[Question], str]) -> Callable[[Question], str]:
        VERIFIERS[(number, question_id)] = function
        return function
    return register


def pick(question: Question, fragment: str) -> str:
    """The one choice of ``question`` that contains ``fragment`` (an assertion error if not exactly one)."""
    found = [choice for choice in question.choices if fragment in choice]
    assert len(found) == 1, f"{question.id}: {fragment!r} is in {len(found)} choices"
    return found[0]
