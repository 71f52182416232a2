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
    python -m helpers.workspace lab -- CMD ...  # run CMD (make lab: jupyter lab) in the workspace, tracing off

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

* **Old numbers are migrated.** A workspace made before issue 17's renumbering (09 split into 09 and
  10; 10-16 became 11-17) is moved to the new names first, keeping every edit and the old 09 whole
  in ``replaced/``, and its progress records are renumbered (:mod:`helpers.workspace.migration`).
  ``reset`` migrates first too (``NB=11`` is the capstone in every command; an old name such as
  ``10_capstone_refund_agent`` means its notebook's new number), and ``status`` shows the workspace
  as sync will leave it, with one line per copy sync will move.

The module is the top floor: :mod:`helpers.workspace.place` (where the workspace is, and whether a
folder may be one), :mod:`helpers.workspace.files` (reading sources, atomic writes, the manifest,
kept copies), :mod:`helpers.workspace.state` (each notebook's state), :mod:`helpers.workspace.guard`
(the lock, the manifest opened), :mod:`helpers.workspace.migration` and
:mod:`helpers.workspace.restore` sit below it; the names callers use are importable from the package
(:mod:`helpers.workspace`).

All writes are atomic (a temporary file beside the target, then a rename), so an interrupted sync
leaves either the old or the new file, never half of one. The command line answers every failure
(a read-only workspace, a full disk, a manifest nested 100,000 deep, a name with 5,000 digits) with
one ``error: ...`` line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ..i18n import _, use, write_marker
from .files import (
    MANIFEST_NAME,
    REPLACED_DIR,
    Manifest,
    WorkspaceError,
    course_notebooks,
    discard,
    hash_or_none,
    read_bytes,
    sources_hash,
    stage,
)
from .lab_env import TRACING_OPT_IN, lab_env
from .guard import LOCK_NAME, checked, locked, open_manifest
from .migration import migrate, plan, preview, stays
from .place import (
    COURSE_ROOT,
    EDITION,
    EDITION_ENV,
    NOTEBOOK_DIR,
    WORKSPACE_DIR,
    edition_error,
    in_workspace,
    shown_folder,
    workspace_problem,
)
from .restore import reset, resolve_names
from .state import (
    SYNC_VERB,
    Action,
    Entry,
    NotebookState,
    advice,
    entries,
    is_link_to,
)

__all__ = [
    "COURSE_ROOT",
    "LOCK_NAME",
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

# -- status, sync (reset: helpers.workspace.restore) ----------------------------------------------------------------------


def status(workspace: Path | None = None, course: Path | None = None) -> tuple[list[Entry], str | None]:
    """Each course notebook's state in the workspace; changes nothing.

    Args:
        workspace: the workspace folder (default :data:`WORKSPACE_DIR`); it need not exist yet.
        course: the course's notebooks folder (default: :data:`NOTEBOOK_DIR`).

    Returns:
        ``(entries, damage)``: one :class:`Entry` per notebook, and why the manifest could not be
        read (``None`` when it was fine or absent). A workspace under the old numbers (issue 17) is
        shown as ``sync`` will find it after the renumbering's moves
        (:func:`helpers.workspace.migration.plan`); an old copy sync leaves where it is
        (:func:`helpers.workspace.migration.stays`) has its own line in ``make status``, not an entry.

    Raises:
        WorkspaceError: the folder cannot be a workspace (:func:`workspace_problem`).
    """
    workspace = checked(workspace, course)
    manifest = Manifest.load(workspace)
    moves = {**plan(workspace), **dict.fromkeys(stays(workspace))} if os.path.isdir(workspace) else {}
    return entries(workspace, Path(course or NOTEBOOK_DIR), manifest, moves), manifest.damage


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
    workspace = checked(workspace, course)
    course = Path(course or NOTEBOOK_DIR)
    with locked(workspace):
        return _sync(workspace, course)


def _unchanged_since(entry: Entry, copy: Path, source: Path, recorded: str | None) -> bool:
    """The copy is still what ``entry`` was classified from (checked right before it is replaced, so a
    save that landed meanwhile is kept): still absent, still a link to ``source``, or still unedited."""
    if entry.state in (NotebookState.NEW, NotebookState.MISSING):
        return not os.path.lexists(copy)
    if entry.state is NotebookState.LINKED:
        return is_link_to(copy, source)
    return recorded is not None and hash_or_none(copy) == recorded


def _sync(workspace: Path, course: Path) -> list[str]:
    manifest, lines = open_manifest(workspace, course)
    lines += migrate(workspace, manifest)  # a workspace from before issue 17's renumbering
    course_files = course_notebooks(course)
    for entry in entries(workspace, course, manifest):
        copy = workspace / entry.name
        if entry.action in (Action.COPY, Action.UPDATE):
            source = course_files[entry.name]
            tmp = stage(copy, read_bytes(source))
            try:
                if not _unchanged_since(entry, copy, source, manifest.notebooks.get(entry.name)):
                    discard(tmp)
                    lines.append(_("{name}: kept, you saved it while sync ran (run `make lab` again to see "
                                   "its state)").format(name=entry.name))
                    continue
                os.replace(tmp, copy)
            except BaseException:
                discard(tmp)
                raise
            manifest.notebooks[entry.name] = sources_hash(source)
            lines.append(f"{entry.name}: {_(SYNC_VERB[entry.state])}")
        elif entry.state is NotebookState.UNTOUCHED:
            manifest.notebooks[entry.name] = sources_hash(course_files[entry.name])
            lines.append(_("{name}: up to date").format(name=entry.name))
        elif entry.state is NotebookState.COURSE_UNREADABLE:
            lines.append(_("{name}: not updated, {state}: {advice}").format(
                name=entry.name, state=_(entry.state.value), advice=advice(entry)))
        else:
            what = advice(entry)
            lines.append(_("{name}: kept, {state}").format(name=entry.name, state=_(entry.state.value))
                         + (f": {what}" if what else ""))
    manifest.notebooks = {n: h for n, h in manifest.notebooks.items() if n in course_files}
    manifest.save()
    return lines


# -- command line -----------------------------------------------------------------------------


def _course() -> Path:
    """The course notebooks of the edition this command works on: ``notebooks/``, or ``notebooks/zh/``."""
    return NOTEBOOK_DIR / "zh" if EDITION == "zh-CN" else NOTEBOOK_DIR


def _status_lines(workspace: Path) -> list[str]:
    entries, damage = status(workspace, _course())
    lines = [_("workspace: {folder}").format(folder=workspace)
             + ("" if os.path.isdir(workspace) else _(" (not created yet: `make lab` creates it)"))]
    if damage is not None:
        lines.append(_("the manifest {manifest} is damaged ({damage}): `sync` keeps it as "
                       "{manifest}.damaged and rebuilds it; nothing is overwritten").format(
                           manifest=MANIFEST_NAME, damage=damage))
    lines += ["  " + line for line in (preview(workspace) if os.path.isdir(workspace) else [])]  # old numbers
    width = max((len(e.name) for e in entries), default=0)
    for entry in entries:
        what = {Action.COPY: _("sync copies it"), Action.UPDATE: _("sync updates it")}.get(entry.action, advice(entry))
        lines.append(f"  {entry.name:<{width}}  {_(entry.state.value)}" + (f" ({what})" if what else ""))
    return lines


def _os_error_line(exc: OSError) -> str:
    """One line for an OSError: the file's name (not its folder's path), the reason, and a hint."""
    name = Path(str(exc.filename)).name if exc.filename else ""
    reason = exc.strerror or type(exc).__name__
    hint = " (is the workspace read-only?)" if exc.errno in (1, 13, 30) else ""
    return f"{name + ': ' if name else ''}{reason}{hint}; files already written are complete, nothing is half-written"


def _start_lab(command: Sequence[str], workspace: Path) -> int:
    """Replace this process with ``command`` run in ``workspace``, in :func:`helpers.workspace.lab_env.lab_env`'s
    environment (LangSmith tracing off unless opted in), after one line on stderr that says which
    tracing switch the shell had and what became of it. Returns 1 (an ``error:`` line) when
    ``command`` is missing or cannot be started; on success it does not return."""
    command = list(command[1:] if command[:1] == ["--"] else command)
    if not command:
        print("error: say what to start: python -m helpers.workspace lab -- jupyter lab", file=sys.stderr)
        return 1
    env, switches = lab_env(os.environ)
    if switches and env.keys() >= set(switches):
        print(_("{opt_in} is set: LangSmith tracing stays on ({names}), so every run of a notebook, with the "
                "customers' messages and the tool calls in it, is sent to LangSmith.").format(
                    opt_in=TRACING_OPT_IN, names=", ".join(switches)), file=sys.stderr)
    elif switches:
        print(_("LangSmith tracing is switched on in this shell ({names}): the course's kernels start without it, "
                "so nothing is sent to LangSmith. To send traces, start with {opt_in}=1 make lab.").format(
                    names=", ".join(switches), opt_in=TRACING_OPT_IN), file=sys.stderr)
    sys.stderr.flush()
    try:
        os.chdir(workspace)
        os.execvpe(command[0], command, env)
    except OSError as exc:
        print(f"error: cannot start {Path(command[0]).name}: {exc.strerror or type(exc).__name__}", file=sys.stderr)
        return 1
    return 1  # pragma: no cover - execvpe does not return


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry (see the module docstring). Returns 0, or 1 when a request cannot be done
    (then one ``error: ...`` line on stderr, never a traceback).

    ``COURSE_LANG=zh`` works on the Chinese edition: its course notebooks are ``notebooks/zh/``, its
    workspace the ``zh/`` folder of the workspace (marked Chinese, :func:`helpers.i18n.write_marker`,
    so its kernels speak Chinese), and the messages are in Chinese."""
    if edition_error() is not None:
        print(edition_error(), file=sys.stderr)
        return 1
    with use(EDITION):
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.workspace",
                                     description="The learner's copy of the course notebooks (see `make lab`).")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("status", help="what sync would do; changes nothing")
    commands.add_parser("sync", help="create the workspace, or bring course updates in (never over an edit)")
    reset_parser = commands.add_parser("reset", help="put notebooks back to the course version (keeps a copy)")
    reset_parser.add_argument("notebooks", nargs="*", help="e.g. 03 or 03_toolmessage_pairing.ipynb")
    reset_parser.add_argument("--all", action="store_true", help="every course notebook")
    commands.add_parser("path", help="print the workspace folder")
    lab_parser = commands.add_parser("lab", help="run a command (jupyter lab) in the workspace, LangSmith tracing "
                                                 f"off unless {TRACING_OPT_IN}=1")
    lab_parser.add_argument("command_line", nargs=argparse.REMAINDER, metavar="COMMAND",
                            help="-- and the command, e.g. -- jupyter lab")
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
        if args.command == "lab":
            return _start_lab(args.command_line, workspace)
        if EDITION != "en" and not course_notebooks(_course()):
            raise WorkspaceError(_("the Chinese edition is not built yet ({folder} has no notebooks): run `make zh`, "
                                   "or unset {variable} for the English edition").format(
                                       folder=shown_folder(_course()), variable=EDITION_ENV))
        if args.command == "status":
            lines = _status_lines(workspace)
        elif args.command == "sync":
            lines = [_("workspace: {folder}").format(folder=workspace),
                     *("  " + line for line in sync(workspace, _course()))]
            write_marker(workspace, EDITION)
        else:
            if args.notebooks == ["all"]:  # `make reset NB=all`
                args.notebooks, args.all = [], True
            if bool(args.notebooks) == args.all:
                parser.error("reset wants notebook names (e.g. `reset 03`) or --all (one of the two)")
            lines = [_("workspace: {folder}").format(folder=workspace),
                     *("  " + line for line in reset(None if args.all else args.notebooks, workspace, _course()))]
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
