"""The widgets in the Chinese edition (issue 22): Chinese labels and messages, the same behaviour.

Uses the course's catalog as shipped (``helpers/locale``). Headless: the views are built and driven
through their plain methods. The approval panel (notebook 08's graph) and the reducer playground
(notebook 07) are played once in each edition: the Chinese one shows Chinese labels and messages,
and sends the same resumes, reaches the same outcomes and leaves the same state as the English one.
That every wrapped widget string has a msgstr keeping its ``{placeholders}`` is the course-wide
check, ``tests/test_zh_fresh.py::test_the_message_catalog_is_complete_and_compiled``.
"""

from __future__ import annotations

from collections import Counter

from langgraph.checkpoint.memory import InMemorySaver

from helpers import i18n
from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel, ReducerPlayground

TWO_ORDERS = {"items": [{"order_id": "A1024", "amount": 450.0}, {"order_id": "A1030", "amount": 150.0}]}


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


def test_approval_panel_in_chinese_shows_chinese_and_sends_the_same():
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
    assert zh_results[1].message == "'reject' 不适用于该中断；它允许：approve, edit。未发送任何内容。"
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


def test_reducer_playground_in_chinese_shows_chinese_and_runs_the_same():
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
