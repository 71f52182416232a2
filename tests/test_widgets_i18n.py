"""The widgets in the Chinese edition (issue 22): Chinese labels and messages, the same behaviour.

The catalog is compiled from this branch's fragment, ``translations/zh/po-fragments/c-widgets.po``,
into a temporary folder (``helpers.i18n.LOCALE_DIR`` points there), so the tests do not depend on
the course's merged catalog. Headless: the views are built and driven through their plain methods.

* The approval panel (notebook 08's graph) and the reducer playground (notebook 07) are played
  once in each edition: the Chinese one shows Chinese labels and messages, and sends the same
  resumes, reaches the same outcomes and leaves the same state as the English one.
* Every string the widget modules wrap (``_``, ``N_``, ``ngettext``, extracted with Babel's
  ``extract_python``) has a Chinese ``msgstr`` in the fragment that keeps its ``{placeholders}``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.extract import extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from langgraph.checkpoint.memory import InMemorySaver

from helpers import i18n
from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel, ReducerPlayground

ROOT = Path(__file__).resolve().parent.parent
FRAGMENT = ROOT / "translations" / "zh" / "po-fragments" / "c-widgets.po"
WIDGETS = ROOT / "helpers" / "widgets"
#: Owned by the self-check helper: its strings are in that branch's fragment.
NOT_OURS = {WIDGETS / "self_check_view.py", WIDGETS / "engines" / "self_check.py"}
#: A ``str.format`` placeholder (``{{...}}`` is a literal brace pair, not one).
PLACEHOLDER = re.compile(r"(?<!\{)\{[a-z_]+\}(?!\})")
TWO_ORDERS = {"items": [{"order_id": "A1024", "amount": 450.0}, {"order_id": "A1030", "amount": 150.0}]}


def _catalog():
    with FRAGMENT.open("rb") as handle:
        return read_po(handle)


@pytest.fixture
def zh_catalog(tmp_path, monkeypatch):
    """``helpers.i18n`` reads a Chinese catalog compiled from this branch's fragment."""
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{i18n.DOMAIN}.mo").open("wb") as handle:
        write_mo(handle, _catalog())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


# -- the approval panel -----------------------------------------------------------------------------

def _play_panel(edition):
    """Open a panel on nb08's two-order graph in ``edition`` and make the same clicks; return what it showed."""
    with i18n.use(edition):
        graph = nb08.build_approval_graph(InMemorySaver(), counter=Counter())
        config = {"configurable": {"thread_id": "i18n"}}
        graph.invoke(TWO_ORDERS, config)
        panel = ApprovalPanel(graph, config)
        shown = {"labels": (panel.approve_button.description, panel.edit_button.description,
                            panel.reject_button.description, panel.amount_field.description,
                            panel.message_field.description),
                 "pending": panel.pending_view.value}
        results = [panel.edit("abc"), panel.reject(""), panel.edit("120"), panel.approve(), panel.edit("100")]
        shown["status"] = panel.status_view.value
        shown["history"] = panel.history_view.value
    steps = [(r.action, r.outcome, r.sent) for r in results]
    return panel, results, steps, shown


def test_approval_panel_in_chinese_shows_chinese_and_sends_the_same(zh_catalog):
    en_panel, en_results, en_steps, en_shown = _play_panel("en")
    zh_panel, zh_results, zh_steps, zh_shown = _play_panel("zh-CN")

    # The same decisions sent, the same outcomes, the same history and final state.
    assert zh_steps == en_steps
    assert [r.outcome for r in zh_results] == ["refused", "refused", "paused", "refused", "finished"]
    assert [d.resume for d in zh_panel.history] == [d.resume for d in en_panel.history] == \
        [{"type": "edit", "amount": 120.0}, {"type": "edit", "amount": 100.0}]
    assert zh_panel.engine.state() == en_panel.engine.state()

    # English: the source strings, as the browser tests click them.
    assert en_shown["labels"] == ("Approve", "Edit amount", "Reject", "amount:", "reason:")
    assert en_results[0].message.endswith("Nothing was sent.")
    assert "Allowed here: approve, edit" in en_shown["pending"]
    # Chinese: labels, refusals, statuses and the pending view are translated ...
    assert zh_shown["labels"] == ("批准", "修改金额", "拒绝", "金额：", "理由：")
    assert zh_results[0].message == "金额 'abc' 不是数字：请输入数字，可带一个小数点，例如 120 或 120.50。未发送任何内容。"
    assert zh_results[1].message == "该中断 不接受 'reject'；它允许：approve, edit。未发送任何内容。"
    assert zh_results[2].message == "已发送。运行在下一个中断处再次暂停。"
    assert "高于可退金额 120.0" in zh_results[3].message
    assert "这里允许：approve, edit" in zh_shown["pending"]
    assert "已发送。运行已结束；没有剩下的中断。" in zh_shown["status"] and "最终状态：" in zh_shown["status"]
    assert "已发送的决定" in zh_shown["history"]
    # ... while the verdict words, outcome codes and resume values stay as they are.
    assert "data-verdict='FINISHED'" in zh_shown["status"] and "data-outcome='finished'" in zh_shown["status"]
    assert "Command(resume={&quot;type&quot;: &quot;edit&quot;, &quot;amount&quot;: 100.0})" in zh_shown["status"]
    assert zh_shown["status"].replace("已发送。运行已结束；没有剩下的中断。", "Sent. The run finished; no interrupt is "
                                      "left.").replace("最终状态：", "Final state:") == en_shown["status"]


