"""ToolRegistry, agent_tool_names and controls_of (helpers/tool_registry.py)."""

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware, ToolCallLimitMiddleware
from langchain.tools import tool

from helpers import scripted_model
from helpers.tool_registry import ToolEntry, ToolRegistry, agent_tool_names, controls_of


@tool
def lookup_order(order_id: str) -> str:
    """Look up one order."""
    return order_id


@tool
def refund(order_id: str, amount: float) -> str:
    """Refund."""
    return order_id


REGISTRY = [ToolEntry("lookup_order", "orders", "read", "customer"),
            ToolEntry("refund", "payments", "write", "financial", approval="human", limit=1)]


def test_an_agent_that_matches_its_registry_passes():
    middleware = [HumanInTheLoopMiddleware(interrupt_on={"refund": True}),
                  ToolCallLimitMiddleware(tool_name="refund", run_limit=1)]
    agent = create_agent(scripted_model(), [lookup_order, refund], middleware=middleware)
    approved, limits = controls_of(middleware)
    assert (approved, limits) == (["refund"], {"refund": 1})
    assert ToolRegistry(REGISTRY).check(agent_tool_names(agent), approved=approved, limits=limits) == []


def test_each_mismatch_is_named():
    registry = ToolRegistry(REGISTRY + [ToolEntry("cancel", "orders", "write", "customer")])
    problems = registry.check(["lookup_order", "refund", "order_history"], approved=["lookup_order"])
    assert problems == [
        "order_history: the agent has it, the registry does not",
        "lookup_order: registered with no approval, the agent pauses for it",
        "refund: registered with approval, the agent does not pause for it",
        "refund: registered limit 1, the agent's is None",
        "cancel: registered, but the agent does not have it",
    ]
    unapproved = ToolRegistry([ToolEntry("refund", "payments", "write", "financial")])
    assert unapproved.check(["refund"]) == ["refund: a write tool registered without human approval"]


def test_bad_input_gets_a_clear_message():
    with pytest.raises(ValueError, match="registered twice"):
        ToolRegistry([REGISTRY[0], REGISTRY[0]])
    with pytest.raises(ValueError, match="no 'tools' node"):
        agent_tool_names(create_agent(scripted_model(), []))


def test_the_scorecard_holds_figures_against_the_targets():
    from helpers.tracing import TraceEvent, tool_stats

    events = [TraceEvent("tool_start", "lookup_order", "c1", at=0.0),
              TraceEvent("tool_end", "lookup_order", "c1", status="success", at=0.9),
              TraceEvent("tool_start", "refund", "c2", at=0.0),
              TraceEvent("tool_error", "refund", "c2", status="error", at=0.1),
              TraceEvent("tool_start", "other", "c3", at=0.0),
              TraceEvent("tool_end", "other", "c3", status="success", at=0.1)]
    registry = ToolRegistry([ToolEntry("lookup_order", "orders", "read", "customer", p95_target=0.2,
                                       error_target=0.05),
                             ToolEntry("refund", "payments", "write", "financial", approval="human",
                                       p95_target=0.5, error_target=0.1)])
    rows = {row.name: row for row in registry.scorecard(tool_stats([events]))}
    assert (rows["lookup_order"].p95_met, rows["lookup_order"].errors_met) == (False, True)
    assert (rows["refund"].p95_met, rows["refund"].errors_met, rows["refund"].error_rate) == (True, False, 1.0)
    assert (rows["other"].p95_met, rows["other"].errors_met, rows["other"].calls) == (None, None, 1)


@tool
def get_order_status(order_id: str) -> str:
    """Look up the status of one order."""
    return order_id


@tool
def order_status_report(order_id: str) -> str:
    """Look up the status of one order."""
    return order_id


@tool
def cancel_order(order_id: str) -> str:
    """Cancel an order before it ships."""
    return order_id


def test_same_job_flags_two_names_for_one_job_and_nothing_else():
    from helpers.tool_registry import agent_tools, same_job

    agent = create_agent(scripted_model(), [refund, cancel_order, get_order_status, lookup_order])
    assert [tool.name for tool in agent_tools(agent)] == ["cancel_order", "get_order_status", "lookup_order",
                                                          "refund"]
    (pair,) = same_job(agent_tools(agent))
    assert pair[:2] == ("get_order_status", "lookup_order") and "order_id" in pair[2]
    # the same description with other arguments is not the same job; nor is a lower overlap than asked for
    assert same_job([get_order_status, refund]) == []
    assert same_job([get_order_status, lookup_order], overlap=0.9) == []
    assert [p[:2] for p in same_job([order_status_report, get_order_status])] == [
        ("get_order_status", "order_status_report")]
