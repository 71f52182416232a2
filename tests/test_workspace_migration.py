"""A learner who started under the old numbers loses nothing to issue 17's renumbering (09 split into
09 and 10; 10-16 became 11-17).

``tests/renumbering_fixtures/`` was made with the course's code from before the split (``git archive``
of the commit before it, ``helpers.workspace.sync`` and ``helpers.progress.record``): a small course
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

from helpers import i18n
from helpers.workspace import migration as workspace_migration
from helpers.workspace import commands as ws
from helpers.i18n import use
from helpers.progress.store import read_file
from helpers.workspace.renumbering import MOVED_QUESTIONS, RENAMED, SPLIT_INTO, SPLIT_NOTEBOOK, new_exercise_id
from helpers.selfcheck import questions_for
from helpers.workspace import sync
from helpers.workspace.files import Manifest

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
    assert "# my capstone answer" in _cell(workspace / "11_capstone_refund_agent.ipynb", 2)
    assert any(line.startswith("11_capstone_refund_agent.ipynb: kept, edited by you") for line in lines), lines
    # unedited renamed copies take the new course version; the one the learner only ran does too
    for old, new in RENAMED.items():
        assert not (workspace / old).exists()
        if old != "10_capstone_refund_agent.ipynb":
            assert (workspace / new).read_bytes() == (course / new).read_bytes(), new
    # nothing the learner had is gone: old 09's bytes are in replaced/, and every cell of the edited old 10
    # (source and outputs) is in the new 11, which only gained the course's note and the new number in its title
    assert before[SPLIT_NOTEBOOK] in set(_snapshot(workspace).values())
    was = json.loads(before["10_capstone_refund_agent.ipynb"])["cells"]
    now = json.loads((workspace / "11_capstone_refund_agent.ipynb").read_text(encoding="utf-8"))["cells"]
    assert now[0]["id"] == workspace_migration.NOTE_ID and now[2:] == was[1:]
    assert "".join(now[1]["source"]) == "".join(was[0]["source"]).replace("# 10 ·", "# 11 ·", 1)


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
    assert "# my capstone answer" in _cell(workspace / "11_capstone_refund_agent.ipynb", 2)
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
    assert "# my capstone answer" in _cell(chinese / "11_capstone_refund_agent.ipynb", 2)
    assert not any((chinese / old).exists() for old in [SPLIT_NOTEBOOK, *RENAMED])
    assert (chinese / "replaced" / "09_errors_and_high_risk_tools.1.ipynb").read_bytes() == \
        (OLD_WORKSPACE / SPLIT_NOTEBOOK).read_bytes()
    assert json.loads((chinese / ".progress.json").read_text(encoding="utf-8"))["format"] == 2
    assert {k: v for k, v in _snapshot(english).items() if not k.startswith("zh/")} == english_before
    assert ws.main(["status"]) == 0
    status = capsys.readouterr().out
    assert re.search(r"12_deep_agents_control_plane\.ipynb +未编辑\n", status), status
    assert re.search(r"11_capstone_refund_agent\.ipynb +你已编辑", status), status


# -- a hostile pass: what a learner may have done to the old workspace, and what sync says ----------------------


def test_make_status_before_sync_shows_the_workspace_as_sync_will_leave_it(workspace):
    """Right after `git pull`, `make status` (which changes nothing) used to call the edited old 10
    "no longer in the course" and the new 11 "new in the course (sync copies it)"; it now says what
    sync will move and classifies 11 from the learner's copy."""
    from helpers.workspace import commands as ws

    before = _snapshot(workspace)
    lines = ws._status_lines(workspace)  # against the course's own notebooks/ (the new names)
    text = "\n".join(lines)
    assert _snapshot(workspace) == before
    assert "10_capstone_refund_agent.ipynb: sync renames it 11_capstone_refund_agent.ipynb" in text
    assert "09_errors_and_high_risk_tools.ipynb: the course split it" in text
    assert "no longer in the course" not in text
    line_11 = next(line for line in lines if line.strip().startswith("11_capstone_refund_agent.ipynb "))
    assert "edited by you" in line_11 and "sync copies it" not in line_11


