"""A translator's worklist: what to re-translate after English Markdown cells changed.

For each Markdown cell of an English notebook whose translation block is stale (its ``en-sha256`` is
not the cell's hash any more) or missing, one :class:`WorkItem`: the English the block was
translated from, the English now, and the Chinese now. The English it was translated from is found
in git history: the committed versions of the notebook (``git log --follow``, so a renamed notebook
is followed) are read newest first until a Markdown cell with the block's ``en-sha256`` turns up.
:func:`format_item` shows it as a unified diff to the English now, so a translator edits only what
changed. ``python -m tooling.translation worklist [NB ...]`` prints the list.

When the English changed and the Chinese still holds, the maintainer records that decision in the
block's marker (``en-sha256 <now> checked <the English the Chinese was written for>``, see
:mod:`tooling.translation.source`) instead of only moving the hash: :func:`unrecorded_keeps` reads the
translation file's own history and names every block whose hash moved while its Chinese stayed the same
without that record (the freshness check runs it), and :func:`kept_items` lists the recorded decisions
with their English diffs (``worklist --checked``), so a reviewer can audit them.
"""

from __future__ import annotations

import difflib
import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .source import ROOT, Block, cell_hash, marker_line, markdown_cells, parse_blocks, read_blocks

__all__ = ["WorkItem", "english_history", "format_item", "kept_items", "unrecorded_keeps", "worklist"]

#: Why a cell is on the worklist: its English changed since it was translated, it has no block yet, or
#: (``worklist --checked``) its English changed and a maintainer recorded that the Chinese still holds.
WorkKind = Literal["changed", "new", "checked"]


@dataclass(frozen=True)
class WorkItem:
    """One cell to (re-)translate.

    Attributes:
        notebook: the English notebook's stem (``08_interrupt_and_resume``).
        cell_id: the cell's id.
        kind: ``"changed"`` (a stale block), ``"new"`` (no block) or ``"checked"`` (a fresh block whose
            marker records that the English changed and the Chinese was kept).
        english_now: the cell's English source today.
        current_hash: its ``en-sha256`` today (what the edited block's marker must say).
        english_then: the English the block was translated from; ``None`` for a new cell, or when
            no committed version of the notebook has a cell with ``recorded_hash``.
        chinese_now: the block's Chinese (``None`` for a new cell).
        recorded_hash: the ``en-sha256`` of the English the Chinese was written for: the marker's
            ``checked`` hash when it has one, else its ``en-sha256`` (``None`` for a new cell).
    """

    notebook: str
    cell_id: str
    kind: WorkKind
    english_now: str
    current_hash: str
    english_then: str | None = None
    chinese_now: str | None = None
    recorded_hash: str | None = None


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], check=False, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError, ValueError):  # ValueError: a version that is not UTF-8
        return None
    return done.stdout if done.returncode == 0 else None


def _committed_versions(path: Path, root: Path, limit: int) -> Iterator[str]:
    """The file's committed texts (a notebook, a translation file), newest first, following renames (at
    most ``limit`` commits)."""
    try:
        relative = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return
    # -z: paths verbatim (without it git quotes a path with non-ASCII letters, "03_配对.ipynb", and
    # ``git show`` finds no such file). Each commit is "HASH", then "\nPATH" (none for a merge).
    log = _git(root, "log", "-z", "--follow", "--name-only", "--format=%H", f"-n{limit}", "--", relative)
    commit = None
    for token in (log or "").split("\0"):
        if not token.startswith("\n"):
            commit = token.strip() or None
        elif commit is not None:
            text = _git(root, "show", f"{commit}:{token[1:]}")
            commit = None
            if text is not None:
                yield text


def _markdown_sources(text: str) -> list[str]:
    """The Markdown cells' sources of one committed version; ``[]`` for a version that is not a
    notebook (not JSON, ``"cells"`` not a list), and a cell whose source is not text is skipped."""
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError):
        return []
    sources = []
    for cell in cells if isinstance(cells, list) else []:
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            if isinstance(source, list) and all(isinstance(line, str) for line in source):
                sources.append("".join(source))
            elif isinstance(source, str):
                sources.append(source)
    return sources


def english_history(notebook: Path, wanted: set[str], *, root: Path = ROOT, limit: int = 300) -> dict[str, str]:
    """The English Markdown sources with the hashes in ``wanted``, from the notebook's committed versions.

    Args:
        notebook: the English notebook (inside the git checkout ``root``).
        wanted: ``en-sha256`` values (:func:`~tooling.translation.source.cell_hash`) to look for.
        root: the git checkout.
        limit: how many commits of the notebook's history to read at most.

    Returns:
        ``{hash: source}`` for each wanted hash found (the newest version wins); empty when ``root``
        is not a git checkout, git is missing, or nothing matched. Never raises for those.
    """
    found: dict[str, str] = {}
    for text in _committed_versions(notebook, root, limit):
        if not wanted - found.keys():
            break
        for source in _markdown_sources(text):
            found.setdefault(cell_hash(source), source)
    return {key: found[key] for key in wanted if key in found}


