"""The engine of the self-check widget: answers checked against the questions, recorded as progress.

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
    """

    question: Question
    choice: str
    verdict: Answer

    @property
    def correct(self) -> bool:
        """``True`` for a right answer."""
        return self.verdict == Answer.RIGHT

    @property
    def feedback(self) -> str:
        """One line: (for a wrong choice, why it is tempting,) the explanation, and the section to read."""
        why_not = "" if self.correct else self.question.why_not.get(self.choice, "")
        lead = f"{why_not} " if why_not else ""
        return f"{lead}{self.question.explanation} (see {self.question.section})"


class SelfCheckEngine:
    """Check answers to one notebook's questions and record each one.

    Args:
        notebook: the notebook number, e.g. ``"02"`` (recorded with each answer).
        questions: its questions (:class:`~helpers.selfcheck.Question`), in order.
        recorder: how an answer is recorded; default :func:`record_with_progress`.

    Attributes:
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
        self._recorder = recorder if recorder is not None else record_with_progress
        self.answers: dict[str, CheckedAnswer] = {}
        self.record_note = ""

    def question(self, question_id: str) -> Question:
        """The question with this id. Raises ``ValueError`` for an unknown id."""
        try:
            return self._by_id[question_id]
        except (KeyError, TypeError):
            raise ValueError(f"no question {question_id!r}; questions: {', '.join(self._by_id)}") from None

    def answer(self, question_id: str, choice: str | int) -> CheckedAnswer:
        """Answer one question, record the answer and return it.

        Args:
            question_id: the question's id.
            choice: the picked choice, as its text or its 0-based position.

        Raises:
            ValueError: an unknown question, or a choice that is not one of its choices.
        """
        question = self.question(question_id)
        if isinstance(choice, int) and not isinstance(choice, bool):
            if not 0 <= choice < len(question.choices):
                raise ValueError(f"question {question_id!r} has choices 0 to {len(question.choices) - 1}, got {choice}")
            choice = question.choices[choice]
        if choice not in question.choices:
            raise ValueError(f"{choice!r} is not a choice of question {question_id!r}")
        checked = CheckedAnswer(question, choice, Answer.RIGHT if choice == question.answer else Answer.WRONG)
        self.answers[question_id] = checked
        self.record_note = self._recorder(self.notebook, question_id, checked.correct)
        return checked

    def score(self) -> tuple[int, int, int]:
        """``(right, answered, total)`` over the latest answers."""
        right = sum(1 for a in self.answers.values() if a.correct)
        return right, len(self.answers), len(self.questions)

    def reset(self) -> None:
        """Forget the answers (recorded progress stays)."""
        self.answers.clear()
        self.record_note = ""