def test_reset_by_number_before_the_first_sync_migrates_and_asks_again(workspace, course):
    """`make reset NB=11` right after `git pull` (no `make lab` yet): the learner may mean old 11
    (deep agents) or the new 11 (their capstone). The workspace is migrated, nothing is reset, and the
    learner is told what 11 means now; the same request again resets the capstone, keeping it in
    replaced/ (before: the course's 11 was copied at once, and the next sync moved the learner's
    capstone aside as a duplicate)."""
    from helpers.workspace import reset

    lines = reset(["11"], workspace, course)
    assert lines[0].startswith("10_capstone_refund_agent.ipynb: renamed 11_capstone_refund_agent.ipynb"), lines
    old_10 = (workspace / "11_capstone_refund_agent.ipynb").read_bytes()  # the learner's copy, renumbered
    assert lines[-1].startswith("nothing was reset: the course renumbered its notebooks") and \
        "NB=11 now means 11_capstone_refund_agent.ipynb" in lines[-1], lines
    assert "# my capstone answer" in _cell(workspace / "11_capstone_refund_agent.ipynb", 2)
    assert not (workspace / "replaced" / "11_capstone_refund_agent.1.ipynb").exists()
    lines = reset(["11"], workspace, course)  # asked again: the numbers mean the new notebooks now
    assert lines == [("11_capstone_refund_agent.ipynb: replaced your copy (edited by you) with the course version; "
                      "your copy is kept as replaced/11_capstone_refund_agent.1.ipynb")], lines
    assert (workspace / "replaced" / "11_capstone_refund_agent.1.ipynb").read_bytes() == old_10
    lines = sync(workspace, course)  # nothing of the old numbers is left for sync to move
    assert not any("10_capstone" in line or "replaced/11_capstone" in line for line in lines), lines


def test_reset_by_name_before_the_first_sync_migrates_first(workspace, course):
    """A name is not ambiguous: `make reset NB=12_deep_agents_control_plane` before the first sync
    migrates (old 11 becomes 12), then resets it."""
    from helpers.workspace import reset

    lines = reset(["12_deep_agents_control_plane"], workspace, course)
    assert "11_deep_agents_control_plane.ipynb: renamed 12_deep_agents_control_plane.ipynb" in lines[1], lines
    assert lines[-1].startswith("12_deep_agents_control_plane.ipynb: replaced your copy"), lines
    assert (workspace / "12_deep_agents_control_plane.ipynb").read_bytes() == \
        (course / "12_deep_agents_control_plane.ipynb").read_bytes()


def test_a_copy_that_is_a_symlink_is_renamed_as_a_link(workspace, course, tmp_path):
    """A learner who keeps their capstone elsewhere and linked it in: the link is renamed (before:
    left under the old name as "no longer in the course", and a fresh 11 copied beside it)."""
    elsewhere = tmp_path / "my_capstone.ipynb"
    (workspace / "10_capstone_refund_agent.ipynb").rename(elsewhere)
    (workspace / "10_capstone_refund_agent.ipynb").symlink_to(elsewhere)
    mine = nbformat.read(elsewhere, as_version=4)
    mine.cells.append(nbformat.v4.new_code_cell("from helpers.exercises import nb10"))
    nbformat.write(mine, elsewhere)
    linked = elsewhere.read_bytes()
    lines = sync(workspace, course)
    assert elsewhere.read_bytes() == linked  # never written through (nor the link replaced by a file)
    new = workspace / "11_capstone_refund_agent.ipynb"
    assert new.is_symlink() and new.resolve() == elsewhere.resolve()
    assert not (workspace / "10_capstone_refund_agent.ipynb").is_symlink()
    assert "# my capstone answer" in _cell(elsewhere)
    assert any(line.startswith("11_capstone_refund_agent.ipynb: kept, edited by you") for line in lines), lines
    assert not any("no longer in the course" in line for line in lines), lines


