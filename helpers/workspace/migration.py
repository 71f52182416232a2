"""Bring a workspace made under the old notebook numbers to the new ones (issue 17's split), losing
nothing: ``sync`` (``make lab``) runs :func:`migrate` under the workspace's lock before it looks at
the notebooks.

* A copy of a renumbered notebook (``10_capstone_refund_agent.ipynb`` ...,
  :data:`helpers.workspace.renumbering.RENAMED`) is renamed to its new name, edits and outputs included, and
  its manifest record goes with it, so ``sync`` then treats it as before: an unedited copy is
  updated to the course version, an edited one is kept (``make reset NB=11`` takes the course
  version and keeps the copy in ``replaced/``). If a copy under the new name is there already, the
  old one is moved to ``replaced/`` instead, never over it. An edited copy is brought to the new
  number first (:func:`_renumber_copy`): its code cells that name its old number
  (``nb10.CONFIRMATION_GUARD.check``, ``self_check("10")``), so it runs; its title and its links
  to renumbered notebooks (the "Next" line), so it reads as the notebook it is; and a note at its
  top tells the learner in JupyterLab what changed (the terminal's line is easy to miss).
  JupyterLab's checkpoint of it follows it (:func:`_rename_checkpoint`). A copy kept in
  ``replaced/`` is kept byte for byte; the progress cell at the top of notebook 00 names it
  (:func:`helpers.progress.report.kept_from_renumbering`).
* The copy of old notebook 09 (:data:`helpers.workspace.renumbering.SPLIT_NOTEBOOK`), which has no single
  successor, is moved whole to ``replaced/09_errors_and_high_risk_tools.N.ipynb``; ``sync`` then
  copies the new 09 and 10. Nothing is deleted.
* A progress file written before the split (``"format": 1``) is rewritten with its keys renumbered
  (:func:`helpers.workspace.renumbering.renumber_progress`) under the progress file's own lock.

A copy that is a symlink is moved as a link (it keeps pointing where it did). When ``replaced/``
cannot hold a copy that must go there (a file or a symlink in its place), the copy stays where it
is and the one line about it says why. :func:`plan` and :func:`preview` say what would be moved
without moving it (``make status``); ``reset`` migrates first too, so a number means the same
notebook in every command.

Idempotent: a second run finds no old name and a progress file of the current format, and changes
nothing. Safe if interrupted: each step is one atomic rename (or an atomic write), and a move
whose manifest record was not yet saved is recognised on the next run (the old record, no old
file; the new file unrecorded, or old 09's copy in ``replaced/``): its record is moved then, and
the line the interrupted run never printed is printed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..i18n import _
from ..progress.store import FILE_NAME, update_file
from .renumbering import FORMAT_BEFORE_SPLIT, RENAMED, SPLIT_INTO, SPLIT_NOTEBOOK
from .files import (
    REPLACED_DIR,
    Manifest,
    Unreadable,
    backup,
    hash_or_none,
    kept_copy,
    read_bytes,
    replaced_problem,
    write_atomically,
)

__all__ = ["migrate", "plan", "preview", "stays"]


def _is_file(path: Path) -> bool:
    return os.path.isfile(path) and not os.path.islink(path)


def _movable(path: Path) -> bool:
    """A copy the migration moves: a regular file, or a symlink (the link itself is renamed and keeps
    pointing where it did, e.g. at the learner's own file elsewhere). A folder, a FIFO or a device
    named like a notebook is never moved."""
    return os.path.islink(path) or _is_file(path)


def plan(workspace: Path) -> dict[str, str | None]:
    """What :func:`migrate` would move, without moving it: each old name there -> its new name (a
    rename), or ``None`` (kept in ``replaced/``: old 09, or a renumbered copy whose new name is taken).
    A copy that would stay where it is (``replaced/`` cannot hold it) is not in the plan."""
    moves: dict[str, str | None] = {}
    aside = replaced_problem(workspace) is None
    for old, new in RENAMED.items():
        if _movable(workspace / old):
            if not os.path.lexists(workspace / new):
                moves[old] = new
            elif aside:
                moves[old] = None
    if aside and _movable(workspace / SPLIT_NOTEBOOK):
        moves[SPLIT_NOTEBOOK] = None
    return moves


def stays(workspace: Path) -> list[str]:
    """The old names :func:`migrate` leaves where they are because ``replaced/`` cannot hold them (a
    file or a symlink in its place): old 09, and a renumbered copy whose new name is taken. Sync
    reports each once (its own line) and drops its manifest record."""
    if replaced_problem(workspace) is None:
        return []
    return [old for old, new in RENAMED.items() if _movable(workspace / old) and os.path.lexists(workspace / new)] + \
        ([SPLIT_NOTEBOOK] if _movable(workspace / SPLIT_NOTEBOOK) else [])


def preview(workspace: Path) -> list[str]:
    """What ``sync`` will move for the renumbering, in words (for ``make status``); changes nothing."""
    lines = []
    for old, new in plan(workspace).items():
        if new is not None:
            lines.append(_("{old}: sync renames it {new} (the course renumbered it; your edits and outputs stay in "
                           "it)").format(old=old, new=new))
        elif old == SPLIT_NOTEBOOK:
            lines.append(_("{old}: the course split it into {parts}; sync keeps your copy whole in {folder}/").format(
                old=old, parts=_("{first} and {second}").format(first=SPLIT_INTO[0], second=SPLIT_INTO[1]),
                folder=REPLACED_DIR))
        else:
            lines.append(_("{old}: the course renumbered it to {new}, which you have already; sync keeps your old "
                           "copy in {folder}/").format(old=old, new=RENAMED[old], folder=REPLACED_DIR))
    problem = replaced_problem(workspace)
    for old in stays(workspace):
        if old == SPLIT_NOTEBOOK:
            lines.append(_("{old}: sync leaves it where it is ({problem}); the course split it into {parts}").format(
                old=old, problem=problem,
                parts=_("{first} and {second}").format(first=SPLIT_INTO[0], second=SPLIT_INTO[1])))
        else:
            lines.append(_("{old}: sync leaves it where it is ({problem}); the course renumbered it to {new}, which "
                           "you have already").format(old=old, problem=problem, new=RENAMED[old]))
    if _old_progress(workspace):
        lines.append(_("{name}: sync renumbers your exercise and self-check records (10.1 is 11.1, ...); nothing is "
                       "lost").format(name=FILE_NAME))
    return lines


#: The id of the note :func:`_renumber_copy` puts at the top of a renamed copy (nbformat 4.5 cell ids).
NOTE_ID = "course-renumbering-note"
#: A Markdown link to a notebook file: ``[label](NN_name.ipynb)``.
_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]+\.ipynb)\)")
#: Every old file name -> the file that has its content now (old 09's first part for old 09).
_NEW_NAME = {**RENAMED, SPLIT_NOTEBOOK: SPLIT_INTO[0]}


def _renumber_markdown(text: str, old: str, new: str) -> str:
    """A Markdown cell under the new numbers: the heading ``# 10 · Title`` becomes ``# 11 · Title``, and a link
    to a renumbered notebook points at its new file, its label's ``NN · `` renumbered with it (the "Next"
    line ``[Next: 11 · The Deep Agents control plane](11_deep_agents_control_plane.ipynb)`` becomes
    ``[Next: 12 · ...](12_deep_agents_control_plane.ipynb)``). Every link is changed at once, so ``10 -> 11``
    and ``11 -> 12`` never chain."""
    text = re.sub(rf"^(#\s+){old}(\s*·)", rf"\g<1>{new}\g<2>", text, count=1, flags=re.MULTILINE)

    def link(found: re.Match) -> str:
        label, target = found.groups()
        renamed = _NEW_NAME.get(target)
        if renamed is None:
            return found.group(0)
        label = re.sub(rf"(?<!\d){target[:2]}(\s*·)", rf"{renamed[:2]}\g<1>", label, count=1)
        return f"[{label}]({renamed})"
    return _LINK.sub(link, text)


def _renumber_copy(path: Path, old_name: str, new_name: str, recorded: str | None) -> bool:
    """Bring an edited copy to its notebook's new number, in place (an atomic write), before it is renamed,
    so it runs and reads as the notebook it is now:

    * code cells: ``nb10`` (``from helpers.exercises import nb10``, ``nb10.CONFIRMATION_GUARD.check(...)``)
      becomes ``nb11`` and ``self_check("10")`` becomes ``self_check("11")``; under the old number they
      would fail (``nb10`` is notebook 10's exercises now) or show another notebook's questions;
    * Markdown cells: the title and the links to renumbered notebooks (:func:`_renumber_markdown`), so its
      heading says ``11 · ...`` and its "Next" link is not dead;
    * a Markdown note at the top (id :data:`NOTE_ID`, in the edition's language) that tells the learner,
      in JupyterLab, what the course changed in their copy.

    Nothing else changes: outputs, the other code and prose (the file is written as nbformat 5.x and
    JupyterLab write it: sorted keys, indent 1).

    Args:
        path: the copy under its old name (a regular file; a symlink is never written through).
        old_name, new_name: its old and new file names.
        recorded: the manifest's hash for the copy; a copy with these sources is not edited, and is
            left as it is (sync replaces it with the course version, which has the new number).

    Returns:
        whether the copy was rewritten (``False``: not edited, a link, or not a readable notebook: sync
        reports that one).
    """
    if os.path.islink(path) or (recorded is not None and hash_or_none(path) == recorded):
        return False  # a link is renamed as it is: writing would replace it with a file
    try:
        nb = json.loads(read_bytes(path).decode("utf-8"))
    except (Unreadable, OSError, ValueError, RecursionError):
        return False
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        return False
    old, new = old_name[:2], new_name[:2]
    patterns = [(re.compile(rf"\bnb{old}\b"), f"nb{new}"),
                (re.compile(rf"""\bself_check\(\s*(["']){old}\1"""), rf"self_check(\g<1>{new}\g<1>")]
    for cell in cells:
        source = cell.get("source")
        text = "".join(source) if isinstance(source, list) and all(isinstance(s, str) for s in source) else source
        if not isinstance(text, str) or cell.get("cell_type") not in ("code", "markdown"):
            continue
        if cell["cell_type"] == "code":
            renumbered = text
            for pattern, replacement in patterns:
                renumbered = pattern.sub(replacement, renumbered)
        else:
            renumbered = _renumber_markdown(text, old, new)
        if renumbered != text:
            cell["source"] = renumbered.splitlines(keepends=True) if isinstance(source, list) else renumbered
    note = _("**A note from the course** (written by `make lab`): this is your copy of notebook {old}, made before "
             "the course renumbered its notebooks; it is notebook {new} now ({name}). Its title, its links to other "
             "notebooks and the code that named notebook {old} now use the new numbers; your edits and outputs "
             "are as you left them. `make reset NB={new}` gives you the course's version of {new} (this copy is "
             "then kept in `replaced/`).").format(old=old, new=new, name=new_name)
    if not any(cell.get("id") == NOTE_ID for cell in cells):
        cells.insert(0, {"cell_type": "markdown", "id": NOTE_ID, "metadata": {}, "source": note})
    write_atomically(path, (json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))
    return True


def _rename_checkpoint(workspace: Path, old: str, new: str) -> None:
    """JupyterLab's checkpoint of the copy (File > Save and Create Checkpoint; "Revert Notebook to
    Checkpoint" reads it) follows the copy to its new name: jupyter_server 2.x's ``FileCheckpoints``
    keeps ``NN_x.ipynb``'s in ``.ipynb_checkpoints/NN_x-checkpoint.ipynb`` beside it. Called before
    the copy is renamed, so an interrupted run still finds the copy and finishes both; a checkpoint
    already under the new name is never replaced."""
    folder = workspace / ".ipynb_checkpoints"
    was, will = (folder / f"{name.removesuffix('.ipynb')}-checkpoint.ipynb" for name in (old, new))
    if _is_file(was) and not os.path.lexists(will):
        os.rename(was, will)


def _rename(workspace: Path, manifest: Manifest, old: str, new: str) -> list[str]:
    """One renumbered notebook: the copy renamed (or kept aside), its manifest record moved."""
    old_path, new_path = workspace / old, workspace / new
    lines = []
    if _movable(old_path):
        if not os.path.lexists(new_path):
            rewritten = _renumber_copy(old_path, old, new, manifest.notebooks.get(old))
            _rename_checkpoint(workspace, old, new)
            os.rename(old_path, new_path)  # atomic; keeps every byte: edits, outputs
            if rewritten:
                lines.append(_("{old}: renamed {new} (the course renumbered it; your edits and outputs are in it; "
                               "its title, links and code now use {now} instead of {was}, and a note at its top "
                               "says so)").format(old=old, new=new, was=old[:2], now=new[:2]))
            else:
                lines.append(_("{old}: renamed {new} (the course renumbered it; your edits and outputs are in it)").format(
                    old=old, new=new))
        elif replaced_problem(workspace) is None:
            kept = backup(workspace, old_path).relative_to(workspace).as_posix()
            lines.append(_("{old}: the course renumbered it to {new}, which you have already; your old copy is "
                           "kept as {kept}").format(old=old, new=new, kept=kept))
            manifest.notebooks.pop(old, None)
            return lines
        else:  # one message, this one: the old record goes, so sync does not call it "no longer in the course"
            manifest.notebooks.pop(old, None)
            return [_("{old}: left where it is ({problem}); the course renumbered it to {new}, which you have "
                      "already").format(old=old, problem=replaced_problem(workspace), new=new)]
    if old in manifest.notebooks and not os.path.lexists(old_path) and new not in manifest.notebooks \
            and os.path.lexists(new_path):
        manifest.notebooks[new] = manifest.notebooks.pop(old)
        if not lines:  # an interrupted run renamed it and died before saying so: say it now
            lines.append(_("{old}: renamed {new} (the course renumbered it; your edits and outputs are in it)").format(
                old=old, new=new))
    return lines


def _keep_split(workspace: Path, manifest: Manifest) -> list[str]:
    """Old notebook 09's copy, moved whole to ``replaced/`` (left in place if ``replaced/`` cannot
    hold it: ``sync`` then reports it as no longer in the course, and keeps it)."""
    path = workspace / SPLIT_NOTEBOOK
    if not _movable(path):
        kept = kept_copy(workspace, SPLIT_NOTEBOOK) if SPLIT_NOTEBOOK in manifest.notebooks else None
        if kept is None or os.path.lexists(path):
            return []
        # an interrupted run moved it and died before saying where: say it now
        manifest.notebooks.pop(SPLIT_NOTEBOOK)
        return [_("{name}: the course split it into {first} and {second}; your copy (edits and outputs) is kept "
                  "whole as {kept}").format(name=SPLIT_NOTEBOOK, first=SPLIT_INTO[0], second=SPLIT_INTO[1], kept=kept)]
    problem = replaced_problem(workspace)
    if problem is not None:
        manifest.notebooks.pop(SPLIT_NOTEBOOK, None)  # one message, this one (not "no longer in the course")
        return [_("{name}: left where it is ({problem}); the course split it into {first} and {second}").format(
            name=SPLIT_NOTEBOOK, problem=problem, first=SPLIT_INTO[0], second=SPLIT_INTO[1])]
    kept = backup(workspace, path).relative_to(workspace).as_posix()
    manifest.notebooks.pop(SPLIT_NOTEBOOK, None)
    return [_("{name}: the course split it into {first} and {second}; your copy (edits and outputs) is kept "
              "whole as {kept}").format(name=SPLIT_NOTEBOOK, first=SPLIT_INTO[0], second=SPLIT_INTO[1], kept=kept)]


def _old_progress(workspace: Path) -> bool:
    """The workspace's progress file is one from before the split (``"format": 1``)."""
    path = workspace / FILE_NAME
    if not _is_file(path):
        return False
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return False  # the progress module judges a damaged file when it records; nothing to renumber here
    return isinstance(data, dict) and data.get("format") == FORMAT_BEFORE_SPLIT and data.get("format") is not True


def _progress(workspace: Path) -> list[str]:
    """The workspace's progress file, rewritten under the new numbers if it is from before the split."""
    path = workspace / FILE_NAME
    if not _old_progress(workspace):
        return []
    note = update_file(path, lambda progress: None, hint=_("the progress file could not be renumbered"))
    if _old_progress(workspace):  # not written: update_file's note speaks of a recorded answer, not of sync
        # update_file's note: "progress: not recorded: <why>; ..." or "progress: could not record in <f> (<why>); ..."
        first = note.split(";")[0].removeprefix("progress: ").removeprefix("not recorded: ")
        found = re.fullmatch(r"could not record in .* \((.*)\)", first)
        why = found.group(1) if found else first
        return [_("{name}: not renumbered this time ({why}); it is read under the new numbers all the same, the "
                  "next `make lab` renumbers it, and nothing in it is lost").format(name=FILE_NAME, why=why)]
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
