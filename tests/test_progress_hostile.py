"""Progress and self-checks, hostile round 3 (issue 16, "Workspace and progress"): each test failed
(or, for the lock, hung) before its fix. Counted by area in the closing note of the issue: a lock
held by another process, a BOM and a duplicated key in the progress file, the self-check widget and
the progress file telling one truth (a re-run cell, never tried vs all wrong, a double click), and
hostile choice objects.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import filelock
from helpers.progress import load, progress_rows, record_exercise, record_self_check
from helpers.selfcheck import questions_for
from helpers.widgets import SelfCheck


@pytest.fixture
def named(tmp_path, monkeypatch):
    """COURSE_PROGRESS_FILE names a file in a temporary folder."""
    path = tmp_path / ".progress.json"
    monkeypatch.setenv("COURSE_PROGRESS_FILE", str(path))
    return path


def _row(notebook: str):
    return next(r for r in progress_rows() if r.notebook.startswith(notebook + "_"))


def test_a_progress_lock_held_elsewhere_gives_up_with_a_message(named, monkeypatch, capsys):
    """Before: a kernel stopped in a debugger while holding the lock made every check hang for ever."""
    monkeypatch.setattr(filelock, "DEFAULT_TIMEOUT", 0.2)
    record_exercise("03.1", False)
    capsys.readouterr()
    with filelock.exclusive(named.with_name(named.name + ".lock"), timeout=0):
        record_exercise("03.1", True)
        err = capsys.readouterr().err
        view = SelfCheck("02", questions_for("02"))
        view.answer("nothing-ran-yet", "1 0 0")
    assert "progress: not recorded: the progress file is locked by another process" in err
    assert view.engine.record_note.startswith("not recorded: the progress file is locked by another process")
    assert "locked by another process" in view.score_view.value
    assert load().exercises["03.1"].attempts == 1 and "02" not in load().self_checks
    record_exercise("03.1", True)
    assert load().exercises["03.1"].solved


def test_a_progress_file_with_a_bom_loses_nothing(named, capsys):
    """Before: a BOM (an editor saved the file) made it "not JSON": its records were set aside and a
    fresh file started without them."""
    record_exercise("01.1", True)
    record_self_check("02", "q1", True)
    named.write_bytes(b"\xef\xbb\xbf" + named.read_bytes())
    assert load().problem == "" and load().exercises["01.1"].solved
    record_exercise("03.1", False)
    assert capsys.readouterr().err == ""
    assert load().exercises["01.1"].solved and load().self_checks["02"]["q1"].correct


def test_a_duplicated_key_is_damage_with_a_kept_copy(named, capsys):
    """Before: ``{"exercises": {A}, "exercises": {B}}`` read as B only, and the next record rewrote
    the file without A and without a kept copy."""
    text = ('{"format": 1, "exercises": {"01.1": {"solved": true, "last_passed": true, "attempts": 1}}, '
            '"exercises": {"02.1": {"solved": true, "last_passed": true, "attempts": 1}}}')
    named.write_text(text, encoding="utf-8")
    assert "it has the key 'exercises' twice" in load().problem
    record_exercise("03.1", True)
    assert "kept it as .progress.json.corrupt-1" in capsys.readouterr().err
    assert (named.parent / ".progress.json.corrupt-1").read_text(encoding="utf-8") == text


def test_a_rerun_self_check_cell_and_the_progress_file_tell_one_truth(named):
    """Before: after the cell was run again, a now-right answer "counted" in the widget while the
    progress file kept the first, wrong one."""
    questions = questions_for("02")
    first = SelfCheck("02", questions)
    question = questions[0]
    wrong = next(c for c in question.choices if c != question.answer)
    assert first.answer(question.id, wrong).first_try
    again = SelfCheck("02", questions)  # the cell run again: a new widget
    answer = again.answer(question.id, question.answer)
    assert not answer.first_try and answer.attempt == 2
    assert again.engine.score() == (0, 1, len(questions))
    assert "Your first answer (WRONG) counts" in again.feedback_views[question.id].value
    assert load().self_checks["02"][question.id].correct is False
    line = f"0 of {len(questions)} right on first try, 1 answered"
    assert _row("02").self_check == line and line in again.score_view.value


def test_the_table_tells_never_tried_from_all_wrong(named):
    """Before: both showed ``0/5``."""
    questions = questions_for("02")
    never = _row("02").self_check
    for question in questions:
        record_self_check("02", question.id, False)
    wrong = _row("02").self_check
    assert never != wrong
    assert never == f"0 of {len(questions)} right on first try, 0 answered"
    assert wrong == f"0 of {len(questions)} right on first try, {len(questions)} answered"


def test_a_double_click_on_check_counts_one_attempt(named):
    """Before: two clicks on Check for the same pick recorded two attempts."""
    view = SelfCheck("02", questions_for("02"))
    question = questions_for("02")[0]
    view.pickers[question.id].value = question.answer
    view.check_buttons[question.id].click()
    view.check_buttons[question.id].click()
    assert load().self_checks["02"][question.id].attempts == 1
    assert view.engine.answers[question.id].attempt == 1


class _EqualToEverything:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class _EqRaises:
    def __eq__(self, other):
        raise RuntimeError("boom")

    __hash__ = object.__hash__


@pytest.mark.parametrize("choice", [_EqualToEverything(), _EqRaises()], ids=["equal to everything", "== raises"])
def test_a_hostile_choice_object_is_a_clear_error_and_records_nothing(named, choice):
    """Before: an object equal to everything was judged right; one whose ``__eq__`` raises escaped."""
    view = SelfCheck("02", questions_for("02"))
    question = questions_for("02")[0]
    with pytest.raises(ValueError, match="a choice is its text or its position"):
        view.answer(question.id, choice)
    assert not Path(named).exists() or "02" not in json.loads(Path(named).read_text())["self_checks"]


@pytest.mark.parametrize("kind", ["folder", "symlink"])
def test_a_progress_lock_that_is_not_a_file_is_named_and_records_nothing(named, kind, capsys):
    """Before: a folder at ``.progress.json.lock`` gave "could not record (Is a directory)" and a
    symlink "(Too many levels of symbolic links)", neither naming the lock; now it is refused by name."""
    record_exercise("03.1", False)
    capsys.readouterr()
    lock = named.with_name(named.name + ".lock")
    lock.unlink()
    lock.mkdir() if kind == "folder" else lock.symlink_to(named)
    record_exercise("03.1", True)
    err = capsys.readouterr().err
    assert f"progress: not recorded: .progress.json.lock is a {kind}; nothing was changed" in err, err
    assert load().exercises["03.1"].attempts == 1 and not load().exercises["03.1"].solved
