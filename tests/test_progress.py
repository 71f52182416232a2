"""Learner progress (issue 10, item 3): recorded only in the workspace (or with COURSE_PROGRESS_FILE),
written atomically under a lock, a corrupt file set aside with one line, the table and what to do next."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import helpers.progress as progress
import helpers.workspace as workspace
from helpers.exercises import nb00
from helpers.exercises.registry import EXERCISES, notebook_key
from helpers.progress import (
    NOT_IN_WORKSPACE,
    load,
    next_step,
    progress_markdown,
    progress_report,
    progress_rows,
    progress_table,
    record_exercise,
    record_self_check,
    recording_file,
)
from tests.solutions import nb00 as sol00

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def space(tmp_path, monkeypatch):
    """A temporary learner workspace (both modules see it); no COURSE_PROGRESS_FILE."""
    folder = tmp_path / "workspace"
    folder.mkdir()
    monkeypatch.setattr(workspace, "WORKSPACE_DIR", folder)
    monkeypatch.setattr(progress, "WORKSPACE_DIR", folder)
    monkeypatch.delenv(progress.PROGRESS_FILE_ENV, raising=False)
    return folder


@pytest.fixture
def named(tmp_path, monkeypatch):
    """COURSE_PROGRESS_FILE names a file in a temporary folder."""
    path = tmp_path / "progress.json"
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(path))
    return path


def _data(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# -- where records go ---------------------------------------------------------------------------


def test_nothing_is_recorded_in_the_courses_own_notebooks(space, monkeypatch):
    monkeypatch.chdir(ROOT / "notebooks")
    assert recording_file() is None
    nb00.TOOL_CALL_IDS.check(sol00.tool_call_ids)
    record_self_check("00", "q1", True)
    assert list(space.iterdir()) == []
    assert progress_report()._repr_markdown_() == NOT_IN_WORKSPACE
    assert repr(progress_report()) == NOT_IN_WORKSPACE.replace("`", "")


def test_a_check_in_the_workspace_is_recorded(space, monkeypatch):
    (space / "sub").mkdir()
    monkeypatch.chdir(space / "sub")
    assert recording_file() == space / ".progress.json"
    nb00.TOOL_CALL_IDS.check(sol00.tool_call_ids)
    record = _data(space / ".progress.json")["exercises"]["00.1"]
    assert (record["solved"], record["last_passed"], record["attempts"]) == (True, True, 1)


def test_check_records_and_evaluate_does_not(named):
    nb00.TOOL_CALL_IDS.evaluate(sol00.tool_call_ids)
    assert not named.exists()
    nb00.TOOL_CALL_IDS.check(sol00.TOOL_CALL_IDS.crashing["attribute access"])
    nb00.TOOL_CALL_IDS.check(sol00.tool_call_ids)
    nb00.TOOL_CALL_IDS.check(lambda m: [])
    record = load().exercises["00.1"]
    assert (record.solved, record.last_passed, record.attempts) == (True, False, 3), "solved stays solved"


def test_a_stub_check_is_recorded_as_not_passed(named):
    nb00.TOOL_CALL_IDS.check(lambda m: (_ for _ in ()).throw(NotImplementedError()))
    assert load().exercises["00.1"].solved is False


def test_self_checks_are_stored_by_notebook_number(named):
    for name in ("03", "03_toolmessage_pairing", "03_toolmessage_pairing.ipynb", "notebooks/03_toolmessage_pairing.ipynb"):
        assert notebook_key(name) == "03"
    record_self_check("03_toolmessage_pairing.ipynb", "q1", False)
    record_self_check("03", "q1", True)
    assert load().self_checks["03"]["q1"].correct is True and load().self_checks["03"]["q1"].attempts == 2


@pytest.mark.parametrize("call", [
    lambda: record_exercise(301, True),
    lambda: record_exercise("03.1", "yes"),
    lambda: record_self_check("03", None, True),
    lambda: record_self_check(["03"], "q1", True),
    lambda: record_self_check("03", "q1", 1),
])
def test_wrong_argument_types_are_a_type_error(named, call):
    with pytest.raises(TypeError):
        call()
    assert not named.exists()


# -- concurrency ---------------------------------------------------------------------------------

_RECORDER = """
import sys
from helpers.progress import record_exercise, record_self_check
tag, count = sys.argv[1], int(sys.argv[2])
for number in range(count):
    record_exercise("00.1", number % 2 == 0)
    record_self_check("03", f"{tag}-{number}", True)
