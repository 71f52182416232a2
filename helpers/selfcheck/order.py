"""The order a question's choices are shown in: shuffled, but the same on every run and machine.

A question module lists its choices in any order (the right one is often written first). Shown in
that order, the answer could be guessed from its place, so the widget shows them sorted by a
SHA-256 digest of ``"<notebook>/<question id>/<choice>"``: a fixed shuffle that depends only on
those texts (not on Python's per-process salted ``hash()``, not on ``random``), so every learner,
every run and every machine sees the same order, and ``tests/test_widget_self_check.py`` can check
that the right answers are spread over the positions across the course. A translated question
(Chinese edition) is ordered by its English source's texts: the n-th choice goes where the source's
n-th choice goes, so both editions show the choices in the same order.
"""

from __future__ import annotations

import hashlib

from .format import Question

__all__ = ["shown_choices"]


def _key(notebook: str, question_id: str, choice: str) -> str:
    return hashlib.sha256(f"{notebook}/{question_id}/{choice}".encode("utf-8")).hexdigest()


def shown_choices(notebook: str, question: Question) -> tuple[str, ...]:
    """The choices of ``question`` in the order the self-check widget shows them.

    Args:
        notebook: the notebook number, e.g. ``"02"`` (part of the seed: one question id in two
            notebooks may be shown in two orders).
        question: the :class:`~helpers.selfcheck.Question`.

    Returns:
        ``question.choices`` reordered by the SHA-256 digest of ``"<notebook>/<id>/<choice>"``, the
        choice being the English one (``question.source``'s, for a translated question): deterministic,
        the same in both editions; it changes only when one of those English texts changes.
    """
    source = question.source or question
    order = sorted(range(len(source.choices)), key=lambda n: _key(notebook, source.id, source.choices[n]))
    return tuple(question.choices[n] for n in order)