def test_when_replaced_cannot_hold_an_old_copy_one_line_says_so(workspace, course):
    """`replaced` is a file and the learner already has an 11: the old 10 and old 09 stay where they
    are, each with one line saying why (before: nothing about 10, and both called "no longer in the
    course")."""
    (workspace / "replaced").write_text("my notes", encoding="utf-8")
    (workspace / "11_capstone_refund_agent.ipynb").write_bytes((OLD_COURSE / "00_start_here.ipynb").read_bytes())
    from helpers.workspace import commands as ws

    status = "\n".join(ws._status_lines(workspace))  # make status says the same before the sync
    assert "10_capstone_refund_agent.ipynb: sync leaves it where it is (replaced is a file" in status
    assert f"{SPLIT_NOTEBOOK}: sync leaves it where it is" in status and "no longer in the course" not in status
    lines = sync(workspace, course)
    about_10 = [line for line in lines if line.startswith("10_capstone_refund_agent.ipynb")]
    about_09 = [line for line in lines if line.startswith(SPLIT_NOTEBOOK)]
    assert len(about_10) == 1 and "left where it is (replaced is a file" in about_10[0], lines
    assert "11_capstone_refund_agent.ipynb" in about_10[0]
    assert len(about_09) == 1 and "left where it is" in about_09[0], lines
    assert (workspace / "10_capstone_refund_agent.ipynb").exists() and (workspace / SPLIT_NOTEBOOK).exists()
    assert (workspace / "replaced").read_text(encoding="utf-8") == "my notes"


def test_a_sync_interrupted_after_old_09_was_kept_says_where_it_went_next_time(workspace, course, monkeypatch):
    """The run that moved old 09 to replaced/ died before its report was printed (here: while it
    renumbered the progress file); the next sync says where the copy went instead of nothing."""
    def interrupted(folder):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(workspace_migration, "_progress", interrupted)
        with pytest.raises(KeyboardInterrupt):
            sync(workspace, course)
    assert not (workspace / SPLIT_NOTEBOOK).exists()
    lines = sync(workspace, course)
    about_09 = [line for line in lines if line.startswith(SPLIT_NOTEBOOK)]
    assert len(about_09) == 1 and "kept whole as replaced/09_errors_and_high_risk_tools.1.ipynb" in about_09[0], lines
    assert json.loads((workspace / ".progress.json").read_text(encoding="utf-8"))["format"] == 2
    assert not any(line.startswith(SPLIT_NOTEBOOK) for line in sync(workspace, course))


def test_a_progress_file_that_cannot_be_renumbered_now_is_reported_for_sync_not_for_a_cell(
        workspace, course, monkeypatch):
    """A kernel holds the progress file's lock past the time limit while `make lab` syncs: the file
    stays as it is (read under the new numbers all the same) and sync says so, not "not recorded ...
    run the cell again" (the message of a recorded answer)."""
    from helpers import filelock

    monkeypatch.setattr(filelock, "DEFAULT_TIMEOUT", 0.0)
    before = (workspace / ".progress.json").read_bytes()
    with filelock.exclusive(workspace / ".progress.json.lock"):
        lines = sync(workspace, course)
    about = [line for line in lines if "progress" in line]
    assert len(about) == 1 and about[0].startswith(".progress.json: not renumbered this time"), about
    assert "locked by another process" in about[0] and "cell" not in about[0]
    assert (workspace / ".progress.json").read_bytes() == before
    assert read_file(workspace / ".progress.json").exercises["11.1"].attempts == 2
    sync(workspace, course)  # the lock is free again: the next sync renumbers it
    assert json.loads((workspace / ".progress.json").read_text(encoding="utf-8"))["format"] == 2


