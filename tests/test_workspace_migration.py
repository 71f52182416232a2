"""A learner who started under the old numbers loses nothing to issue 17's renumbering (09 split into
09 and 10; 10-16 became 11-17).

``tests/renumbering_fixtures/`` was made with the course's code from before the split (``git archive``
of the commit before it, ``helpers.workspace.sync`` and ``helpers.progress_record``): a small course
under the old names (``old_course/``) and a learner's workspace of it (``old_workspace/``): the
manifest, the copies (old 09 and old 10 edited, old 12 run), and a progress file of format 1 with
exercise and self-check records under the old numbers. Each test syncs a copy of that workspace
against the same small course under the new names.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from helpers import i18n, workspace_migration
from helpers import workspace as ws
from helpers.i18n import use
from helpers.progress_store import read_file
from helpers.renumbering import MOVED_QUESTIONS, RENAMED, SPLIT_INTO, SPLIT_NOTEBOOK, new_exercise_id
from helpers.selfcheck import questions_for
from helpers.workspace import sync
from helpers.workspace_files import Manifest

FIXTURES = Path(__file__).parent / "renumbering_fixtures"
OLD_WORKSPACE = FIXTURES / "old_workspace"
OLD_COURSE = FIXTURES / "old_course"


def _notebook(number: str, title: str) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {number} · {title}\n\nthe new numbers"),
                nbformat.v4.new_code_cell("print('hi')")]
    for i, cell in enumerate(nb.cells, 1):
        cell["id"] = f"cell-{i:03d}"
    return nbformat.writes(nb)


@pytest.fixture
def course(tmp_path):
    """The small course under the new names (each changed since the old one: new prose)."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    names = ["00_start_here.ipynb", *SPLIT_INTO, *RENAMED.values()]
    for name in names:
        (folder / name).write_text(_notebook(name[:2], name[3:-6]), encoding="utf-8")
    return folder


@pytest.fixture
def workspace(tmp_path):
    folder = tmp_path / "workspace"
    shutil.copytree(OLD_WORKSPACE, folder)
    return folder


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


def _cell(path: Path, index: int = 1) -> str:
    return "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][index]["source"])


def test_the_fixture_is_a_workspace_under_the_old_numbers():
    names = {p.name for p in OLD_WORKSPACE.glob("*.ipynb")}
    assert SPLIT_NOTEBOOK in names and set(RENAMED) <= names
    progress = json.loads((OLD_WORKSPACE / ".progress.json").read_text(encoding="utf-8"))
    assert progress["format"] == 1 and {"10.1", "11.1", "16.1"} <= set(progress["exercises"])


def test_sync_migrates_the_copies_keeping_every_edit_and_old_09_whole(workspace, course):
    before = _snapshot(workspace)
    lines = sync(workspace, course)
    # old 09 (edited) is kept whole in replaced/, byte for byte; the new 09 and 10 are copied
    kept = workspace / "replaced" / "09_errors_and_high_risk_tools.1.ipynb"
    assert kept.read_bytes() == before[SPLIT_NOTEBOOK]
    assert not (workspace / SPLIT_NOTEBOOK).exists()
    assert any(line.startswith(SPLIT_NOTEBOOK) and "replaced/09_errors_and_high_risk_tools.1.ipynb" in line
               for line in lines)
    for name in SPLIT_INTO:
        assert (workspace / name).read_bytes() == (course / name).read_bytes()
    # the edited old 10 is the new 11, with the edit, kept (not overwritten by the course version)
    assert "# my capstone answer" in _cell(workspace / "11_capstone_refund_agent.ipynb")
    assert any(line.startswith("11_capstone_refund_agent.ipynb: kept, edited by you") for line in lines), lines
    # unedited renamed copies take the new course version; the one the learner only ran does too
    for old, new in RENAMED.items():
        assert not (workspace / old).exists()
        if old != "10_capstone_refund_agent.ipynb":
            assert (workspace / new).read_bytes() == (course / new).read_bytes(), new
    # nothing the learner had is gone: every old copy's bytes are somewhere in the workspace
    after = set(_snapshot(workspace).values())
    edited = {before[SPLIT_NOTEBOOK], before["10_capstone_refund_agent.ipynb"]}
    assert all(b in after for b in edited)


