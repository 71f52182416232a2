"""The engine of the self-check widget: answers checked against the questions, recorded as progress.

A question's first answer is the one that counts (the score says "right on first try"); later
answers are attempts, shown but not scored. Choices are shown in a fixed shuffled order
(:func:`helpers.selfcheck.order.shown_choices`), so the right answer's place gives nothing away.

Plain Python, no ipywidgets. :class:`helpers.widgets.SelfCheck` is its view; tests drive this
engine directly. The question format is :class:`helpers.selfcheck.Question`.

Each answer is recorded with ``helpers.progress.record_self_check(notebook, question_id, correct)``.
That module is imported lazily, when an answer is recorded, inside ``try/except ImportError``: until
it exists (or wherever it cannot be imported) answering works and nothing is recorded. A
recorder that raises is reported in :attr:`SelfCheckEngine.record_note`, never to the learner as
an error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...selfcheck.format import Question
from ...selfcheck.order import shown_choices
from ..outcomes import Answer
from ..text import error_text

__all__ = ["CheckedAnswer", "Recorder", "SelfCheckEngine", "record_with_progress"]

#: ``recorder(notebook, question_id, correct)``; returns a note ("" when recorded).
Recorder = Callable[[str, str, bool], str]


def record_with_progress(notebook: str, question_id: str, correct: bool) -> str:
    """Record one answer with ``helpers.progress.record_self_check``, if that module can be imported.

    Returns:
        ``""`` when recorded, or when there is nothing to record with (``helpers.progress`` cannot be
        imported); ``"not recorded: Type: message"`` when the recorder raised. Never raises (only
        ``KeyboardInterrupt`` passes).
    """
    try:
        from helpers.progress import record_self_check
    except ImportError:  # the progress module is optional: answering works without it
        return ""
    try:
        record_self_check(notebook, question_id, correct)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - progress is a convenience, never a crash
        return f"not recorded: {error_text(exc)}"
    return ""


@dataclass(frozen=True)
class CheckedAnswer:
    """One answer to one question.

    Attributes:
        question: the :class:`~helpers.selfcheck.Question`.
        choice: the choice picked (one of ``question.choices``).
        verdict: :class:`~helpers.widgets.outcomes.Answer` ``right`` or ``wrong``.
        attempt: 1 for the first answer to the question (the one that counts), 2, 3, ... for later
            ones (exploring the other choices).
    """

    question: Question
    choice: str
    verdict: Answer
    attempt: int = 1

    @property
    def correct(self) -> bool:
        """``True`` for a right answer."""
        return self.verdict == Answer.RIGHT

    @property
    def first_try(self) -> bool:
        """``True`` for the first answer to the question: the one the score counts."""
        return self.attempt == 1

    @property
    def feedback(self) -> str:
        """One line: (for a wrong choice, why it is tempting,) the explanation, and the section to read."""
        why_not = "" if self.correct else self.question.why_not.get(self.choice, "")
        lead = f"{why_not} " if why_not else ""
        return f"{lead}{self.question.explanation} (see {self.question.section})"


class SelfCheckEngine:
    """Check answers to one notebook's questions and record each one; the first answer counts.

    The score counts each question's FIRST answer (since the engine was built): trying the other
    choices afterwards shows their verdicts as later attempts, but cannot turn a wrong first answer
    into a right one. Every answer is recorded (``helpers.progress`` keeps the first one's
    correctness and counts the attempts). Choices are shown in :func:`helpers.selfcheck.order.shown_choices`
    order (a fixed shuffle), and a choice given by position means a position in that order.

    Args:
        notebook: the notebook number, e.g. ``"02"`` (recorded with each answer; seeds the order).
        questions: its questions (:class:`~helpers.selfcheck.Question`), in order.
        recorder: how an answer is recorded; default :func:`record_with_progress`.

    Attributes:
        choices: question id -> its choices in the order shown.
        first_answers: question id -> its first :class:`CheckedAnswer` (kept by :meth:`reset`).
        answers: question id -> the latest :class:`CheckedAnswer` (since the last :meth:`reset`).
        record_note: ``""``, or why the last answer was not recorded.

    Raises:
        ValueError: no questions, or two with one id.
    """

    def __init__(self, notebook: str, questions: Sequence[Question], *, recorder: Recorder | None = None):
        self.notebook = notebook
        self.questions = tuple(questions)
        ids = [q.id for q in self.questions]
        if not ids or len(set(ids)) != len(ids):
            raise ValueError("a self-check needs at least one question and unique question ids")
        self._by_id = {q.id: q for q in self.questions}
        self.choices: dict[str, tuple[str, ...]] = {q.id: shown_choices(notebook, q) for q in self.questions}
        self._recorder = recorder if recorder is not None else record_with_progress
        self.first_answers: dict[str, CheckedAnswer] = {}
        self.answers: dict[str, CheckedAnswer] = {}
        self._attempts: dict[str, int] = {}
        self.record_note = ""

    def question(self, question_id: str) -> Question:
        """The question with this id. Raises ``ValueError`` for an unknown id."""
        try:
            return self._by_id[question_id]
        except (KeyError, TypeError):
            raise ValueError(f"no question {question_id!r}; questions: {', '.join(self._by_id)}") from None

    def choice_text(self, question_id: str, choice: str | int) -> str:
        """The choice meant by ``choice``: its text, or its 0-based position in the order shown.

        Raises:
            ValueError: an unknown question, or a choice that is not one of its choices.
        """
        question, shown = self.question(question_id), self.choices.get(question_id, ())
        if isinstance(choice, int) and not isinstance(choice, bool):
            if not 0 <= choice < len(shown):
                raise ValueError(f"question {question_id!r} has choices 0 to {len(shown) - 1}, got {choice}")
            return shown[choice]
        if choice not in question.choices:
            raise ValueError(f"{choice!r} is not a choice of question {question_id!r}")
        return choice

    def answer(self, question_id: str, choice: str | int) -> CheckedAnswer:
        """Answer one question, record the answer and return it.

        Args:
            question_id: the question's id.
            choice: the picked choice, as its text or its 0-based position in :attr:`choices`.

        Returns:
            the :class:`CheckedAnswer`; its ``attempt`` is 1 for the question's first answer.

        Raises:
            ValueError: an unknown question, or a choice that is not one of its choices.
        """
        question, picked = self.question(question_id), self.choice_text(question_id, choice)
        attempt = self._attempts.get(question_id, 0) + 1
        checked = CheckedAnswer(question, picked, Answer.RIGHT if picked == question.answer else Answer.WRONG, attempt)
        self._attempts[question_id] = attempt
        self.first_answers.setdefault(question_id, checked)
        self.answers[question_id] = checked
        self.record_note = self._recorder(self.notebook, question_id, checked.correct)
        return checked

    def score(self) -> tuple[int, int, int]:
        """``(right on first try, answered, total)``: counted over each question's first answer."""
        right = sum(1 for a in self.first_answers.values() if a.correct)
        return right, len(self.first_answers), len(self.questions)

    def reset(self) -> None:
        """Clear the latest answers (what the view shows), to go through the questions again.

        The first answers stay, and so does the score: a first try counts once (recorded progress
        stays too). Later answers count as further attempts.
        """
        self.answers.clear()
        self.record_note = ""
