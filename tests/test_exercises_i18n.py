"""Exercise feedback in the Chinese edition (issue 22).

The checkers' feedback, hints and explanations (``helpers/exercises/nbNN*.py`` and
``check_text.py``) are wrapped in ``_()`` / ``N_()`` / ``ngettext()``; their Chinese lives in the
course's catalog ``helpers/locale/zh_CN/LC_MESSAGES/course.po``. These tests compile it into a
temporary catalog and check, under ``use("zh-CN")``, that known-wrong answers get Chinese feedback
with the same verdicts (FAIL stays FAIL, the reference still passes), that English is unchanged, and
that every wrapped string has a translation that keeps its placeholders.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.extract import extract_from_file, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from helpers import i18n
from helpers.exercises.check_text import _left_text
from helpers.exercises.registry import EXERCISES

ROOT = Path(__file__).resolve().parents[1]
FRAGMENT = ROOT / "helpers" / "locale" / "zh_CN" / "LC_MESSAGES" / "course.po"
EXERCISE_DIR = ROOT / "helpers" / "exercises"
#: The files whose strings these tests check: every notebook's checkers, and the shared texts and core.
WRAPPED = sorted(EXERCISE_DIR.glob("*.py"))
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
CJK = re.compile(r"[\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
ENTRIES = {e.id: e for e in EXERCISES}

#: (exercise id, known-wrong answer in tests/solutions, a phrase its Chinese feedback must hold)
WRONG = [
    ("03.1", "codes right, but bugs caught too", "track_parcel 有一个 bug"),
    ("05.1", "a list of Commands is a Command", "原样返回"),
    ("07.1", "keeps the larger amount", "A1024 先报 499.0、后报 450.0"),
    ("09.1", "leaks the message", "模型看到了内部信息"),
    ("09.2", "refund_key", "分不清两个订单行"),
    ("10.1", "counts only", "不是一种决策类型"),
]


def _catalog():
    """The catalog's messages that the exercise modules use (``#:`` under ``helpers/exercises/``)."""
    with FRAGMENT.open("rb") as fh:
        catalog = read_po(fh)
    for message in list(catalog):
        if message.id and not any(path.startswith("helpers/exercises/") for path, _line in message.locations):
            catalog.delete(message.id)
    return catalog


@pytest.fixture
def zh_catalog(tmp_path, monkeypatch):
    """The fragment compiled to ``<tmp>/zh_CN/LC_MESSAGES/course.mo``, used as the course's catalog."""
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as fh:
        write_mo(fh, _catalog())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


def _wrapped_strings() -> list[tuple[str, int, str | tuple[str, ...]]]:
    found = []
    for path in WRAPPED:
        for lineno, message, _comments, _context in extract_from_file(extract_python, str(path), keywords=KEYWORDS):
            found.append((path.relative_to(ROOT).as_posix(), lineno, message))
    return found


@pytest.mark.parametrize("exercise_id, wrong_name, phrase", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_answer_gets_chinese_feedback_and_the_same_verdicts(zh_catalog, exercise_id, wrong_name, phrase):
    entry = ENTRIES[exercise_id]
    exercise, answers = entry.exercise(), entry.answer_set()
    wrong = answers.wrong[wrong_name]
    english = exercise.evaluate(wrong.answer)
    with i18n.use("zh-CN"):
        chinese = exercise.evaluate(wrong.answer)
        references = [exercise.evaluate(solution) for solution in answers.solutions.values()]
    assert [(r.name, r.status) for r in chinese.results] == [(r.name, r.status) for r in english.results]
    assert chinese.solved and not chinese.passed, chinese.text()
    failed = {r.name: r.feedback for r in chinese.results if r.name in wrong.fails}
    assert failed and all(CJK.search(text) for text in failed.values()), chinese.text()
    assert any(phrase in text for text in failed.values()), chinese.text()
    assert not any(CJK.search(r.feedback) for r in english.results), english.text()
    assert all(result.passed for result in references), [r.text() for r in references]


def test_english_feedback_is_the_source_text(zh_catalog):
    """Outside ``use("zh-CN")`` (no edition marker in the test's folder) the catalog is not consulted."""
    entry = ENTRIES["03.1"]
    result = entry.exercise().evaluate(entry.answer_set().wrong["codes right, but bugs caught too"].answer)
    assert any(r.feedback.startswith("track_parcel has a bug (KeyError: 'carrier')") for r in result.results)


def test_thread_notes_use_one_chinese_form_for_every_count(zh_catalog):
    one, three = SimpleNamespace(left=["t1"], stuck=[]), SimpleNamespace(left=["a", "b", "c"], stuck=[])
    assert _left_text(one).startswith("your code left a thread running (t1); it was stopped.")
    assert _left_text(three).startswith("your code left 3 threads running (a, b, c); they were stopped.")
    with i18n.use("zh-CN"):
        assert _left_text(one).startswith("你的代码留下了 1 个线程仍在运行（t1）")
        assert _left_text(three).startswith("你的代码留下了 3 个线程仍在运行（a, b, c）")


def test_every_wrapped_string_has_a_translation():
    catalog = _catalog()
    missing = []
    for where, lineno, message in _wrapped_strings():
        entry = catalog.get(message[0] if isinstance(message, tuple) else message)
        strings = entry.string if entry is not None and isinstance(entry.string, tuple) else (
            (entry.string,) if entry is not None else ())
        if not strings or not all(strings):
            missing.append(f"{where}:{lineno}: {message!r}")
    assert not missing, f"no Chinese in {FRAGMENT.relative_to(ROOT)} for:\n" + "\n".join(missing)


def test_translations_keep_every_placeholder():
    wrapped = {message for _where, _line, message in _wrapped_strings()}
    wrong = []
    for entry in _catalog():
        if not entry.id:
            continue
        source = entry.id[-1] if isinstance(entry.id, tuple) else entry.id
        for text in entry.string if isinstance(entry.string, tuple) else (entry.string,):
            if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(source)):
                wrong.append(f"{source!r} -> {text!r}")
        assert entry.id in wrapped, f"the fragment translates {entry.id!r}, which no wrapped string uses"
    assert not wrong, "placeholders changed:\n" + "\n".join(wrong)
