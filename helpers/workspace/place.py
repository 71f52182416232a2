"""Where the learner's workspace is, and whether a folder may be one.

The course's own ``notebooks/`` stay clean (the tests run them); the learner's copies live in
:data:`WORKSPACE_DIR` (``workspace/`` in the repository, or ``COURSE_WORKSPACE``, an absolute path).
:func:`workspace_problem` says why a folder cannot be the workspace; :func:`in_workspace` tells a
kernel whether it runs there (progress is recorded only then). Nothing here raises for a path the
system cannot use (a symlink loop, a 300-character name): it is a problem, said in words.
Imports nothing of the course.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

__all__ = ["COURSE_ROOT", "EDITION", "EDITION_ENV", "NOTEBOOK_DIR", "WORKSPACE_DIR",
           "WORKSPACE_ENV", "chosen_edition", "edition_error", "in_workspace", "shown_folder", "within", "workspace_problem"]


def within(path: Path, folder: Path) -> bool:
    """``path`` is ``folder`` or inside it (both resolved)."""
    return path == folder or folder in path.parents


def shown(request: object, limit: int = 60) -> str:
    """``repr`` of a request's text, cut to ``limit`` characters (a name of 5,000 digits stays short)."""
    text = str(request)
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


#: The repository root (the folder holding ``notebooks/``, ``helpers/`` and ``data/``).
COURSE_ROOT = Path(__file__).resolve().parents[2]
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


#: The variable that chooses the edition ``make lab`` opens: ``zh`` (or ``zh-CN``, ``zh_CN``) the Chinese
#: one, unset or ``en`` the English one. Only the learner's commands read it (a kernel's language is its
#: folder's edition, :mod:`helpers.i18n`); the runner and the tests never pass it to a kernel.
EDITION_ENV = "COURSE_LANG"


def chosen_edition(value: str | None) -> Literal["en", "zh-CN"] | None:
    """The edition ``COURSE_LANG`` names: ``"en"`` for unset, empty or ``en``; ``"zh-CN"`` for ``zh``,
    ``zh-CN``, ``zh_CN`` (any case); ``None`` for anything else (the command line refuses it)."""
    text = (value or "en").strip().lower().replace("_", "-")
    return {"en": "en", "zh": "zh-CN", "zh-cn": "zh-CN"}.get(text)  # type: ignore[return-value]


def edition_error() -> str | None:
    """The ``error: ...`` line a learner command prints when ``COURSE_LANG`` names no edition (in
    English: no edition is known to speak in); ``None`` when it names one or is unset."""
    value = os.environ.get(EDITION_ENV)
    if chosen_edition(value) is not None:
        return None
    return (f"error: {EDITION_ENV}={value!r} names no edition of the course: use zh (the Chinese edition) or en, "
            "or leave it unset")


#: The edition of this process's commands (an unknown ``COURSE_LANG`` reads as English here).
EDITION = chosen_edition(os.environ.get(EDITION_ENV)) or "en"
#: The learner's copies; ``COURSE_WORKSPACE`` overrides the location. The Chinese edition's are in
#: its ``zh/`` folder, so the two editions never overwrite each other's work.
WORKSPACE_DIR = _absolute(Path(os.environ.get(WORKSPACE_ENV) or COURSE_ROOT / "workspace")
                          / ("zh" if EDITION == "zh-CN" else ""))
#: The workspace's default place: the only folder inside the repository a workspace may be in.
_DEFAULT_WORKSPACE = COURSE_ROOT / "workspace"


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
        return (f"it is given as a relative path ({shown(os.environ[WORKSPACE_ENV])}), which each kernel would "
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
    if within(here, COURSE_ROOT) and not within(here, _DEFAULT_WORKSPACE):
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
    if within(here, NOTEBOOK_DIR.resolve()):
        return False
    return within(here, WORKSPACE_DIR)


def shown_folder(path: Path | str) -> str:
    """A folder as messages show it: in full up to 100 characters, else its start and end around
    ``...`` (a 300-character name stays readable)."""
    text = str(path)
    return text if len(text) <= 100 else f"{text[:40]}...{text[-57:]}"
