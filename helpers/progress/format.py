"""The progress file's format: its records (:class:`ExerciseRecord`, :class:`SelfCheckRecord`,
:class:`Progress`), reading a parsed JSON object into them field by field (what cannot be read is
named, not raised), how the file keys a notebook (:func:`notebook_key`) and a self-check score in
words (:func:`score_line`).

The lowest floor of the progress modules: it imports nothing of the course but :mod:`helpers.i18n`.
:mod:`helpers.progress.store` (the file itself: reading and writing it under a lock) re-exports
its public names.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..i18n import _

#: The progress file's name in the workspace.
FILE_NAME = ".progress.json"
#: 2 since issue 17's split (notebook 09 became 09 and 10; 10-16 became 11-17); 1 before.
_FORMAT = 2
#: The fields a progress file's top-level object may have.
_FIELDS = frozenset({"format", "exercises", "self_checks"})


# -- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExerciseRecord:
    """What the file holds for one exercise: ever solved, the latest attempt passed, how many attempts."""

    solved: bool
    last_passed: bool
    attempts: int
    updated: str = ""


@dataclass(frozen=True)
class SelfCheckRecord:
    """What the file holds for one self-check question: the first answer was right, how many answers."""

    correct: bool
    attempts: int
    updated: str = ""


@dataclass
class Progress:
    """The whole file: ``exercises`` by id, ``self_checks`` by notebook key (``"03"``) and question id.

    ``problem`` is ``""``, or why the file could not be read (in full) when it was loaded, e.g.
    ``"myproject is a folder"``; the table shows it (it is never written to the file).
    """

    exercises: dict[str, ExerciseRecord] = field(default_factory=dict)
    self_checks: dict[str, dict[str, SelfCheckRecord]] = field(default_factory=dict)
    problem: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to the file."""
        return {
            "format": _FORMAT,
            "exercises": {k: asdict(v) for k, v in sorted(self.exercises.items())},
            "self_checks": {nb: {q: asdict(r) for q, r in sorted(answers.items())}
                            for nb, answers in sorted(self.self_checks.items())},
        }


class _NotProgress(ValueError):
    """The file's content is not a progress file (the message says why, in a few words)."""


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _NotProgress(f"{where} is not true/false")
    return value


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _NotProgress(f"{where} is not a count")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _NotProgress(f"{where} is not an object")
    return value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _key(text: str) -> str:
    """A key from the file as a message shows it: at most 40 characters."""
    return text if len(text) <= 40 else text[:37] + "..."


def _parse(top: dict[str, Any]) -> tuple[Progress, list[str]]:
    """The records of a progress file's top-level object that can be read, and what could not be
    (``["exercise 01.1 solved is not true/false", ...]``; empty when everything was read)."""
    progress, problems = Progress(), []

    def each(value: Any, where: str) -> list[tuple[str, Any]]:
        try:
            return list(_object(value, where).items())
        except _NotProgress as exc:
            problems.append(str(exc))
            return []

    for key, raw in each(top.get("exercises", {}), "exercises"):
        where = f"exercise {_key(key)}"
        try:
            item = _object(raw, where)
            progress.exercises[key] = ExerciseRecord(
                solved=_bool(item.get("solved"), f"{where} solved"),
                last_passed=_bool(item.get("last_passed", item.get("solved")), f"{where} last_passed"),
                attempts=_count(item.get("attempts", 0), f"{where} attempts"),
                updated=_text(item.get("updated")),
            )
        except _NotProgress as exc:
            problems.append(str(exc))
    for nb, raw in each(top.get("self_checks", {}), "self_checks"):
        answers: dict[str, SelfCheckRecord] = {}
        for question, raw_answer in each(raw, f"self_checks {_key(nb)}"):
            where = f"self-check {_key(nb)}/{_key(question)}"
            try:
                item = _object(raw_answer, where)
                answers[question] = SelfCheckRecord(
                    correct=_bool(item.get("correct"), f"{where} correct"),
                    attempts=_count(item.get("attempts", 0), f"{where} attempts"),
                    updated=_text(item.get("updated")),
                )
            except _NotProgress as exc:
                problems.append(str(exc))
        if answers:
            progress.self_checks[nb] = answers
    return progress, problems




def notebook_key(notebook: str) -> str:
    """How the file keys a notebook: ``"03"`` for ``"03"``, ``"03_toolmessage_pairing"`` or
    ``"03_toolmessage_pairing.ipynb"`` (a path is reduced to its file name); any other text is
    returned stripped."""
    name = notebook.replace("\\", "/").rsplit("/", 1)[-1].strip()
    head = name.split("_", 1)[0].removesuffix(".ipynb")
    return head if len(head) == 2 and head.isdigit() else name.removesuffix(".ipynb")


def score_line(right: int, answered: int, total: int) -> str:
    """A notebook's self-check score in words, the same in the widget and the table:
    ``"1 of 5 right on first try, 2 answered"``; never tried reads ``"0 of 5 right on first try,
    0 answered"`` and all wrong ``"0 of 5 right on first try, 5 answered"``."""
    return _("{right} of {total} right on first try, {answered} answered").format(
        right=right, total=total, answered=answered)
