"""Hostile workspaces, round 3 (issue 16, "Workspace and progress"): each test failed before its fix.

Counted by area in the closing note of the issue: the race between a save and sync, an unreadable
course notebook, where ``COURSE_WORKSPACE`` points (relative, a symlink loop, a 300-character
name), what sits at ``replaced`` (a symlink, a file), a workspace notebook that is a link to the
course's own, a manifest that names files outside the workspace, and the workspace lock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from helpers import filelock
from helpers.workspace import commands as ws
from helpers.workspace import restore as ws_reset
from helpers.workspace import place
from helpers.workspace import MANIFEST_NAME, NotebookState, WorkspaceError, reset, status, sync

ROOT = Path(__file__).resolve().parent.parent


def _write(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _states(workspace, course):
    return {e.name: e.state for e in status(workspace, course)[0]}


@pytest.fixture
def course(tmp_path):
    _write(tmp_path / "notebooks" / "00_start_here.ipynb", "print('start')")
    _write(tmp_path / "notebooks" / "01_function_to_tool.ipynb", "x = 1")
    return tmp_path / "notebooks"


@pytest.fixture
def workspace(course, tmp_path):
    sync(tmp_path / "workspace", course)
    return tmp_path / "workspace"


def test_a_save_between_classification_and_replace_is_kept(course, workspace, monkeypatch):
    """Before: sync classified the copy as unedited, the learner saved, sync overwrote the save and
    said "you had not edited it"."""
    _write(course / "01_function_to_tool.ipynb", "x = 2")  # a course update: the copy is OUTDATED
    copy = workspace / "01_function_to_tool.ipynb"
    real = ws.entries

    def entries_then_a_save(*args):
        found = real(*args)
        _write(copy, "x = 1", "my work, saved while sync ran")
        return found

    monkeypatch.setattr(ws, "entries", entries_then_a_save)
    lines = sync(workspace, course)
    assert "my work, saved while sync ran" in copy.read_text()
    line = next(line for line in lines if line.startswith("01_"))
    assert "kept, you saved it while sync ran" in line and "had not edited" not in line
    monkeypatch.setattr(ws, "entries", real)
    assert _states(workspace, course)["01_function_to_tool.ipynb"] is NotebookState.EDITED


CONFLICT = b'<<<<<<< HEAD\n{"cells": []}\n=======\n{"cells": [1]}\n>>>>>>> origin/main\n'


def test_an_unreadable_course_notebook_is_never_copied(course, workspace, tmp_path):
    """Before: after a `git pull` with merge-conflict markers in notebooks/, sync copied the broken
    file over the learner's unedited copy and then called the copy "not a readable notebook"."""
    copy = workspace / "01_function_to_tool.ipynb"
    mine = copy.read_bytes()
    (course / "01_function_to_tool.ipynb").write_bytes(CONFLICT)
    assert _states(workspace, course)["01_function_to_tool.ipynb"] is NotebookState.COURSE_UNREADABLE
    lines = sync(workspace, course)
    assert copy.read_bytes() == mine
    line = next(line for line in lines if line.startswith("01_"))
    assert line.startswith("01_function_to_tool.ipynb: not updated, the course's version is not a readable notebook")
    assert "merge-conflict markers" in line and "your copy is untouched" in line
    _write(course / "00_start_here.ipynb", "print('changed')")
    (course / "00_start_here.ipynb").write_bytes(CONFLICT)
    fresh = tmp_path / "fresh"
    sync(fresh, course)
    assert not (fresh / "00_start_here.ipynb").exists(), "a broken course notebook was copied into a new workspace"
    with pytest.raises(WorkspaceError, match=r"notebooks/01_function_to_tool.ipynb is not a readable notebook .*"
                                             r"nothing was changed"):
        reset(["01"], workspace, course)
    assert copy.read_bytes() == mine


