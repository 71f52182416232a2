"""Verifiers of the self-check questions, found by file and function name.

A question ``"what-pairs-the-answer"`` of notebook 00 (``helpers/selfcheck/nb00.py``) is proven by the
function ``verify_what_pairs_the_answer(question)`` in ``tests/selfcheck_verifiers/nb00.py``: it runs
the behaviour the question asks about on the pinned stack (the scripted model's moves are the
fixture) and returns the choice that is true, usually with :func:`pick`;
``tests/test_selfcheck_questions.py`` checks that it is the question's ``answer``. A "predict the
output" question needs no verifier when its snippet, run after the question module's
``CODE_CONTEXT``, prints the answer. This is the course's one registration mechanism (files named
``nbNN.py``, see CONTRIBUTING): there is no list or decorator to update.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from helpers.selfcheck import Question

__all__ = ["PREFIX", "function_name", "pick", "verifiers_of"]

#: A verifier's name is this prefix and the question id with ``-`` written ``_``.
PREFIX = "verify_"
Verifier = Callable[[Question], str]


def function_name(question_id: str) -> str:
    """``"verify_what_pairs_the_answer"`` for ``"what-pairs-the-answer"``."""
    return PREFIX + question_id.replace("-", "_")


def verifiers_of(number: str) -> dict[str, Verifier]:
    """``{function name: verifier}`` of notebook ``number`` (two digits); empty when
    ``tests/selfcheck_verifiers/nbNN.py`` does not exist."""
    if not (Path(__file__).parent / f"nb{number}.py").is_file():
        return {}
    module = importlib.import_module(f"{__name__}.nb{number}")
    return {name: value for name, value in vars(module).items()
            if name.startswith(PREFIX) and callable(value) and getattr(value, "__module__", "") == module.__name__}


def pick(question: Question, fragment: str) -> str:
    """The one choice of ``question`` that contains ``fragment`` (an assertion error if not exactly one)."""
    found = [choice for choice in question.choices if fragment in choice]
    assert len(found) == 1, f"{question.id}: {fragment!r} is in {len(found)} choices"
    return found[0]
