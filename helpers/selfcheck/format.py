"""The self-check question format: one :class:`Question` dataclass, checked when it is built.

A notebook's questions live in ``helpers/selfcheck/nbNN.py`` as ``QUESTIONS = (Question(...), ...)``
(3-5 of them). Good questions test the protocol, not the wording of the notebook: what runs, which
id answers which call, what a reducer returns, what a resume does. A "predict the output"
question shows ``code`` and offers candidate outputs as its choices.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

__all__ = ["MAX_QUESTIONS", "MIN_QUESTIONS", "Question", "QuestionKind", "check_questions"]

#: ``"choice"``: pick the right statement; ``"predict"``: read the code, pick what it prints or returns.
QuestionKind = Literal["choice", "predict"]
MIN_QUESTIONS, MAX_QUESTIONS = 3, 5
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")


@dataclass(frozen=True)
class Question:
    """One self-check question.

    Args:
        id: a stable slug, unique in its notebook (``"nothing-ran-yet"``); the progress file records it.
        prompt: the question, one or two sentences; text in backticks is shown as code.
        choices: 2-5 answers, in any order (for "predict" questions: candidate outputs); text in
            backticks is shown as code. The widget shows them in a fixed shuffled order
            (:func:`helpers.selfcheck.order.shown_choices`), so writing the right one first gives
            nothing away.
        answer: the right choice, exactly as it appears in ``choices``.
        explanation: one line, why the answer is right; shown after any answer.
        section: where the notebook teaches it, e.g. ``"section 3, Nothing has run yet"``.
        code: code shown above the choices; makes it a "predict the output" question.
        why_not: optional, wrong choice -> one line on why it is tempting but wrong.
        source: the English question this one translates (``None`` for a question as written in its
            module): the shown order of the choices is seeded by the source's texts, so both editions
            show them in the same order (:func:`helpers.selfcheck.order.shown_choices`). Not compared.

    Raises:
        ValueError: a bad id, fewer than 2 / more than 5 or repeated choices, an answer that is
            not a choice, an empty or multi-line explanation, an empty section, a ``why_not``
            key that is not a wrong choice, or a ``source`` with another id or number of choices.
    """

    id: str
    prompt: str
    choices: tuple[str, ...]
    answer: str
    explanation: str
    section: str
    code: str = ""
    why_not: Mapping[str, str] = field(default_factory=dict)
    source: Question | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        where = f"question {self.id!r}"
        if not isinstance(self.id, str) or not _ID.fullmatch(self.id):
            raise ValueError(f"{where}: the id must be a slug of lower-case letters, digits and '-' (at most 48)")
        object.__setattr__(self, "choices", tuple(self.choices))
        if not 2 <= len(self.choices) <= 5:
            raise ValueError(f"{where}: give 2 to 5 choices, got {len(self.choices)}")
        if len(set(self.choices)) != len(self.choices) or not all(isinstance(c, str) and c.strip() for c in self.choices):
            raise ValueError(f"{where}: the choices must be different, non-empty texts")
        if self.answer not in self.choices:
            raise ValueError(f"{where}: the answer {self.answer!r} is not one of the choices")
        for name in ("prompt", "explanation", "section"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ValueError(f"{where}: {name} must be a non-empty text")
        if "\n" in self.explanation.strip():
            raise ValueError(f"{where}: the explanation is one line")
        wrong = set(self.choices) - {self.answer}
        if not set(self.why_not) <= wrong:
            raise ValueError(f"{where}: why_not keys must be wrong choices, got {sorted(set(self.why_not) - wrong)}")
        object.__setattr__(self, "why_not", MappingProxyType(dict(self.why_not)))
        if self.source is not None and (self.source.id, len(self.source.choices)) != (self.id, len(self.choices)):
            raise ValueError(f"{where}: a translation keeps its source's id and number of choices")

    @property
    def kind(self) -> QuestionKind:
        """``"predict"`` when the question shows code, else ``"choice"``."""
        return "predict" if self.code.strip() else "choice"


def check_questions(notebook: str, questions: Sequence[Question]) -> tuple[Question, ...]:
    """Check a notebook's question set as a whole.

    Args:
        notebook: the notebook number, e.g. ``"02"``.
        questions: its questions.

    Returns:
        the questions as a tuple.

    Raises:
        ValueError: fewer than :data:`MIN_QUESTIONS` or more than :data:`MAX_QUESTIONS`
            questions, something that is not a :class:`Question`, or a repeated id.
    """
    questions = tuple(questions)
    if not MIN_QUESTIONS <= len(questions) <= MAX_QUESTIONS:
        raise ValueError(f"notebook {notebook}: a self-check has {MIN_QUESTIONS} to {MAX_QUESTIONS} questions, "
                         f"got {len(questions)}")
    if not all(isinstance(q, Question) for q in questions):
        raise ValueError(f"notebook {notebook}: every question must be a helpers.selfcheck.Question")
    ids = [q.id for q in questions]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ValueError(f"notebook {notebook}: question ids must be unique, repeated: {', '.join(repeated)}")
    return questions
