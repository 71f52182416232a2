"""Exercise feedback in the Chinese edition (issue 22).

The checkers' feedback, hints and explanations (``helpers/exercises/nbNN*.py`` and
``check_text.py``) are wrapped in ``_()`` / ``N_()`` / ``ngettext()``; exercise titles and case
names stay English literals (the registry parses them) and are translated where they are shown.
These tests use the course's catalog as shipped (``helpers/locale``) and check, under
``use("zh-CN")``, that known-wrong answers get Chinese feedback with the same verdicts (FAIL stays
FAIL, the reference still passes), that titles, case names, case hints and "not solved yet" hints
show in Chinese while the results keep the English names, and that English is unchanged. That
every marked string has a translation keeping its placeholders is the course-wide check,
``tests/test_zh_fresh.py::test_the_message_catalog_is_complete_and_compiled``.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from helpers import i18n
from helpers.exercises.check_text import _left_text
from helpers.exercises.core import Case, Exercise
from helpers.exercises.registry import EXERCISES
from helpers.exercises.results import CaseResult, CheckResult
from helpers.progress import next_step, progress_table
from helpers.progress.store import Progress

CJK = re.compile(r"[\u4e00-\u9fff]")
ENTRIES = {e.id: e for e in EXERCISES}

#: (exercise id, known-wrong answer in tests/solutions, a phrase its Chinese feedback must hold)
WRONG = [
    ("03.1", "codes right, but bugs caught too", "track_parcel 有一个 bug"),
    ("05.1", "a list of Commands is a Command", "原样返回"),
    ("07.1", "keeps the larger amount", "A1024 先报 499.0、后报 450.0"),
    ("09.1", "leaks the message", "模型看到了内部信息"),
    ("09.2", "refund_key", "分不清两个订单行"),
    ("10.1", "counts only", "不是一种决定类型"),
]


@pytest.mark.parametrize("exercise_id, wrong_name, phrase", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_answer_gets_chinese_feedback_and_the_same_verdicts(exercise_id, wrong_name, phrase):
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


def test_english_feedback_is_the_source_text():
    """Outside ``use("zh-CN")`` (no edition marker in the test's folder) the catalog is not consulted."""
    entry = ENTRIES["03.1"]
    result = entry.exercise().evaluate(entry.answer_set().wrong["codes right, but bugs caught too"].answer)
    assert any(r.feedback.startswith("track_parcel has a bug (KeyError: 'carrier')") for r in result.results)


def test_thread_notes_use_one_chinese_form_for_every_count():
    one, three = SimpleNamespace(left=["t1"], stuck=[]), SimpleNamespace(left=["a", "b", "c"], stuck=[])
    assert _left_text(one).startswith("your code left a thread running (t1); it was stopped.")
    assert _left_text(three).startswith("your code left 3 threads running (a, b, c); they were stopped.")
    with i18n.use("zh-CN"):
        assert _left_text(one).startswith("你的代码留下了 1 个线程仍在运行（t1）")
        assert _left_text(three).startswith("你的代码留下了 3 个线程仍在运行（a, b, c）")


def test_titles_case_names_and_hints_show_in_chinese_and_the_results_keep_the_english_names():
    """07.1's crashing answer: the title, the case names (also in a shared row) and a case's ``N_``
    hint after an error read in Chinese; the results' names stay English (``KnownWrong.fails``)."""
    entry = ENTRIES["07.1"]
    exercise, crashing = entry.exercise(), entry.answer_set().crashing["KeyError"]
    english = exercise.evaluate(crashing)
    with i18n.use("zh-CN"):
        chinese = exercise.evaluate(crashing)
        text, page = chinese.text(), chinese._repr_markdown_()
    assert [(r.name, r.status, r.hint) for r in chinese.results] == [(r.name, r.status, r.hint) for r in english.results]
    assert text.splitlines()[0] == "练习 07.1（用于并行退款报价的 reducer）：1/5 项检查通过"
    assert "[通过] 冲突时保留较小的金额，无论哪次写入在先" in text
    assert "不同订单被合并；空的一方不改变任何内容; 三个并行节点，全部六种顺序" in text, "a shared row's names"
    assert "[出错] 参数没有被修改 - 你的代码抛出了 KeyError：'A1029'（提示：修改之前先复制 `current`）" in text
    assert "修改之前先复制 <code>current</code>" in page and "用于并行退款报价的 reducer" in page
    assert "(hint: copy `current` before changing it)" in english.text()
    assert english.text().splitlines()[0] == "Exercise 07.1 (a reducer for parallel refund quotes): 1/5 checks passed"


def test_a_case_hint_replaces_an_empty_assertion_in_chinese():
    """A hidden check's bare ``assert`` shows the case's hint: through the catalog in Chinese."""
    def bare(answer):
        if answer != 1:
            raise AssertionError  # no message (pytest rewrites a bare `assert` here into one)

    exercise = Exercise("07.9", "a reducer for parallel refund quotes",
                        [Case("the arguments are not modified", bare, "copy `current` before changing it")])
    with i18n.use("zh-CN"):
        result = exercise.evaluate(2)
        assert result.text().splitlines()[1] == "  [未通过] 参数没有被修改 - 修改之前先复制 `current`"
    assert result.results == [CaseResult("the arguments are not modified", "fail", "修改之前先复制 `current`")]
    assert exercise.evaluate(2).results[0].feedback == "copy `current` before changing it"


@pytest.mark.parametrize("exercise_id, hint", [
    ("05.1", "把 `predictions` 中的每个 \"?\" 替换掉，然后重新运行检查"),
    ("07.1", "替换掉 `raise NotImplementedError`，然后再运行检查"),
])
def test_the_not_solved_yet_hint_shows_in_chinese(exercise_id, hint):
    exercise = ENTRIES[exercise_id].exercise()
    with i18n.use("zh-CN"):
        result = exercise.evaluate(None)
        assert result.summary().endswith("尚未完成 - " + hint)
        assert "尚未完成" in result._repr_markdown_()
    assert "not solved yet - replace" in exercise.evaluate(None).summary()


def test_an_empty_title_or_hint_is_not_the_catalog_header():
    """``gettext("")`` is the catalog's header: an empty text must stay empty."""
    result = CheckResult("01.9", "", solved=True, results=[CaseResult("", "error", "boom", hint="")])
    with i18n.use("zh-CN"):
        assert "Content-Type" not in result.text() and "Content-Type" not in result._repr_markdown_()


def test_the_progress_table_and_next_step_show_the_chinese_titles():
    with i18n.use("zh-CN"):
        table = progress_table(Progress(), questions={})
        step = next_step(Progress(), questions={})
    assert re.search(r"^07 +07\.1 用于并行退款报价的 reducer +否", table, re.MULTILINE), table
    assert step is not None and step.label == "00.1 (AIMessage 中各个工具调用的 id)"
    assert "07.1 a reducer for parallel refund quotes" in progress_table(Progress(), questions={}).replace("\n", " ")
