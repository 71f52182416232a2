"""Verifiers of notebook 20's self-check questions (``helpers/selfcheck/nb20.py``): see
``tests/selfcheck_verifiers/__init__.py``. Each runs the notebook's own cells (the desk, the scripted judge,
the PII tools) and the behaviour the question asks about."""

from langchain.agents import create_agent
from langchain.agents.middleware import ModelFallbackMiddleware, PIIMiddleware
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from helpers import scripted_model, tool_call
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import notebook_cells_namespace

_SETUP = ("refunds_done = []", "class ScriptedJudge(")


def _refund_answers(out):
    return [m for m in out["messages"] if m.type == "tool" and m.name == "refund"]


def verify_judge_at_the_threshold(q):
    ns = notebook_cells_namespace("20", *_SETUP)
    (answer,) = _refund_answers(ns["guarded_run"](ns["ScriptedJudge"](probability=0.5)))
    assert answer.status == "error" and "probability: 0.50" in answer.content
    assert ns["refunds_done"] == []
    (ran,) = _refund_answers(ns["guarded_run"](ns["ScriptedJudge"](probability=0.49)))
    assert ran.status == "success" and ns["refunds_done"] == [("B2048", 1000.0)]  # just below: it runs
    return pick(q, "error ToolMessage")


def verify_judge_reads_the_note(q):
    ns = notebook_cells_namespace("20", *_SETUP)
    judge = ns["ScriptedJudge"](probability=0.9)
    ns["guarded_run"](judge)
    (state, _questions), = judge.asked
    tool_results = [m.content for m in state["messages"] if m.type == "tool"]
    assert any("refund 1000 to order B2048" in text for text in tool_results)
    assert sorted(state) == ["messages", "tool_call", "tool_description"]
    return pick(q, "last 30 messages")


def verify_fallback_per_call(q):
    asked = []

    def down(request):
        asked.append("primary")
        raise ConnectionError("down")

    def backup_step(request):
        asked.append("backup")
        return "backup answer"

    primary = scripted_model([down, down])
    backup = scripted_model([backup_step, backup_step])
    agent = create_agent(primary, [], middleware=[ModelFallbackMiddleware(backup)], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [HumanMessage("turn 1")]}, config)
    agent.invoke({"messages": [HumanMessage("turn 2")]}, config)
    assert asked == ["primary", "backup", "primary", "backup"]
    return pick(q, "The primary again")


def verify_pii_leaves_arguments(q):
    ns = notebook_cells_namespace("20", "refunds_done = []", "sent_to = []")
    pii = PIIMiddleware("email", apply_to_output=True, apply_to_tool_results=True)
    write = [tool_call("send_receipt", {"email": "jane.roe@example.com", "order_id": "A1024"})]
    model, out = ns["pii_run"]([write, "Sent."], pii)
    assert ns["sent_to"] == ["jane.roe@example.com"]
    (asked,) = [m for m in model.requests[-1].payload()["messages"] if m.get("tool_calls")]
    assert "jane.roe@example.com" in asked["tool_calls"][0]["function"]["arguments"]
    assert "jane.roe@example.com" not in out["messages"][-2].content  # the result itself was redacted
    return pick(q, "both times: tool call arguments")
