"""The widgets in the Chinese edition (issue 22): Chinese labels and messages, the same behaviour.

Uses the course's catalog as shipped (``helpers/locale``). Headless: the views are built and driven
through their plain methods. The approval panel (notebook 08's graph) and the reducer playground
(notebook 07) are played once in each edition: the Chinese one shows Chinese labels and messages,
and sends the same resumes, reaches the same outcomes and leaves the same state as the English one.
That every wrapped widget string has a msgstr keeping its ``{placeholders}`` is the course-wide
check, ``tests/test_zh_fresh.py::test_the_message_catalog_is_complete_and_compiled``.
"""

from __future__ import annotations

import html as _html
import json
import re
from collections import Counter

import ipywidgets as widgets
import pytest
from langchain.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from helpers import i18n, tool_call
from helpers.exercises import nb08
from helpers.widgets import ApprovalPanel, ReducerPlayground, StreamStepper, YouAreTheModel
from helpers.widgets.engines.wire_formats import default_clients
from helpers.widgets.wire_formats import WireFormatsView
from tests.approval_suite import SETUPS, drawn
from tests.test_widget_stream_stepper import _streams

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
    # ... the verdict word too, while the outcome codes (data-verdict, data-outcome) and resume values stay.
    assert "data-verdict='FINISHED'" in zh_shown["status"] and "data-outcome='finished'" in zh_shown["status"]
    assert ">已结束</span>" in zh_shown["status"] and ">FINISHED</span>" in en_shown["status"]
    assert "Command(resume={&quot;type&quot;: &quot;edit&quot;, &quot;amount&quot;: 100.0})" in zh_shown["status"]
    assert zh_shown["status"].replace("已发送。运行已结束；没有剩下的中断。", "Sent. The run finished; no interrupt is "
                                      "left.").replace("最终状态：", "Final state:").replace(
        ">已结束</span>", ">FINISHED</span>") == en_shown["status"]
    assert zh_shown["history"].count("-&gt; 已") == 2 and en_shown["history"].count("-&gt; paused") == 1


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
    assert ">步骤被拒</span>" in zh_first and ">STEP REFUSED</span>" in en_first
    assert zh_summaries[1].startswith("operator.add: 两种写入顺序结果不同")
    assert en_summaries[1].startswith("operator.add: the two write orders DIFFER")


# -- every word a learner reads in a widget is Chinese ----------------------------------------------
#
# Each widget is driven through its states in the Chinese edition; after every step, the text it shows
# (HTML values, labels, tooltips, placeholders, dropdown entries) is read as a learner reads it and no
# English word may be left. What is not prose is left out first: code (``<code>``, the ``<pre>`` blocks of
# messages, payloads and values, ``key=value``, quoted text, JSON), identifiers (``snake_case``, dotted,
# CamelCase, with digits), the names the widget was given (tools, reducers) and the words of a library's
# own error (those stay as the library prints them). A verdict badge, a history line, a stream's name or a
# note left in English fails, naming the widget text.


#: Words that are names, not English prose, wherever they appear ("Agent" is the glossary's rendering of agent).
NAMES = {"Agent", "JSON", "LangGraph", "ToolNode", "ToolMessage", "AIMessage", "Command", "Responses", "API", "Anthropic",
         "OpenAI", "HumanInTheLoopMiddleware", "Reducer", "reducer", "schema", "id", "ids", "args", "token",
         "key", "Enter", "payload",
         "null", "true", "false"}  # the last three: JSON values
_NOT_PROSE = [re.compile(p, re.S) for p in (r"<style.*?</style>", r"<code.*?</code>", r"<pre.*?</pre>",
                                            r"<table class='course-chunks'.*?</table>")]


def _shown(widget) -> list[tuple[str, str]]:
    """(kind, text) of everything ``widget`` and its children show: HTML values, labels, tooltips, options."""
    found, stack = [], [widget]
    while stack:
        item = stack.pop()
        for name in ("description", "tooltip", "placeholder"):
            value = getattr(item, name, None)
            if isinstance(value, str) and value.strip():
                found.append((name, value))
        if isinstance(item, widgets.HTML) and item.value:
            found.append(("html", item.value))
        found += [("option", label) for label in getattr(item, "_options_labels", ())]
        stack += list(getattr(item, "children", ()) or ())
    return found


