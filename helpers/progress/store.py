"""The progress file: reading it, and writing it under a lock (the bottom floor, on its format).

This module imports nothing of the course (only :mod:`helpers.files`, :mod:`helpers.filelock`,
:mod:`helpers.workspace.renumbering` and :mod:`helpers.progress.format`):
the exercise core and the self-check engine record through :mod:`helpers.progress.record`, which
uses it, and the table (:mod:`helpers.progress`) reads through it.

The file (JSON, UTF-8; a BOM is accepted)::

    {"format": 2,
     "exercises": {"03.1": {"solved": true, "last_passed": false, "attempts": 4,
                            "updated": "2026-11-20T10:00:00+00:00"}},
     "self_checks": {"03": {"q1": {"correct": true, "attempts": 2, "updated": "..."}}}}

``solved`` stays true once an attempt passed; ``correct`` is the FIRST answer's (a self-check's
first answer is the one that counts: trying the other choices afterwards adds to ``attempts`` but
cannot turn a wrong first answer into a right one, so the table shows first-try scores). The
timestamps are never shown. Every record is a read-modify-write (:func:`update_file`) under an
exclusive lock on a side file (``.progress.json.lock``; :func:`helpers.filelock.exclusive`, which
gives up after its time limit when another process holds the lock), written to a temporary file in
the same folder and moved into place with ``os.replace``: two kernels recording at the same time
lose nothing, and a reader never sees half a file.

What the progress path may name, and what happens (never a crash, nothing lost):

* **Nothing yet, or an empty file**: recording starts the file.
* **A progress file** (a JSON object with no fields but ``format``, ``exercises`` and
  ``self_checks``): read, and rewritten when recording.
* **A damaged progress file**: a regular file that is clearly the course's, because its name is
  ``.progress.json`` or its content has the progress file's layout (JSON of the wrong shape, a key
  held twice, or text that starts like the file this module writes, cut short). Recording renames
  it ``<name>.corrupt-N`` (the first free N) and starts a fresh file holding every record that
  could still be read.
* **Anything else** is refused, and nothing is recorded, moved or created (not even the lock
  file): a folder (``COURSE_PROGRESS_FILE=~/myproject``, ``.``, ``/``), a device (``/dev/null``),
  a FIFO or socket (never opened for reading, so never a hang), a symlink loop, a file of the
  learner's that is not JSON or JSON of another layout, a file larger than 32 MB, a file written
  by a newer course version (``format`` above 2).
* **A file from before issue 17's split** (``format`` 1): read with its keys renumbered
  (:func:`helpers.workspace.renumbering.renumber_progress`: ``10.1`` is ``11.1``, ...), and written so at the
  next record; nothing in it is lost.
* **A symlink** to a file is written through: the link stays and its target is updated (the lock
  and any ``.corrupt-N`` copy sit beside the target). A dangling link whose target's folder exists
  creates the target.

Reading (:func:`read_file`) never moves, creates or locks anything: what cannot be read (in full)
is named in :attr:`Progress.problem`. Messages name files by their name, never by their folder's
path.

The format itself (records, parsing, :func:`notebook_key`, :func:`score_line`) is one floor
down, in :mod:`helpers.progress.format`; its public names are importable from here as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..filelock import LockTimeout, NotALockFile, exclusive
from ..files import NotARegularFile, kind_of, read_regular
from ..workspace.renumbering import FORMAT_BEFORE_SPLIT, renumber_progress
from .format import (
    _FIELDS,
    _FORMAT,
    FILE_NAME,
    ExerciseRecord,
    Progress,
    SelfCheckRecord,
    _key,
    _parse,
    notebook_key,
    score_line,
)

__all__ = [
    "FILE_NAME",
    "ExerciseRecord",
    "Progress",
    "SelfCheckRecord",
    "notebook_key",
    "now",
    "read_file",
    "score_line",
    "update_file",
]

#: A file larger than this is not read (no progress file comes near it: 200,000 records are ~20 MB).
_MAX_BYTES = 32 * 1024 * 1024
#: The start of a file this module wrote (``json.dump(..., sort_keys=True)``), even when cut short.
_OUR_START = re.compile(r'\A\s*\{\s*"(?:exercises|format|self_checks)"\s*:')


# -- reading and writing the file -------------------------------------------------------------------


class _Refused(Exception):
    """The progress path names something that is not a progress file; the message says what
    (``"myproject is a folder"``). Nothing is read, moved or written then."""


class _Locked(_Refused):
    """Another process held the progress file's lock for the whole time limit; nothing was written."""


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
        text = raw.decode("utf-8-sig")  # a BOM (some editors save one) is not damage
    except UnicodeDecodeError:
        return _Content(Progress(), "it is not text", named)
    duplicates: list[str] = []
    try:
        data = json.loads(text, object_pairs_hook=lambda pairs: _no_duplicates(pairs, duplicates))
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
    if version == FORMAT_BEFORE_SPLIT and not isinstance(version, bool):
        data = renumber_progress(data)  # keys of the old numbers (issue 17): read, and written, as the new
    progress, problems = _parse(data)
    if version not in (_FORMAT, FORMAT_BEFORE_SPLIT) or isinstance(version, bool):
        problems.insert(0, "its format is not a number")
    if duplicates:  # json keeps the last of two equal keys: the first's records would be lost unkept
        problems.insert(0, f"it has the key {_key(duplicates[0])!r} twice")
    if not problems:
        return _Content(progress)
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return _Content(progress, problems[0] + more, True)