def test_reset_takes_an_old_name_as_its_notebook_under_the_new_number(workspace, course):
    """`make reset NB=10_capstone_refund_agent` (the name the learner knew) resets the capstone, now
    11; old 09's name has two successors and is refused, saying which (before: both were refused as
    matching no course notebook)."""
    from helpers.workspace import WorkspaceError, reset, resolve_names

    assert resolve_names(["10_capstone_refund_agent"], course) == ["11_capstone_refund_agent.ipynb"]
    assert resolve_names(["16_untrusted_results_and_tracing.ipynb"], course) == \
        ["17_untrusted_results_and_tracing.ipynb"]
    with pytest.raises(WorkspaceError, match="split into 09_tool_errors_and_idempotency.ipynb and 10_human"):
        resolve_names(["09_errors_and_high_risk_tools"], course)
    sync(workspace, course)
    lines = reset(["10_capstone_refund_agent"], workspace, course)
    assert lines == [("11_capstone_refund_agent.ipynb: replaced your copy (edited by you) with the course version; "
                      "your copy is kept as replaced/11_capstone_refund_agent.1.ipynb")]


def test_an_edited_renamed_copy_runs_under_its_new_number(workspace, course):
    """The learner's edited capstone (old 10) checks its exercise with ``nb10.CONFIRMATION_GUARD``
    and shows ``self_check("10")``: under the new numbers ``nb10`` is the approval notebook's
    exercises (AttributeError) and "10" its questions. The renamed copy's code cells name 11 now;
    the learner's own code, the markdown and the outputs are unchanged."""
    from helpers.exercises import nb11

    path = workspace / "10_capstone_refund_agent.ipynb"
    nb = nbformat.read(path, as_version=4)
    check = nbformat.v4.new_code_cell("from helpers.exercises import nb10\n"
                                      "nb10.CONFIRMATION_GUARD.check(guarded)  # nb10_notes stays")
    check.outputs = [nbformat.v4.new_output("stream", text="nb10 output\n")]
    nb.cells += [check, nbformat.v4.new_code_cell("self_check(\"10\")"),
                 nbformat.v4.new_markdown_cell("In nb10 we said self_check(\"10\").")]
    nbformat.write(nb, path)
    lines = sync(workspace, course)
    assert any(line.startswith("10_capstone_refund_agent.ipynb: renamed 11_capstone_refund_agent.ipynb")
               and "its title, links and code now use 11 instead of 10" in line for line in lines), lines
    cells = nbformat.read(workspace / "11_capstone_refund_agent.ipynb", as_version=4).cells
    assert "# my capstone answer" in cells[2].source
    assert cells[-3].source == ("from helpers.exercises import nb11\n"
                                "nb11.CONFIRMATION_GUARD.check(guarded)  # nb10_notes stays")
    assert cells[-3].outputs[0]["text"] == "nb10 output\n"
    assert cells[-2].source == "self_check(\"11\")"
    assert cells[-1].source == "In nb10 we said self_check(\"10\")."
    assert hasattr(nb11, "CONFIRMATION_GUARD")  # the name the renumbered cell now reaches
    sync(workspace, course)  # a second sync changes nothing more
    assert nbformat.read(workspace / "11_capstone_refund_agent.ipynb", as_version=4).cells == cells


