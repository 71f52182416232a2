"""Learner progress (issue 10, item 3): recorded only in the workspace (or with COURSE_PROGRESS_FILE),
written atomically under a lock, a damaged progress file set aside with one line (anything else the path
names refused and left alone: review hostile_1, item 1), the table and what to do next."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import helpers.progress.report as progress
import helpers.progress.record as progress_record
import helpers.workspace.commands as workspace
import helpers.workspace.place as place
from helpers.exercises import nb00
from helpers.exercises.registry import EXERCISES, notebook_key
from helpers.progress.report import (
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
    monkeypatch.setattr(place, "WORKSPACE_DIR", folder)
    monkeypatch.setattr(progress, "WORKSPACE_DIR", folder)
    monkeypatch.setattr(progress_record, "WORKSPACE_DIR", folder)
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
    assert load().self_checks["03"]["q1"].attempts == 2


def test_a_self_check_keeps_its_first_answer(named):
    """Before: the latest answer replaced the first, so trying every choice ended "correct" (lab review 1)."""
    record_self_check("03", "q1", False)
    record_self_check("03", "q1", True)
    record_self_check("03", "q1", True)
    assert load().self_checks["03"]["q1"] == progress.SelfCheckRecord(False, 3, load().self_checks["03"]["q1"].updated)
    record_self_check("03", "q2", True)
    record_self_check("03", "q2", False)
    assert load().self_checks["03"]["q2"].correct is True
    assert {r.notebook: r for r in progress_rows(questions={"03": ("q1", "q2")})}["03_toolmessage_pairing"] \
        .self_check == "1 of 2 right on first try, 2 answered"


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


# -- what the progress path names (review hostile_1, item 1) ---------------------------------------
#
# Only a regular file that is clearly a damaged progress file is set aside (its name is .progress.json,
# or its content has the progress file's layout), and only when recording. Anything else (a folder, a
# device, a FIFO, a learner's file that is not a progress file) is refused with one line: nothing is
# recorded, moved or created. Reading never moves anything.

OURS_BY_LAYOUT = {
    "exercises as a list": b'{"exercises": []}',
    "solved as text": b'{"exercises": {"00.1": {"solved": "yes", "attempts": 1}}}',
    "negative attempts": b'{"exercises": {"00.1": {"solved": true, "attempts": -1}}}',
    "attempts as a float": b'{"exercises": {"00.1": {"solved": true, "attempts": 2.0}}}',
    "a self-check that is not an object": b'{"self_checks": {"03": {"q1": true}}}',
    "format as text": b'{"format": "one"}',
    "cut short": b'{\n "exercises": {\n  "00.1": {\n   "attempts": 1,\n   "solved": tr',
}

NOT_PROGRESS = {
    "not JSON": b"my notes, not json",
    "binary junk": b"\x00\xff\xfe\x80junk",
    "a list": b"[1, 2]",
    "another JSON layout": b'{"name": "my-package", "version": "1.0"}',
    "progress fields and others": b'{"exercises": {}, "dependencies": {}}',
    "nested too deeply": b"[" * 100_000 + b"]" * 100_000,
}


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _refusal(err: str, what: str) -> None:
    assert err.count("\n") == 1, err
    assert err.startswith(f"progress: not recorded: {what}"), err
    assert "; nothing was changed (point COURSE_PROGRESS_FILE at a file of its own, or unset it)\n" in err, err


@pytest.mark.parametrize("content", OURS_BY_LAYOUT.values(), ids=OURS_BY_LAYOUT.keys())
def test_a_damaged_progress_file_is_kept_aside_with_one_line_and_a_fresh_start(named, capsys, content):
    named.write_bytes(content)
    record_exercise("00.1", True)
    message = capsys.readouterr().err
    assert message.count("\n") == 1 and message.startswith("progress: progress.json could not be read (")
    assert "kept it as progress.json.corrupt-1 and started a fresh one" in message
    assert (named.parent / "progress.json.corrupt-1").read_bytes() == content, "nothing lost"
    assert load().exercises["00.1"].solved


@pytest.mark.parametrize("content", [*OURS_BY_LAYOUT.values(), *NOT_PROGRESS.values()],
                         ids=[*OURS_BY_LAYOUT.keys(), *NOT_PROGRESS.keys()])
def test_in_the_workspace_any_damaged_progress_json_is_kept_aside(space, monkeypatch, capsys, content):
    """``.progress.json`` in the workspace is the course's file by its name, whatever it holds."""
    monkeypatch.chdir(space)
    (space / ".progress.json").write_bytes(content)
    record_self_check("03", "q1", True)
    message = capsys.readouterr().err
    assert "kept it as .progress.json.corrupt-1 and started a fresh one" in message and message.count("\n") == 1
    assert (space / ".progress.json.corrupt-1").read_bytes() == content
    assert load().self_checks["03"]["q1"].correct


