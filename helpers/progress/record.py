"""Recording the learner's progress: where the progress file is, and one record per check or answer.

Recording (:func:`record_exercise`, called by every ``Exercise.check``; :func:`record_self_check`,
called by the self-check engine) writes to the progress file only when

* ``COURSE_PROGRESS_FILE`` names a file (tests), or
* the kernel runs in the learner's workspace (:func:`helpers.workspace.place.in_workspace`): then the
  file is ``WORKSPACE_DIR/.progress.json``.

Anywhere else (the course's own ``notebooks/``, which the tests run) nothing is recorded, so no
committed output depends on it. Reading (:func:`load`, the table of :mod:`helpers.progress`,
``make progress``) uses the same file, or ``WORKSPACE_DIR/.progress.json`` when no variable is set.
The file's format, its lock and what a damaged or hostile path does: :mod:`helpers.progress.store`.

This floor sits between the store and everything that records: it imports the store and
:mod:`helpers.workspace.place` (both import nothing of the course), never the exercises, the self-checks
or the table, so the exercise core and the self-check engine import it at the top.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from .store import (
    FILE_NAME,
    ExerciseRecord,
    Progress,
    SelfCheckRecord,
    notebook_key,
    now,
    read_file,
    update_file,
)
from ..workspace.place import WORKSPACE_DIR, in_workspace

__all__ = [
    "PROGRESS_FILE_ENV",
    "load",
    "progress_file",
    "record_exercise",
    "record_self_check",
    "recorded_self_checks",
    "recording_file",
]

#: The variable that names a progress file (tests; it also turns recording on anywhere).
PROGRESS_FILE_ENV = "COURSE_PROGRESS_FILE"


def recording_file() -> Path | None:
    """The file records go to: ``$COURSE_PROGRESS_FILE``, or ``WORKSPACE_DIR/.progress.json`` when the
    kernel runs in the workspace, else ``None`` (nothing is recorded)."""
    named = os.environ.get(PROGRESS_FILE_ENV)
    if named:
        return Path(named)
    return WORKSPACE_DIR / FILE_NAME if in_workspace() else None


def progress_file() -> Path:
    """The file progress is read from: ``$COURSE_PROGRESS_FILE``, else ``WORKSPACE_DIR/.progress.json``."""
    named = os.environ.get(PROGRESS_FILE_ENV)
    return Path(named) if named else WORKSPACE_DIR / FILE_NAME


def load(path: Path | str | None = None) -> Progress:
    """The recorded progress (from :func:`progress_file` unless ``path`` is given); never raises
    (:func:`helpers.progress.store.read_file`: a problem goes into :attr:`Progress.problem`)."""
    return read_file(Path(path) if path is not None else progress_file())


def _say(message: str) -> None:
    """One line on stderr (never raises)."""
    with contextlib.suppress(Exception):
        print(message, file=sys.stderr)


def _hint() -> str:
    if os.environ.get(PROGRESS_FILE_ENV):
        return f"point {PROGRESS_FILE_ENV} at a file of its own, or unset it"
    return f"rename or remove it, so that {FILE_NAME} can be written there"


def _update(change) -> str:
    """Apply ``change`` to the recording file; ``""`` or the one line said on stderr."""
    path = recording_file()
    if path is None:
        return ""
    note = update_file(path, change, hint=_hint())
    if note:
        _say(note)
    return note


def record_exercise(exercise_id: str, passed: bool) -> str:
    """Record one check of exercise ``exercise_id`` (``"03.1"``): passed or not.

    A no-op unless the kernel runs in the workspace or ``COURSE_PROGRESS_FILE`` is set.

    Returns:
        ``""``, or the one line said on stderr about the file (e.g. ``"progress: not recorded: the
        progress file is locked by another process; ..."``). Never raises for a problem with the file.

    Raises:
        TypeError: ``exercise_id`` is not a string or ``passed`` not a bool (a caller's bug).
    """
    if not isinstance(exercise_id, str) or not isinstance(passed, bool):
        raise TypeError(f"record_exercise(exercise_id: str, passed: bool), got ({exercise_id!r}, {passed!r})")

    def change(progress: Progress) -> None:
        old = progress.exercises.get(exercise_id)
        progress.exercises[exercise_id] = ExerciseRecord(
            solved=passed or bool(old and old.solved), last_passed=passed,
            attempts=(old.attempts if old else 0) + 1, updated=now())

    return _update(change)


def record_self_check(notebook: str, question_id: str, correct: bool) -> str:
    """Record one answer to self-check question ``question_id`` of ``notebook``.

    Args:
        notebook: ``"03"``, ``"03_toolmessage_pairing"`` or ``"03_toolmessage_pairing.ipynb"``
            (stored by its two-digit number).
        question_id: the question's stable id within the notebook, e.g. ``"q1"``.
        correct: whether this answer was right. Only the question's first recorded answer sets
            the stored ``correct`` (the first try counts); later ones add to ``attempts``.

    A no-op unless the kernel runs in the workspace or ``COURSE_PROGRESS_FILE`` is set.

    Returns:
        ``""``, or the one line said about the file (as :func:`record_exercise`).

    Raises:
        TypeError: an argument of the wrong type (a caller's bug).
    """
    if not isinstance(notebook, str) or not isinstance(question_id, str) or not isinstance(correct, bool):
        raise TypeError("record_self_check(notebook: str, question_id: str, correct: bool), "
                        f"got ({notebook!r}, {question_id!r}, {correct!r})")
    key = notebook_key(notebook)

    def change(progress: Progress) -> None:
        answers = progress.self_checks.setdefault(key, {})
        old = answers.get(question_id)
        answers[question_id] = SelfCheckRecord(correct=old.correct if old else correct,
                                               attempts=(old.attempts if old else 0) + 1, updated=now())

    return _update(change)


def recorded_self_checks(notebook: str) -> Mapping[str, SelfCheckRecord]:
    """The answers already recorded for ``notebook``'s questions (question id -> record), read from
    the recording file; empty where nothing is recorded. The self-check widget starts from them, so
    a re-run cell and the progress table tell one truth. Never raises."""
    path = recording_file()
    if path is None:
        return {}
    try:
        return dict(read_file(path).self_checks.get(notebook_key(str(notebook)), {}))
    except Exception:  # noqa: BLE001 - reading progress never breaks a self-check
        return {}
