"""The learner's workspace: a git-ignored copy of ``notebooks/`` that ``make lab`` opens.

The course's own notebooks stay clean (the tests run on them and ``git pull`` updates them);
the learner edits and runs the copies in :data:`WORKSPACE_DIR`. Progress records
(:mod:`helpers.progress`) are written only for notebooks that run there.

Command line (``make lab`` runs ``sync`` first; ``make reset NB=03`` runs ``reset 03``)::

    python -m helpers.workspace status          # what sync would do; changes nothing
    python -m helpers.workspace sync            # create the workspace / bring course updates in
    python -m helpers.workspace reset 03        # one notebook back to the course version
    python -m helpers.workspace reset --all     # every notebook back to the course version
    python -m helpers.workspace path            # print the workspace folder

The rules:

* **What "edited" means.** A notebook's *sources* are its cells' types and source text, in order
  (:func:`sources_hash`). Running cells changes outputs and execution counts, JupyterLab's saving
  changes metadata and cell ids: none of that is an edit. When a notebook is copied into the
  workspace, the hash of the course version's sources is recorded in the manifest
  (``workspace/.course-manifest.json``); a copy whose sources differ from that hash is *edited*.
* **Sync never overwrites an edited notebook.** It copies course notebooks that are new (or that the
  learner deleted), updates a copy the learner has not edited when the course version changed, and
  keeps every edited copy (saying when the course version changed, so the learner can ``reset``).
  A copy the manifest has no record of is left alone unless it equals the course version; a file
  that is not a readable notebook is left alone; a notebook that left the course is kept. The copy
  is checked again right before it is replaced, so a save that lands meanwhile is kept. A course
  notebook that is not readable itself (merge-conflict markers after ``git pull``) is never copied.
  A workspace notebook that is a link to the course's own (a symlink or a hard link) is replaced by
  a copy of its own, so edits stop landing in ``notebooks/``.
* **Reset keeps what it replaces.** ``reset`` moves the workspace copy to
  ``workspace/replaced/NN_x.1.ipynb`` (``.2``, ... for later resets; a visible folder, so JupyterLab's
  file browser shows it and opens the copy as a notebook) before copying the course version, and
  says so; a copy identical to the course version is not backed up. A ``replaced`` that is a
  symlink or a file is refused before anything moves.
* **One command at a time.** ``sync`` and ``reset`` hold the workspace's lock (:data:`LOCK_NAME`,
  :func:`helpers.filelock.exclusive`) while they change it, and a kept copy's name is claimed
  atomically: two ``make reset NB=03`` at once never pick one name.
* **A damaged manifest loses nothing.** ``sync`` keeps it as ``.course-manifest.json.damaged`` and
  rebuilds the record from the notebooks: a copy equal to the course version counts as not edited,
  any other as the learner's (kept). ``status`` only reports it.
* **Only files are notebooks.** A folder, a FIFO or a device named like a notebook is never opened
  for reading (a FIFO would wait for ever) and never moved: ``status`` and ``sync`` report it,
  ``reset`` refuses it (changing nothing) until the learner renames it.
* **The workspace is a folder of its own.** It may not be the course's ``notebooks/`` (or a folder
  inside it), nor the repository root or any folder that contains ``notebooks/``, nor a folder inside
  the repository other than the git-ignored ``workspace/``, nor a relative ``COURSE_WORKSPACE`` (each
  kernel would read it from its own folder), a symlink loop or a path the system cannot use (a
  300-character name): :func:`workspace_problem` says why, the
  command line refuses such a ``COURSE_WORKSPACE`` and :func:`in_workspace` is false there, so the
  course's own notebooks never record progress and their committed outputs never change.

All writes are atomic (a temporary file beside the target, then a rename), so an interrupted sync
leaves either the old or the new file, never half of one. The command line answers every failure
(a read-only workspace, a full disk, a manifest nested 100,000 deep, a name with 5,000 digits) with
one ``error: ...`` line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import hashlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .filelock import LockTimeout, NotALockFile, exclusive
from .files import NotARegularFile, read_regular, special_kind

__all__ = [
    "COURSE_ROOT",
    "MANIFEST_NAME",
    "NOTEBOOK_DIR",
    "REPLACED_DIR",
    "WORKSPACE_DIR",
    "Action",
    "NotebookState",
    "WorkspaceError",
    "in_workspace",
    "main",
    "reset",
    "resolve_names",
    "shown_folder",
    "sources_hash",
    "status",
    "sync",
    "workspace_problem",
]

#: The repository root (the folder holding ``notebooks/``, ``helpers/`` and ``data/``).
COURSE_ROOT = Path(__file__).resolve().parent.parent
#: The course's own notebooks (what the tests run).
NOTEBOOK_DIR = COURSE_ROOT / "notebooks"
#: The variable that puts the workspace elsewhere (an absolute path; tests use a temporary folder).
WORKSPACE_ENV = "COURSE_WORKSPACE"


def _absolute(path: Path) -> Path:
    """``path`` resolved, or only made absolute when it cannot be resolved (a symlink loop, a name
    longer than the system allows): :func:`workspace_problem` then says why. Never raises."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        try:
            return Path(os.path.abspath(path))
        except (OSError, ValueError):  # a deleted current directory, a NUL byte
            return path