"""


def test_two_processes_recording_at_once_lose_nothing(named):
    count = 120
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    workers = [subprocess.Popen([sys.executable, "-c", _RECORDER, tag, str(count)], env=env, cwd=ROOT)
               for tag in ("a", "b")]
    assert [w.wait(timeout=300) for w in workers] == [0, 0]
    recorded = load()
    assert recorded.exercises["00.1"].attempts == 2 * count
    assert len(recorded.self_checks["03"]) == 2 * count
    assert not list(named.parent.glob("*.tmp")), "no temporary file left behind"


# -- a corrupt file ----------------------------------------------------------------------------

CORRUPT = {
    "not JSON": b"this is not json",
    "binary junk": b"\x00\xff\xfe\x80junk",
    "empty": b"",
    "cut short": b'{"exercises": {"00.1": {"solved": tr',
    "a list": b"[1, 2]",
    "exercises as a list": b'{"exercises": []}',
    "solved as text": b'{"exercises": {"00.1": {"solved": "yes", "attempts": 1}}}',
    "negative attempts": b'{"exercises": {"00.1": {"solved": true, "attempts": -1}}}',
    "a newer format": b'{"format": 2}',
    "a self-check that is not an object": b'{"self_checks": {"03": {"q1": true}}}',
    "nested too deeply": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("content", CORRUPT.values(), ids=CORRUPT.keys())
def test_a_corrupt_file_is_kept_aside_with_one_line_and_a_fresh_start(named, capsys, content):
    named.write_bytes(content)
    record_exercise("00.1", True)
    message = capsys.readouterr().err
    assert message.count("\n") == 1 and message.startswith("progress: progress.json could not be read (")
    assert "kept it as progress.json.corrupt-1 and started a fresh one" in message
    assert (named.parent / "progress.json.corrupt-1").read_bytes() == content, "nothing lost"
    assert load().exercises["00.1"].solved


def test_a_folder_where_the_file_should_be(named, capsys):
    named.mkdir()
    (named / "inside.txt").write_text("keep me", encoding="utf-8")
    record_exercise("00.1", False)
    assert "(it is a folder); kept it as progress.json.corrupt-1" in capsys.readouterr().err
    assert (named.parent / "progress.json.corrupt-1" / "inside.txt").read_text(encoding="utf-8") == "keep me"
    assert load().exercises["00.1"].attempts == 1


def test_each_corruption_gets_its_own_number(named, capsys):
    for number in (1, 2):
        named.write_bytes(b"junk %d" % number)
        record_exercise("00.1", True)
        assert (named.parent / f"progress.json.corrupt-{number}").read_bytes() == b"junk %d" % number
    capsys.readouterr()


def test_reading_a_corrupt_file_sets_it_aside_too_and_never_raises(named, capsys):
    named.write_bytes(b"\x00junk")
    assert load().exercises == {}
    assert (named.parent / "progress.json.corrupt-1").exists()
    assert "could not be read" in capsys.readouterr().err
    assert "Next: exercise 00.1" in progress_table()


def test_a_write_that_fails_is_one_line_and_keeps_the_old_file(named, capsys, monkeypatch):
    record_exercise("00.1", True)
    before = named.read_bytes()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(progress.os, "replace", full_disk)
    record_exercise("01.1", True)
    message = capsys.readouterr().err
    assert message == ("progress: could not record in progress.json (No space left on device); "
                       "your answer's feedback above is unaffected\n")
    assert named.read_bytes() == before
    assert not list(named.parent.glob("*.tmp"))


def test_the_file_is_written_whole_through_a_temporary_file(named, monkeypatch):
    replaced = []
    real = os.replace
    monkeypatch.setattr(progress.os, "replace", lambda a, b: (replaced.append((Path(a).parent, Path(b))), real(a, b)))
    record_exercise("00.1", True)
    assert replaced == [(named.parent, named)]


# -- the table --------------------------------------------------------------------------------


def test_the_table_lists_every_exercise_and_what_to_do_next(named):
    record_exercise("00.1", True)
    record_exercise("01.1", False)
    rows = progress_rows(questions={})
    assert [r.exercise.split()[0] for r in rows if r.exercise != "-"] == [e.id for e in EXERCISES]
    assert rows[0].solved == "yes" and rows[1].solved == "no"
    assert {r.self_check for r in rows} <= {"-", ""}, "no questions given, none answered"
    assert next_step(questions={}).text() == ("Next: exercise 01.1 (a refund-request tool with a safe schema) in "
                                              "01_function_to_tool.ipynb")
    text = progress_table()
    assert text.splitlines()[0].split() == ["notebook", "exercise", "solved", "self-check"]
    assert "updated" not in text and "2026" not in text and "T" not in text.split("\n")[2].split()[-1]
    markdown = progress_markdown()
    assert markdown.startswith("| notebook | exercise | solved | self-check |\n|---|---|---|---|\n")
    assert "| 00_start_here | 00.1 ids of the tool calls in an AIMessage | yes | 0/3 |" in markdown


def test_self_check_scores_and_unanswered_questions(named):
    for entry in EXERCISES:
        record_exercise(entry.id, True)
    record_self_check("02", "q1", True)
    record_self_check("02", "q2", False)
    questions = {"02": ("q1", "q2", "q3")}
    rows = {r.notebook: r for r in progress_rows(questions=questions)}
    assert rows["02_tool_calls_are_requests"].self_check == "1/3"
    assert next_step(questions=questions).text() == "Next: self-check question q2 in 02_tool_calls_are_requests.ipynb"
    assert {r.notebook: r for r in progress_rows(questions={})}["02_tool_calls_are_requests"].self_check == "1/2 answered"
    record_self_check("02", "q2", True)
    assert next_step(questions=questions).label == "question q3"
    record_self_check("02", "q3", True)
    assert next_step(questions=questions) is None
    assert progress_table(questions=questions).endswith("Everything is solved. Well done!")


def test_registered_questions_are_used_by_default(named, monkeypatch):
    monkeypatch.setattr(progress, "_questions", {})
    progress.register_questions("05_return_values_and_tooloutputmixin.ipynb", ["a", "b"])
    assert {r.notebook: r for r in progress_rows()}["05_return_values_and_tooloutputmixin"].self_check == "0/2"


def test_the_report_in_the_workspace_is_the_table(named):
    record_exercise("00.1", True)
    report = progress_report()
    assert report._repr_markdown_() == progress_markdown() and repr(report) == progress_table()


def test_make_progress_prints_the_table(named):
    record_exercise("00.1", True)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\nprogress: $(STAMP)\n\t$(BIN)/python -m helpers.progress\n" in makefile
    out = subprocess.run([sys.executable, "-m", "helpers.progress"], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "00_start_here" in out.stdout
    assert "Next: self-check question" in out.stdout and "in 00_start_here.ipynb" in out.stdout, \
        "00.1 is solved, so the next step is 00's first self-check question"
    assert str(named.parent) not in out.stdout, "no machine path"


def test_the_table_knows_every_notebooks_questions_from_helpers_selfcheck(named):
    from helpers.progress import course_questions
    from helpers.selfcheck import available_notebooks, questions_for

    known = course_questions()
    assert set(known) == set(available_notebooks())
    first = questions_for("03")[0].id
    record_self_check("03", first, True)
    row = next(r for r in progress_rows() if r.notebook.startswith("03_"))
    assert row.self_check == f"1/{len(questions_for('03'))}"