@pytest.mark.parametrize("content", NOT_PROGRESS.values(), ids=NOT_PROGRESS.keys())
def test_a_learners_file_that_is_not_a_progress_file_is_never_moved_nor_overwritten(named, capsys, content):
    named.write_bytes(content)
    before = _listing(named.parent)
    record_exercise("00.1", True)
    record_self_check("03", "q1", True)
    err = capsys.readouterr().err
    assert err.count("\n") == 2, err
    _refusal(err.splitlines()[0] + "\n", "progress.json is not a progress file (it ")
    assert "; it was left as it is; nothing was changed" in err
    assert named.read_bytes() == content
    assert _listing(named.parent) == before, "nothing set aside, no lock file"
    report = repr(progress_report())
    assert report.startswith("progress file unreadable: progress.json: it ")
    assert report.splitlines()[0].endswith("; the table shows what could be read")
    assert _listing(named.parent) == before and capsys.readouterr().err == ""


def test_a_folder_is_refused_and_never_moved(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "myproject"
    folder.mkdir()
    (folder / "notes.txt").write_text("precious", encoding="utf-8")
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(folder))
    nb00.TOOL_CALL_IDS.check(sol00.tool_call_ids)  # a check records
    record_self_check("00", "q1", True)  # so does a self-check click
    err = capsys.readouterr().err
    assert err.count("\n") == 2
    for line in err.splitlines():
        _refusal(line + "\n", "myproject is a folder;")
    assert _listing(tmp_path) == ["myproject"] and _listing(folder) == ["notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "precious"
    report = progress_report()
    assert repr(report).startswith("progress file unreadable: myproject is a folder; the table shows what could be read"
                                   "\n\nnotebook")
    assert report._repr_markdown_().startswith("progress file unreadable: myproject is a folder;")
    assert _listing(tmp_path) == ["myproject"]


@pytest.mark.parametrize("value", [".", "/"])
def test_dot_and_slash_are_folders_not_a_raw_error(tmp_path, monkeypatch, capsys, value):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, value)
    name = tmp_path.name if value == "." else "/"
    assert repr(progress_report()).startswith(f"progress file unreadable: {name} is a folder;")
    record_exercise("00.1", True)
    _refusal(capsys.readouterr().err, f"{name} is a folder;")
    assert _listing(tmp_path) == []


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_is_refused_and_never_moved(tmp_path, monkeypatch, capsys):
    """Through a symlink to /dev/null (the tester, as root, had /dev/null itself renamed)."""
    link = tmp_path / "p.json"
    link.symlink_to("/dev/null")
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(link))
    record_exercise("00.1", True)
    _refusal(capsys.readouterr().err, "p.json is a device;")
    assert repr(progress_report()).startswith("progress file unreadable: p.json is a device;")
    assert _listing(tmp_path) == ["p.json"] and link.is_symlink() and os.readlink(link) == "/dev/null"
    assert not os.path.lexists("/dev/null.lock") and not os.path.lexists("/dev/null.corrupt-1")


def _in_a_thread(call) -> bool:
    """Run ``call`` in a daemon thread; True when it returned within 30 s (a FIFO would block it)."""
    import threading

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(30)
    return not worker.is_alive()


