"""The files of a workspace: reading a notebook's sources, writing atomically, the manifest, and the
folder of kept copies. Used by :mod:`helpers.workspace` (sync, reset, the command line) and
:mod:`helpers.workspace.state` (what state each notebook is in); imports nothing of the course.

A notebook's *sources* are its cells' types and source text, in order (:func:`sources_hash`):
outputs, execution counts, metadata and cell ids are not part of them. Every write goes to a
temporary file beside its target, then ``os.replace``: an interrupted write leaves the old or the new
file, never half of one. A kept copy's name (``replaced/NN_x.N.ipynb``) is claimed with
``O_CREAT | O_EXCL``, so two processes never pick one name.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..files import NotARegularFile, read_regular, special_kind
from .place import shown

__all__ = ["MANIFEST_NAME", "REPLACED_DIR", "WorkspaceError", "kept_copy", "sources_hash"]

#: The manifest in the workspace: which course version each copy was made from.
MANIFEST_NAME = ".course-manifest.json"
#: The folder in the workspace where ``reset`` keeps the copies it replaces (not hidden: JupyterLab's
#: file browser shows it, and each kept copy opens as a notebook: ``replaced/03_x.1.ipynb``).
REPLACED_DIR = "replaced"
_MANIFEST_FORMAT = 1
#: A course notebook's name: ``NN_name.ipynb``.
COURSE_NAME = re.compile(r"\d\d_[\w-]+\.ipynb")


class WorkspaceError(Exception):
    """A request the workspace cannot carry out (unknown notebook name, ...); the message says why."""


# -- sources and hashes -----------------------------------------------------------------------


class Unreadable(Exception):
    pass


class NotAFile(Unreadable):
    """The path is a folder, a FIFO, a device or a socket (the message says which)."""


def read_bytes(path: Path) -> bytes:
    """The bytes of a notebook or manifest file (:func:`helpers.files.read_regular`: a FIFO or a
    device is never opened for reading).

    Raises:
        NotAFile: ``path`` is a folder, a FIFO, a device or a socket.
        OSError: it cannot be read (missing, permission denied, ...).
    """
    try:
        return read_regular(path)
    except NotARegularFile as exc:
        raise NotAFile(f"it is {exc.kind}, not a notebook file") from None


def read_sources(path: Path) -> list[tuple[str, str]]:
    """``[(cell_type, source), ...]`` of a notebook file (plain JSON; nbformat 4 layout).

    Raises:
        NotAFile: a folder, FIFO, device or socket; Unreadable: anything else that is not a
        notebook (not UTF-8, not JSON, nested too deeply, a cell whose source is not text, ...).
    """
    try:
        nb = json.loads(read_bytes(Path(path)).decode("utf-8"))
    except RecursionError:
        raise Unreadable("JSON nested too deeply") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise Unreadable(f"{type(exc).__name__}: {exc}"[:160]) from exc
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) and "cell_type" in c for c in cells):
        raise Unreadable("JSON without a list of cells")
    sources = []
    for number, cell in enumerate(cells):
        source, kind = cell.get("source", ""), cell["cell_type"]
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str) or not isinstance(kind, str):
            raise Unreadable(f"cell {number}'s {'source' if not isinstance(source, str) else 'type'} is not text")
        sources.append((kind, source))
    return sources


def digest(sources: list[tuple[str, str]]) -> str:
    return hashlib.sha256(json.dumps(sources, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def sources_hash(path: Path) -> str:
    """SHA-256 of a notebook's cell types and sources, in order (outputs, counts, ids, metadata ignored).

    Raises:
        WorkspaceError: the file is missing or not a readable notebook.
    """
    try:
        return digest(read_sources(path))
    except Unreadable as exc:
        raise WorkspaceError(f"{Path(path).name} is not a readable notebook ({exc})") from exc


def hash_or_none(path: Path) -> str | None:
    try:
        return sources_hash(path)
    except WorkspaceError:
        return None


# -- files ------------------------------------------------------------------------------------


def _file_mode(target: Path) -> int:
    """The mode a rewritten ``target`` keeps: its own, or for a new file 0o666 minus the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def stage(target: Path, data: bytes) -> str:
    """Write ``data`` to a new temporary file beside ``target`` (with ``target``'s mode) and return
    its path; nothing else is changed. Raises OSError (a read-only folder, a full disk)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = _file_mode(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # name the file being written, not the random temporary one
        raise OSError(exc.errno, exc.strerror, str(target)) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)  # mkstemp makes 0o600
    except BaseException as exc:
        discard(tmp)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        raise
    return tmp


def discard(tmp: str) -> None:
    if os.path.lexists(tmp):
        os.unlink(tmp)


def install_if_absent(tmp: str, target: Path) -> bool:
    """Move the staged file ``tmp`` (:func:`stage`) to ``target`` only where nothing is: ``True`` when it
    was moved, ``False`` (and ``tmp`` discarded) when something is there, e.g. a save JupyterLab wrote
    after the old copy was moved away. A hard link claims the name atomically; on a file system
    without hard links the nearest check is made. Raises OSError (a read-only folder, a full disk)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        discard(tmp)
        return False
    except OSError:  # no hard links here (some network or FUSE file systems)
        if os.path.lexists(target):
            discard(tmp)
            return False
        os.replace(tmp, target)
        return True
    discard(tmp)
    return True


