"""Putting workspace notebooks back to their course version (``make reset NB=03``), keeping every
replaced copy in ``replaced/``: :func:`resolve_names` and :func:`reset` (the rules are in
:mod:`helpers.workspace`, which re-exports both).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..files import special_kind
from ..i18n import _
from .renumbering import RENAMED, SPLIT_INTO, SPLIT_NOTEBOOK
from .files import (
    Unreadable,
    WorkspaceError,
    backup,
    course_notebooks,
    discard,
    install_if_absent,
    read_bytes,
    read_sources,
    replaced_problem,
    shown,
    sources_hash,
    stage,
    write_atomically,
)
from .guard import checked, locked, open_manifest
from .migration import migrate, plan
from .place import NOTEBOOK_DIR
from .state import SYNC_VERB, NotebookState, classify, is_link_to

__all__ = ["reset", "resolve_names"]


def resolve_names(requests: Iterable[str], course: Path | None = None) -> list[str]:
    """Course notebook names for ``03``, ``3``, ``03_toolmessage_pairing``, ``workspace/03_x.ipynb``, ...
    A name from before issue 17's renumbering (``10_capstone_refund_agent``) is its notebook's new
    name (``11_capstone_refund_agent.ipynb``); old 09's name, which has two successors, is refused.

    Raises:
        WorkspaceError: a request matches no course notebook, or more than one.
    """
    available = sorted(course_notebooks(Path(course or NOTEBOOK_DIR)))
    names = []
    for request in requests:
        try:
            stem = Path(str(request)).name.removesuffix(".ipynb")
        except (TypeError, ValueError):
            stem = ""
        if stem.isascii() and stem.isdigit():
            number = stem.lstrip("0") or "0"  # compared as text: int() refuses 5,000 digits
            matches = [n for n in available if (n[:2].lstrip("0") or "0") == number]
        else:
            matches = [n for n in available if n == f"{stem}.ipynb"] or [n for n in available if n.startswith(stem)]
            if not matches and stem:  # a name from before issue 17's renumbering: its notebook's new name
                old = [n for n in (*RENAMED, SPLIT_NOTEBOOK) if n == f"{stem}.ipynb"] or \
                    [n for n in (*RENAMED, SPLIT_NOTEBOOK) if n.startswith(stem)]
                if old == [SPLIT_NOTEBOOK]:
                    raise WorkspaceError(_("{request} is old notebook 09, which the course split into {first} and "
                                           "{second}: name one of them (NB=09 or NB=10)").format(
                                               request=shown(request), first=SPLIT_INTO[0], second=SPLIT_INTO[1]))
                matches = [RENAMED[n] for n in old if RENAMED[n] in available]
        if len(matches) != 1:
            problem = _("matches no course notebook") if not matches else _("matches {count} notebooks").format(
                count=len(matches))
            raise WorkspaceError(_("{request} {problem}; the course notebooks are: {names}").format(
                request=shown(request), problem=problem, names=", ".join(available)))
        if matches[0] not in names:
            names.append(matches[0])
    return names


def reset(names: Sequence[str] | None, workspace: Path | None = None, course: Path | None = None) -> list[str]:
    """Put notebooks back to their course version, keeping each replaced copy in ``.replaced/``.

    Args:
        names: notebooks as :func:`resolve_names` accepts them; ``None`` resets every course notebook.
        workspace: the workspace folder (default :data:`WORKSPACE_DIR`); created if missing.
        course: the course's notebooks folder (default: :data:`NOTEBOOK_DIR`).

    Returns:
        report lines, one per notebook, naming where each replaced copy went. A workspace still under
        the numbers from before issue 17's renumbering is migrated first; when a request was a bare
        number whose notebook changed (``10`` ... ``16``), nothing is reset then, and the last line
        says what the number means now (the learner may have meant the old notebook).

    Raises:
        WorkspaceError: a name matches no course notebook or several, a chosen notebook's place in
            the workspace holds a folder, FIFO or device (it is the learner's to rename), or the
            folder cannot be a workspace (nothing is changed then).
        OSError: a file could not be written (a read-only workspace, a full disk); what was done
            before stays, nothing is half-written, and every replaced copy is in ``.replaced/``.
    """
    workspace = checked(workspace, course)
    course = Path(course or NOTEBOOK_DIR)
    course_files = course_notebooks(course)
    chosen = list(course_files) if names is None else resolve_names(names, course)
    blocked = [(name, kind) for name in chosen if (kind := special_kind(workspace / name)) is not None]
    if blocked:
        listed = ", ".join(f"{name} is {kind}" for name, kind in blocked)
        raise WorkspaceError(f"in the workspace {listed}, not a notebook file: rename or move it, then reset "
                             "again (nothing was changed)")
    for name in chosen:
        if (why := _hash_problem(course_files[name])) is not None:
            raise WorkspaceError(_("the course's notebooks/{name} is not a readable notebook ({why}): after a "
                                   "`git pull`, look for merge-conflict markers (`git status`); nothing was "
                                   "changed").format(name=name, why=why))
    with locked(workspace):
        problem = replaced_problem(workspace)
        if problem is not None:
            raise WorkspaceError(f"in the workspace {problem}: rename or move it, then reset again (nothing was "
                                 "changed)")
        numbers = _renumbered_numbers(names or [], workspace)
        if numbers:  # the learner typed a number under the old numbering: migrate, then ask again
            manifest, lines = open_manifest(workspace, course)
            lines += migrate(workspace, manifest)
            manifest.save()
            return lines + [_("nothing was reset: the course renumbered its notebooks, and your workspace was still "
                              "under the old numbers. NB={numbers} now means {names}; run `make reset` again with "
                              "the notebook you mean").format(numbers=",".join(numbers), names=", ".join(
                                  n for n in chosen if n[:2] in numbers))]
        return _reset(chosen, workspace, course, course_files)


def _renumbered_numbers(requests: Sequence[str], workspace: Path) -> list[str]:
    """The bare numbers among ``requests`` that named another notebook before issue 17's renumbering
    (``10`` ... ``16``), when the workspace is still under the old numbers (:func:`plan` would move a
    copy): the learner may mean the old notebook. Empty otherwise."""
    if not plan(workspace):
        return []
    numbers = []
    for request in requests:
        try:  # as resolve_names reads it: "010", "10.ipynb" and "workspace/10" are 10
            text = Path(str(request).strip()).name.removesuffix(".ipynb").lstrip("0")
        except (TypeError, ValueError):
            continue
        if text.isascii() and text.isdigit() and len(text) <= 2 and f"{int(text):02d}" in _OLD_MEANING:
            numbers.append(f"{int(text):02d}")
    return numbers


#: The numbers whose notebook changed in the renumbering: old 10 (the capstone) ... old 16.
_OLD_MEANING = frozenset(old[:2] for old in RENAMED)


def _hash_problem(path: Path) -> str | None:
    """Why ``path`` is not a readable notebook, or ``None``."""
    try:
        read_sources(path)
    except Unreadable as exc:
        return str(exc)
    return None


def _reset(chosen: list[str], workspace: Path, course: Path, course_files: dict[str, Path]) -> list[str]:
    manifest, lines = open_manifest(workspace, course)
    lines += migrate(workspace, manifest)  # old numbers first, so NB=11 is the same notebook as in sync
    for name in chosen:
        copy, source = workspace / name, course_files[name]
        course_bytes = read_bytes(source)
        if is_link_to(copy, source):
            write_atomically(copy, course_bytes)  # replaces the link itself; its target is the course's
            lines.append(f"{name}: {_(SYNC_VERB[NotebookState.LINKED])}")
        elif os.path.exists(copy) and read_bytes(copy) == course_bytes:
            lines.append(_("{name}: already the course version").format(name=name))
        elif os.path.lexists(copy):
            was = _(classify(name, source, copy, manifest.notebooks.get(name)).state.value)
            tmp = stage(copy, course_bytes)  # first, so a read-only workspace fails before anything moves
            try:
                kept = backup(workspace, copy)
                installed = install_if_absent(tmp, copy)  # never over a save that landed after the move
            except BaseException:
                discard(tmp)
                raise
            where = kept.relative_to(workspace).as_posix()
            if not installed:
                lines.append(_("{name}: not reset, you saved it while reset ran; your copy from before is kept as "
                               "{where} (run the reset again to take the course version)").format(name=name, where=where))
                continue
            lines.append(_("{name}: replaced your copy ({was}) with the course version; your copy is kept as {where}").format(
                name=name, was=was, where=where))
        else:
            write_atomically(copy, course_bytes)
            lines.append(_("{name}: copied the course version (there was no copy)").format(name=name))
        manifest.notebooks[name] = sources_hash(source)
    manifest.save()
    return lines