def _unblock(fifo: Path) -> None:
    """Open the FIFO's other end, so a reader stuck on it (a failing test) can finish."""
    import contextlib as _contextlib

    with _contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_a_fifo_is_refused_and_never_opened(named, capsys):
    os.mkfifo(named)
    done = _in_a_thread(lambda: record_exercise("00.1", True)) and _in_a_thread(lambda: load())
    if not done:
        _unblock(named)
    assert done, "recording or reading waited on a FIFO"
    _refusal(capsys.readouterr().err, "progress.json is a FIFO;")
    assert load().problem == "progress.json is a FIFO"
    assert _listing(named.parent) == ["progress.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_a_fifo_where_the_lock_goes_is_refused(named, capsys):
    os.mkfifo(named.with_name("progress.json.lock"))
    done = _in_a_thread(lambda: record_exercise("00.1", True))
    if not done:
        _unblock(named.with_name("progress.json.lock"))
    assert done
    _refusal(capsys.readouterr().err, "progress.json.lock is a FIFO;")
    assert not named.exists()


def test_reading_never_moves_a_damaged_file_and_shows_what_can_be_read(named, capsys):
    content = b'{"exercises": {"00.1": {"solved": true, "attempts": 1}, "01.1": {"solved": "yes"}}}'
    named.write_bytes(content)
    recorded = load()
    assert recorded.problem == "progress.json: exercise 01.1 solved is not true/false"
    assert recorded.exercises["00.1"].solved and "01.1" not in recorded.exercises
    table = progress_table()
    assert table.splitlines()[:2] == [
        "progress file unreadable: progress.json: exercise 01.1 solved is not true/false; the table shows what could "
        "be read", ""]
    assert next(r for r in progress_rows(questions={}) if r.exercise.startswith("00.1")).solved == "yes"
    assert "progress file unreadable: progress.json: exercise 01.1" in progress_markdown()
    repr(progress_report())
    assert named.read_bytes() == content and _listing(named.parent) == ["progress.json"], "reading moved nothing"
    assert capsys.readouterr().err == ""


def test_recording_over_a_partly_damaged_file_keeps_what_could_be_read(named, capsys):
    content = (b'{"exercises": {"00.1": {"solved": true, "attempts": 3}, "01.1": {"solved": "yes"}},'
               b' "self_checks": {"03": {"q1": {"correct": true, "attempts": 1}, "q2": 5}}}')
    named.write_bytes(content)
    record_exercise("02.1", False)
    message = capsys.readouterr().err
    assert message == ("progress: progress.json could not be read (exercise 01.1 solved is not true/false (and 1 "
                       "more)); kept it as progress.json.corrupt-1 and started a fresh one with the 2 records that "
                       "could be read\n")
    recorded = load()
    assert recorded.problem == ""
    assert recorded.exercises["00.1"].attempts == 3 and recorded.exercises["02.1"].attempts == 1
    assert set(recorded.self_checks["03"]) == {"q1"}
    assert (named.parent / "progress.json.corrupt-1").read_bytes() == content


def test_each_corruption_gets_its_own_number(named, capsys):
    for number in (1, 2):
        named.write_bytes(b'{"exercises": %d}' % number)
        record_exercise("00.1", True)
        assert (named.parent / f"progress.json.corrupt-{number}").read_bytes() == b'{"exercises": %d}' % number
    capsys.readouterr()


def test_an_empty_file_is_a_fresh_start(named, capsys):
    named.write_bytes(b"")
    assert load().problem == ""
    record_exercise("00.1", True)
    assert capsys.readouterr().err == "" and load().exercises["00.1"].solved
    assert _listing(named.parent) == ["progress.json", "progress.json.lock"]


def test_a_file_from_a_newer_course_version_is_left_alone(named, capsys):
    named.write_bytes(b'{"format": 3, "exercises": {}}')
    record_exercise("00.1", True)
    _refusal(capsys.readouterr().err, "progress.json was written by a newer version of the course (format 3); update "
                                      "the course (git pull);")
    assert named.read_bytes() == b'{"format": 3, "exercises": {}}'


def test_a_file_larger_than_32_mb_is_not_read(named, capsys):
    named.write_bytes(b" " * (32 * 1024 * 1024) + b"{}")
    assert load().problem == "progress.json: it is larger than 32 MB"
    record_exercise("00.1", True)
    _refusal(capsys.readouterr().err, "progress.json is not a progress file (it is larger than 32 MB)")
    assert named.stat().st_size == 32 * 1024 * 1024 + 2


# -- symlinks -------------------------------------------------------------------------------------


def test_a_symlinked_progress_file_is_written_through(tmp_path, monkeypatch):
    real = tmp_path / "elsewhere" / "real.json"
    real.parent.mkdir()
    real.write_text('{"exercises": {"01.1": {"solved": true, "attempts": 1}}}', encoding="utf-8")
    link = tmp_path / "p.json"
    link.symlink_to(real)
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(link))
    record_exercise("00.1", True)
    assert link.is_symlink() and link.resolve() == real
    assert set(json.loads(real.read_text(encoding="utf-8"))["exercises"]) == {"00.1", "01.1"}
    assert _listing(tmp_path) == ["elsewhere", "p.json"]
    assert _listing(real.parent) == ["real.json", "real.json.lock"], "the lock sits beside the target"