#: The learner's copies; ``COURSE_WORKSPACE`` overrides the location.
WORKSPACE_DIR = _absolute(Path(os.environ.get(WORKSPACE_ENV) or COURSE_ROOT / "workspace"))
#: The manifest in the workspace: which course version each copy was made from.
MANIFEST_NAME = ".course-manifest.json"
#: The folder in the workspace where ``reset`` keeps the copies it replaces (not hidden: JupyterLab's
#: file browser shows it, and each kept copy opens as a notebook: ``replaced/03_x.1.ipynb``).
REPLACED_DIR = "replaced"
#: The side file that ``sync`` and ``reset`` lock, so two of them never run at once.
LOCK_NAME = ".course-workspace.lock"
_MANIFEST_FORMAT = 1
_COURSE_NAME = re.compile(r"\d\d_[\w-]+\.ipynb")
#: The workspace's default place: the only folder inside the repository a workspace may be in.
_DEFAULT_WORKSPACE = COURSE_ROOT / "workspace"
#: At most this many characters of a request are repeated in an error message.
_SHOWN = 60


def _within(path: Path, folder: Path) -> bool:
    """``path`` is ``folder`` or inside it (both resolved)."""
    return path == folder or folder in path.parents


def workspace_problem(folder: Path | str | None = None, course: Path | str | None = None) -> str | None:
    """Why ``folder`` cannot be the learner's workspace, or ``None`` when it can.

    Args:
        folder: the candidate (default :data:`WORKSPACE_DIR`).
        course: the course's notebooks folder it must stay apart from (default :data:`NOTEBOOK_DIR`;
            the course's own ``notebooks/`` is always checked too).

    Returns:
        ``None``, or a phrase such as ``"it is the course's own notebooks folder"``: the folder is (or
        is inside) a course notebooks folder, contains one (the repository root, ``/``), is inside
        the repository but not in its git-ignored ``workspace/``, or is a file.
    """
    if folder is None and not os.path.isabs(os.environ.get(WORKSPACE_ENV) or "/"):
        return (f"{WORKSPACE_ENV} is a relative path ({_shown(os.environ[WORKSPACE_ENV])}), which each kernel would "
                "read from its own folder; give an absolute path")
    try:
        here = Path(folder if folder is not None else WORKSPACE_DIR).resolve()
        courses = {NOTEBOOK_DIR.resolve(), Path(course if course is not None else NOTEBOOK_DIR).resolve()}
    except RuntimeError:
        return "its path is a symlink loop"
    except (OSError, ValueError) as exc:  # a NUL byte, a deleted cwd
        return f"its path cannot be used ({_reason(exc)})"
    try:
        mode = os.stat(here).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as exc:  # a name longer than the system allows, a path through a file
        return f"its path cannot be used ({_reason(exc)})"
    for notebooks in sorted(courses):
        if here == notebooks:
            return "it is the course's own notebooks folder"
        if notebooks in here.parents:
            return "it is inside the course's own notebooks folder"
        if here in notebooks.parents:
            return "it contains the course's own notebooks folder (the repository root or a folder above it)"
    if _within(here, COURSE_ROOT) and not _within(here, _DEFAULT_WORKSPACE):
        return "it is inside the course's repository but not in its git-ignored workspace/ folder"
    if mode is not None and not stat.S_ISDIR(mode):
        return "it is a file, not a folder"
    return None


