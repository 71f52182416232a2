"""ProtocolTrace, trace_mermaid and tool_stats (helpers/tracing.py) on real create_agent runs."""

from typing import Annotated
from uuid import uuid4

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ToolErrorMiddleware
from langchain.tools import InjectedToolCallId, tool
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.types import Command

from helpers import scripted_model, tool_call
from helpers.tracing import ProtocolTrace, TraceEvent, tool_stats, trace_mermaid


@tool
def lookup_order(order_id: str) -> str:
    """Look up one order."""
    return f"Order {order_id}: shipped."


@tool
def order_history(order_id: str) -> str:
    """The order's history."""
    raise ConnectionError("history service down")


def _run(script, tools, middleware=(), clock=None):
    trace = ProtocolTrace(clock=clock or (lambda: 0.0))
    agent = create_agent(scripted_model(script), tools, middleware=list(middleware))
    agent.invoke({"messages": [HumanMessage("Where is A1024?")]}, config={"callbacks": [trace]})
    return trace


def test_records_requests_with_bound_tools_calls_and_results_joined_by_id():
    trace = _run([[tool_call("lookup_order", {"order_id": "A1024"})], "Done."], [lookup_order])
    kinds = [(e.kind, e.name, e.tool_call_id) for e in trace.steps()]
    assert kinds == [("model_request", "model", None), ("model_reply", "model", None),
                     ("tool_start", "lookup_order", "call_1"), ("tool_end", "lookup_order", "call_1"),
                     ("model_request", "model", None), ("model_reply", "model", None)]
    assert trace.steps()[0].tools == ("lookup_order",)
    assert trace.steps()[1].calls == (("lookup_order", "call_1"),)
    assert trace.steps()[3].status == "success" and "shipped" in trace.steps()[3].detail


def test_an_error_event_keeps_its_call_id():
    trace = _run([[tool_call("order_history", {"order_id": "A1024"})], "Done."], [order_history],
                 [ToolErrorMiddleware(lambda exc, request: f"failed: {exc}")])
    (error,) = [e for e in trace.events if e.kind == "tool_error"]
    assert error.tool_call_id == "call_1" and "ConnectionError" in error.detail


def test_parallel_calls_are_ordered_by_the_reply():
    two = [[tool_call("lookup_order", {"order_id": "A1024"}), tool_call("lookup_order", {"order_id": "B2048"})],
           "Done."]
    for _ in range(3):
        ids = [e.tool_call_id for e in _run(two, [lookup_order]).steps() if e.kind.startswith("tool_")]
        assert ids == ["call_1", "call_1", "call_2", "call_2"]