def write_atomically(target: Path, data: bytes) -> None:
    tmp = stage(target, data)
    try:
        os.replace(tmp, target)
    except BaseException:
        discard(tmp)
        raise


def course_notebooks(course: Path) -> dict[str, Path]:
    """The course's notebook files by name (regular files named ``NN_name.ipynb``; folders and
    special files named like one are not notebooks)."""
    return {p.name: p for p in sorted(Path(course).glob("[0-9][0-9]_*.ipynb"))
            if COURSE_NAME.fullmatch(p.name) and special_kind(p) is None}


def replaced_problem(workspace: Path) -> str | None:
    """Why ``workspace/replaced`` cannot hold kept copies (a symlink would send them out of the
    workspace, e.g. into ``notebooks/`` where ``git clean`` deletes them; a file is in the way), or
    ``None``."""
    folder = workspace / REPLACED_DIR
    if os.path.islink(folder):
        return f"{REPLACED_DIR}/ is a symlink (the kept copy would leave the workspace)"
    if os.path.lexists(folder) and not os.path.isdir(folder):
        return f"{REPLACED_DIR} is {special_kind(folder) or 'a file'}, not a folder"
    return None


def backup(workspace: Path, copy: Path) -> Path:
    """Move ``copy`` to ``workspace/replaced/NN_x.N.ipynb`` (the next free N) and return the new path.

    The name is claimed atomically (``O_CREAT | O_EXCL``) before the copy is moved onto it, so two
    processes never pick one name, even without the workspace lock."""
    folder = workspace / REPLACED_DIR
    folder.mkdir(parents=True, exist_ok=True)
    stem = copy.name.removesuffix(".ipynb")
    number = 1
    while True:
        target = folder / f"{stem}.{number}.ipynb"
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644))
        except FileExistsError:
            number += 1
            continue
        break
    try:
        os.replace(copy, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise
    return target


def kept_copy(workspace: Path, name: str) -> str | None:
    """The newest copy of ``name`` that :func:`backup` kept, ``replaced/<stem>.N.ipynb`` (as that relative
    path, the highest ``N``), or ``None`` when there is none (or ``replaced/`` cannot be listed)."""
    stem = name.removesuffix(".ipynb")
    try:
        found = [p.name for p in (Path(workspace) / REPLACED_DIR).glob(f"{stem}.*.ipynb")]
    except OSError:
        return None
    numbers = [n[len(stem) + 1:-6] for n in found]
    numbers = [n for n in numbers if n.isascii() and n.isdigit()]  # compared as text: int() refuses 5,000 digits
    newest = max(numbers, key=lambda n: (len(n.lstrip("0")), n.lstrip("0")), default=None)
    return f"{REPLACED_DIR}/{stem}.{newest}.ipynb" if newest is not None else None


# -- the manifest -----------------------------------------------------------------------------


@dataclass
class Manifest:
    path: Path
    notebooks: dict[str, str]  # name -> sources hash of the course version it was copied from
    damage: str | None = None  # why the file on disk could not be used (None: it was fine or absent)

    @classmethod
    def load(cls, workspace: Path) -> Manifest:
        path = workspace / MANIFEST_NAME
        if not os.path.lexists(path):
            return cls(path, {})
        try:
            data = json.loads(read_bytes(path).decode("utf-8"))
            entries = data["notebooks"]
            if data.get("format") != _MANIFEST_FORMAT or not isinstance(entries, dict):
                raise ValueError(f"unknown layout (format {data.get('format')!r})")
            notebooks = {}
            for name, entry in entries.items():
                if not isinstance(name, str) or not COURSE_NAME.fullmatch(name):
                    raise ValueError(f"the entry {shown(name)} is not the name of a notebook in the workspace")
                digest = entry.get("sources_sha256") if isinstance(entry, dict) else None
                if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
                    raise ValueError(f"the entry for {name!r} has no sources_sha256")
                notebooks[str(name)] = digest
        except RecursionError:
            return cls(path, {}, damage="RecursionError: JSON nested too deeply")
        except (Unreadable, OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
            reason = f"{type(exc).__name__}: {exc}"[:160]
            return cls(path, {}, damage=reason)
        return cls(path, notebooks)

    def save(self) -> None:
        data = {"format": _MANIFEST_FORMAT,
                "about": "Written by python -m helpers.workspace: the course version each notebook was copied from.",
                "notebooks": {name: {"sources_sha256": digest} for name, digest in sorted(self.notebooks.items())}}
        write_atomically(self.path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
