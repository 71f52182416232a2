"""The learner's workspace: created on first use, never overwrites an edit, resets with a kept copy.

Each test builds a small course folder (two or three notebooks) and a workspace in ``tmp_path``; the
course's own ``notebooks/`` are never touched.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from helpers import workspace as ws
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
            "`make reset NB=01` takes it (your copy is kept in .replaced/)") in lines


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
        "your copy is kept as .replaced/01_function_to_tool.ipynb.1"]
    assert copy.read_bytes() == (course / "01_function_to_tool.ipynb").read_bytes()
    assert (workspace / ".replaced" / "01_function_to_tool.ipynb.1").read_bytes() == first
    _edit(copy, "second try")
    reset(["01_function_to_tool.ipynb"], workspace, course)
    assert "second try" in (workspace / ".replaced" / "01_function_to_tool.ipynb.2").read_text()
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
    assert lines[0].endswith("`make reset NB=00` replaces it (the file is kept in .replaced/)")
    assert broken.read_bytes() == content
    reset(["00"], workspace, course)
    assert (workspace / ".replaced" / "00_start_here.ipynb.1").read_bytes() == content


def test_a_copy_the_manifest_does_not_know_is_kept_unless_it_equals_the_course(course, workspace):
    _write(workspace / "00_start_here.ipynb", "print('start')")  # same sources as the course, other bytes
    _write(workspace / "01_function_to_tool.ipynb", "my own version")
    lines = sync(workspace, course)
    assert lines == ["00_start_here.ipynb: up to date",
                     "01_function_to_tool.ipynb: kept, yours (differs from the course version; not in the manifest): "
                     "`make reset NB=01` replaces it with the course version (your copy is kept in .replaced/)"]


def test_command_line(course, workspace, monkeypatch, capsys):
    monkeypatch.setattr(ws, "WORKSPACE_DIR", workspace)
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
    names = list(ws._course_notebooks(ws.NOTEBOOK_DIR))
    assert names and names == sorted(p.name for p in ws.NOTEBOOK_DIR.glob("*.ipynb"))


def test_reset_with_a_damaged_manifest_keeps_it_and_the_copy(course, workspace):
    sync(workspace, course)
    _edit(workspace / "01_function_to_tool.ipynb", "my work")
    (workspace / MANIFEST_NAME).write_text("{", encoding="utf-8")
    (workspace / (MANIFEST_NAME + ".damaged")).write_text("an older damaged one", encoding="utf-8")
    lines = reset(["01"], workspace, course)
    assert lines[0].startswith(f"the manifest {MANIFEST_NAME} was damaged (") and "kept as .course-manifest.json.damaged.2" in lines[0]
    assert (workspace / (MANIFEST_NAME + ".damaged")).read_text() == "an older damaged one"
    assert "my work" in (workspace / ".replaced" / "01_function_to_tool.ipynb.1").read_text()
    assert _states(workspace, course) == {"00_start_here.ipynb": NotebookState.UNTOUCHED,
                                          "01_function_to_tool.ipynb": NotebookState.UNTOUCHED}