def english_left(widget, names=()) -> list[str]:
    """The English words ``widget`` shows outside code, identifiers, ``names`` and :data:`NAMES`."""
    problems = []
    for kind, text in _shown(widget):
        prose = text
        if kind == "html":
            for pattern in _NOT_PROSE:
                prose = pattern.sub(" ", prose)
            prose = _html.unescape(re.sub(r"<[^>]+>", " ", prose))
        prose = re.sub(r"""\w+=("[^"]*"|'[^']*'|\S+)""", " ", prose)
        prose = re.sub(r""""[^"]*"|'[^']*'|`[^`]*`|\{[^}]*\}|\[[^\]]*\]""", " ", prose)
        words = [w.rstrip(".") for w in re.findall(r"[A-Za-z][\w.()/-]*", prose)]
        words = [w for w in words if len(w) > 1 and w not in NAMES and w not in names
                 and not re.search(r"[_.()0-9/]|[a-z][A-Z]", w)]
        if words:
            problems.append(f"{kind}: {' '.join(words)!r} in {re.sub(r'<[^>]+>', ' ', text)[:160]!r}")
    return problems


def _library_words(*errors: str) -> set[str]:
    return {w for e in errors for w in re.findall(r"[A-Za-z]+", e)}


def _steps_stay_chinese(widget, steps, names=()) -> None:
    """Take each step (a callable) in the Chinese edition; after each, nothing English may be shown."""
    with i18n.use("zh-CN"):
        seen = []
        for step in [lambda: None, *steps]:
            step()
            seen += english_left(widget, names)
    assert not seen, "English in the Chinese edition's widget:\n" + "\n".join(dict.fromkeys(seen))


def test_the_reducer_playground_shows_no_english_word():
    with i18n.use("zh-CN"):
        playground = ReducerPlayground()
    bad_json = str(pytest.raises(json.JSONDecodeError, json.loads, "[").value)
    _steps_stay_chinese(playground, [
        playground.run, lambda: playground.choose_reducer("operator.add"), playground.run,
        lambda: playground.choose_reducer("merge_audit"), playground.run,
        lambda: playground.set_write("b", "5"), playground.run, lambda: playground.set_write("b", "["),
        playground.run, lambda: playground.set_write("a", "[1]"), playground.reset,
    ], names=_library_words(bad_json) | {"first", "update"})
    with i18n.use("zh-CN"):
        assert playground.reducer_picker.options[0] == ("不用 reducer（普通键）", "no reducer (plain key)")
        assert playground.run().history_line() == "不用 reducer（普通键）: 步骤被拒"


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    if order_id == "Z9999":
        raise ValueError("no such order")
    return "ok"


def _notebook_13_streams():
    """Three streams like notebook 13's, under the names notebook 13 gives them."""
    streams = _streams()
    return {"one refund call (section 1)": streams["one refund"],
            "two calls interleaved (section 1)": streams["two calls"],
            "cut off at the token limit (section 2)": streams["cut off"]}


def test_the_stream_stepper_shows_no_english_word():
    with i18n.use("zh-CN"):
        stepper = StreamStepper(_notebook_13_streams())
    steps = []
    for name in stepper.engine.names:
        steps += [lambda name=name: stepper.choose_stream(name), stepper.next_chunk, stepper.next_chunk,
                  stepper.whole_stream, stepper.back]
    _steps_stay_chinese(stepper, [*steps, stepper.reset], names={"refund", "lookup_order"})
    with i18n.use("zh-CN"):
        assert [label for label, _name in stepper.stream_picker.options] == [
            "一个退款调用（第 1 节）", "两个交错的调用（第 1 节）", "在 token 上限处被截断（第 2 节）"]
        stepper.choose_stream("cut off at the token limit (section 2)")  # the names stay the engine's keys
        stepper.whole_stream()
        assert "data-verdict='CUT OFF'" in stepper.verdict_view.value and ">被截断</span>" in stepper.verdict_view.value


