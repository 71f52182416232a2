"""The learner's workspace: a git-ignored copy of ``notebooks/`` that ``make lab`` opens.

The course's own notebooks stay clean (the tests run on them and ``git pull`` updates them);
the learner edits and runs the copies in :data:`WORKSPACE_DIR`. Progress records
(:mod:`helpers.progress`) are written only for notebooks that run there.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["COURSE_ROOT", "NOTEBOOK_DIR", "WORKSPACE_DIR", "in_workspace"]

#: The repository root (the folder holding ``notebooks/``, ``helpers/`` and ``data/``).
COURSE_ROOT = Path(__file__).resolve().parent.parent
#: The course's own notebooks (what the tests run).
NOTEBOOK_DIR = COURSE_ROOT / "notebooks"
#: The learner's copies; ``COURSE_WORKSPACE`` overrides the location (tests use a temporary folder).
WORKSPACE_DIR = Path(os.environ.get("COURSE_WORKSPACE") or COURSE_ROOT / "workspace").resolve()


def in_workspace(cwd: Path | str | None = None) -> bool:
    """True when ``cwd`` (default: the current directory, a kernel's notebook folder) is inside the workspace."""
    here = Path(cwd if cwd is not None else os.getcwd()).resolve()
    return here == WORKSPACE_DIR or WORKSPACE_DIR in here.parents
