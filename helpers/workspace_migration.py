"""Bring a workspace made under the old notebook numbers to the new ones (issue 17's split), losing
nothing: ``sync`` (``make lab``) runs :func:`migrate` under the workspace's lock before it looks at
the notebooks.

* A copy of a renumbered notebook (``10_capstone_refund_agent.ipynb`` ...,
  :data:`helpers.renumbering.RENAMED`) is renamed to its new name, edits and outputs included, and
  its manifest record goes with it, so ``sync`` then treats it as before: an unedited copy is
  updated to the course version, an edited one is kept (``make reset NB=11`` takes the course
  version and keeps the copy in ``replaced/``). If a copy under the new name is there already, the
  old one is moved to ``replaced/`` instead, never over it.
* The copy of old notebook 09 (:data:`helpers.renumbering.SPLIT_NOTEBOOK`), which has no single
  successor, is moved whole to ``replaced/09_errors_and_high_risk_tools.N.ipynb``; ``sync`` then
  copies the new 09 and 10. Nothing is deleted.
* A progress file written before the split (``"format": 1``) is rewritten with its keys renumbered
  (:func:`helpers.renumbering.renumber_progress`) under the progress file's own lock.

Idempotent: a second run finds no old name and a progress file of the current format, and changes
nothing. Safe if interrupted: each step is one atomic rename (or an atomic write), and a rename
whose manifest record was not yet saved is recognised on the next run (the old record, no old
file, the new file unrecorded) and its record moved then.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .i18n import _
from .progress_store import FILE_NAME, update_file
from .renumbering import FORMAT_BEFORE_SPLIT, RENAMED, SPLIT_INTO, SPLIT_NOTEBOOK
from .workspace_files import Manifest, backup, replaced_problem

__all__ = ["migrate"]


def _is_file(path: Path) -> bool:
    return os.path.isfile(path) and not os.path.islink(path)


def _rename(workspace: Path, manifest: Manifest, old: str, new: str) -> list[str]:
    """One renumbered notebook: the copy renamed (or kept aside), its manifest record moved."""
    old_path, new_path = workspace / old, workspace / new
    lines = []
    if _is_file(old_path):
        if not os.path.lexists(new_path):
            os.rename(old_path, new_path)  # atomic; keeps every byte: edits, outputs
            lines.append(_("{old}: renamed {new} (the course renumbered it; your edits and outputs are in it)").format(
                old=old, new=new))
        elif replaced_problem(workspace) is None:
            kept = backup(workspace, old_path).relative_to(workspace).as_posix()
            lines.append(_("{old}: the course renumbered it to {new}, which you have already; your old copy is "
                           "kept as {kept}").format(old=old, new=new, kept=kept))
            manifest.notebooks.pop(old, None)
            return lines
    if old in manifest.notebooks and not os.path.lexists(old_path) and new not in manifest.notebooks \
            and os.path.lexists(new_path):
        manifest.notebooks[new] = manifest.notebooks.pop(old)
    return lines


def _keep_split(workspace: Path, manifest: Manifest) -> list[str]:
    """Old notebook 09's copy, moved whole to ``replaced/`` (left in place if ``replaced/`` cannot
    hold it: ``sync`` then reports it as no longer in the course, and keeps it)."""
    path = workspace / SPLIT_NOTEBOOK
    if not _is_file(path):
        return []
    problem = replaced_problem(workspace)
    if problem is not None:
        return [_("{name}: left where it is ({problem}); the course split it into {first} and {second}").format(
            name=SPLIT_NOTEBOOK, problem=problem, first=SPLIT_INTO[0], second=SPLIT_INTO[1])]
    kept = backup(workspace, path).relative_to(workspace).as_posix()
    manifest.notebooks.pop(SPLIT_NOTEBOOK, None)
    return [_("{name}: the course split it into {first} and {second}; your copy (edits and outputs) is kept "
              "whole as {kept}").format(name=SPLIT_NOTEBOOK, first=SPLIT_INTO[0], second=SPLIT_INTO[1], kept=kept)]


def _progress(workspace: Path) -> list[str]:
    """The workspace's progress file, rewritten under the new numbers if it is from before the split."""
    path = workspace / FILE_NAME
    if not _is_file(path):
        return []
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return []  # the progress module judges a damaged file when it records; nothing to renumber here
    if not isinstance(data, dict) or data.get("format") != FORMAT_BEFORE_SPLIT or data.get("format") is True:
        return []
    note = update_file(path, lambda progress: None, hint=_("the progress file could not be renumbered"))
    return [note or _("{name}: your exercise and self-check records now use the new numbers (10.1 is 11.1, "
                      "..., old 09's approval questions are 10's); nothing was lost").format(name=FILE_NAME)]


def migrate(workspace: Path, manifest: Manifest) -> list[str]:
    """Move a workspace from the old numbers to the new ones (see the module docstring).

    Args:
        workspace: the workspace folder, held under its lock by the caller.
        manifest: its manifest, changed in place (the caller saves it).

    Returns:
        report lines, one per thing moved; empty when there was nothing to migrate.

    Raises:
        OSError: a file could not be moved (a read-only workspace); what was moved stays moved, and
            the next run finishes the rest.
    """
    lines = []
    for old, new in RENAMED.items():
        lines += _rename(workspace, manifest, old, new)
    lines += _keep_split(workspace, manifest)
    lines += _progress(workspace)
    return lines