def test_a_command_result_is_joined_through_its_tool_message():
    @tool("note")
    def note_cmd(order_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Note an order."""
        return Command(update={"messages": [ToolMessage("noted", tool_call_id=tool_call_id)]})

    trace = _run([[tool_call("note", {"order_id": "A1024"})], "Done."], [note_cmd])
    (end,) = [e for e in trace.events if e.kind == "tool_end"]
    assert end.tool_call_id == "call_1" and end.detail == "noted"


def test_a_result_of_content_blocks_is_recorded_as_its_text_without_block_ids():
    """An MCP tool's ToolMessage holds text blocks with random ``lc_`` ids (notebook 17's capstone)."""
    trace = ProtocolTrace(clock=lambda: 0.0)
    blocks = [{"type": "text", "text": "order A1027", "id": "lc_0123"}]
    trace.on_tool_end(ToolMessage(blocks, tool_call_id="call_1"), run_id=uuid4())
    (end,) = trace.events
    assert end.detail == "order A1027" and end.tool_call_id == "call_1"


def test_mermaid_marks_a_call_no_tool_ran_for():
    class Block(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")

    trace = _run([[tool_call("lookup_order", {"order_id": "A1024"})], "Done."], [lookup_order], [Block()])
    text = trace_mermaid(trace.steps())
    assert text.startswith("sequenceDiagram") and "call_1 lookup_order: no tool ran" in text
    assert not [e for e in trace.events if e.kind == "tool_start"]
    assert "no events" in trace_mermaid([])


def test_stats_count_calls_errors_and_fake_clock_latencies():
    start = TraceEvent("tool_start", "refund", "c1", at=1.0)
    run_a = [start, TraceEvent("tool_end", "refund", "c1", status="error", at=1.5)]
    run_b = [TraceEvent("tool_start", "refund", "c1", at=0.0), TraceEvent("tool_end", "refund", "c1",
                                                                           status="success", at=0.25)]
    stats = tool_stats([run_a, run_b])["refund"]
    assert (stats.calls, stats.errors, stats.error_rate) == (2, 1, 0.5)
    assert stats.mean_seconds == 0.375
    assert tool_stats([]) == {}


def test_the_p95_is_the_nearest_rank_latency():
    def stats_of(latencies):
        events = []
        for n, seconds in enumerate(latencies):
            events += [TraceEvent("tool_start", "lookup", f"c{n}", at=0.0),
                       TraceEvent("tool_end", "lookup", f"c{n}", status="success", at=seconds)]
        return tool_stats([events])["lookup"]

    assert stats_of([0.1, 0.9]).p95_seconds == 0.9  # two runs: the slowest
    assert stats_of([0.1] * 19 + [0.9]).p95_seconds == 0.1  # 19 of 20 runs are within 0.1 s
    assert stats_of([0.1] * 18 + [0.9, 0.9]).p95_seconds == 0.9
    from helpers.tracing import ToolStats
    assert ToolStats().p95_seconds == 0.0


@tool
def refund(order_id: str, amount: float) -> str:
    """Refund an amount on an order."""
    raise PermissionError(f"order {order_id} is not yours")


def _failed_run(script, messages=None):
    """A run with the error mapping; a run that raises keeps its trace."""
    trace = ProtocolTrace(clock=lambda: 0.0)
    agent = create_agent(scripted_model(script), [lookup_order, refund],
                         middleware=[ToolErrorMiddleware(lambda exc, request: f"Error: {exc}")])
    try:
        agent.invoke({"messages": messages or [HumanMessage("Refund A1024.")]}, config={"callbacks": [trace]})
    except Exception:
        pass
    return trace.steps()


def test_each_failure_is_marked_with_its_protocol_step():
    from langchain_core.messages import AIMessage

    from helpers import invalid_tool_call
    from helpers.tracing import FAILURE_STEPS, failure_breakdown

    def times_out(request):
        raise TimeoutError("no answer")

    lost = [HumanMessage("Refund A1024."),
            AIMessage("", tool_calls=[tool_call("refund", {"order_id": "A1024", "amount": 1.0}, "call_9")]),
            HumanMessage("Done?")]
    runs = {
        "timeout": _failed_run([times_out]),
        "words": _failed_run([[tool_call("refund", {"order_id": "A1024", "amount": "all"})], "ok"]),
        "not json": _failed_run([[invalid_tool_call("refund", '{"order_id": ', "call_1"),
                                  invalid_tool_call("refund", "{", "call_2")]]),
        "refused": _failed_run([[tool_call("refund", {"order_id": "B2048", "amount": 5.0})], "ok"]),
        "lost answer": _failed_run(["ok"], lost),
        "fine": _failed_run([[tool_call("lookup_order", {"order_id": "A1024"})], "ok"]),
    }
    steps = {name: [e.failure for e in events if e.failure] for name, events in runs.items()}
    assert steps == {"timeout": ["model_request"], "words": ["arguments"], "not json": ["arguments"],
                     "refused": ["execution"], "lost answer": ["result_pairing"], "fine": []}
    (model_error,) = [e for e in runs["timeout"] if e.kind == "model_error"]
    assert model_error.detail == "TimeoutError: no answer" and model_error.status == "error"
    assert [e.invalid for e in runs["not json"] if e.invalid] == [(("refund", "call_1"), ("refund", "call_2"))]
    breakdown = failure_breakdown(runs.values())
    assert list(breakdown) == list(FAILURE_STEPS)
    assert {step: len(events) for step, events in breakdown.items()} == {
        "model_request": 1, "arguments": 3, "execution": 1, "result_pairing": 1}
    text = trace_mermaid(runs["timeout"] + runs["not json"])
    assert "M--xA: the request failed: TimeoutError: no answer" in text
    assert "call_2 refund: arguments are not JSON, no tool ran" in text


def test_a_provider_400_about_pairing_is_a_pairing_failure():
    from helpers.tracing import failure_step

    refused = ValueError("Error code: 400 - An assistant message with 'tool_calls' must be followed by tool "
                         "messages responding to each 'tool_call_id'.")
    assert failure_step(refused, where="model") == "result_pairing"
    assert failure_step(ConnectionError("reset"), where="model") == "model_request"
    assert failure_step(ConnectionError("reset"), where="tool") == "execution"