def _reason(exc: BaseException) -> str:
    """An OSError's reason in words (``"File name too long"``), else the exception's type."""
    return getattr(exc, "strerror", None) or type(exc).__name__


def in_workspace(cwd: Path | str | None = None) -> bool:
    """True when ``cwd`` (default: the current directory, a kernel's notebook folder) is inside the workspace.

    Always false when the workspace location is not allowed (:func:`workspace_problem`: e.g.
    ``COURSE_WORKSPACE`` names the course's ``notebooks/`` or the repository root), for a folder in
    the course's own ``notebooks/``, and when the current directory cannot be found. Never raises.
    """
    if workspace_problem() is not None:
        return False
    try:
        here = Path(cwd if cwd is not None else os.getcwd()).resolve()
    except (OSError, ValueError, RuntimeError):
        return False
    if _within(here, NOTEBOOK_DIR.resolve()):
        return False
    return _within(here, WORKSPACE_DIR)


def shown_folder(path: Path | str) -> str:
    """A folder as messages show it: in full up to 100 characters, else its start and end around
    ``...`` (a 300-character name stays readable)."""
    text = str(path)
    return text if len(text) <= 100 else f"{text[:40]}...{text[-57:]}"


def _shown(request: object) -> str:
    """``repr`` of a request's text, cut to :data:`_SHOWN` characters (a name of 5,000 digits stays short)."""
    text = str(request)
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "...")


class WorkspaceError(Exception):
    """A request the workspace cannot carry out (unknown notebook name, ...); the message says why."""


class NotebookState(enum.Enum):
    """Where one course notebook stands in the workspace (see the module docstring for the rules)."""

    NEW = "new in the course"
    MISSING = "missing from the workspace"
    UNTOUCHED = "not edited"
    OUTDATED = "not edited; the course version changed"
    EDITED = "edited by you"
    UNRECORDED = "yours (differs from the course version; not in the manifest)"
    UNREADABLE = "not a readable notebook"
    NOT_A_FILE = "not a notebook file"
    LINKED = "a link to the course's own notebook (your edits would change the course)"
    COURSE_UNREADABLE = "the course's version is not a readable notebook"
    RETIRED = "no longer in the course"


class Action(enum.Enum):
    """What ``sync`` does with a notebook in a given state."""

    COPY = "copy"
    UPDATE = "update"
    KEEP = "keep"
    NONE = "none"


_SYNC_ACTION = {
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
        return _SYNC_ACTION[self.state]


# -- sources and hashes -----------------------------------------------------------------------


class _Unreadable(Exception):
    pass


class _NotAFile(_Unreadable):
    """The path is a folder, a FIFO, a device or a socket (the message says which)."""


def _read_bytes(path: Path) -> bytes:
    """The bytes of a notebook or manifest file (:func:`helpers.files.read_regular`: a FIFO or a
    device is never opened for reading).

    Raises:
        _NotAFile: ``path`` is a folder, a FIFO, a device or a socket.
        OSError: it cannot be read (missing, permission denied, ...).
    """
    try:
        return read_regular(path)
    except NotARegularFile as exc:
        raise _NotAFile(f"it is {exc.kind}, not a notebook file") from None


def _read_sources(path: Path) -> list[tuple[str, str]]:
    """``[(cell_type, source), ...]`` of a notebook file (plain JSON; nbformat 4 layout).

    Raises:
        _NotAFile: a folder, FIFO, device or socket; _Unreadable: anything else that is not a
        notebook (not UTF-8, not JSON, nested too deeply, a cell whose source is not text, ...).
    """
    try:
        nb = json.loads(_read_bytes(Path(path)).decode("utf-8"))
    except RecursionError:
        raise _Unreadable("JSON nested too deeply") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise _Unreadable(f"{type(exc).__name__}: {exc}"[:160]) from exc
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) and "cell_type" in c for c in cells):
        raise _Unreadable("JSON without a list of cells")
    sources = []
    for number, cell in enumerate(cells):
        source, kind = cell.get("source", ""), cell["cell_type"]
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str) or not isinstance(kind, str):
            raise _Unreadable(f"cell {number}'s {'source' if not isinstance(source, str) else 'type'} is not text")
        sources.append((kind, source))
    return sources


