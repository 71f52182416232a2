"""The learner's progress across the course: exercises solved, self-check scores, what to do next.

Recording (:func:`record_exercise`, called by every ``Exercise.check``; :func:`record_self_check`,
called by the self-check widgets) writes to the progress file only when

* ``COURSE_PROGRESS_FILE`` names a file (tests), or
* the kernel runs in the learner's workspace (:func:`helpers.workspace.in_workspace`): then the
  file is ``WORKSPACE_DIR/.progress.json``.

Anywhere else (the course's own ``notebooks/``, which the tests run) nothing is recorded, so no
committed output depends on it. Reading (:func:`load`, :func:`progress_table`, ``make progress``)
uses the same file, or ``WORKSPACE_DIR/.progress.json`` when no variable is set.

The file (JSON, UTF-8)::

    {"format": 1,
     "exercises": {"03.1": {"solved": true, "last_passed": false, "attempts": 4,
                            "updated": "2026-11-20T10:00:00+00:00"}},
     "self_checks": {"03": {"q1": {"correct": true, "attempts": 2, "updated": "..."}}}}

``solved`` stays true once an attempt passed; ``correct`` is the FIRST answer's (a self-check's
first answer is the one that counts: trying the other choices afterwards adds to ``attempts`` but
cannot turn a wrong first answer into a right one, so the table shows first-try scores). The
timestamps are never shown. Every record is a read-modify-write under an exclusive lock on a side
file (``.progress.json.lock``; ``fcntl.flock``, or ``msvcrt.locking`` on Windows), written to a
temporary file in the same folder and moved into place with ``os.replace``: two kernels recording
at the same time lose nothing, and a reader never sees half a file.

What the progress path may name, and what happens (never a crash, nothing lost):

* **Nothing yet, or an empty file**: recording starts the file.
* **A progress file** (a JSON object with no fields but ``format``, ``exercises`` and
  ``self_checks``): read, and rewritten when recording.
* **A damaged progress file**: a regular file that is clearly the course's, because its name is
  ``.progress.json`` or its content has the progress file's layout (JSON of the wrong shape, or
  text that starts like the file this module writes, cut short). Recording renames it
  ``<name>.corrupt-N`` (the first free N) with one line on stderr and starts a fresh file holding
  every record that could still be read.
* **Anything else** is refused, with one line on stderr, and nothing is recorded, moved or
  created (not even the lock file): a folder (``COURSE_PROGRESS_FILE=~/myproject``, ``.``, ``/``),
  a device (``/dev/null``), a FIFO or socket (never opened for reading, so never a hang), a
  symlink loop, a file of the learner's that is not JSON or JSON of another layout, a file larger
  than 32 MB, a file written by a newer course version (``format`` above 1).
* **A symlink** to a file is written through: the link stays and its target is updated (the lock
  and any ``.corrupt-N`` copy sit beside the target). A dangling link whose target's folder exists
  creates the target.

Reading (:func:`load`, the table, ``make progress``) never moves, creates or locks anything: a file
that cannot be read (in full) shows as ``progress file unreadable: <why>`` above the table of what
could be read. An I/O failure while recording (a read-only disk) is one line on stderr too. The
lines name files by their name, never by their folder's path.

Self-check questions are known per notebook from the ``helpers.selfcheck.nbNN`` modules
(:func:`course_questions`), plus any :func:`register_questions` calls; a notebook with no questions
shows ``-`` as its score (or ``right/answered`` for recorded answers).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from .exercises.registry import EXERCISES, notebook_key
from .files import NotARegularFile, kind_of, read_regular
from .workspace import NOTEBOOK_DIR, WORKSPACE_DIR, in_workspace, workspace_problem

__all__ = [
    "FILE_NAME",
    "PROGRESS_FILE_ENV",
    "QUESTION_MODULES",
    "course_questions",
    "ExerciseRecord",
    "NextStep",
    "Progress",
    "ProgressReport",
    "ProgressRow",
    "SelfCheckRecord",
    "load",
    "main",
    "next_step",
    "progress_file",
    "progress_markdown",
    "progress_report",
    "progress_rows",
    "progress_table",
    "record_exercise",
    "record_self_check",
    "recording_file",
    "register_questions",
    "unreadable_line",
]

#: The variable that names a progress file (tests; it also turns recording on anywhere).
PROGRESS_FILE_ENV = "COURSE_PROGRESS_FILE"
#: The progress file's name in the workspace.
FILE_NAME = ".progress.json"
#: Modules that call :func:`register_questions` when imported; ``make progress`` imports them.
QUESTION_MODULES: tuple[str, ...] = ()
#: The one line shown where nothing is recorded (the course's own notebooks).
NOT_IN_WORKSPACE = ("Your progress shows here when you run this notebook in your workspace "
                    "(`make lab` opens it).")
_FORMAT = 1
#: The fields a progress file's top-level object may have.
_FIELDS = frozenset({"format", "exercises", "self_checks"})
#: A file larger than this is not read (no progress file comes near it: 200,000 records are ~20 MB).
_MAX_BYTES = 32 * 1024 * 1024
#: The start of a file this module wrote (``json.dump(..., sort_keys=True)``), even when cut short.
_OUR_START = re.compile(r'\A\s*\{\s*"(?:exercises|format|self_checks)"\s*:')

_questions: dict[str, tuple[str, ...]] = {}


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


# -- where the file is ------------------------------------------------------------------------


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


def _say(message: str) -> None:
    """One line on stderr (never raises)."""
    with contextlib.suppress(Exception):
        print(message, file=sys.stderr)


class _Refused(Exception):
    """The progress path names something that is not a progress file; the message says what
    (``"myproject is a folder"``). Nothing is read, moved or written then."""


@dataclass(frozen=True)
class _Place:
    """Where the progress is: ``file`` (a symlink's target), whether it ``exists``, and ``shown``
    (the name messages use: the path's own name, never its folder)."""

    file: Path
    exists: bool
    shown: str


def _place(path: Path) -> _Place:
    """Check what ``path`` names without opening it.

    Raises:
        _Refused: a folder, a device, a FIFO, a socket, a symlink loop, a symlink into a missing
            folder, or a path that cannot be checked.
    """
    path = Path(os.path.abspath(path))  # "." and "" get a name: the folder's own
    shown = path.name or str(path)
    target = path
    if os.path.islink(path):
        target = Path(os.path.realpath(path))
        if os.path.islink(target):  # realpath stops where a loop begins
            raise _Refused(f"{shown} is a symlink loop")
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if target != path and not target.parent.is_dir():
            raise _Refused(f"{shown} is a symlink into a folder that does not exist") from None
        return _Place(target, False, shown)
    except NotADirectoryError:
        raise _Refused(f"the path to {shown} goes through a file, not a folder") from None
    except (OSError, ValueError) as exc:
        raise _Refused(f"{shown} cannot be checked ({getattr(exc, 'strerror', None) or type(exc).__name__})") from None
    if not stat.S_ISREG(mode):
        raise _Refused(f"{shown} is {kind_of(mode)}")
    return _Place(target, True, shown)


@dataclass
class _Content:
    """What a progress file holds: the readable ``progress``, ``damage`` (why it could not be read
    in full; ``""`` when it could) and whether it is clearly the course's (``ours``), so that
    recording may set it aside."""

    progress: Progress
    damage: str = ""
    ours: bool = True


def _content(place: _Place) -> _Content:
    """Read and judge the file (see the module docstring); :func:`helpers.files.read_regular`
    refuses a FIFO swapped in meanwhile, never waiting on it.

    Raises:
        _Refused: not a regular file after all, or written by a newer course version.
        OSError: it cannot be read (permission denied, ...).
    """
    if not place.exists:
        return _Content(Progress())
    named = place.file.name == FILE_NAME
    try:
        raw = read_regular(place.file, limit=_MAX_BYTES)
    except NotARegularFile as exc:
        raise _Refused(f"{place.shown} is {exc.kind}") from None
    if len(raw) > _MAX_BYTES:
        return _Content(Progress(), "it is larger than 32 MB", named)
    if not raw.strip():
        return _Content(Progress())  # an empty file: nothing to lose
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _Content(Progress(), "it is not text", named)
    try:
        data = json.loads(text)
    except RecursionError:
        return _Content(Progress(), "it is nested too deeply", named)
    except ValueError:
        return _Content(Progress(), "it is not JSON", named or bool(_OUR_START.match(text)))
    if not isinstance(data, dict):
        return _Content(Progress(), "it is JSON but not an object", named)
    unknown = sorted(set(data) - _FIELDS, key=str)
    if unknown:
        return _Content(Progress(), f"it has a field a progress file does not have ({_key(unknown[0])!r})", named)
    version = data.get("format", _FORMAT)
    if isinstance(version, int) and not isinstance(version, bool) and version > _FORMAT:
        raise _Refused(f"{place.shown} was written by a newer version of the course (format {version}); "
                       "update the course (git pull)")
    progress, problems = _parse(data)
    if version != _FORMAT:
        problems.insert(0, "its format is not a number")
    if not problems:
        return _Content(progress)
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return _Content(progress, problems[0] + more, True)


def _hint() -> str:
    if os.environ.get(PROGRESS_FILE_ENV):
        return f"point {PROGRESS_FILE_ENV} at a file of its own, or unset it"
    return f"rename or remove it, so that {FILE_NAME} can be written there"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``<path>.lock`` for the duration of the block (blocks until free).

    Raises:
        _Refused: the lock's place holds something that is not a regular file.
    """
    lock_path = path.with_name(path.name + ".lock")
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(lock_path, flags, 0o644)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _Refused(f"{lock_path.name} is {kind_of(mode)}")
    with os.fdopen(fd, "r+b") as handle:
        if os.name == "nt":  # pragma: no cover - the course's CI runs on Linux
            import msvcrt

            handle.seek(0)
            while True:
                try:
                    msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    continue
            try:
                yield
            finally:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _set_aside(path: Path) -> Path:
    """Rename a damaged progress file to ``<name>.corrupt-N`` (the first free N) and return the new
    path. Called under the lock, only for a regular file that is clearly the course's. Raises OSError."""
    number = 1
    while os.path.lexists(path.with_name(f"{path.name}.corrupt-{number}")):
        number += 1
    kept = path.with_name(f"{path.name}.corrupt-{number}")
    os.replace(path, kept)
    return kept


def _read(place: _Place) -> Progress:
    """The progress at ``place`` for reading: never moves anything; a problem goes into ``problem``."""
    try:
        content = _content(place)
    except _Refused as exc:
        return Progress(problem=str(exc))
    except OSError as exc:
        return Progress(problem=f"{place.shown} cannot be read ({exc.strerror or type(exc).__name__})")
    if content.damage:
        content.progress.problem = f"{place.shown}: {content.damage}"
    return content.progress


def _write(path: Path, progress: Progress) -> None:
    """Write atomically: a temporary file in the same folder, flushed to disk, then ``os.replace``."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(progress.to_json(), out, indent=1, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _update(change: Any) -> None:
    """Apply ``change(progress)`` to the recording file under the lock; no-op when nothing is
    recorded. Never raises for a problem with the file: one line on stderr instead."""
    path = recording_file()
    if path is None:
        return
    shown = Path(os.path.abspath(path)).name or str(path)

    def judged() -> tuple[_Place, _Content]:
        place = _place(path)
        content = _content(place)
        if content.damage and not content.ours:
            raise _Refused(f"{place.shown} is not a progress file ({content.damage}); it was left as it is")
        return place, content

    try:
        place, _ = judged()  # before the lock too: a refused path gets no lock file beside it
        place.file.parent.mkdir(parents=True, exist_ok=True)
        with _locked(place.file):
            place, content = judged()
            if content.damage:
                kept = _set_aside(place.file)
                count = len(content.progress.exercises) + sum(map(len, content.progress.self_checks.values()))
                salvaged = f" with the {count} record{'s' if count != 1 else ''} that could be read" if count else ""
                _say(f"progress: {place.shown} could not be read ({content.damage}); kept it as {kept.name} "
                     f"and started a fresh one{salvaged}")
            change(content.progress)
            _write(place.file, content.progress)
    except _Refused as exc:
        _say(f"progress: not recorded: {exc}; nothing was changed ({_hint()})")
    except OSError as exc:
        _say(f"progress: could not record in {shown} ({exc.strerror or type(exc).__name__}); "
             "your answer's feedback above is unaffected")


# -- recording --------------------------------------------------------------------------------


def record_exercise(exercise_id: str, passed: bool) -> None:
    """Record one check of exercise ``exercise_id`` (``"03.1"``): passed or not.

    A no-op unless the kernel runs in the workspace or ``COURSE_PROGRESS_FILE`` is set. Never
    raises for a problem with the file (see the module docstring).

    Raises:
        TypeError: ``exercise_id`` is not a string or ``passed`` not a bool (a caller's bug).
    """
    if not isinstance(exercise_id, str) or not isinstance(passed, bool):
        raise TypeError(f"record_exercise(exercise_id: str, passed: bool), got ({exercise_id!r}, {passed!r})")

    def change(progress: Progress) -> None:
        old = progress.exercises.get(exercise_id)
        progress.exercises[exercise_id] = ExerciseRecord(
            solved=passed or bool(old and old.solved), last_passed=passed,
            attempts=(old.attempts if old else 0) + 1, updated=_now())

    _update(change)


def record_self_check(notebook: str, question_id: str, correct: bool) -> None:
    """Record one answer to self-check question ``question_id`` of ``notebook``.

    Args:
        notebook: ``"03"``, ``"03_toolmessage_pairing"`` or ``"03_toolmessage_pairing.ipynb"``
            (stored by its two-digit number).
        question_id: the question's stable id within the notebook, e.g. ``"q1"``.
        correct: whether this answer was right. Only the question's first recorded answer sets
            the stored ``correct`` (the first try counts); later ones add to ``attempts``.

    A no-op unless the kernel runs in the workspace or ``COURSE_PROGRESS_FILE`` is set. Never
    raises for a problem with the file.

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
                                               attempts=(old.attempts if old else 0) + 1, updated=_now())

    _update(change)


def register_questions(notebook: str, question_ids: Sequence[str]) -> None:
    """Declare the self-check questions of ``notebook`` (so the table can show ``right/total`` and
    point to an unanswered one). Call it where the questions are defined."""
    _questions[notebook_key(notebook)] = tuple(question_ids)


# -- reading ------------------------------------------------------------------------------------


def load(path: Path | str | None = None) -> Progress:
    """The recorded progress (from :func:`progress_file` unless ``path`` is given); never raises.

    Only reads: nothing is moved, created or locked (writes are atomic renames, so no lock is
    needed to read a whole file). When the file cannot be read in full, what could be read is
    returned with :attr:`Progress.problem` saying why (e.g. ``"myproject is a folder"``).
    """
    target = Path(path) if path is not None else progress_file()
    try:
        place = _place(target)
    except _Refused as exc:
        return Progress(problem=str(exc))
    return _read(place)


SolvedState = Literal["yes", "no", "-"]


@dataclass(frozen=True)
class ProgressRow:
    """One table row: a notebook's exercise (``exercise`` is ``"-"`` for a notebook without one).

    Attributes:
        notebook: the notebook's file stem, e.g. ``"03_toolmessage_pairing"``.
        exercise: ``"03.1 run_tool_calls: answer every call with its own id"`` or ``"-"``.
        solved: ``"yes"``, ``"no"``, or ``"-"`` (no exercise).
        self_check: ``"2/4"`` (right of the known questions), ``"2/3 answered"`` (questions not
            registered yet) or ``"-"``; shown on the notebook's first row only.
    """

    notebook: str
    exercise: str
    solved: SolvedState
    self_check: str


@dataclass(frozen=True)
class NextStep:
    """What to do next.

    Attributes:
        kind: ``"exercise"`` or ``"self-check"``.
        notebook: the notebook's file stem, e.g. ``"00_start_here"``.
        label: the exercise, ``"03.1 (title)"``; or the question by its place in the notebook's
            "Check yourself", ``"question 2"``.
        about: for a question, a few words on it (``"second request"``, from its id); else ``""``.
    """

    kind: Literal["exercise", "self-check"]
    notebook: str
    label: str
    about: str = ""

    def text(self) -> str:
        """``Next: exercise 03.1 (title) in 03_toolmessage_pairing.ipynb`` or
        ``Next: Check yourself question 2 in 00_start_here.ipynb (second request)``."""
        if self.kind == "exercise":
            return f"Next: exercise {self.label} in {self.notebook}.ipynb"
        about = f" ({self.about})" if self.about else ""
        return f"Next: Check yourself {self.label} in {self.notebook}.ipynb{about}"


def _notebooks() -> list[str]:
    """Notebook stems in course order: the course's notebooks and every registered exercise's."""
    stems = {path.stem for path in NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb")}
    stems |= {e.notebook.removesuffix(".ipynb") for e in EXERCISES}
    return sorted(stems)


def _score(key: str, progress: Progress, questions: Mapping[str, Sequence[str]]) -> str:
    answers = progress.self_checks.get(key, {})
    known = questions.get(key)
    if known:
        return f"{sum(1 for q in known if q in answers and answers[q].correct)}/{len(known)}"
    if answers:
        return f"{sum(r.correct for r in answers.values())}/{len(answers)} answered"
    return "-"


def course_questions() -> dict[str, tuple[str, ...]]:
    """Self-check question ids per notebook key: every ``helpers.selfcheck.nbNN`` module, plus any
    :func:`register_questions` made. A question module that fails to load is left out (its
    notebook's score then counts answers only), never an error in the table."""
    known: dict[str, tuple[str, ...]] = {}
    try:
        from .selfcheck import available_notebooks, questions_for
    except ImportError:  # pragma: no cover - the self-check package is part of the course
        return dict(_questions)
    for number in available_notebooks():
        try:
            ids = tuple(question.id for question in questions_for(number))
        except Exception:  # noqa: BLE001 - a broken question module must not break the progress table
            continue
        known[notebook_key(number)] = ids
    known.update(_questions)
    return known


def _questions_known(questions: Mapping[str, Sequence[str]] | None) -> Mapping[str, Sequence[str]]:
    return course_questions() if questions is None else questions


def progress_rows(progress: Progress | None = None, *,
                  questions: Mapping[str, Sequence[str]] | None = None) -> list[ProgressRow]:
    """The table's rows, in course order.

    Args:
        progress: what to show (default :func:`load`).
        questions: self-check question ids per notebook key (default: what :func:`register_questions` got).
    """
    progress = load() if progress is None else progress
    questions = _questions_known(questions)
    rows = []
    for stem in _notebooks():
        key = notebook_key(stem)
        score = _score(key, progress, questions)
        entries = [e for e in EXERCISES if e.notebook_key == key]
        if not entries:
            rows.append(ProgressRow(stem, "-", "-", score))
        for number, e in enumerate(entries):
            record = progress.exercises.get(e.id)
            rows.append(ProgressRow(stem, f"{e.id} {e.title}", "yes" if record and record.solved else "no",
                                    score if number == 0 else ""))
    return rows


def _about(question_id: str) -> str:
    """A question's id as a few words: ``"what-the-model-receives"`` -> ``"what the model receives"``."""
    return question_id.replace("-", " ").strip()


def next_step(progress: Progress | None = None, *,
              questions: Mapping[str, Sequence[str]] | None = None) -> NextStep | None:
    """The first unsolved exercise or unanswered self-check question, in course order; ``None``
    when everything known is done.

    A question answered wrongly on the first try is done: its first answer is the one that counts
    (see :func:`record_self_check`), so answering it again would change nothing. A question is named
    by its place in the notebook's "Check yourself" (``question 2``) and a few words from its id.
    Recorded answers to questions a notebook no longer has are ignored.
    """
    progress = load() if progress is None else progress
    questions = _questions_known(questions)
    for stem in _notebooks():
        key = notebook_key(stem)
        for e in EXERCISES:
            if e.notebook_key == key and not (e.id in progress.exercises and progress.exercises[e.id].solved):
                return NextStep("exercise", stem, f"{e.id} ({e.title})")
        answers = progress.self_checks.get(key, {})
        for number, question in enumerate(questions.get(key, ()), 1):
            if question not in answers:
                return NextStep("self-check", stem, f"question {number}", _about(question))
    return None


_HEAD = ("notebook", "exercise", "solved", "self-check")


def progress_table(progress: Progress | None = None, *,
                   questions: Mapping[str, Sequence[str]] | None = None) -> str:
    """The table as plain text (aligned columns), with the next step below it."""
    progress = load() if progress is None else progress
    rows = [_HEAD] + [(r.notebook, r.exercise, r.solved, r.self_check) for r in progress_rows(progress, questions=questions)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEAD))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    step = next_step(progress, questions=questions)
    lines += ["", step.text() if step else "Everything is solved. Well done!"]
    if progress.problem:
        lines[:0] = [unreadable_line(progress), ""]
    return "\n".join(lines)


def unreadable_line(progress: Progress) -> str:
    """``progress file unreadable: <why>; the table shows what could be read`` (``""`` when the
    file was read in full). The table functions put it above the table."""
    if not progress.problem:
        return ""
    return f"progress file unreadable: {progress.problem}; the table shows what could be read"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace("`", "\\`") or " "


def progress_markdown(progress: Progress | None = None, *,
                      questions: Mapping[str, Sequence[str]] | None = None) -> str:
    """The same table as Markdown, with the next step below it."""
    progress = load() if progress is None else progress
    lines = ["| " + " | ".join(_HEAD) + " |", "|---|---|---|---|"]
    for r in progress_rows(progress, questions=questions):
        lines.append("| " + " | ".join(_cell(c) for c in (r.notebook, r.exercise, r.solved, r.self_check)) + " |")
    step = next_step(progress, questions=questions)
    lines += ["", f"**{_cell(step.text())}**" if step else "**Everything is solved. Well done!**"]
    if progress.problem:
        lines[:0] = [_cell(unreadable_line(progress)), ""]
    return "\n".join(lines)


class ProgressReport:
    """What the progress cell at the top of notebook 00 shows (render it as a cell's last value).

    In the workspace (or with ``COURSE_PROGRESS_FILE``) the table; elsewhere, such as the course's
    own ``notebooks/``, one fixed line (:data:`NOT_IN_WORKSPACE`), so the committed output is
    deterministic.
    """

    def __init__(self, *, questions: Mapping[str, Sequence[str]] | None = None):
        self.active = recording_file() is not None
        self._questions = questions
        self._progress = load(recording_file()) if self.active else None

    def _repr_markdown_(self) -> str:
        if not self.active:
            return NOT_IN_WORKSPACE
        return progress_markdown(self._progress, questions=self._questions)

    def __repr__(self) -> str:
        if not self.active:
            return NOT_IN_WORKSPACE.replace("`", "")
        return progress_table(self._progress, questions=self._questions)


def progress_report(*, questions: Mapping[str, Sequence[str]] | None = None) -> ProgressReport:
    """The progress cell's value: ``from helpers.progress import progress_report; progress_report()``."""
    return ProgressReport(questions=questions)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m helpers.progress [--markdown]``: print the table of :func:`progress_file`."""
    args = list(sys.argv[1:] if argv is None else argv)
    for module in QUESTION_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    path = Path(os.path.abspath(progress_file()))
    if not os.environ.get(PROGRESS_FILE_ENV):
        problem = workspace_problem()
        if problem is not None:
            print(f"error: the workspace ({WORKSPACE_DIR}) cannot be used: {problem}; unset COURSE_WORKSPACE or "
                  "point it at a folder of its own", file=sys.stderr)
            return 1
    progress = load(path)
    text = progress_markdown(progress) if "--markdown" in args else progress_table(progress)
    where = "the workspace" if path.parent == WORKSPACE_DIR else (path.parent.name or str(path.parent))
    print(f"Progress from {path.name or str(path)} in {where}:\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