def test_notebook_13_names_only_streams_the_catalog_translates():
    """The stream names are notebook 13's code (the same in both editions), so the catalog holds them
    because :data:`helpers.widgets.stream_stepper.NOTEBOOK_STREAMS` marks them: a stream the notebook
    adds or renames without a mark there would be shown in English."""
    import ast

    from tooling.notebooks import NOTEBOOK_DIR

    notebook = json.loads(next(NOTEBOOK_DIR.glob("13_*.ipynb")).read_text(encoding="utf-8"))
    names = []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "StreamStepper(" in source:
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "StreamStepper":
                    names += [key.value for key in node.args[0].keys]
    assert names, "notebook 13 builds a StreamStepper from a dict literal"
    with i18n.use("zh-CN"):
        untranslated = [name for name in names if i18n._(name) == name]
    assert not untranslated, f"stream names with no Chinese (mark them in NOTEBOOK_STREAMS, translate): {untranslated}"


def test_you_are_the_model_shows_no_english_word():
    @tool
    def submit_refund_request(order_id: str, amount: float) -> str:
        """Create a refund request."""
        return f"refund request for {order_id}"

    with i18n.use("zh-CN"):
        view = YouAreTheModel([lookup_order, submit_refund_request])
    deep = "[" * 5000 + "]" * 5000
    _steps_stay_chinese(view, [
        lambda: view.set_arguments('{"order_id": "A1024"}'), view.send_tool_call,
        lambda: view.set_arguments('{"order_id": A1024}'), view.send_tool_call,
        lambda: view.choose("submit_refund_request"), lambda: view.set_arguments('{"order_id": "A1024"}'),
        view.send_tool_call, lambda: view.choose("lookup_order"), lambda: view.set_arguments('{"order_id": "Z9999"}'),
        view.send_tool_call, lambda: view.set_arguments(deep), view.send_tool_call, view.reset,
    ], names={"Where", "is", "my", "order"})  # the user's question is the conversation, not a label
    with i18n.use("zh-CN"):
        view.send_tool_call()
        assert view.engine.history[-1].history_line() == "call_1 lookup_order: 已运行"


def _wire_view():
    prefix = [SystemMessage("Be brief."), HumanMessage("Where are A1024 and A1099?")]
    ai = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "A1024"}, id="call_1"),
                                   tool_call("lookup_order", {"order_id": "A1099"}, id="call_2")])
    answers = [ToolMessage('{"status": "delivered"}', tool_call_id="call_1", name="lookup_order"),
               ToolMessage("Error order_not_found: no A1099", tool_call_id="call_2", name="lookup_order",
                           status="error")]
    return WireFormatsView(prefix, ai, answers, [lookup_order], clients=default_clients())


def test_the_wire_format_view_shows_no_english_word():
    with i18n.use("zh-CN"):
        view = _wire_view()
    _steps_stay_chinese(view, [
        lambda: view.set_answer("call_2", "error"), lambda: view.set_answer("call_2", "dropped"),
        lambda: view.force_tool("any"), lambda: view.force_tool("lookup_order"), lambda: view.set_parallel(False),
        view.reset,
    ], names={"chat", "completions", "Responses", "Anthropic", "lookup_order"})
    with i18n.use("zh-CN"):
        view.set_answer("call_2", "dropped")
        assert "模型服务商会拒绝" in view.bodies_view.value and "data-verdict='PROVIDER REFUSES'" in view.bodies_view.value


@pytest.mark.parametrize("setup", ["hitl_batched", "hitl_per_call", "plain_create_agent", "hand_built_tool_node"])
def test_the_approval_panel_shows_no_english_word(setup):
    made = SETUPS[setup]()
    with i18n.use("zh-CN"):
        panel = ApprovalPanel(made.graph, made.config)
    plain = setup in ("plain_create_agent", "hand_built_tool_node")

    def click(action, *args):
        def step():
            drawn(panel)
            action(*args)
        return step

    steps = [panel.refresh, click(panel.edit, "abc" if plain else "{"), click(panel.reject, ""),
             click(panel.edit, made.edit_value), click(panel.approve), click(panel.approve), click(panel.approve)]
    if not plain:
        steps.insert(3, click(panel.respond, "Bitte nicht."))
    _steps_stay_chinese(panel, steps, names={"approve", "edit", "reject", "respond", "Bitte", "nicht",
                                             *_library_words("Expecting property name enclosed in double quotes")})
    with i18n.use("zh-CN"):
        lines = [decision.line() for decision in panel.history]
    assert all(not re.search(r"-> [a-z_]+$", line) for line in lines), lines  # the outcome in Chinese, not its code
    assert bool(lines) == made.answerable