# -- the reducer playground -------------------------------------------------------------------------

def _play_playground(edition):
    with i18n.use(edition):
        playground = ReducerPlayground()
        labels = (playground.run_button.description, playground.reset_button.description,
                  playground.write_a.description)
        results = [playground.run()]
        playground.choose_reducer("operator.add")
        results.append(playground.run())
        playground.set_write("b", "[")
        results.append(playground.run())
        shown = playground.result_view.value
        first_run = playground._result_html(results[0])
        summaries = [r.summary() for r in results]
    return labels, results, shown, first_run, summaries


def test_reducer_playground_in_chinese_shows_chinese_and_runs_the_same(zh_catalog):
    en_labels, en_results, en_shown, en_first, en_summaries = _play_playground("en")
    zh_labels, zh_results, zh_shown, zh_first, zh_summaries = _play_playground("zh-CN")

    outcomes = [r.outcome for r in zh_results]
    assert outcomes == [r.outcome for r in en_results] == ["invalid_update", "differ", "invalid_json"]
    assert [[(run.first, run.value, run.error, run.calls) for run in r.runs] for r in zh_results] == \
        [[(run.first, run.value, run.error, run.calls) for run in r.runs] for r in en_results]

    assert en_labels == ("Run in parallel", "Start again", "write A (JSON):")
    assert zh_labels == ("并行运行", "从头开始", "写入 A（JSON）：")
    assert en_results[2].message.startswith("Write B is not valid JSON")
    assert zh_results[2].message.startswith("写入 B 不是有效的 JSON（") and zh_results[2].message.endswith("：请改正后再运行。")
    assert "你的文本还在输入框里。" in zh_shown
    assert "普通键每一步只接受一个值" in zh_first and "两种顺序下 LangGraph 都拒绝这一步" in zh_first
    assert "先应用 A" in zh_first and "InvalidUpdateError" in zh_first  # LangGraph's own error stays as raised
    assert "data-verdict='STEP REFUSED'" in zh_first and "data-verdict='STEP REFUSED'" in en_first
    assert zh_summaries[1].startswith("operator.add: 两种写入顺序结果不同")
    assert en_summaries[1].startswith("operator.add: the two write orders DIFFER")


# -- the catalog is complete --------------------------------------------------------------------------

def _wrapped() -> list[tuple[str, int, str | tuple[str, str]]]:
    """Every string the widget modules wrap: ``(file, line, msgid or (singular, plural))``."""
    found = []
    for path in sorted(WIDGETS.rglob("*.py")):
        if path in NOT_OURS:
            continue
        with path.open("rb") as handle:
            for line, function, message, _comments in extract_python(handle, ["_", "N_", "ngettext"], [], {}):
                parts = message if isinstance(message, tuple) else (message,)
                parts = parts[:2] if function == "ngettext" else parts[:1]
                if any(part is None for part in parts):  # _(NAME): the constant was marked with N_
                    continue
                found.append((str(path.relative_to(ROOT)), line, parts if len(parts) == 2 else parts[0]))
    return found


def test_every_wrapped_widget_string_has_a_chinese_translation():
    catalog = _catalog()
    wrapped = _wrapped()
    assert len(wrapped) > 200  # the extraction sees the wrapped strings (it would see none if it broke)
    problems = []
    for path, line, msgid in wrapped:
        key = msgid if isinstance(msgid, str) else msgid[0]
        message = catalog.get(key)
        strings = message.string if message is not None else None
        text = strings[0] if isinstance(strings, tuple) else strings
        if not text:
            problems.append(f"{path}:{line}: no msgstr for {msgid!r}")
            continue
        for source in (msgid,) if isinstance(msgid, str) else msgid:
            if set(PLACEHOLDER.findall(source)) != set(PLACEHOLDER.findall(text)):
                problems.append(f"{path}:{line}: the msgstr of {source!r} changes its placeholders: {text!r}")
    assert not problems, "\n".join(problems)


def test_the_fragment_parses_and_holds_only_wrapped_strings():
    catalog = _catalog()
    assert catalog.charset.lower() == "utf-8" and catalog.num_plurals == 1
    wrapped = {msgid if isinstance(msgid, str) else msgid[0] for _path, _line, msgid in _wrapped()}
    stale = [message.id for message in catalog if message.id and
             (message.id if isinstance(message.id, str) else message.id[0]) not in wrapped]
    assert not stale, f"msgids no widget module wraps any more: {stale}"
