"""The one-node ToolNode graph the widgets run tool calls through. No ipywidgets import."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.tools import BaseTool

__all__ = ["tool_node_graph"]


def tool_node_graph(tools: Sequence[BaseTool]) -> Any:
    """``START -> tools -> END`` on ``MessagesState``, the ``tools`` node a plain ``ToolNode(tools)``.

    ``ToolNode`` (langgraph-prebuilt 1.1.3) needs a graph's runtime to run (it reads the
    config, the store and the state from it), so the smallest graph around it is the honest way
    to see what ``create_agent``'s tools node does with one ``AIMessage``: invoke it with
    ``{"messages": [ai_message]}`` and read the ``ToolMessage`` objects it appends. Its error
    handling is the default (``handle_tool_errors=_default_handle_tool_errors``): argument errors
    become error ToolMessages, any other exception propagates out of ``invoke``.

    Args:
        tools: the tools to bind.

    Returns:
        the compiled graph (no checkpointer: every invoke is a fresh run).
    """
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode(list(tools)))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    return graph.compile()
