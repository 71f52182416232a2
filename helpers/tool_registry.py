"""A registry of an agent's tools, checked against the tools the agent really has (notebook 17).

Each :class:`ToolEntry` says who owns a tool, whether it reads or writes, how sensitive its data is,
whether a person approves its calls, how many calls one run may make, and the targets its runs must meet
(a 95th percentile latency, an error rate). :meth:`ToolRegistry.check` compares the registry with an agent's
tool list (the names the ``tools`` node runs) and with the approval and limits the agent is built with, and
lists each mismatch in words; :meth:`ToolRegistry.scorecard` holds each tool's figures from traces
(:func:`helpers.tracing.tool_stats`) against its targets; :func:`same_job` finds two tools that do one job
under different names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .i18n import _

if TYPE_CHECKING:
    from .tracing import ToolStats

__all__ = ["Access", "Approval", "ScoreRow", "Sensitivity", "ToolEntry", "ToolRegistry", "agent_tool_names",
           "agent_tools", "controls_of", "same_job"]

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
        p95_target: the 95th percentile latency its runs must stay within, in seconds (``None``: no target).
        error_target: the error rate its runs must stay within, 0.0-1.0 (``None``: no target).
    """

    name: str
    owner: str
    access: Access
    sensitivity: Sensitivity
    approval: Approval = "none"
    limit: int | None = None
    p95_target: float | None = None
    error_target: float | None = None


@dataclass(frozen=True)
class ScoreRow:
    """One tool's figures against its targets (:meth:`ToolRegistry.scorecard`).

    Attributes:
        name: the tool.
        calls: runs started.
        error_rate: errors / calls.
        p95_seconds: the 95th percentile latency, seconds.
        p95_target: the entry's latency target (``None``: none, or the tool is not registered).
        error_target: the entry's error-rate target (``None``: none, or the tool is not registered).
    """

    name: str
    calls: int
    error_rate: float
    p95_seconds: float
    p95_target: float | None
    error_target: float | None

    @property
    def p95_met(self) -> bool | None:
        """Whether the latency target is met (``None``: no target)."""
        return None if self.p95_target is None else self.p95_seconds <= self.p95_target

    @property
    def errors_met(self) -> bool | None:
        """Whether the error-rate target is met (``None``: no target)."""
        return None if self.error_target is None else self.error_rate <= self.error_target


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


def agent_tools(agent: Any) -> list[Any]:
    """The tools (``BaseTool`` objects) a ``create_agent`` graph's ``tools`` node runs, sorted by name.

    Raises:
        ValueError: the graph has no ``tools`` node (see :func:`agent_tool_names`).
    """
    agent_tool_names(agent)  # the clear error for an agent without tools
    by_name = agent.nodes["tools"].bound.tools_by_name
    return [by_name[name] for name in sorted(by_name)]


_FILLER = frozenset("a an and by for from its of on one or the to with".split())


def _words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z0-9]+", text.lower()) if word not in _FILLER}


def _arguments(tool: Any) -> dict[str, Any]:
    """``{argument: its JSON schema type}`` of what the model fills in (``tool_call_schema``, langchain-core 1.x)."""
    schema = tool.tool_call_schema.model_json_schema() if hasattr(tool.tool_call_schema, "model_json_schema") \
        else dict(tool.tool_call_schema)
    return {name: spec.get("type", "any") for name, spec in (schema.get("properties") or {}).items()}


def same_job(tools: Iterable[Any], *, overlap: float = 0.5) -> list[tuple[str, str, str]]:
    """Pairs of tools that look like one job under two names: ``(name, other name, why)``.

    Two tools are flagged when the model fills in the same arguments, with the same types
    (``tool_call_schema``: runtime-injected parameters do not count), and their descriptions share at least
    ``overlap`` of their words (Jaccard index of the lower-case words, short filler words left out). A
    heuristic: it says where to look, a person decides.

    Args:
        tools: ``BaseTool`` objects (e.g. :func:`agent_tools`).
        overlap: the least word overlap, 0.0-1.0.

    Returns:
        one tuple per pair, in name order, the reason in words (the shared arguments and the overlap).
    """
    tools = sorted(tools, key=lambda tool: tool.name)
    found = []
    for index, tool in enumerate(tools):
        for other in tools[index + 1:]:
            arguments, words, other_words = _arguments(tool), _words(tool.description), _words(other.description)
            shared = len(words & other_words) / len(words | other_words) if words | other_words else 0.0
            if arguments and arguments == _arguments(other) and shared >= overlap:
                found.append((tool.name, other.name, _("the same arguments ({arguments}), {shared:.0%} of the "
                                                       "description's words in common").format(
                    arguments=", ".join(arguments), shared=shared)))
    return found


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

    def scorecard(self, stats: Mapping[str, ToolStats]) -> list[ScoreRow]:
        """Each tool's figures from traces against its registered targets, in the order of ``stats``.

        Args:
            stats: ``{tool: ToolStats}`` (:func:`helpers.tracing.tool_stats`); a tool the registry lacks gets
                no targets (and :meth:`check` names it).

        Returns:
            one :class:`ScoreRow` per tool in ``stats``.
        """
        rows = []
        for name, figures in stats.items():
            entry = self.entries.get(name)
            rows.append(ScoreRow(name, figures.calls, figures.error_rate, figures.p95_seconds,
                                 entry.p95_target if entry else None, entry.error_target if entry else None))
        return rows
