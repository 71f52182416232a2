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