def test_a_dangling_symlink_creates_its_target_and_one_into_a_missing_folder_is_refused(tmp_path, monkeypatch, capsys):
    link = tmp_path / "p.json"
    link.symlink_to(tmp_path / "target.json")
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(link))
    record_exercise("00.1", True)
    assert link.is_symlink() and load(tmp_path / "target.json").exercises["00.1"].solved
    link.unlink()
    link.symlink_to(tmp_path / "nowhere" / "x.json")
    record_exercise("00.1", True)
    _refusal(capsys.readouterr().err, "p.json is a symlink into a folder that does not exist;")
    assert not (tmp_path / "nowhere").exists()


def test_a_symlink_loop_is_refused(tmp_path, monkeypatch, capsys):
    (tmp_path / "l1").symlink_to(tmp_path / "l2")
    (tmp_path / "l2").symlink_to(tmp_path / "l1")
    (tmp_path / "p.json").symlink_to(tmp_path / "l1")
    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(tmp_path / "p.json"))
    record_exercise("00.1", True)
    _refusal(capsys.readouterr().err, "p.json is a symlink loop;")
    assert load().problem == "p.json is a symlink loop"
    assert _listing(tmp_path) == ["l1", "l2", "p.json"]


def test_make_progress_shows_an_unreadable_file_and_the_table(tmp_path):
    folder = tmp_path / "myproject"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), progress.PROGRESS_FILE_ENV: str(folder)}
    out = subprocess.run([sys.executable, "-m", "helpers.progress"], cwd=ROOT, capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0 and out.stderr == ""
    assert "progress file unreadable: myproject is a folder; the table shows what could be read" in out.stdout
    assert "00_start_here" in out.stdout and _listing(tmp_path) == ["myproject"]


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
    assert "| 00_start_here | 00.1 ids of the tool calls in an AIMessage | yes | 0 of 3 right on first try, 0 answered |" in markdown


def test_self_check_scores_and_unanswered_questions(named):
    for entry in EXERCISES:
        record_exercise(entry.id, True)
    record_self_check("02", "q1", True)
    record_self_check("02", "q2", False)
    questions = {"02": ("q1", "q2", "q3")}
    rows = {r.notebook: r for r in progress_rows(questions=questions)}
    assert rows["02_tool_calls_are_requests"].self_check == "1 of 3 right on first try, 2 answered"
    # q2 was answered (wrongly, and the first answer counts): the next step is q3, by its place
    assert next_step(questions=questions).text() == ("Next: Check yourself question 3 in "
                                                     "02_tool_calls_are_requests.ipynb (q3)")
    assert {r.notebook: r for r in progress_rows(questions={})}["02_tool_calls_are_requests"].self_check == "1 of 2 right on first try, 2 answered"
    record_self_check("02", "q2", True)
    assert {r.notebook: r for r in progress_rows(questions=questions)}["02_tool_calls_are_requests"].self_check == "1 of 3 right on first try, 2 answered"
    record_self_check("02", "q3", True)
    assert next_step(questions=questions) is None
    assert progress_table(questions=questions).endswith("Everything is solved. Well done!")


def test_the_next_step_names_a_question_by_its_place_and_a_few_words_not_its_id(named):
    """Before: "Next: self-check question answers-keep-their-ids in 00_start_here.ipynb" (lab review 1)."""
    for entry in EXERCISES:
        record_exercise(entry.id, True)
    questions = {"00": ("which-cells-change", "what-the-model-receives", "second-request")}
    record_self_check("00", "which-cells-change", True)
    step = next_step(questions=questions)
    assert (step.kind, step.label, step.about) == ("self-check", "question 2", "what the model receives")
    assert step.text() == "Next: Check yourself question 2 in 00_start_here.ipynb (what the model receives)"
    assert "what-the-model-receives" not in progress_table(questions=questions)
    assert progress_markdown(questions=questions).endswith(
        "**Next: Check yourself question 2 in 00_start_here.ipynb (what the model receives)**")
    record_self_check("00", "an-old-question", False)  # a question 00 no longer has: not a next step
    record_self_check("00", "what-the-model-receives", False)
    record_self_check("00", "second-request", True)
    assert next_step(questions=questions) is None


def test_registered_questions_are_used_by_default(named, monkeypatch):
    monkeypatch.setattr(progress, "_questions", {})
    progress.register_questions("05_return_values_and_tooloutputmixin.ipynb", ["a", "b"])
    assert {r.notebook: r for r in progress_rows()}["05_return_values_and_tooloutputmixin"].self_check == "0 of 2 right on first try, 0 answered"


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
    assert "Next: Check yourself question 1 in 00_start_here.ipynb (" in out.stdout, \
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
    assert row.self_check == f"1 of {len(questions_for('03'))} right on first try, 1 answered"
