"""The learner's workspace: created on first use, never overwrites an edit, resets with a kept copy.

Each test builds a small course folder (two or three notebooks) and a workspace in ``tmp_path``; the
course's own ``notebooks/`` are never touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import nbformat
import pytest

from helpers.workspace import commands as ws
from helpers.workspace import place
from helpers.workspace import MANIFEST_NAME, NotebookState, WorkspaceError, reset, sources_hash, status, sync


def _write(path: Path, *sources: str, outputs: bool = False) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {path.stem}")])
    for source in sources:
        cell = nbformat.v4.new_code_cell(source)
        if outputs:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="ran\n")]
            cell.execution_count = 1
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _edit(path: Path, source: str) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(source))
    nbformat.write(nb, path)


def _states(workspace, course):
    return {e.name: e.state for e in status(workspace, course)[0]}


@pytest.fixture
def course(tmp_path):
    folder = tmp_path / "notebooks"
    _write(folder / "00_start_here.ipynb", "print('start')")
    _write(folder / "01_function_to_tool.ipynb", "x = 1", "print(x)")
    (folder / "notes.txt").write_text("not a notebook of the course", encoding="utf-8")
    return folder


@pytest.fixture
def workspace(tmp_path):
    return tmp_path / "workspace"


def test_first_use_copies_every_course_notebook_and_records_it(course, workspace):
    assert _states(workspace, course) == {"00_start_here.ipynb": NotebookState.NEW,
                                          "01_function_to_tool.ipynb": NotebookState.NEW}
    lines = sync(workspace, course)
    assert lines == ["00_start_here.ipynb: copied (new)", "01_function_to_tool.ipynb: copied (new)"]
    for name in ("00_start_here.ipynb", "01_function_to_tool.ipynb"):
        assert (workspace / name).read_bytes() == (course / name).read_bytes()
    manifest = json.loads((workspace / MANIFEST_NAME).read_text())
    assert manifest["notebooks"]["01_function_to_tool.ipynb"]["sources_sha256"] == sources_hash(course / "01_function_to_tool.ipynb")
    assert not (workspace / "notes.txt").exists()
    assert sync(workspace, course) == ["00_start_here.ipynb: up to date", "01_function_to_tool.ipynb: up to date"]


def test_running_cells_is_not_an_edit(course, workspace):
    sync(workspace, course)
    copy = workspace / "01_function_to_tool.ipynb"
    nb = nbformat.read(copy, as_version=4)
    for number, cell in enumerate(nb.cells):
        cell.id = f"saved-by-lab-{number}"
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
            cell.execution_count = 7
    nb.metadata["widgets"] = {"state": {}}
    nbformat.write(nb, copy)
    assert _states(workspace, course)["01_function_to_tool.ipynb"] is NotebookState.UNTOUCHED


def test_an_edited_notebook_survives_a_sync_even_when_the_course_version_changes(course, workspace):
    sync(workspace, course)
    copy = workspace / "01_function_to_tool.ipynb"
    _edit(copy, "my_answer = 42")
    mine = copy.read_bytes()
    assert _states(workspace, course)["01_function_to_tool.ipynb"] is NotebookState.EDITED
    _write(course / "01_function_to_tool.ipynb", "x = 2", "print(x)")  # a course update
    lines = sync(workspace, course)
    assert copy.read_bytes() == mine
    assert ("01_function_to_tool.ipynb: kept, edited by you: the course version changed since you copied it: "
            "`make reset NB=01` takes it (your copy is kept in replaced/)") in lines


def test_a_course_update_reaches_untouched_copies_and_brings_new_notebooks(course, workspace):
    sync(workspace, course)
    _edit(workspace / "00_start_here.ipynb", "my_note = 'mine'")
    _write(course / "01_function_to_tool.ipynb", "x = 2", "print(x)")  # changed course notebook
    _write(course / "02_tool_calls_are_requests.ipynb", "print('new')")  # new course notebook
    _write(course / "00_start_here.ipynb", "print('start, revised')")  # changed, but the copy is edited
    assert _states(workspace, course) == {"00_start_here.ipynb": NotebookState.EDITED,
                                          "01_function_to_tool.ipynb": NotebookState.OUTDATED,
                                          "02_tool_calls_are_requests.ipynb": NotebookState.NEW}
    lines = sync(workspace, course)
    assert "01_function_to_tool.ipynb: updated to the new course version (you had not edited it)" in lines
    assert "02_tool_calls_are_requests.ipynb: copied (new)" in lines
    assert (workspace / "01_function_to_tool.ipynb").read_bytes() == (course / "01_function_to_tool.ipynb").read_bytes()
    assert "my_note" in (workspace / "00_start_here.ipynb").read_text()
    assert _states(workspace, course)["01_function_to_tool.ipynb"] is NotebookState.UNTOUCHED


def test_a_deleted_copy_comes_back_and_a_retired_notebook_is_kept(course, workspace):
    sync(workspace, course)
    (workspace / "00_start_here.ipynb").unlink()
    (course / "01_function_to_tool.ipynb").unlink()
    lines = sync(workspace, course)
    assert "00_start_here.ipynb: copied again (it was missing)" in lines
    assert "01_function_to_tool.ipynb: kept, no longer in the course: kept; it is yours now" in lines
    assert (workspace / "01_function_to_tool.ipynb").exists()


def test_reset_one_notebook_keeps_the_replaced_copy(course, workspace):
    sync(workspace, course)
    copy = workspace / "01_function_to_tool.ipynb"
    _edit(copy, "first try")
    first = copy.read_bytes()
    assert reset(["01"], workspace, course) == [
        "01_function_to_tool.ipynb: replaced your copy (edited by you) with the course version; "
        "your copy is kept as replaced/01_function_to_tool.1.ipynb"]
    assert copy.read_bytes() == (course / "01_function_to_tool.ipynb").read_bytes()
    assert (workspace / "replaced" / "01_function_to_tool.1.ipynb").read_bytes() == first
    _edit(copy, "second try")
    reset(["01_function_to_tool.ipynb"], workspace, course)
    assert "second try" in (workspace / "replaced" / "01_function_to_tool.2.ipynb").read_text()
    assert reset(["workspace/01_function_to_tool.ipynb"], workspace, course) == [
        "01_function_to_tool.ipynb: already the course version"]
    assert _states(workspace, course)["01_function_to_tool.ipynb"] is NotebookState.UNTOUCHED


def test_reset_all_after_a_course_update(course, workspace):
    sync(workspace, course)
    _edit(workspace / "00_start_here.ipynb", "mine")
    lines = reset(None, workspace, course)
    assert lines[0].startswith("00_start_here.ipynb: replaced your copy (edited by you)")
    assert lines[1] == "01_function_to_tool.ipynb: already the course version"


def test_reset_of_an_unknown_name_changes_nothing(course, workspace):
    sync(workspace, course)
    before = {p.name: p.read_bytes() for p in workspace.iterdir() if p.is_file()}
    with pytest.raises(WorkspaceError, match=r"'07' matches no course notebook; the course notebooks are: 00_start_here"):
        reset(["00", "07"], workspace, course)
    assert {p.name: p.read_bytes() for p in workspace.iterdir() if p.is_file()} == before


def test_an_ambiguous_name_is_refused(tmp_path):
    _write(tmp_path / "c" / "03_a.ipynb", "a")
    _write(tmp_path / "c" / "03_b.ipynb", "b")
    with pytest.raises(WorkspaceError, match=r"'3' matches 2 notebooks; the course notebooks are: 03_a.ipynb, 03_b.ipynb"):
        ws.resolve_names(["3"], tmp_path / "c")
    assert ws.resolve_names(["03_b", "c/03_a.ipynb", "03_b.ipynb"], tmp_path / "c") == ["03_b.ipynb", "03_a.ipynb"]


@pytest.mark.parametrize("damage", ["{not json", '{"format": 1, "notebooks": []}', '{"format": 99, "notebooks": {}}',
                                    '{"format": 1, "notebooks": {"00_start_here.ipynb": {"sources_sha256": 5}}}', "\udcff"])
def test_a_damaged_manifest_gets_a_clear_message_and_loses_nothing(course, workspace, damage):
    sync(workspace, course)
    _edit(workspace / "01_function_to_tool.ipynb", "my work")
    mine = (workspace / "01_function_to_tool.ipynb").read_bytes()
    (workspace / MANIFEST_NAME).write_bytes(damage.encode("utf-8", "surrogateescape"))
    entries, why = status(workspace, course)
    assert why is not None
    lines = sync(workspace, course)
    assert lines[0].startswith(f"the manifest {MANIFEST_NAME} was damaged (")
    assert "kept as .course-manifest.json.damaged" in lines[0] and "nothing was overwritten" in lines[0]
    assert (workspace / (MANIFEST_NAME + ".damaged")).read_bytes() == damage.encode("utf-8", "surrogateescape")
    assert (workspace / "01_function_to_tool.ipynb").read_bytes() == mine
    assert "01_function_to_tool.ipynb: kept, yours (differs from the course version; not in the manifest)" in lines[2]
    assert lines[1] == "00_start_here.ipynb: up to date"
    assert status(workspace, course)[1] is None, "a new manifest was written"


@pytest.mark.parametrize("content", [b"", b"garbage", b'{"cells": 3}', b"\xff\xfe", b"[]"])
def test_a_workspace_file_that_is_not_a_notebook_is_left_alone_until_reset(course, workspace, content):
    sync(workspace, course)
    broken = workspace / "00_start_here.ipynb"
    broken.write_bytes(content)
    entries, _ = status(workspace, course)
    assert {e.name: e.state for e in entries}["00_start_here.ipynb"] is NotebookState.UNREADABLE
    lines = sync(workspace, course)
    assert lines[0].startswith("00_start_here.ipynb: kept, not a readable notebook: ")
    assert lines[0].endswith("`make reset NB=00` replaces it (the file is kept in replaced/)")
    assert broken.read_bytes() == content
    reset(["00"], workspace, course)
    assert (workspace / "replaced" / "00_start_here.1.ipynb").read_bytes() == content


def test_a_copy_the_manifest_does_not_know_is_kept_unless_it_equals_the_course(course, workspace):
    _write(workspace / "00_start_here.ipynb", "print('start')")  # same sources as the course, other bytes
    _write(workspace / "01_function_to_tool.ipynb", "my own version")
    lines = sync(workspace, course)
    assert lines == ["00_start_here.ipynb: up to date",
                     "01_function_to_tool.ipynb: kept, yours (differs from the course version; not in the manifest): "
                     "`make reset NB=01` replaces it with the course version (your copy is kept in replaced/)"]


def test_command_line(course, workspace, monkeypatch, capsys):
    monkeypatch.setattr(ws, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(place, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(ws, "NOTEBOOK_DIR", course)
    assert ws.main(["status"]) == 0
    out = capsys.readouterr().out
    assert "(not created yet: `make lab` creates it)" in out and "new in the course (sync copies it)" in out
    assert ws.main(["sync"]) == 0
    assert "00_start_here.ipynb: copied (new)" in capsys.readouterr().out
    assert ws.main(["reset", "all"]) == 0
    assert "already the course version" in capsys.readouterr().out
    assert ws.main(["reset", "nine"]) == 1
    assert "error: 'nine' matches no course notebook" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ws.main(["reset"])
    assert "reset wants notebook names" in capsys.readouterr().err
    assert ws.main(["path"]) == 0
    assert capsys.readouterr().out.strip() == str(workspace)


def test_the_course_notebooks_all_have_a_workspace_name():
    names = list(ws.course_notebooks(ws.NOTEBOOK_DIR))
    assert names and names == sorted(p.name for p in ws.NOTEBOOK_DIR.glob("*.ipynb"))


def test_reset_with_a_damaged_manifest_keeps_it_and_the_copy(course, workspace):
    sync(workspace, course)
    _edit(workspace / "01_function_to_tool.ipynb", "my work")
    (workspace / MANIFEST_NAME).write_text("{", encoding="utf-8")
    (workspace / (MANIFEST_NAME + ".damaged")).write_text("an older damaged one", encoding="utf-8")
    lines = reset(["01"], workspace, course)
    assert lines[0].startswith(f"the manifest {MANIFEST_NAME} was damaged (") and "kept as .course-manifest.json.damaged.2" in lines[0]
    assert (workspace / (MANIFEST_NAME + ".damaged")).read_text() == "an older damaged one"
    assert "my work" in (workspace / "replaced" / "01_function_to_tool.1.ipynb").read_text()
    assert _states(workspace, course) == {"00_start_here.ipynb": NotebookState.UNTOUCHED,
                                          "01_function_to_tool.ipynb": NotebookState.UNTOUCHED}


# -- hostile workspaces (review hostile_1, item 9) -------------------------------------------------


def _cli(monkeypatch, capsys, course, workspace, *argv):
    """Run the command line on this course and workspace: (status, stdout, stderr)."""
    monkeypatch.setattr(ws, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(place, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(ws, "NOTEBOOK_DIR", course)
    status_code = ws.main(list(argv))
    out, err = capsys.readouterr()
    return status_code, out, err


def _one_error_line(err: str) -> str:
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


def _cell_source(path: Path, source) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"][1]["source"] = source
    path.write_text(json.dumps(nb), encoding="utf-8")


@pytest.mark.parametrize("source", [[1, 2], None, {"text": "x"}, 7])
def test_a_cell_whose_source_is_not_text_is_an_unreadable_notebook(course, workspace, monkeypatch, capsys, source):
    sync(workspace, course)
    copy = workspace / "01_function_to_tool.ipynb"
    _cell_source(copy, source)
    mine = copy.read_bytes()
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "status")
    assert code == 0 and err == ""
    assert "01_function_to_tool.ipynb  not a readable notebook (cell 1's source is not text; `make reset NB=01`" in out
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "sync")
    assert code == 0 and copy.read_bytes() == mine
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "reset", "01")
    assert code == 0 and (workspace / "replaced" / "01_function_to_tool.1.ipynb").read_bytes() == mine


def test_a_manifest_nested_100k_deep_is_a_damaged_manifest(course, workspace, monkeypatch, capsys):
    sync(workspace, course)
    deep = b"[" * 100_000 + b"]" * 100_000
    (workspace / MANIFEST_NAME).write_bytes(deep)
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "status")
    assert code == 0 and err == ""
    assert "the manifest .course-manifest.json is damaged (RecursionError: JSON nested too deeply)" in out
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "sync")
    assert code == 0 and err == "" and "was damaged (RecursionError: JSON nested too deeply); kept as" in out
    assert (workspace / (MANIFEST_NAME + ".damaged")).read_bytes() == deep
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "reset", "00")
    assert code == 0 and "00_start_here.ipynb: already the course version" in out


def test_a_notebook_nested_too_deeply_is_unreadable(course, workspace):
    sync(workspace, course)
    (workspace / "00_start_here.ipynb").write_bytes(b"[" * 100_000 + b"]" * 100_000)
    entry = {e.name: e for e in status(workspace, course)[0]}["00_start_here.ipynb"]
    assert (entry.state, entry.reason) == (NotebookState.UNREADABLE, "JSON nested too deeply")


def test_a_folder_named_like_a_notebook_is_reported_and_never_moved(course, workspace, monkeypatch, capsys):
    sync(workspace, course)
    copy = workspace / "01_function_to_tool.ipynb"
    copy.unlink()
    copy.mkdir()
    (copy / "work.txt").write_text("mine", encoding="utf-8")
    before = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*"))
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "status")
    assert code == 0 and ("01_function_to_tool.ipynb  not a notebook file (it is a folder, not a notebook file; "
                          "rename or move it, then `make reset NB=01` copies the course version)") in out
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "sync")
    assert code == 0 and "01_function_to_tool.ipynb: kept, not a notebook file: it is a folder" in out
    for request in (["reset", "01"], ["reset", "--all"]):
        code, out, err = _cli(monkeypatch, capsys, course, workspace, *request)
        assert code == 1 and out == ""
        assert _one_error_line(err) == ("error: in the workspace 01_function_to_tool.ipynb is a folder, not a notebook "
                                        "file: rename or move it, then reset again (nothing was changed)")
    assert sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*")) == before
    assert (copy / "work.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_a_fifo_named_like_a_notebook_or_the_manifest_never_blocks(course, workspace):
    """Opening a FIFO for reading waits for a writer; status must not open it at all."""
    import threading

    sync(workspace, course)
    (workspace / "00_start_here.ipynb").unlink()
    os.mkfifo(workspace / "00_start_here.ipynb")
    (workspace / MANIFEST_NAME).unlink()
    os.mkfifo(workspace / MANIFEST_NAME)
    found = {}
    worker = threading.Thread(target=lambda: found.update(result=status(workspace, course)), daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():  # unblock the reader so the test run can end
        for name in ("00_start_here.ipynb", MANIFEST_NAME):
            with contextlib.suppress(OSError):
                os.close(os.open(workspace / name, os.O_WRONLY | os.O_NONBLOCK))
    assert not worker.is_alive(), "status waited on a FIFO"
    entries, damage = found["result"]
    assert {e.name: e.state for e in entries}["00_start_here.ipynb"] is NotebookState.NOT_A_FILE
    assert damage is not None and "it is a FIFO" in damage


def test_a_read_only_workspace_is_one_error_line(course, workspace, monkeypatch, capsys):
    """chmod does not stop root and chattr is not portable, so the OS's answer is played here: every
    new file in the workspace fails as in a read-only folder."""
    sync(workspace, course)
    _edit(course / "00_start_here.ipynb", "a course update")
    _edit(workspace / "01_function_to_tool.ipynb", "my work")
    real_mkstemp, real_replace = tempfile.mkstemp, ws.os.replace

    def refused(path) -> bool:
        return workspace == Path(path).parent or workspace in Path(path).parents

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and refused(Path(dir) / "x"):
            raise PermissionError(1, "Operation not permitted", str(workspace / "x.tmp"))
        return real_mkstemp(*args, dir=dir, **kwargs)

    def replace(source, target):
        if refused(source) or refused(target):
            raise PermissionError(1, "Operation not permitted", str(workspace / "x.tmp"))
        return real_replace(source, target)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(ws.os, "replace", replace)
    for request in (["sync"], ["reset", "00"], ["reset", "01"], ["reset", "--all"]):
        before = {p.name: p.read_bytes() for p in workspace.iterdir() if p.is_file()}
        code, out, err = _cli(monkeypatch, capsys, course, workspace, *request)
        assert code == 1, request
        name = "01_function_to_tool.ipynb" if request == ["reset", "01"] else "00_start_here.ipynb"
        assert _one_error_line(err) == (f"error: {name}: Operation not permitted (is the workspace read-only?); "
                                        "files already written are complete, nothing is half-written")
        assert {p.name: p.read_bytes() for p in workspace.iterdir() if p.is_file()} == before
    assert not list(workspace.glob("*.tmp"))


@pytest.mark.parametrize("request_", ["3" * 5000, "³", "٣", "0" * 300 + "1", "x" * 5000, "\udcff"])
def test_absurd_notebook_names_are_one_short_error_line(course, workspace, monkeypatch, capsys, request_):
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "reset", request_)
    if request_ == "0" * 300 + "1":  # many leading zeros still mean notebook 01
        assert code == 0 and "01_function_to_tool.ipynb: copied the course version" in out
        return
    assert code == 1
    line = _one_error_line(err)
    assert "matches no course notebook; the course notebooks are: 00_start_here.ipynb, 01_function_to_tool.ipynb" in line
    assert len(line) < 250


def test_an_unexpected_failure_is_one_error_line(course, workspace, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("something\nunforeseen")

    monkeypatch.setattr(ws, "sync", broken)
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "sync")
    assert code == 1 and _one_error_line(err) == "error: RuntimeError: something unforeseen"


# -- the workspace location ---------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("where, problem", [
    (ROOT / "notebooks", "it is the course's own notebooks folder"),
    (ROOT / "notebooks" / "sub", "it is inside the course's own notebooks folder"),
    (ROOT, "it contains the course's own notebooks folder"),
    (Path("/"), "it contains the course's own notebooks folder"),
    (ROOT / "helpers", "it is inside the course's repository but not in its git-ignored workspace/ folder"),
])
def test_the_courses_own_folders_cannot_be_the_workspace(monkeypatch, capsys, where, problem):
    monkeypatch.setattr(ws, "WORKSPACE_DIR", where.resolve())
    monkeypatch.setattr(place, "WORKSPACE_DIR", where.resolve())
    assert ws.workspace_problem().startswith(problem)
    assert not ws.in_workspace(ROOT / "notebooks") and not ws.in_workspace(ROOT) and not ws.in_workspace(where)
    before = sorted(p.name for p in (ROOT / "notebooks").iterdir())
    for command in (["status"], ["sync"], ["reset", "00"], ["path"]):
        assert ws.main(command) == 1, command
        out, err = capsys.readouterr()
        line = _one_error_line(err)
        assert out == "" and "which cannot be the workspace: " + problem in line
        assert line.endswith("Point it at a folder of its own, or unset it to use the course's workspace/ folder")
    assert sorted(p.name for p in (ROOT / "notebooks").iterdir()) == before
    with pytest.raises(WorkspaceError, match="cannot be the workspace"):
        sync(where)


def test_the_default_workspace_and_folders_outside_the_repository_are_fine(tmp_path, monkeypatch):
    assert ws.workspace_problem(ROOT / "workspace") is None
    assert ws.workspace_problem(ROOT / "workspace" / "mine") is None
    assert ws.workspace_problem(tmp_path) is None
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert ws.workspace_problem(tmp_path / "file") == "it is a file, not a folder"
    monkeypatch.setattr(ws, "WORKSPACE_DIR", tmp_path)
    monkeypatch.setattr(place, "WORKSPACE_DIR", tmp_path)
    assert ws.in_workspace(tmp_path) and not ws.in_workspace(tmp_path.parent)
    assert not ws.in_workspace(ROOT / "notebooks")


def test_course_workspace_naming_the_notebooks_is_refused_from_the_environment(tmp_path):
    """The real path: COURSE_WORKSPACE is read when helpers.workspace is imported."""
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT), "COURSE_WORKSPACE": str(ROOT / "notebooks")}
    env.pop("COURSE_PROGRESS_FILE", None)
    out = subprocess.run([sys.executable, "-m", "helpers.workspace", "sync"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    assert _one_error_line(out.stderr).startswith(f"error: COURSE_WORKSPACE names {ROOT / 'notebooks'}, which cannot "
                                                  "be the workspace: it is the course's own notebooks folder.")
    probe = ("from helpers.workspace import in_workspace; from helpers.progress import recording_file; "
             "print(in_workspace(), recording_file())")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT / "notebooks", env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.split() == ["False", "None"], out.stderr


def test_a_full_disk_during_reset_moves_nothing(course, workspace, monkeypatch, capsys):
    """The course version is written beside the copy before the copy is moved to replaced/, so a
    write that fails leaves the learner's copy where it was."""
    sync(workspace, course)
    _edit(workspace / "01_function_to_tool.ipynb", "my work")
    mine = (workspace / "01_function_to_tool.ipynb").read_bytes()
    real_fdopen = ws.os.fdopen

    class Full:
        def __init__(self, fd):
            self.handle = real_fdopen(fd, "wb")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(ws.os, "fdopen", lambda fd, mode="r", *a, **k: Full(fd))
    code, out, err = _cli(monkeypatch, capsys, course, workspace, "reset", "01")
    assert code == 1 and _one_error_line(err).startswith("error: 01_function_to_tool.ipynb: No space left on device;")
    assert (workspace / "01_function_to_tool.ipynb").read_bytes() == mine
    assert not (workspace / "replaced").exists() and not list(workspace.glob(".*.tmp"))
