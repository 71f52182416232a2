"""Taking hold of a workspace for a change: the folder checked (:func:`checked`), its lock held
(:func:`locked`), its manifest opened, a damaged one kept aside and rebuilt (:func:`open_manifest`).
One floor below :mod:`helpers.workspace` (``sync``) and :mod:`helpers.workspace.restore`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from ..filelock import LockTimeout, NotALockFile, exclusive
from ..i18n import _
from .files import MANIFEST_NAME, Manifest, WorkspaceError, course_notebooks, sources_hash
from .place import WORKSPACE_DIR, shown_folder, workspace_problem
from .state import NotebookState, entries

__all__ = ["LOCK_NAME", "checked", "locked", "open_manifest"]

#: The side file that ``sync`` and ``reset`` lock, so two of them never run at once.
LOCK_NAME = ".course-workspace.lock"


@contextlib.contextmanager
def locked(workspace: Path) -> Iterator[None]:
    """Hold the workspace's lock (:data:`LOCK_NAME`) while a sync or a reset changes it.

    Raises:
        WorkspaceError: another sync or reset held it for :data:`helpers.filelock.DEFAULT_TIMEOUT`
            seconds, or the lock's place is not a file.
    """
    workspace.mkdir(parents=True, exist_ok=True)
    try:
        with exclusive(workspace / LOCK_NAME):
            yield
    except LockTimeout:
        raise WorkspaceError(_("another `make lab` or `make reset` is changing the workspace right now; "
                               "run this again when it has finished (nothing was changed)")) from None
    except NotALockFile as exc:
        raise WorkspaceError(_("in the workspace {problem}: remove it, then try again (nothing was changed)").format(
            problem=exc)) from None


def checked(workspace: Path | str | None, course: Path | str | None) -> Path:
    """``workspace`` (default :data:`WORKSPACE_DIR`) if it may be a workspace, else WorkspaceError."""
    folder = Path(workspace or WORKSPACE_DIR)
    problem = workspace_problem(folder, course)
    if problem is not None:
        raise WorkspaceError(f"{shown_folder(folder)} cannot be the workspace: {problem}. Use a folder of its own "
                             "(unset COURSE_WORKSPACE to use the course's workspace/ folder)")
    return folder


def open_manifest(workspace: Path, course: Path) -> tuple[Manifest, list[str]]:
    """Load the workspace's manifest (creating the workspace folder). A damaged one is kept aside as
    ``.course-manifest.json.damaged`` (``.damaged.2``, ...) and rebuilt: every copy equal to its course
    version is recorded, any other counts as the learner's. Returns the manifest and report lines."""
    workspace.mkdir(parents=True, exist_ok=True)
    manifest = Manifest.load(workspace)
    if manifest.damage is None:
        return manifest, []
    kept = manifest.path.with_name(MANIFEST_NAME + ".damaged")
    number = 1
    while os.path.lexists(kept):
        number += 1
        kept = manifest.path.with_name(f"{MANIFEST_NAME}.damaged.{number}")
    os.replace(manifest.path, kept)
    rebuilt = Manifest(manifest.path, {})
    course_files = course_notebooks(course)
    for entry in entries(workspace, course, rebuilt):
        if entry.state is NotebookState.UNTOUCHED:
            rebuilt.notebooks[entry.name] = sources_hash(course_files[entry.name])
    return rebuilt, [_("the manifest {manifest} was damaged ({damage}); kept as {kept} and "
                       "rebuilt from your notebooks: a copy equal to the course version counts as not edited, "
                       "any other as yours (nothing was overwritten)").format(
                           manifest=MANIFEST_NAME, damage=manifest.damage, kept=kept.name)]
