"""The engine of the self-check widget: answers checked against the questions, recorded as progress.

A question's first answer is the one that counts (the score says "right on first try"); later
answers are attempts, shown but not scored. Choices are shown in a fixed shuffled order
(:func:`helpers.selfcheck.order.shown_choices`), so the right answer's place gives nothing away.

Plain Python, no ipywidgets. :class:`helpers.widgets.SelfCheck` is its view; tests drive this
engine directly. The question format is :class:`helpers.selfcheck.Question`.

Each answer is recorded with :func:`helpers.progress.record.record_self_check` (the recording floor:
it imports nothing of the widgets, the self-checks or the table, so it is imported here at the top).
A recorder that raises, or a file that could not be written (its lock held by another process), is
reported in :attr:`SelfCheckEngine.record_note`, never to the learner as an error.

**One truth with the progress file.** An engine starts from the answers already recorded for its
notebook (:func:`helpers.progress.record.recorded_self_checks`): after the cell is run again, a
question answered before is not "first try" any more, and the score counts the recorded first
answer, as the progress table does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...i18n import _
from ...progress.record import record_self_check, recorded_self_checks
from ...progress.store import SelfCheckRecord
from ...selfcheck.format import Question
from ...selfcheck.order import shown_choices
from ..outcomes import Answer
from ..text import error_text

__all__ = ["CheckedAnswer", "Recorder", "SelfCheckEngine", "record_with_progress"]

#: ``recorder(notebook, question_id, correct)``; returns a note ("" when recorded).
Recorder = Callable[[str, str, bool], str]
#: ``recorded(notebook)``: the answers already recorded, question id -> record.
RecordedAnswers = Callable[[str], Mapping[str, SelfCheckRecord]]


def record_with_progress(notebook: str, question_id: str, correct: bool) -> str:
    """Record one answer with :func:`helpers.progress.record.record_self_check`.

    Returns:
        ``""`` when recorded (or when nothing is recorded here, outside the workspace);
        ``"not recorded: ..."`` when the file could not be written (``"not recorded: the progress
        file is locked by another process; ..."``) or the recorder raised (``"not recorded: Type:
        message"``). Never raises (only ``KeyboardInterrupt`` passes).
    """
    try:
        note = record_self_check(notebook, question_id, correct)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - progress is a convenience, never a crash
        return _("not recorded: {reason}").format(reason=error_text(exc))
    return note.removeprefix("progress: ") if isinstance(note, str) else ""


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
        if why_not:  # one sentence pattern, so a language without spaces between sentences reads right
            return _("{why_not} {explanation} (see {section})").format(
                why_not=why_not, explanation=self.question.explanation, section=self.question.section)
        return _("{explanation} (see {section})").format(explanation=self.question.explanation,
                                                         section=self.question.section)


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
        recorded: the answers recorded before this engine (default: from the progress file with
            :func:`helpers.progress.record.recorded_self_checks` when the default recorder is used,
            else none).

    Attributes:
        choices: question id -> its choices in the order shown.
        first_answers: question id -> its first :class:`CheckedAnswer` (kept by :meth:`reset`).
        answers: question id -> the latest :class:`CheckedAnswer` (since the last :meth:`reset`).
        record_note: ``""``, or why the last answer was not recorded.

    Raises:
        ValueError: no questions, or two with one id.
    """

    def __init__(self, notebook: str, questions: Sequence[Question], *, recorder: Recorder | None = None,
                 recorded: RecordedAnswers | None = None):
        self.notebook = notebook
        self.questions = tuple(questions)
        ids = [q.id for q in self.questions]
        if not ids or len(set(ids)) != len(ids):
            raise ValueError("a self-check needs at least one question and unique question ids")
        self._by_id = {q.id: q for q in self.questions}
        self.choices: dict[str, tuple[str, ...]] = {q.id: shown_choices(notebook, q) for q in self.questions}
        self._recorder = recorder if recorder is not None else record_with_progress
        if recorded is None:
            recorded = recorded_self_checks if recorder is None else (lambda _notebook: {})
        self._recorded: dict[str, SelfCheckRecord] = {
            qid: record for qid, record in recorded(notebook).items() if qid in self._by_id}
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
        if type(choice) is int:
            if not 0 <= choice < len(shown):
                raise ValueError(f"question {question_id!r} has choices 0 to {len(shown) - 1}, got {choice}")
            return shown[choice]
        if type(choice) is not str:  # an object "equal to everything" or whose == raises is never compared
            raise ValueError(f"a choice is its text or its position, got {type(choice).__name__}")
        for text in question.choices:
            if text == choice:
                return text
        raise ValueError(f"{choice[:60]!r} is not a choice of question {question_id!r}")

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
        latest = self.answers.get(question_id)
        if latest is not None and latest.choice == picked:  # Check pressed again (a double click)
            return latest
        before = self._recorded.get(question_id)
        attempt = (before.attempts if before else 0) + self._attempts.get(question_id, 0) + 1
        checked = CheckedAnswer(question, picked, Answer.RIGHT if picked == question.answer else Answer.WRONG, attempt)
        self._attempts[question_id] = attempt - (before.attempts if before else 0)
        if before is None:
            self.first_answers.setdefault(question_id, checked)
        self.answers[question_id] = checked
        self.record_note = self._recorder(self.notebook, question_id, checked.correct)
        return checked

    def first_verdict(self, question_id: str) -> Answer | None:
        """The verdict of the question's first answer (recorded before this engine, or given to it),
        or ``None`` when it has not been answered."""
        before = self._recorded.get(question_id)
        if before is not None:
            return Answer.RIGHT if before.correct else Answer.WRONG
        first = self.first_answers.get(question_id)
        return None if first is None else first.verdict

    def score(self) -> tuple[int, int, int]:
        """``(right on first try, answered, total)``: counted over each question's first answer,
        including the ones recorded before this engine (the progress table counts the same)."""
        verdicts = [self.first_verdict(q.id) for q in self.questions]
        answered = [v for v in verdicts if v is not None]
        return sum(v == Answer.RIGHT for v in answered), len(answered), len(self.questions)

    def reset(self) -> None:
        """Clear the latest answers (what the view shows), to go through the questions again.

        The first answers stay, and so does the score: a first try counts once (recorded progress
        stays too). Later answers count as further attempts.
        """
        self.answers.clear()
        self.record_note = ""
