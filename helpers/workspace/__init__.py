"""The learner's workspace: a git-ignored copy of ``notebooks/`` that ``make lab`` opens, and the
learner's commands on it (``python -m helpers.workspace status | sync | reset NB | path``).

The rules are in :mod:`helpers.workspace.commands` (the command line, ``status`` and ``sync``). Below
it, one job each: :mod:`helpers.workspace.place` (where the workspace is, and whether a folder may be
one), :mod:`helpers.workspace.files` (reading sources, atomic writes, the manifest, kept copies),
:mod:`helpers.workspace.state` (each notebook's state), :mod:`helpers.workspace.guard` (the lock, the
manifest opened), :mod:`helpers.workspace.migration` (old notebook numbers, read from the data in
:mod:`helpers.workspace.renumbering`) and :mod:`helpers.workspace.restore` (``reset``).

The names callers use are importable from here (``from helpers.workspace import in_workspace``),
loaded on first use (:mod:`helpers.lazy`): the package imports none of its modules, so a kernel that
asks whether it runs in the workspace loads only :mod:`helpers.workspace.place`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load on first use
    from .commands import main, status, sync
    from .files import MANIFEST_NAME, REPLACED_DIR, WorkspaceError, sources_hash
    from .guard import LOCK_NAME
    from .place import COURSE_ROOT, NOTEBOOK_DIR, WORKSPACE_DIR, in_workspace, shown_folder, workspace_problem
    from .restore import reset, resolve_names
    from .state import Action, NotebookState

#: Where each public name lives.
_EXPORTS = {
    "main": ".commands",
    "status": ".commands",
    "sync": ".commands",
    "MANIFEST_NAME": ".files",
    "REPLACED_DIR": ".files",
    "WorkspaceError": ".files",
    "sources_hash": ".files",
    "LOCK_NAME": ".guard",
    "COURSE_ROOT": ".place",
    "NOTEBOOK_DIR": ".place",
    "WORKSPACE_DIR": ".place",
    "in_workspace": ".place",
    "shown_folder": ".place",
    "workspace_problem": ".place",
    "reset": ".restore",
    "resolve_names": ".restore",
    "Action": ".state",
    "NotebookState": ".state",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
