"""Where each course notebook stands in the workspace: the states, what ``sync`` does with each, and
how a notebook is classified (see :mod:`helpers.workspace` for the rules). Changes nothing.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..i18n import N_, _
from .files import (
    REPLACED_DIR,
    Manifest,
    NotAFile,
    Unreadable,
    course_notebooks,
    digest,
    read_sources,
)
from .place import within

__all__ = ["SYNC_VERB", "Action", "Entry", "NotebookState", "advice", "classify", "entries", "is_link_to"]


class NotebookState(enum.Enum):
    """Where one course notebook stands in the workspace (see the module docstring for the rules)."""

    NEW = N_("new in the course")
    MISSING = N_("missing from the workspace")
    UNTOUCHED = N_("not edited")
    OUTDATED = N_("not edited; the course version changed")
    EDITED = N_("edited by you")
    UNRECORDED = N_("yours (differs from the course version; not in the manifest)")
    UNREADABLE = N_("not a readable notebook")
    NOT_A_FILE = N_("not a notebook file")
    LINKED = N_("a link to the course's own notebook (your edits would change the course)")
    COURSE_UNREADABLE = N_("the course's version is not a readable notebook")
    RETIRED = N_("no longer in the course")


class Action(enum.Enum):
    """What ``sync`` does with a notebook in a given state."""

    COPY = "copy"
    UPDATE = "update"
    KEEP = "keep"
    NONE = "none"


SYNC_ACTION = {
    NotebookState.NEW: Action.COPY,
    NotebookState.MISSING: Action.COPY,
    NotebookState.OUTDATED: Action.UPDATE,
    NotebookState.UNTOUCHED: Action.NONE,
    NotebookState.EDITED: Action.KEEP,
    NotebookState.UNRECORDED: Action.KEEP,
    NotebookState.UNREADABLE: Action.KEEP,
    NotebookState.NOT_A_FILE: Action.KEEP,
    NotebookState.LINKED: Action.UPDATE,
    NotebookState.COURSE_UNREADABLE: Action.NONE,
    NotebookState.RETIRED: Action.KEEP,
}


@dataclass(frozen=True)
class Entry:
    """One notebook's state: ``name`` (``NN_x.ipynb``), ``state``, and whether the course version
    differs from the one the copy was made from (``course_changed``)."""

    name: str
    state: NotebookState
    course_changed: bool = False
    reason: str = ""

    @property
    def action(self) -> Action:
        """What ``sync`` does with it."""
        return SYNC_ACTION[self.state]


def is_link_to(copy: Path, course_file: Path) -> bool:
    """``copy`` is a symlink into the course's folder, or the course file itself (a hard link)."""
    try:
        if os.path.islink(copy) and within(Path(os.path.realpath(copy)), course_file.parent.resolve()):
            return True
        return os.path.samefile(copy, course_file)
    except (OSError, ValueError):
        return False


def classify(name: str, course_file: Path | None, copy: Path, recorded: str | None) -> Entry:
    if course_file is None:
        return Entry(name, NotebookState.RETIRED)
    try:
        course_hash = digest(read_sources(course_file))
    except Unreadable as exc:
        return Entry(name, NotebookState.COURSE_UNREADABLE, reason=str(exc))
    if not os.path.lexists(copy):
        return Entry(name, NotebookState.NEW if recorded is None else NotebookState.MISSING)
    if is_link_to(copy, course_file):
        return Entry(name, NotebookState.LINKED)
    try:
        copy_hash = digest(read_sources(copy))
    except NotAFile as exc:
        return Entry(name, NotebookState.NOT_A_FILE, reason=str(exc))
    except Unreadable as exc:
        return Entry(name, NotebookState.UNREADABLE, reason=str(exc))
    changed = recorded is not None and recorded != course_hash
    if copy_hash == course_hash:
        return Entry(name, NotebookState.UNTOUCHED)
    if recorded is None:
        return Entry(name, NotebookState.UNRECORDED)
    if copy_hash == recorded:
        return Entry(name, NotebookState.OUTDATED, course_changed=True)
    return Entry(name, NotebookState.EDITED, course_changed=changed)


def entries(workspace: Path, course: Path, manifest: Manifest,
            moves: Mapping[str, str | None] | None = None) -> list[Entry]:
    """Each notebook's state: every course notebook, and every recorded copy still there.

    ``moves`` (:func:`helpers.workspace.migration.plan`: old name -> new name, or ``None`` for a copy
    going to ``replaced/``) classifies the workspace as it will be after the renumbering's moves: an
    old name is left out, and a new name is classified from the old copy and its record."""
    moves = moves or {}
    source = {new: old for old, new in moves.items() if new is not None}
    course_files = course_notebooks(course)
    names = (set(course_files) | {n for n in manifest.notebooks if os.path.lexists(workspace / n)}) - set(moves)
    return [classify(name, course_files.get(name), workspace / source.get(name, name),
                     manifest.notebooks.get(name, manifest.notebooks.get(source.get(name, name))))
            for name in sorted(names)]


def advice(entry: Entry) -> str:
    """What the learner can do about a notebook in ``entry``'s state (``""`` when nothing is needed)."""
    number = entry.name[:2]
    if entry.state is NotebookState.EDITED and entry.course_changed:
        return _("the course version changed since you copied it: `make reset NB={number}` takes it "
                 "(your copy is kept in {folder}/)").format(number=number, folder=REPLACED_DIR)
    if entry.state is NotebookState.UNRECORDED:
        return _("`make reset NB={number}` replaces it with the course version (your copy is kept in {folder}/)").format(
            number=number, folder=REPLACED_DIR)
    if entry.state is NotebookState.UNREADABLE:
        return _("{reason}; `make reset NB={number}` replaces it (the file is kept in {folder}/)").format(
            reason=entry.reason, number=number, folder=REPLACED_DIR)
    if entry.state is NotebookState.NOT_A_FILE:
        return _("{reason}; rename or move it, then `make reset NB={number}` copies the course version").format(
            reason=entry.reason, number=number)
    if entry.state is NotebookState.RETIRED:
        return _("kept; it is yours now")
    if entry.state is NotebookState.COURSE_UNREADABLE:
        return _("notebooks/{name}: {reason}. After a `git pull`, look for merge-conflict markers "
                 "(`git status`); your copy is untouched until the course's is readable again").format(
                     name=entry.name, reason=entry.reason)
    return ""


#: What ``sync`` says it did, per state of a notebook it copied or replaced.
#: Marked with :func:`helpers.i18n.N_`; shown through :func:`helpers.i18n._`.
SYNC_VERB = {NotebookState.NEW: N_("copied (new)"), NotebookState.MISSING: N_("copied again (it was missing)"),
             NotebookState.OUTDATED: N_("updated to the new course version (you had not edited it)"),
             NotebookState.LINKED: N_("replaced the link to the course's own notebook with a copy of its own "
                                      "(edits made through the link are in notebooks/: `git diff notebooks/`)")}
