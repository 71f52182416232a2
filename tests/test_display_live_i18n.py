"""The live cells' verdict line and the display helpers' labels follow the notebook's edition (issue 22).

Under ``use("zh-CN")`` the committed catalog (``helpers/locale/zh_CN/LC_MESSAGES/course.mo``)
gives the Chinese sentence; in English the line stays the source string byte for byte (the English
notebooks' committed outputs and ``tests/test_live.py`` compare it). Tool names, ids and the
model's own words stay as they are in both.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from helpers.display import sequence_diagram, trace_markdown
from helpers.display.state import state_diff_markdown
from helpers.i18n import use
from helpers.model.live import live_verdict
from helpers.tool_registry import ToolEntry, ToolRegistry
from helpers.tracing import TraceEvent, trace_mermaid

CALL = {"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"}
MESSAGES = [HumanMessage("Where is A1024?"), AIMessage("", tool_calls=[CALL]),
            ToolMessage("oops", tool_call_id="call_1", status="error"), AIMessage("Delivered.")]


def test_live_verdict_is_chinese_in_the_chinese_edition_and_unchanged_in_english():
    with use("en"):
        english = live_verdict(MESSAGES, object(), expect_tools="lookup_order").line
        missed = live_verdict(MESSAGES[:1] + [AIMessage("No.")], object(), expect_tools="lookup_order").line
    assert english == ('offline (scripted stand-in): the model called lookup_order and answered: '
                       '"Delivered.", as expected')
    assert missed == ('offline (scripted stand-in): your model answered in text instead of calling '
                      'lookup_order: "No." (the lesson\'s cells below do not depend on this answer)')
    with use("zh-CN"):
        chinese = live_verdict(MESSAGES, object(), expect_tools="lookup_order").line
        missed_zh = live_verdict(MESSAGES[:1] + [AIMessage("No.")], object(), expect_tools="lookup_order").line
    assert chinese == "离线（脚本模型代答）：模型调用了 lookup_order，并回答：“Delivered.”，符合预期"
    assert missed_zh.startswith("离线（脚本模型代答）：你的模型用文字作答，没有调用 lookup_order：“No.”")


def _displays(edition):
    """The trace table, the sequence diagram, a state diff and a trace diagram, rendered in ``edition``."""
    before, after = {"messages": MESSAGES[:1]}, {"messages": MESSAGES, "refund_stage": "quoted"}
    with use(edition):
        return (trace_markdown(MESSAGES), sequence_diagram(MESSAGES), state_diff_markdown(before, after),
                trace_mermaid([TraceEvent("tool_error", "lookup_order", "call_1", detail="KeyError")]))


def test_display_labels_are_chinese_in_the_chinese_edition_and_unchanged_in_english():
    table, diagram, diff, events = _displays("en")
    assert table.splitlines()[0] == "| # | role | content | tool calls / answers |"
    assert "| answers call_1 (status=error) |" in table
    assert "    participant U as User" in diagram and "    A->>M: history + 1 ToolMessage" in diagram
    assert diff.splitlines()[0] == "| key | change | before | after |"
    assert "| messages | changed | 1 message | 4 messages |" in diff
    assert "    T--xA: call_1 raised KeyError" in events
    table, diagram, diff, events = _displays("zh-CN")
    assert table.splitlines()[0] == "| # | 角色 | 内容 | 工具调用 / 回答 |"
    assert "| 回答 call_1（status=error） |" in table
    assert "    participant U as 用户" in diagram and "    A->>M: 历史 + 1 条 ToolMessage" in diagram
    assert "lookup_order(order_id=A1024)" in diagram  # the call itself stays as the model wrote it
    assert diff.splitlines()[0] == "| 键 | 变化 | 之前 | 之后 |"
    assert "| messages | 改变 | 1 条消息 | 4 条消息 |" in diff
    assert "    T--xA: call_1 抛出 KeyError" in events


def test_registry_problems_are_chinese_in_the_chinese_edition_and_unchanged_in_english():
    registry = ToolRegistry([ToolEntry("refund", "payments team", "write", "financial", approval="human", limit=1)])
    with use("en"):
        assert registry.check(["refund"], approved=[], limits={"refund": 1}) == [
            "refund: registered with approval, the agent does not pause for it"]
    with use("zh-CN"):
        assert registry.check(["refund"], approved=[], limits={"refund": 1}) == [
            "refund：登记为需要批准，但 Agent 不会为它暂停"]


# -- the course's own model errors --------------------------------------------------------------------

def _config_error(env):
    from helpers.model.config import ModelConfigError, read_model_config

    try:
        read_model_config(env)
    except ModelConfigError as exc:
        return str(exc)
    raise AssertionError(f"no ModelConfigError for {sorted(env)}")


#: Environments that each stop a live cell with a ModelConfigError (made up: no key is real).
BAD_ENVIRONMENTS = [
    {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": "dashscope.aliyuncs.com/compatible-mode/v1"},
    {"COURSE_MODEL": "qwen-plus"},
    {"COURSE_MODEL": "qwen-plus", "DASHSCOPE_API_KEY": "sk-0123456789abcdef0123456789"},
    {"OPENAI_BASE_URL": "http://localhost:11434/v1"},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": "http://localhost:11434/v1/chat/completions"},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": "http://localhost:11434/v1", "COURSE_MODEL_TIMEOUT": "0"},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": "sk-abc def"},
    {"COURSE_MODEL": "sk-0123456789abcdef0123456789abcdef", "OPENAI_API_KEY": "sk-0123456789abcdef0123456789abcdef"},
]


def test_model_config_errors_are_chinese_in_the_chinese_edition_and_unchanged_in_english():
    with use("en"):
        english = [_config_error(env) for env in BAD_ENVIRONMENTS]
    with use("zh-CN"):
        chinese = [_config_error(env) for env in BAD_ENVIRONMENTS]
    assert english[0] == ("OPENAI_BASE_URL is not an http(s) URL (its value is not shown, in case it holds a key): set "
                          "it to the endpoint's address, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1, or "
                          "unset it to use OpenAI")
    assert english[1] == ("COURSE_MODEL is set but OPENAI_API_KEY is missing: set OPENAI_API_KEY to your OpenAI key, "
                          "or unset COURSE_MODEL to stay on the offline scripted model")
    assert english[5] == ("COURSE_MODEL_TIMEOUT must be a number of seconds from 1 to 600 (its value is not shown, in "
                          "case it holds a key); unset it for 30")
    assert chinese[0].startswith("OPENAI_BASE_URL 不是一个 http(s) URL（不显示它的值，以防其中是一个 key）：")
    assert chinese[1] == ("已设置 COURSE_MODEL，但缺少 OPENAI_API_KEY：请把 OPENAI_API_KEY 设为你的 OpenAI key；"
                          "或者取消设置 COURSE_MODEL，留在离线的脚本模型上")
    assert chinese[5].startswith("COURSE_MODEL_TIMEOUT 必须是 1 到 600 之间的一个秒数")
    for en, zh in zip(english, chinese):
        assert re.search(r"[\u4e00-\u9fff]", zh) and not re.search(r"[\u4e00-\u9fff]", en), (en, zh)
        # the variables the message names are the same in both editions
        assert set(re.findall(r"\b[A-Z][A-Z_]{5,}\b", en)) == set(re.findall(r"\b[A-Z][A-Z_]{5,}\b", zh)), (en, zh)
        assert "sk-0123" not in zh and "sk-abc" not in zh


def test_a_used_up_script_says_so_in_the_notebooks_language():
    from helpers import scripted_model
    from helpers.model import ScriptExhaustedError

    for edition, expected in (("en", "script has 1 step and all were used; request 2 has no reply (add a step to "
                                     "the script)"),
                              ("zh-CN", "脚本有 1 步，已全部用完；第 2 个请求没有回复（请给脚本加一步）")):
        model = scripted_model(["Hi."])
        model.invoke("one")
        with use(edition):
            try:
                model.invoke("two")
            except ScriptExhaustedError as exc:
                assert str(exc) == expected
            else:
                raise AssertionError("a second request to a one-step script must fail")


def test_every_course_model_error_goes_through_the_catalog():
    """Every ``ModelConfigError(...)`` / ``ScriptExhaustedError(...)`` in ``helpers/model`` is built from a
    wrapped message (``_()``, ``ngettext()``, their ``.format(...)``) or by a helper that wraps it, never
    from a plain string or an f-string: such a message would reach the Chinese edition in English."""
    root = Path(__file__).resolve().parent.parent / "helpers" / "model"
    errors = {"ModelConfigError", "ScriptExhaustedError"}
    builders = {"_", "ngettext", "_key_in"}
    unwrapped = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in errors and node.args):
                continue
            message = node.args[0]
            if isinstance(message, ast.Call) and isinstance(message.func, ast.Attribute) and message.func.attr == "format":
                message = message.func.value
            if not (isinstance(message, ast.Call) and getattr(message.func, "id", None) in builders):
                unwrapped.append(f"{path.relative_to(root.parent.parent)}:{node.lineno}")
    assert not unwrapped, f"course model errors not wrapped in _() (CONTRIBUTING, 'The Chinese edition'): {unwrapped}"


def test_describe_model_speaks_the_notebooks_language():
    from helpers import scripted_model
    from helpers.model.factory import describe_model

    with use("en"):
        assert describe_model(scripted_model(["a"])) == "scripted model (1 step, offline)"
        assert describe_model(scripted_model(["a", "b"])) == "scripted model (2 steps, offline)"
    with use("zh-CN"):
        assert describe_model(scripted_model(["a", "b"])) == "脚本模型（2 步，离线）"