def test_the_progress_file_is_renumbered_and_loses_no_record(workspace, course):
    old = json.loads((workspace / ".progress.json").read_text(encoding="utf-8"))
    sync(workspace, course)
    new = json.loads((workspace / ".progress.json").read_text(encoding="utf-8"))
    assert new["format"] == 2
    assert new["exercises"] == {new_exercise_id(k): v for k, v in old["exercises"].items()}
    assert set(new["exercises"]) == {"09.1", "09.2", "11.1", "12.1", "17.1"}
    old_09 = old["self_checks"]["09"]
    assert new["self_checks"]["09"] == {q: r for q, r in old_09.items() if q not in MOVED_QUESTIONS}
    assert new["self_checks"]["10"] == {q: r for q, r in old_09.items() if q in MOVED_QUESTIONS}
    assert new["self_checks"]["11"] == old["self_checks"]["10"]
    assert new["self_checks"]["17"] == old["self_checks"]["16"]
    assert "16" not in new["self_checks"]
    count = sum(map(len, new["self_checks"].values()))
    assert count == sum(map(len, old["self_checks"].values()))


def test_the_progress_report_reads_an_unmigrated_file_under_the_new_numbers():
    progress = read_file(OLD_WORKSPACE / ".progress.json")
    assert progress.problem == ""
    assert progress.exercises["11.1"].attempts == 2 and "10.1" not in progress.exercises
    assert set(progress.self_checks["10"]) == set(MOVED_QUESTIONS)


def test_the_moved_questions_are_the_ones_notebook_10_asks():
    assert set(MOVED_QUESTIONS) <= {q.id for q in questions_for("10")}
    assert not set(MOVED_QUESTIONS) & {q.id for q in questions_for("09")}


def test_a_second_sync_changes_nothing(workspace, course):
    sync(workspace, course)
    first = _snapshot(workspace)
    lines = sync(workspace, course)
    assert _snapshot(workspace) == first
    assert not any("renamed" in line or "split" in line or "new numbers" in line for line in lines)


def test_an_interrupted_migration_is_finished_by_the_next_sync(workspace, course):
    """The copies were moved but the manifest was never saved (the sync died): the next sync finds
    the old records without their files and moves them, so the edit is still kept, not replaced."""
    workspace_migration.migrate(workspace, Manifest.load(workspace))  # the manifest is not saved
    assert (workspace / "11_capstone_refund_agent.ipynb").exists()
    sync(workspace, course)
    assert "# my capstone answer" in _cell(workspace / "11_capstone_refund_agent.ipynb")
    assert (workspace / "13_streaming_tool_calls.ipynb").read_bytes() == \
        (course / "13_streaming_tool_calls.ipynb").read_bytes()


def test_a_copy_already_under_the_new_name_is_never_overwritten(workspace, course):
    mine = (OLD_COURSE / "00_start_here.ipynb").read_bytes().replace(b"the old numbers", b"my own 11")
    (workspace / "11_capstone_refund_agent.ipynb").write_bytes(mine)
    old_10 = (workspace / "10_capstone_refund_agent.ipynb").read_bytes()
    lines = sync(workspace, course)
    assert (workspace / "11_capstone_refund_agent.ipynb").read_bytes() == mine
    assert (workspace / "replaced" / "10_capstone_refund_agent.1.ipynb").read_bytes() == old_10
    assert any("kept as replaced/10_capstone_refund_agent.1.ipynb" in line for line in lines)


# -- the Chinese edition: its messages, and COURSE_LANG=zh on an old-numbered workspace/zh/ ----------

_NAMES = re.compile(r"[\w./-]+\.(?:ipynb|json)|`[^`]*`")