def test_a_renamed_copy_reads_as_its_new_number_and_says_so_at_its_top(workspace, course):
    """The kept copy of the old capstone read "10 · Capstone" and its Next link pointed at a file that is not
    there any more (issue 29); the sync's lines are in the terminal only. Now its title and its links to
    renumbered notebooks use the new numbers (the Next line at once, so 10 -> 11 and 11 -> 12 never chain),
    other links and prose stay, and a note at its top tells the learner in JupyterLab."""
    path = workspace / "10_capstone_refund_agent.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells += [nbformat.v4.new_markdown_cell("As in [09 · Errors](09_errors_and_high_risk_tools.ipynb) and "
                                               "[03 · Pairing](03_toolmessage_pairing.ipynb), 10 · stays prose."),
                 nbformat.v4.new_markdown_cell("[Next: 11 · The Deep Agents control plane]"
                                               "(11_deep_agents_control_plane.ipynb)")]
    nbformat.write(nb, path)
    sync(workspace, course)
    cells = nbformat.read(workspace / "11_capstone_refund_agent.ipynb", as_version=4).cells
    assert cells[0].id == workspace_migration.NOTE_ID and cells[0].cell_type == "markdown"
    assert "this is your copy of notebook 10" in cells[0].source and "it is notebook 11 now" in cells[0].source
    assert cells[1].source == "# 11 · capstone_refund_agent\n\nthe old numbers"
    assert cells[-2].source == ("As in [09 · Errors](09_tool_errors_and_idempotency.ipynb) and "
                                "[03 · Pairing](03_toolmessage_pairing.ipynb), 10 · stays prose.")
    assert cells[-1].source == "[Next: 12 · The Deep Agents control plane](12_deep_agents_control_plane.ipynb)"
    assert (workspace / "12_deep_agents_control_plane.ipynb").exists()  # the link is not dead


def test_the_note_of_a_renamed_chinese_copy_is_chinese(workspace, course):
    with use("zh-CN"):
        sync(workspace, course)
    note = nbformat.read(workspace / "11_capstone_refund_agent.ipynb", as_version=4).cells[0].source
    assert "这是你的笔记本 10 的副本" in note and not _untranslated([note]), note


def test_the_progress_cell_names_the_copies_kept_from_the_old_numbers(workspace, course):
    """What the learner sees in JupyterLab: the progress cell at the top of notebook 00 (and `make progress`)
    names old 09's copy, kept whole in replaced/ when the course split it, and an old copy kept there because
    the new name was taken, each with what it became."""
    from helpers.progress.report import kept_from_renumbering

    (workspace / "12_deep_agents_control_plane.ipynb").write_bytes(
        (OLD_COURSE / "00_start_here.ipynb").read_bytes().replace(b"the old numbers", b"my own 12"))
    assert kept_from_renumbering(workspace) == []
    sync(workspace, course)
    lines = kept_from_renumbering(workspace)
    assert lines == [
        "replaced/09_errors_and_high_risk_tools.1.ipynb: your copy of old notebook 09, kept whole when the course "
        "split it into 09_tool_errors_and_idempotency.ipynb and 10_human_approval.ipynb",
        "replaced/11_deep_agents_control_plane.1.ipynb: your copy of old notebook 11, which the course renumbered "
        "to 12_deep_agents_control_plane.ipynb"], lines
    with use("zh-CN"):
        assert not _untranslated(kept_from_renumbering(workspace))


def test_jupyterlabs_checkpoint_follows_a_renamed_copy(workspace, course):
    """"Revert Notebook to Checkpoint" in the renamed 11 finds the checkpoint the learner made in
    old 10 (jupyter_server keeps it in .ipynb_checkpoints/NN_x-checkpoint.ipynb); before, it stayed
    under the old name, out of the learner's reach."""
    folder = workspace / ".ipynb_checkpoints"
    folder.mkdir()
    saved = (workspace / "10_capstone_refund_agent.ipynb").read_bytes()
    (folder / "10_capstone_refund_agent-checkpoint.ipynb").write_bytes(saved)
    mine = folder / "12_deep_agents_control_plane-checkpoint.ipynb"  # the new 12 has one already: kept
    mine.write_bytes(b"{}")
    (folder / "11_deep_agents_control_plane-checkpoint.ipynb").write_bytes(saved)
    sync(workspace, course)
    assert (folder / "11_capstone_refund_agent-checkpoint.ipynb").read_bytes() == saved
    assert not (folder / "10_capstone_refund_agent-checkpoint.ipynb").exists()
    assert mine.read_bytes() == b"{}"
    assert (folder / "11_deep_agents_control_plane-checkpoint.ipynb").read_bytes() == saved
