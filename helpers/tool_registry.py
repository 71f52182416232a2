"""A registry of an agent's tools, checked against the tools the agent really has (notebook 17).

Each :class:`ToolEntry` says who owns a tool, whether it reads or writes, how sensitive its data is,
whether a person approves its calls and how many calls one run may make. :meth:`ToolRegistry.check`
compares the registry with an agent's tool list (the names the ``tools`` node runs) and with the
approval and limits the agent is built with, and lists each mismatch in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .i18n import _

__all__ = ["Access", "Approval", "Sensitivity", "ToolEntry", "ToolRegistry", "agent_tool_names", "controls_of"]

Access = Literal["read", "write"]
Sensitivity = Literal["public", "customer", "financial"]
Approval = Literal["none", "human"]


@dataclass(frozen=True)
class ToolEntry:
    """One registered tool.

    Attributes:
        name: the tool's name, as the model calls it.
        owner: the team answerable for it.
        access: ``"read"`` or ``"write"`` (a write changes something outside the conversation).
        sensitivity: the data it touches: ``"public"``, ``"customer"`` or ``"financial"``.
        approval: ``"human"`` when a person approves each call, else ``"none"``.
        limit: the most calls one run may make (``None``: no limit).
    """

    name: str
    owner: str
    access: Access
    sensitivity: Sensitivity
    approval: Approval = "none"
    limit: int | None = None


def agent_tool_names(agent: Any) -> list[str]:
    """The names of the tools a ``create_agent`` graph's ``tools`` node runs (langchain 1.x:
    ``agent.nodes["tools"].bound`` is the ``ToolNode``, ``tools_by_name`` its tools), sorted.

    Raises:
        ValueError: the graph has no ``tools`` node (an agent built without tools).
    """
    node = getattr(agent, "nodes", {}).get("tools")
    if node is None:
        raise ValueError("this agent has no 'tools' node: it was built without tools")
    return sorted(node.bound.tools_by_name)


def controls_of(middleware: Iterable[Any]) -> tuple[list[str], dict[str, int]]:
    """``(approved, limits)`` an agent's middleware list enforces, for :meth:`ToolRegistry.check`.

    Reads ``HumanInTheLoopMiddleware.interrupt_on`` (the tools it pauses for; a tool configured with
    ``False`` is not in it) and ``ToolCallLimitMiddleware.tool_name`` / ``run_limit`` (langchain 1.x
    attribute names); a limit without a tool name (all tools) is listed under ``"*"``. Other middleware
    is ignored.
    """
    from langchain.agents.middleware import (
        HumanInTheLoopMiddleware,
        ToolCallLimitMiddleware,
    )

    approved: list[str] = []
    limits: dict[str, int] = {}
    for item in middleware:
        if isinstance(item, HumanInTheLoopMiddleware):
            approved += sorted(item.interrupt_on)
        elif isinstance(item, ToolCallLimitMiddleware) and item.run_limit is not None:
            limits[item.tool_name or "*"] = item.run_limit
    return approved, limits


class ToolRegistry:
    """The desk's tools, by name.

    Args:
        entries: the registered tools; two entries with one name raise ``ValueError``.
    """

    def __init__(self, entries: Iterable[ToolEntry]) -> None:
        self.entries: dict[str, ToolEntry] = {}
        for entry in entries:
            if entry.name in self.entries:
                raise ValueError(f"the tool {entry.name!r} is registered twice")
            self.entries[entry.name] = entry

    def check(self, tool_names: Iterable[str], *, approved: Iterable[str] = (),
              limits: Mapping[str, int] | None = None) -> list[str]:
        """What differs between the registry and an agent; an empty list means they agree.

        Args:
            tool_names: the tools the agent runs (:func:`agent_tool_names`).
            approved: the tools the agent's ``HumanInTheLoopMiddleware`` pauses for.
            limits: ``{tool: run limit}`` of the agent's ``ToolCallLimitMiddleware`` instances.

        Returns:
            one line per problem: a tool the agent has but the registry lacks, a registered tool the
            agent lacks, a write tool without human approval, an approval or a limit that differs.
        """
        names, approved, limits = set(tool_names), set(approved), dict(limits or {})
        problems = [_("{name}: the agent has it, the registry does not").format(name=n)
                    for n in sorted(names - set(self.entries))]
        for name, entry in self.entries.items():
            if name not in names:
                problems.append(_("{name}: registered, but the agent does not have it").format(name=name))
                continue
            if entry.access == "write" and entry.approval != "human":
                problems.append(_("{name}: a write tool registered without human approval").format(name=name))
            if (entry.approval == "human") != (name in approved):
                mismatch = (_("{name}: registered with approval, the agent does not pause for it")
                            if entry.approval == "human"
                            else _("{name}: registered with no approval, the agent pauses for it"))
                problems.append(mismatch.format(name=name))
            if entry.limit != limits.get(name):
                problems.append(_("{name}: registered limit {limit}, the agent's is {actual}").format(
                    name=name, limit=entry.limit, actual=limits.get(name)))
        return problems