def test_a_relative_course_workspace_is_refused(monkeypatch, tmp_path):
    """Before: each kernel resolved a relative COURSE_WORKSPACE against its own folder, so nothing
    was recorded while notebook 00 said "run it in your workspace"."""
    monkeypatch.setenv("COURSE_WORKSPACE", "my-workspace")
    monkeypatch.setattr(ws, "WORKSPACE_DIR", tmp_path / "my-workspace")
    monkeypatch.setattr(place, "WORKSPACE_DIR", tmp_path / "my-workspace")
    problem = ws.workspace_problem()
    assert problem is not None and "relative path ('my-workspace')" in problem and "absolute path" in problem
    assert not ws.in_workspace(tmp_path / "my-workspace")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COURSE_WORKSPACE": "my-workspace"}
    env.pop("COURSE_PROGRESS_FILE", None)
    out = subprocess.run([sys.executable, "-m", "helpers.workspace", "sync"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "given as a relative path ('my-workspace')" in out.stderr and not (tmp_path / "my-workspace").exists()


PROBE = """
import io, contextlib, traceback
steps = {}
def run(name, call):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            value = call()
        steps[name] = ("ok", repr(value)[:300], err.getvalue()[-400:])
    except BaseException as exc:
        steps[name] = ("raised", type(exc).__name__, "")
run("import", lambda: __import__("helpers.progress"))
from helpers import workspace, progress
from helpers.widgets.engines.self_check import record_with_progress
run("in_workspace", workspace.in_workspace)
run("status", lambda: workspace.main(["status"]))
run("sync", lambda: workspace.main(["sync"]))
run("make progress", lambda: progress.main([]))
run("progress cell", lambda: repr(progress.progress_report()))
run("self-check record", lambda: record_with_progress("00", "q1", True))
run("exercise record", lambda: progress.record_exercise("00.1", True))
import json; print(json.dumps(steps))
"""


@pytest.mark.parametrize("kind", ["symlink loop", "300-character name"])
def test_an_unusable_course_workspace_path_never_raises(tmp_path, kind):
    """Before: ``Path.resolve()`` (a loop) and ``Path.exists()`` (a name too long) raised at import
    or in sync, status, ``make progress``, 00's progress cell and the self-check's Check button."""
    if kind == "symlink loop":
        target = tmp_path / "loop"
        os.symlink(target, target)
    else:
        target = tmp_path / ("w" * 300)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COURSE_WORKSPACE": str(target)}
    env.pop("COURSE_PROGRESS_FILE", None)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    steps = json.loads(out.stdout.strip().splitlines()[-1])
    assert {name: outcome for name, (outcome, _, _) in steps.items()} == dict.fromkeys(steps, "ok")
    assert set(steps) == {"import", "in_workspace", "status", "sync", "make progress", "progress cell",
                          "self-check record", "exercise record"}
    assert steps["in_workspace"][1] == "False"
    for command in ("status", "sync", "make progress"):
        assert steps[command][1] == "1" and "error: " in steps[command][2]
        assert "symlink loop" in steps[command][2] or "File name too long" in steps[command][2]
    assert "Traceback" not in out.stderr


def test_replaced_as_a_symlink_is_refused(course, workspace, tmp_path):
    """Before: a ``.replaced`` symlink (e.g. into notebooks/) sent the kept copy out of the workspace,
    where ``git clean`` deletes it, while the message named ``.replaced/``."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, workspace / ws.REPLACED_DIR)
    copy = workspace / "01_function_to_tool.ipynb"
    _write(copy, "my work")
    with pytest.raises(WorkspaceError, match=r"replaced/ is a symlink .*nothing was changed"):
        reset(["01"], workspace, course)
    assert "my work" in copy.read_text() and list(elsewhere.iterdir()) == []


def test_replaced_as_a_file_gets_a_clear_message(course, workspace):
    """Before: a file named like the kept-copies folder gave ``FileExistsError`` / ``NotADirectoryError``."""
    (workspace / ws.REPLACED_DIR).write_text("a file of mine", encoding="utf-8")
    copy = workspace / "01_function_to_tool.ipynb"
    _write(copy, "my work")
    with pytest.raises(WorkspaceError, match=r"in the workspace replaced is a file, not a folder: rename or move "
                                             r"it, then reset again \(nothing was changed\)"):
        reset(["01"], workspace, course)
    assert "my work" in copy.read_text()


def test_the_kept_copy_is_where_jupyterlab_shows_it(course, workspace):
    """Before: kept copies went to the hidden ``.replaced/`` (JupyterLab's file browser hides it) as
    ``NAME.ipynb.1``, which does not open as a notebook."""
    _write(workspace / "01_function_to_tool.ipynb", "my work")
    line = reset(["01"], workspace, course)[0]
    kept = workspace / "replaced" / "01_function_to_tool.1.ipynb"
    assert line.endswith("your copy is kept as replaced/01_function_to_tool.1.ipynb")
    assert not any(part.startswith(".") for part in kept.relative_to(workspace).parts)
    assert "my work" in nbformat.read(kept, as_version=4).cells[-1].source


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_a_workspace_notebook_that_links_to_the_course_is_replaced_by_a_copy(course, workspace, link):
    """Before: a link to the course's own notebook was "not edited", and the learner's edits landed
    in notebooks/."""
    copy, source = workspace / "00_start_here.ipynb", course / "00_start_here.ipynb"
    copy.unlink()
    (os.symlink if link == "symlink" else os.link)(source, copy)
    assert _states(workspace, course)["00_start_here.ipynb"] is NotebookState.LINKED
    before = source.read_bytes()
    line = sync(workspace, course)[0]
    assert line.startswith("00_start_here.ipynb: replaced the link to the course's own notebook with a copy")
    assert not copy.is_symlink() and not os.path.samefile(copy, source)
    _write(copy, "my edit")
    assert source.read_bytes() == before
    copy.unlink()
    (os.symlink if link == "symlink" else os.link)(source, copy)
    assert reset(["00"], workspace, course)[0].startswith("00_start_here.ipynb: replaced the link")
    assert not copy.is_symlink() and not os.path.samefile(copy, source)


def test_a_manifest_naming_files_outside_the_workspace_is_damaged(course, workspace, capsys, monkeypatch):
    """Before: a manifest edited to list ``/etc/hostname`` made status speak of a file outside the
    workspace."""
    manifest = json.loads((workspace / MANIFEST_NAME).read_text())
    manifest["notebooks"]["/etc/hostname"] = {"sources_sha256": "0" * 64}
    manifest["notebooks"]["../01_function_to_tool.ipynb"] = {"sources_sha256": "0" * 64}
    (workspace / MANIFEST_NAME).write_text(json.dumps(manifest))
    entries, damage = status(workspace, course)
    assert damage is not None and "is not the name of a notebook in the workspace" in damage
    assert all("/" not in e.name for e in entries)
    monkeypatch.setattr(ws, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(place, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(ws, "NOTEBOOK_DIR", course)
    assert ws.main(["status"]) == 0
    assert "hostname" not in capsys.readouterr().out.replace("'/etc/hostname'", "")


def test_a_sync_waits_for_another_and_then_gives_up_with_a_message(course, workspace, monkeypatch):
    """The workspace lock: a second sync or reset while one runs waits, and after the time limit says
    so instead of racing it (the two-resets race itself: tests/test_workspace_concurrency.py)."""
    monkeypatch.setattr(filelock, "DEFAULT_TIMEOUT", 0.2)
    copy = workspace / "01_function_to_tool.ipynb"
    _write(copy, "my work")
    with filelock.exclusive(workspace / ws.LOCK_NAME):
        with pytest.raises(WorkspaceError, match=r"another `make lab` or `make reset` is changing the workspace"):
            reset(["01"], workspace, course)
        with pytest.raises(WorkspaceError, match=r"another `make lab`"):
            sync(workspace, course)
    assert "my work" in copy.read_text()
    assert reset(["01"], workspace, course)[0].startswith("01_function_to_tool.ipynb: replaced your copy")


# -- hostile pass on issue 16 (helper T) ----------------------------------------------------------------------------

def _lock_as(kind: str, lock: Path, course: Path) -> None:
    lock.unlink(missing_ok=True)
    if kind == "folder":
        lock.mkdir()
    elif kind == "dangling symlink":
        lock.symlink_to(lock.parent / "nowhere")
    else:  # a symlink to a course notebook: never opened for writing, never locked through
        lock.symlink_to(course / "00_start_here.ipynb")


@pytest.mark.parametrize("kind", ["folder", "dangling symlink", "symlink to a course notebook"])
def test_a_workspace_lock_that_is_not_a_file_is_one_clear_refusal(course, workspace, kind, capsys, monkeypatch):
    """Before: a folder at the lock's place raised IsADirectoryError and a symlink raised
    "Too many levels of symbolic links" (the command line then blamed a read-only workspace);
    ``filelock.exclusive`` promised ``NotALockFile`` for a folder."""
    copy = workspace / "01_function_to_tool.ipynb"
    _write(copy, "my work")
    course_before = (course / "00_start_here.ipynb").read_bytes()
    _lock_as(kind, workspace / ws.LOCK_NAME, course)
    word = "a folder" if kind == "folder" else "a symlink"
    for action in (lambda: sync(workspace, course), lambda: reset(["01"], workspace, course)):
        with pytest.raises(WorkspaceError, match=rf"^in the workspace \.course-workspace\.lock is {word}: remove it"):
            action()
    monkeypatch.setattr(ws, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(place, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(ws, "NOTEBOOK_DIR", course)
    assert ws.main(["reset", "01"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "read-only" not in err and f"is {word}" in err, err
    assert "my work" in copy.read_text() and not (workspace / "replaced").exists()
    assert (course / "00_start_here.ipynb").read_bytes() == course_before


def test_a_save_between_resets_backup_and_its_replace_is_kept(course, workspace, monkeypatch):
    """Reset moves the copy to replaced/ and then puts the course version in its place; JupyterLab's
    (auto)save that lands between the two wrote a new copy, which the course version then replaced:
    the save was lost. The course version now goes in only where nothing is (a hard link), so the
    save stays and the report says so."""
    copy = workspace / "01_function_to_tool.ipynb"
    _write(copy, "my first edit")
    real = ws_reset.backup

    def backup_then_a_save(*args):
        kept = real(*args)
        _write(copy, "my save while reset ran")
        return kept

    monkeypatch.setattr(ws_reset, "backup", backup_then_a_save)
    lines = reset(["01"], workspace, course)
    assert "my save while reset ran" in copy.read_text()
    assert "my first edit" in (workspace / "replaced" / "01_function_to_tool.1.ipynb").read_text()
    assert lines == ["01_function_to_tool.ipynb: not reset, you saved it while reset ran; your copy from before "
                     "is kept as replaced/01_function_to_tool.1.ipynb (run the reset again to take the course "
                     "version)"]
    assert not [p for p in workspace.iterdir() if p.name.endswith(".tmp")]