def _no_duplicates(pairs: list[tuple[str, Any]], duplicates: list[str]) -> dict[str, Any]:
    """A JSON object's dict, noting in ``duplicates`` every key it holds twice."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            duplicates.append(key)
        seen[key] = value
    return seen


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``<path>.lock`` for the duration of the block
    (:func:`helpers.filelock.exclusive`, waiting at most :data:`helpers.filelock.DEFAULT_TIMEOUT` s).

    Raises:
        _Refused: the lock's place holds something that is not a regular file, or another process
            held the lock for the whole time limit (a kernel stopped in a debugger).
    """
    try:
        with exclusive(path.with_name(path.name + ".lock")):
            yield
    except NotALockFile as exc:
        raise _Refused(str(exc)) from None
    except LockTimeout:
        raise _Locked("the progress file is locked by another process") from None


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


def now() -> str:
    """The time a record is written: UTC, ISO 8601, to the second (stored, never shown)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def read_file(path: Path | str) -> Progress:
    """The progress recorded at ``path``; never raises.

    Only reads: nothing is moved, created or locked (writes are atomic renames, so no lock is
    needed to read a whole file). When the file cannot be read in full, what could be read is
    returned with :attr:`Progress.problem` saying why (e.g. ``"myproject is a folder"``).
    """
    try:
        place = _place(Path(path))
    except _Refused as exc:
        return Progress(problem=str(exc))
    return _read(place)


def update_file(path: Path | str, change: Callable[[Progress], None], *, hint: str) -> str:
    """Apply ``change(progress)`` to the file at ``path`` under its lock and write it back.

    Args:
        path: the progress file (a symlink is written through).
        change: changes the :class:`Progress` read from the file, in place.
        hint: what the learner can do when the path is refused (``"unset COURSE_PROGRESS_FILE"``).

    Returns:
        ``""`` when recorded without remark; else one line starting ``progress: `` that says what
        happened: a damaged file kept aside (recorded), or why nothing was recorded (a refused
        path, the lock held by another process past the time limit, an I/O error). Never raises
        for a problem with the file.
    """
    shown = Path(os.path.abspath(path)).name or str(path)

    def judged() -> tuple[_Place, _Content]:
        place = _place(Path(path))
        content = _content(place)
        if content.damage and not content.ours:
            raise _Refused(f"{place.shown} is not a progress file ({content.damage}); it was left as it is")
        return place, content

    note = ""
    try:
        place, _ = judged()  # before the lock too: a refused path gets no lock file beside it
        place.file.parent.mkdir(parents=True, exist_ok=True)
        with _locked(place.file):
            place, content = judged()
            if content.damage:
                kept = _set_aside(place.file)
                count = len(content.progress.exercises) + sum(map(len, content.progress.self_checks.values()))
                salvaged = f" with the {count} record{'s' if count != 1 else ''} that could be read" if count else ""
                note = (f"progress: {place.shown} could not be read ({content.damage}); kept it as {kept.name} "
                        f"and started a fresh one{salvaged}")
            change(content.progress)
            _write(place.file, content.progress)
    except _Locked as exc:
        return f"progress: not recorded: {exc}; run the cell again when that process has finished (or stop it)"
    except _Refused as exc:
        return f"progress: not recorded: {exc}; nothing was changed ({hint})"
    except OSError as exc:
        return (f"progress: could not record in {shown} ({exc.strerror or type(exc).__name__}); "
                "your answer's feedback above is unaffected")
    return note
