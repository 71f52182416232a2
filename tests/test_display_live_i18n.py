"""The live cells' verdict line and the display helpers' labels follow the notebook's edition (issue 22).

Under ``use("zh-CN")`` the committed catalog (``helpers/locale/zh_CN/LC_MESSAGES/course.mo``)
gives the Chinese sentence; in English the line stays the source string byte for byte (the English
notebooks' committed outputs and ``tests/test_live.py`` compare it). Tool names, ids and the
model's own words stay as they are in both.
"""

from __future__ import annotations

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
    assert table.splitlines()[0] == "| # | 角色 | 内容 | 工具调用 / 回应 |"
    assert "| 回应 call_1（status=error） |" in table
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
            "refund：登记为需要批准，但代理不会为它暂停"]