def _digest(sources: list[tuple[str, str]]) -> str:
    return hashlib.sha256(json.dumps(sources, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def sources_hash(path: Path) -> str:
    """SHA-256 of a notebook's cell types and sources, in order (outputs, counts, ids, metadata ignored).

    Raises:
        WorkspaceError: the file is missing or not a readable notebook.
    """
    try:
        return _digest(_read_sources(path))
    except _Unreadable as exc:
        raise WorkspaceError(f"{Path(path).name} is not a readable notebook ({exc})") from exc


def _hash_or_none(path: Path) -> str | None:
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


def _stage(target: Path, data: bytes) -> str:
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
        _discard(tmp)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        raise
    return tmp


def _discard(tmp: str) -> None:
    if os.path.lexists(tmp):
        os.unlink(tmp)


def _write_atomically(target: Path, data: bytes) -> None:
    tmp = _stage(target, data)
    try:
        os.replace(tmp, target)
    except BaseException:
        _discard(tmp)
        raise


def _course_notebooks(course: Path) -> dict[str, Path]:
    """The course's notebook files by name (regular files named ``NN_name.ipynb``; folders and
    special files named like one are not notebooks)."""
    return {p.name: p for p in sorted(Path(course).glob("[0-9][0-9]_*.ipynb"))
            if _COURSE_NAME.fullmatch(p.name) and special_kind(p) is None}


def _replaced_problem(workspace: Path) -> str | None:
    """Why ``workspace/replaced`` cannot hold kept copies (a symlink would send them out of the
    workspace, e.g. into ``notebooks/`` where ``git clean`` deletes them; a file is in the way), or
    ``None``."""
    folder = workspace / REPLACED_DIR
    if os.path.islink(folder):
        return f"{REPLACED_DIR}/ is a symlink (the kept copy would leave the workspace)"
    if os.path.lexists(folder) and not os.path.isdir(folder):
        return f"{REPLACED_DIR} is {special_kind(folder) or 'a file'}, not a folder"
    return None


def _backup(workspace: Path, copy: Path) -> Path:
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


@contextlib.contextmanager
def _locked(workspace: Path) -> Iterator[None]:
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
        raise WorkspaceError("another `make lab` or `make reset` is changing the workspace right now; "
                             "run this again when it has finished (nothing was changed)") from None
    except NotALockFile as exc:
        raise WorkspaceError(f"in the workspace {exc}: remove it, then try again (nothing was changed)") from None


# -- the manifest -----------------------------------------------------------------------------


@dataclass
class _Manifest:
    path: Path
    notebooks: dict[str, str]  # name -> sources hash of the course version it was copied from
    damage: str | None = None  # why the file on disk could not be used (None: it was fine or absent)

    @classmethod
    def load(cls, workspace: Path) -> _Manifest:
        path = workspace / MANIFEST_NAME
        if not os.path.lexists(path):
            return cls(path, {})
        try:
            data = json.loads(_read_bytes(path).decode("utf-8"))
            entries = data["notebooks"]
            if data.get("format") != _MANIFEST_FORMAT or not isinstance(entries, dict):
                raise ValueError(f"unknown layout (format {data.get('format')!r})")
            notebooks = {}
            for name, entry in entries.items():
                if not isinstance(name, str) or not _COURSE_NAME.fullmatch(name):
                    raise ValueError(f"the entry {_shown(name)} is not the name of a notebook in the workspace")
                digest = entry.get("sources_sha256") if isinstance(entry, dict) else None
                if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
                    raise ValueError(f"the entry for {name!r} has no sources_sha256")
                notebooks[str(name)] = digest
        except RecursionError:
            return cls(path, {}, damage="RecursionError: JSON nested too deeply")
        except (_Unreadable, OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
            reason = f"{type(exc).__name__}: {exc}"[:160]
            return cls(path, {}, damage=reason)
        return cls(path, notebooks)

    def save(self) -> None:
        data = {"format": _MANIFEST_FORMAT,
                "about": "Written by python -m helpers.workspace: the course version each notebook was copied from.",
                "notebooks": {name: {"sources_sha256": digest} for name, digest in sorted(self.notebooks.items())}}
        _write_atomically(self.path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))


# -- status, sync, reset ----------------------------------------------------------------------


def _is_link_to(copy: Path, course_file: Path) -> bool:
    """``copy`` is a symlink into the course's folder, or the course file itself (a hard link)."""
    try:
        if os.path.islink(copy) and _within(Path(os.path.realpath(copy)), course_file.parent.resolve()):
            return True
        return os.path.samefile(copy, course_file)
    except (OSError, ValueError):
        return False


def _classify(name: str, course_file: Path | None, copy: Path, recorded: str | None) -> Entry:
    if course_file is None:
        return Entry(name, NotebookState.RETIRED)
    try:
        course_hash = _digest(_read_sources(course_file))
    except _Unreadable as exc:
        return Entry(name, NotebookState.COURSE_UNREADABLE, reason=str(exc))
    if not os.path.lexists(copy):
        return Entry(name, NotebookState.NEW if recorded is None else NotebookState.MISSING)
    if _is_link_to(copy, course_file):
        return Entry(name, NotebookState.LINKED)
    try:
        copy_hash = _digest(_read_sources(copy))
    except _NotAFile as exc:
        return Entry(name, NotebookState.NOT_A_FILE, reason=str(exc))
    except _Unreadable as exc:
        return Entry(name, NotebookState.UNREADABLE, reason=str(exc))
    changed = recorded is not None and recorded != course_hash
    if copy_hash == course_hash:
        return Entry(name, NotebookState.UNTOUCHED)
    if recorded is None:
        return Entry(name, NotebookState.UNRECORDED)
    if copy_hash == recorded:
        return Entry(name, NotebookState.OUTDATED, course_changed=True)
    return Entry(name, NotebookState.EDITED, course_changed=changed)


def _entries(workspace: Path, course: Path, manifest: _Manifest) -> list[Entry]:
    course_files = _course_notebooks(course)
    names = set(course_files) | {n for n in manifest.notebooks if os.path.lexists(workspace / n)}
    return [_classify(name, course_files.get(name), workspace / name, manifest.notebooks.get(name))
            for name in sorted(names)]


def status(workspace: Path | None = None, course: Path | None = None) -> tuple[list[Entry], str | None]:
    """Each course notebook's state in the workspace; changes nothing.

    Args:
        workspace: the workspace folder (default :data:`WORKSPACE_DIR`); it need not exist yet.
        course: the course's notebooks folder (default: :data:`NOTEBOOK_DIR`).

    Returns:
        ``(entries, damage)``: one :class:`Entry` per notebook, and why the manifest could not be
        read (``None`` when it was fine or absent).

    Raises:
        WorkspaceError: the folder cannot be a workspace (:func:`workspace_problem`).
    """
    workspace = _checked(workspace, course)
    manifest = _Manifest.load(workspace)
    return _entries(workspace, Path(course or NOTEBOOK_DIR), manifest), manifest.damage


def _checked(workspace: Path | str | None, course: Path | str | None) -> Path:
    """``workspace`` (default :data:`WORKSPACE_DIR`) if it may be a workspace, else WorkspaceError."""
    folder = Path(workspace or WORKSPACE_DIR)
    problem = workspace_problem(folder, course)
    if problem is not None:
        raise WorkspaceError(f"{shown_folder(folder)} cannot be the workspace: {problem}. Use a folder of its own "
                             "(unset COURSE_WORKSPACE to use the course's workspace/ folder)")
    return folder


def _advice(entry: Entry) -> str:
    number = entry.name[:2]
    if entry.state is NotebookState.EDITED and entry.course_changed:
        return (f"the course version changed since you copied it: `make reset NB={number}` takes it "
                f"(your copy is kept in {REPLACED_DIR}/)")
    if entry.state is NotebookState.UNRECORDED:
        return f"`make reset NB={number}` replaces it with the course version (your copy is kept in {REPLACED_DIR}/)"
    if entry.state is NotebookState.UNREADABLE:
        return f"{entry.reason}; `make reset NB={number}` replaces it (the file is kept in {REPLACED_DIR}/)"
    if entry.state is NotebookState.NOT_A_FILE:
        return f"{entry.reason}; rename or move it, then `make reset NB={number}` copies the course version"
    if entry.state is NotebookState.RETIRED:
        return "kept; it is yours now"
    if entry.state is NotebookState.COURSE_UNREADABLE:
        return (f"notebooks/{entry.name}: {entry.reason}. After a `git pull`, look for merge-conflict markers "
                "(`git status`); your copy is untouched until the course's is readable again")
    return ""


def _open_manifest(workspace: Path, course: Path) -> tuple[_Manifest, list[str]]:
    """Load the workspace's manifest (creating the workspace folder). A damaged one is kept aside as
    ``.course-manifest.json.damaged`` (``.damaged.2``, ...) and rebuilt: every copy equal to its course
    version is recorded, any other counts as the learner's. Returns the manifest and report lines."""
    workspace.mkdir(parents=True, exist_ok=True)
    manifest = _Manifest.load(workspace)
    if manifest.damage is None:
        return manifest, []
    kept = manifest.path.with_name(MANIFEST_NAME + ".damaged")
    number = 1
    while os.path.lexists(kept):
        number += 1
        kept = manifest.path.with_name(f"{MANIFEST_NAME}.damaged.{number}")
    os.replace(manifest.path, kept)
    rebuilt = _Manifest(manifest.path, {})
    course_files = _course_notebooks(course)
    for entry in _entries(workspace, course, rebuilt):
        if entry.state is NotebookState.UNTOUCHED:
            rebuilt.notebooks[entry.name] = sources_hash(course_files[entry.name])
    return rebuilt, [f"the manifest {MANIFEST_NAME} was damaged ({manifest.damage}); kept as {kept.name} and "
                     "rebuilt from your notebooks: a copy equal to the course version counts as not edited, "
                     "any other as yours (nothing was overwritten)"]


def sync(workspace: Path | None = None, course: Path | None = None) -> list[str]:
    """Create the workspace on first use, or bring course updates into it, never overwriting an edit.

    Args:
        workspace: the workspace folder (default :data:`WORKSPACE_DIR`); created if missing.
        course: the course's notebooks folder (default: :data:`NOTEBOOK_DIR`).

    Returns:
        report lines, one per notebook (and one about a damaged manifest, if any).

    Raises:
        WorkspaceError: the folder cannot be a workspace (:func:`workspace_problem`).
        OSError: a file could not be written (a read-only workspace, a full disk); every file is
            written atomically, so what was done before stays and nothing is half-written.
    """
    workspace = _checked(workspace, course)
    course = Path(course or NOTEBOOK_DIR)
    with _locked(workspace):
        return _sync(workspace, course)


_SYNC_VERB = {NotebookState.NEW: "copied (new)", NotebookState.MISSING: "copied again (it was missing)",
              NotebookState.OUTDATED: "updated to the new course version (you had not edited it)",
              NotebookState.LINKED: "replaced the link to the course's own notebook with a copy of its own "
                                    "(edits made through the link are in notebooks/: `git diff notebooks/`)"}


def _unchanged_since(entry: Entry, copy: Path, recorded: str | None) -> bool:
    """The copy is still what ``entry`` was classified from (checked right before it is replaced, so a
    save that landed meanwhile is kept): still absent, still a link, or still unedited."""
    if entry.state in (NotebookState.NEW, NotebookState.MISSING):
        return not os.path.lexists(copy)
    if entry.state is NotebookState.LINKED:
        return os.path.islink(copy) or os.path.lexists(copy) and _hash_or_none(copy) is not None
    return recorded is not None and _hash_or_none(copy) == recorded


def _sync(workspace: Path, course: Path) -> list[str]:
    manifest, lines = _open_manifest(workspace, course)
    course_files = _course_notebooks(course)
    for entry in _entries(workspace, course, manifest):
        copy = workspace / entry.name
        if entry.action in (Action.COPY, Action.UPDATE):
            source = course_files[entry.name]
            tmp = _stage(copy, _read_bytes(source))
            try:
                if not _unchanged_since(entry, copy, manifest.notebooks.get(entry.name)):
                    _discard(tmp)
                    lines.append(f"{entry.name}: kept, you saved it while sync ran (run `make lab` again to see "
                                 "its state)")
                    continue
                os.replace(tmp, copy)
            except BaseException:
                _discard(tmp)
                raise
            manifest.notebooks[entry.name] = sources_hash(source)
            lines.append(f"{entry.name}: {_SYNC_VERB[entry.state]}")
        elif entry.state is NotebookState.UNTOUCHED:
            manifest.notebooks[entry.name] = sources_hash(course_files[entry.name])
            lines.append(f"{entry.name}: up to date")
        elif entry.state is NotebookState.COURSE_UNREADABLE:
            lines.append(f"{entry.name}: not updated, {entry.state.value}: {_advice(entry)}")
        else:
            advice = _advice(entry)
            lines.append(f"{entry.name}: kept, {entry.state.value}" + (f": {advice}" if advice else ""))
    manifest.notebooks = {n: h for n, h in manifest.notebooks.items() if n in course_files}
    manifest.save()
    return lines


def resolve_names(requests: Iterable[str], course: Path | None = None) -> list[str]:
    """Course notebook names for ``03``, ``3``, ``03_toolmessage_pairing``, ``workspace/03_x.ipynb``, ...

    Raises:
        WorkspaceError: a request matches no course notebook, or more than one.
    """
    available = sorted(_course_notebooks(Path(course or NOTEBOOK_DIR)))
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
        if len(matches) != 1:
            problem = "matches no course notebook" if not matches else f"matches {len(matches)} notebooks"
            raise WorkspaceError(f"{_shown(request)} {problem}; the course notebooks are: {', '.join(available)}")
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
        report lines, one per notebook, naming where each replaced copy went.

    Raises:
        WorkspaceError: a name matches no course notebook or several, a chosen notebook's place in
            the workspace holds a folder, FIFO or device (it is the learner's to rename), or the
            folder cannot be a workspace (nothing is changed then).
        OSError: a file could not be written (a read-only workspace, a full disk); what was done
            before stays, nothing is half-written, and every replaced copy is in ``.replaced/``.
    """
    workspace = _checked(workspace, course)
    course = Path(course or NOTEBOOK_DIR)
    course_files = _course_notebooks(course)
    chosen = list(course_files) if names is None else resolve_names(names, course)
    blocked = [(name, kind) for name in chosen if (kind := special_kind(workspace / name)) is not None]
    if blocked:
        listed = ", ".join(f"{name} is {kind}" for name, kind in blocked)
        raise WorkspaceError(f"in the workspace {listed}, not a notebook file: rename or move it, then reset "
                             "again (nothing was changed)")
    for name in chosen:
        if (why := _hash_problem(course_files[name])) is not None:
            raise WorkspaceError(f"the course's notebooks/{name} is not a readable notebook ({why}): after a "
                                 "`git pull`, look for merge-conflict markers (`git status`); nothing was changed")
    with _locked(workspace):
        problem = _replaced_problem(workspace)
        if problem is not None:
            raise WorkspaceError(f"in the workspace {problem}: rename or move it, then reset again (nothing was "
                                 "changed)")
        return _reset(chosen, workspace, course, course_files)


def _hash_problem(path: Path) -> str | None:
    """Why ``path`` is not a readable notebook, or ``None``."""
    try:
        _read_sources(path)
    except _Unreadable as exc:
        return str(exc)
    return None


def _reset(chosen: list[str], workspace: Path, course: Path, course_files: dict[str, Path]) -> list[str]:
    manifest, lines = _open_manifest(workspace, course)
    for name in chosen:
        copy, source = workspace / name, course_files[name]
        course_bytes = _read_bytes(source)
        if _is_link_to(copy, source):
            _write_atomically(copy, course_bytes)  # replaces the link itself; its target is the course's
            lines.append(f"{name}: {_SYNC_VERB[NotebookState.LINKED]}")
        elif os.path.exists(copy) and _read_bytes(copy) == course_bytes:
            lines.append(f"{name}: already the course version")
        elif os.path.lexists(copy):
            was = _classify(name, source, copy, manifest.notebooks.get(name)).state.value
            tmp = _stage(copy, course_bytes)  # first, so a read-only workspace fails before anything moves
            try:
                kept = _backup(workspace, copy)
                os.replace(tmp, copy)
            except BaseException:
                _discard(tmp)
                raise
            lines.append(f"{name}: replaced your copy ({was}) with the course version; "
                         f"your copy is kept as {kept.relative_to(workspace).as_posix()}")
        else:
            _write_atomically(copy, course_bytes)
            lines.append(f"{name}: copied the course version (there was no copy)")
        manifest.notebooks[name] = sources_hash(source)
    manifest.save()
    return lines


# -- command line -----------------------------------------------------------------------------


def _status_lines(workspace: Path) -> list[str]:
    entries, damage = status(workspace, NOTEBOOK_DIR)
    lines = [f"workspace: {workspace}" + ("" if os.path.isdir(workspace) else " (not created yet: `make lab` creates it)")]
    if damage is not None:
        lines.append(f"the manifest {MANIFEST_NAME} is damaged ({damage}): `sync` keeps it as "
                     f"{MANIFEST_NAME}.damaged and rebuilds it; nothing is overwritten")
    width = max((len(e.name) for e in entries), default=0)
    for entry in entries:
        what = {Action.COPY: "sync copies it", Action.UPDATE: "sync updates it"}.get(entry.action, _advice(entry))
        lines.append(f"  {entry.name:<{width}}  {entry.state.value}" + (f" ({what})" if what else ""))
    return lines


def _os_error_line(exc: OSError) -> str:
    """One line for an OSError: the file's name (not its folder's path), the reason, and a hint."""
    name = Path(str(exc.filename)).name if exc.filename else ""
    reason = exc.strerror or type(exc).__name__
    hint = " (is the workspace read-only?)" if exc.errno in (1, 13, 30) else ""
    return f"{name + ': ' if name else ''}{reason}{hint}; files already written are complete, nothing is half-written"


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry (see the module docstring). Returns 0, or 1 when a request cannot be done
    (then one ``error: ...`` line on stderr, never a traceback)."""
    parser = argparse.ArgumentParser(prog="python -m helpers.workspace",
                                     description="The learner's copy of the course notebooks (see `make lab`).")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("status", help="what sync would do; changes nothing")
    commands.add_parser("sync", help="create the workspace, or bring course updates in (never over an edit)")
    reset_parser = commands.add_parser("reset", help="put notebooks back to the course version (keeps a copy)")
    reset_parser.add_argument("notebooks", nargs="*", help="e.g. 03 or 03_toolmessage_pairing.ipynb")
    reset_parser.add_argument("--all", action="store_true", help="every course notebook")
    commands.add_parser("path", help="print the workspace folder")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    workspace = WORKSPACE_DIR
    try:
        problem = workspace_problem()
        if problem is not None:
            raise WorkspaceError(f"COURSE_WORKSPACE names {shown_folder(workspace)}, which cannot be the workspace: "
                                 f"{problem}. "
                                 "Point it at a folder of its own, or unset it to use the course's workspace/ folder")
        if args.command == "path":
            print(workspace)
            return 0
        if args.command == "status":
            lines = _status_lines(workspace)
        elif args.command == "sync":
            lines = [f"workspace: {workspace}", *("  " + line for line in sync(workspace, NOTEBOOK_DIR))]
        else:
            if args.notebooks == ["all"]:  # `make reset NB=all`
                args.notebooks, args.all = [], True
            if bool(args.notebooks) == args.all:
                parser.error("reset wants notebook names (e.g. `reset 03`) or --all (one of the two)")
            lines = [f"workspace: {workspace}",
                     *("  " + line for line in reset(None if args.all else args.notebooks, workspace, NOTEBOOK_DIR))]
    except WorkspaceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: {_os_error_line(exc)}", file=sys.stderr)
        return 1
    except RecursionError:
        print("error: a file in the workspace is nested too deeply to be read", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the command line never shows a traceback
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
        print(f"error: {text[:300]}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