def _untranslated(lines: list[str]) -> list[str]:
    """The lines that still hold English prose once file names and code spans are taken out (two
    English words in a row)."""
    return [line for line in lines if re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", _NAMES.sub("", line))]


def test_the_migration_speaks_chinese_in_the_chinese_edition(workspace, course):
    mine = (OLD_COURSE / "00_start_here.ipynb").read_bytes().replace(b"the old numbers", b"my own 12")
    (workspace / "12_deep_agents_control_plane.ipynb").write_bytes(mine)
    with use("zh-CN"):
        lines = sync(workspace, course)
    first, second = SPLIT_INTO
    assert any(line.startswith(f"{SPLIT_NOTEBOOK}：课程已把它拆分为 {first} 和 {second}；")
               and line.endswith("replaced/09_errors_and_high_risk_tools.1.ipynb") for line in lines), lines
    assert "13_streaming_tool_calls.ipynb：已重命名为 " not in lines
    assert any(line.startswith("12_streaming_tool_calls.ipynb：已重命名为 13_streaming_tool_calls.ipynb（")
               for line in lines), lines
    assert any(line.startswith("11_deep_agents_control_plane.ipynb：课程已把它重新编号为 12_deep_agents_control_plane"
                               ".ipynb，") for line in lines), lines
    assert any(line.startswith(".progress.json：你的练习和自测记录已改用新编号") for line in lines), lines
    assert not _untranslated(lines), _untranslated(lines)


def test_course_lang_zh_sync_migrates_an_old_numbered_chinese_workspace(tmp_path, course, monkeypatch, capsys):
    """``COURSE_LANG=zh make lab``: the course is ``notebooks/zh/``, the workspace ``workspace/zh/``,
    made under the old numbers; its copies and progress move to the new numbers, in Chinese, and the
    English workspace around it is not touched."""
    shutil.move(course, tmp_path / "zh")
    (tmp_path / "notebooks").mkdir()
    shutil.move(tmp_path / "zh", tmp_path / "notebooks" / "zh")
    english = tmp_path / "workspace"
    shutil.copytree(OLD_WORKSPACE, english)
    english_before = _snapshot(english)
    chinese = english / "zh"
    shutil.copytree(OLD_WORKSPACE, chinese)
    monkeypatch.setattr(ws, "EDITION", "zh-CN")
    monkeypatch.setattr(ws, "NOTEBOOK_DIR", tmp_path / "notebooks")
    monkeypatch.setattr(ws, "WORKSPACE_DIR", chinese)
    monkeypatch.setattr(ws, "workspace_problem", lambda *a, **k: None)
    assert ws.main(["sync"]) == 0
    out = capsys.readouterr().out
    assert f"工作区：{chinese}" in out
    assert "10_capstone_refund_agent.ipynb：已重命名为 11_capstone_refund_agent.ipynb" in out
    assert f"{SPLIT_NOTEBOOK}：课程已把它拆分为" in out and "已改用新编号" in out
    assert not _untranslated(out.splitlines()[1:]), out
    assert i18n.edition_of(chinese) == "zh-CN"
    assert "# my capstone answer" in _cell(chinese / "11_capstone_refund_agent.ipynb")
    assert not any((chinese / old).exists() for old in [SPLIT_NOTEBOOK, *RENAMED])
    assert (chinese / "replaced" / "09_errors_and_high_risk_tools.1.ipynb").read_bytes() == \
        (OLD_WORKSPACE / SPLIT_NOTEBOOK).read_bytes()
    assert json.loads((chinese / ".progress.json").read_text(encoding="utf-8"))["format"] == 2
    assert {k: v for k, v in _snapshot(english).items() if not k.startswith("zh/")} == english_before
    assert ws.main(["status"]) == 0
    status = capsys.readouterr().out
    assert re.search(r"12_deep_agents_control_plane\.ipynb +未编辑\n", status), status
    assert re.search(r"11_capstone_refund_agent\.ipynb +你已编辑", status), status