def worklist(notebook: Path, translation: Path, *, root: Path = ROOT) -> list[WorkItem]:
    """Every cell of ``notebook`` whose translation in ``translation`` is stale or missing, in notebook order.

    Args:
        notebook: the English notebook.
        translation: its translation file (a missing file makes every cell ``"new"``).
        root: the git checkout that holds the notebook's history (see :func:`english_history`).

    Raises:
        tooling.translation.source.UnreadableTranslation: the translation file cannot be read (not UTF-8).
    """
    blocks = read_blocks(translation)[0] if Path(translation).is_file() else {}
    stem = Path(notebook).stem
    items = []
    for cell_id, source in markdown_cells(notebook):
        now = cell_hash(source)
        block = blocks.get(cell_id)
        if block is None:
            items.append(WorkItem(stem, cell_id, "new", source, now))
        elif block.en_hash != now:
            items.append(WorkItem(stem, cell_id, "changed", source, now, chinese_now=block.text,
                                  recorded_hash=block.checked or block.en_hash))
    stale = {item.recorded_hash for item in items if item.recorded_hash}
    if stale:
        then = english_history(notebook, stale, root=root)
        items = [WorkItem(i.notebook, i.cell_id, i.kind, i.english_now, i.current_hash,
                          then.get(i.recorded_hash or ""), i.chinese_now, i.recorded_hash) for i in items]
    return items


def kept_items(notebook: Path, translation: Path, *, root: Path = ROOT) -> list[WorkItem]:
    """The recorded decisions "the English changed, the Chinese still holds" of ``translation``: one
    ``"checked"`` item per block whose marker has ``checked`` and whose ``en-sha256`` is the cell's hash
    today, with the English it was written for (from git history) to diff against the English now.

    Raises:
        tooling.translation.source.UnreadableTranslation: the translation file is not UTF-8.
    """
    blocks = read_blocks(translation)[0] if Path(translation).is_file() else {}
    stem = Path(notebook).stem
    items = [WorkItem(stem, cell_id, "checked", source, cell_hash(source), chinese_now=blocks[cell_id].text,
                      recorded_hash=blocks[cell_id].checked)
             for cell_id, source in markdown_cells(notebook)
             if cell_id in blocks and blocks[cell_id].checked and blocks[cell_id].en_hash == cell_hash(source)]
    then = english_history(notebook, {item.recorded_hash for item in items if item.recorded_hash}, root=root) if items else {}
    return [WorkItem(i.notebook, i.cell_id, i.kind, i.english_now, i.current_hash, then.get(i.recorded_hash or ""),
                     i.chinese_now, i.recorded_hash) for i in items]


def _written_for(block: Block, history: list[dict[str, Block]]) -> str:
    """The ``en-sha256`` the block's Chinese was written for: going back through ``history`` (the file's
    committed versions, newest first) while the block's text stays the same, the marker of the oldest
    such version (its ``checked`` hash when it has one)."""
    oldest = block
    for version in history:
        earlier = version.get(block.cell_id)
        if earlier is None or earlier.text != block.text:
            break
        oldest = earlier
    return oldest.checked or oldest.en_hash


def unrecorded_keeps(translation: Path, *, root: Path = ROOT, limit: int = 200) -> list[str]:
    """Blocks of ``translation`` whose ``en-sha256`` moved away from the English their Chinese was
    written for without the marker recording it, one line each (``"<stem>: <cell id>: ..."``).

    The translation file's committed versions (``git log --follow``, at most ``limit``) tell, for each
    block, the English its Chinese was written for (:func:`_written_for`). When that is not the block's
    ``en-sha256``, someone moved the hash and kept the Chinese: the marker must say ``checked <that
    hash>`` (a visible decision). A ``checked`` that names another hash, or one on a block whose Chinese
    was written for its own ``en-sha256``, is named too. No git checkout, or a file git does not know:
    nothing to say (``[]``). Never raises for those.

    Raises:
        tooling.translation.source.UnreadableTranslation: the translation file itself is not UTF-8.
    """
    if not Path(translation).is_file():
        return []
    blocks = read_blocks(translation)[0]
    history = []
    for text in _committed_versions(translation, root, limit):
        history.append(parse_blocks(text)[0])
    if not history:
        return []
    stem, problems = Path(translation).stem, []
    for block in blocks.values():
        written_for = _written_for(block, history)
        keep = marker_line(block.cell_id, block.en_hash, written_for)
        if written_for != block.en_hash and block.checked != written_for:
            problems.append(f"{stem}: {block.cell_id}: en-sha256 moved from {written_for} to {block.en_hash} but the "
                            f"Chinese did not change: translate the change (python -m tooling.translation worklist), "
                            f"or, if the Chinese still holds, record it: {keep}")
        elif written_for == block.en_hash and block.checked:
            problems.append(f"{stem}: {block.cell_id}: 'checked {block.checked}', but the Chinese was written for "
                            f"en-sha256 {block.en_hash} itself: drop 'checked {block.checked}'")
    return problems


def format_item(item: WorkItem) -> str:
    """``item`` as plain text for a translator: a heading with the marker line to write, then the
    change to the English (a unified diff, or the whole English of a new cell) and the Chinese now.
    A changed cell also gets the marker that records "the Chinese still holds"; a ``"checked"`` item
    (``worklist --checked``) shows the change that was read and the Chinese that was kept."""
    what = {"changed": "the English changed", "new": "new cell",
            "checked": "kept: the English changed, the Chinese was checked and still holds"}[item.kind]
    lines = [f"## {item.notebook}: {item.cell_id} ({what})",
             f"marker: {marker_line(item.cell_id, item.current_hash, item.recorded_hash if item.kind == 'checked' else None)}"]
    if item.kind == "changed":
        lines.append(f"or, if the Chinese still holds: {marker_line(item.cell_id, item.current_hash, item.recorded_hash)}")
    if item.kind == "new":
        lines += ["English now:", item.english_now]
    elif item.english_then is None:
        lines += [f"English when translated: not found in git history (en-sha256 {item.recorded_hash}); English now:",
                  item.english_now]
    else:
        diff = difflib.unified_diff(item.english_then.splitlines(), item.english_now.splitlines(),
                                    "English when translated", "English now", lineterm="")
        lines += list(diff)
    if item.chinese_now is not None:
        lines += ["Chinese now:", item.chinese_now]
    return "\n".join(lines)

