"""The approval panel's test setups: five kinds of paused agent, each counting its side effects.

Used by ``tests/test_widget_approval_suite.py`` (every decision path on every setup) and by the
view tests (:func:`drawn`). Each setup's scripted model asks for two gated actions one after the
other (two pauses), except the hand-built ``model -> ToolNode`` graph, whose model asks for two
interrupting tools in one reply. Every tool counts its side effect in ``EFFECTS`` by what it did,
so a test can prove that nothing ran twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langchain_core.messages import AnyMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import interrupt

from helpers import scripted_model, tool_call

#: Every side effect, by (tool, what it acted on, amount or text); a count above 1 is a repeat.
EFFECTS: Counter = Counter()


class Page:
    """The page a panel is drawn in, played headless: what ``helpers/widgets/page_clicks.js`` sends.

    The page holds the render it has drawn (:meth:`draw` copies the panel's current one; the panel
    re-renders in the kernel, the page only when told). A click sends the page part's message
    through :meth:`ApprovalPanel.on_page_message`, the path a click in JupyterLab takes: the drawn
    render, the click count, and what the fields hold. A double click is two messages with the
    render the first click was made on (the page part's rule for ``MouseEvent.detail`` > 1).
    """

    def __init__(self, panel: Any):
        self.panel = panel
        self.drawn = panel.clicks.render

    def draw(self) -> Page:
        """The page has now drawn the panel's latest render."""
        self.drawn = self.panel.clicks.render
        return self

    def click(self, decision: str, *, clicks: int = 1, amount: str | None = None, args: str | None = None,
              message: str | None = None) -> Any:
        """One click on a decision button (``clicks``: 2 and 3 send the 2nd and 3rd click of one gesture
        too; 0 one keyboard click, or Enter in the amount field); a field not given holds what the
        panel's field holds. Returns the last result."""
        fields = {"amount": self.panel.amount_field.value if amount is None else amount,
                  "args": self.panel.args_field.value if args is None else args,
                  "message": self.panel.message_field.value if message is None else message}
        for count in range(1, clicks + 1) if clicks else (0,):  # 0: a keyboard click, or Enter in the amount
            self.panel.on_page_message({"event": "action", "action": decision, "render": self.drawn,
                                        "clicks": count, "fields": dict(fields)})
        return self.panel.last


def drawn(panel: Any) -> Page:
    """A :class:`Page` that has drawn the panel's latest render."""
    return Page(panel)


def single_node(node: Callable, state: type, thread: str, start: dict) -> tuple[Any, dict]:
    """A one-node graph (``START -> review -> END``) with an ``InMemorySaver``, run once on ``thread``."""
    builder = StateGraph(state)
    builder.add_node("review", node)
    builder.add_edge(START, "review")
    builder.add_edge("review", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    graph.invoke(start, config)
    return graph, config


@tool
def submit_refund_request(order_id: str, amount: float) -> str:
    """Submit a refund request for an order."""
    EFFECTS[("submit", order_id, amount)] += 1
    return f"refund request registered for {order_id} ({amount:.2f})"


@tool
def refund_after_review(order_id: str, amount: float) -> str:
    """Submit a refund after a person reviewed it (a plain interrupt inside the tool)."""
    decision = interrupt({"order_id": order_id, "amount": amount, "refundable": 499.0,
                          "allowed": ["approve", "edit", "reject"]})
    if decision["type"] == "reject":
        return f"not refunded: {decision['reason']}"
    final = decision.get("amount", amount)
    EFFECTS[("submit", order_id, final)] += 1
    return f"refund request registered for {order_id} ({final:.2f})"


@tool
def cancel_after_review(order_id: str) -> str:
    """Cancel an order after a person reviewed it (a plain interrupt inside the tool)."""
    decision = interrupt({"order_id": order_id, "allowed": ["approve", "reject"]})
    if decision["type"] == "approve":
        EFFECTS[("cancel", order_id, 0)] += 1
    return f"{order_id}: {decision['type']}"


@dataclass
class Setup:
    """One paused agent: ``graph`` and ``config`` for a panel, and a valid value for each decision.

    Attributes:
        name: the setup's id in test names.
        graph, config: the paused thread.
        edit_value: what ``edit`` is given (an amount, or arguments).
        answerable: the panel can answer this pause (``False``: it must refuse everything).
        effects: a function that returns the side effects so far (a Counter).
    """

    name: str
    graph: Any
    config: dict
    edit_value: Any
    answerable: bool = True
    effects: Callable[[], Counter] = lambda: EFFECTS


def _two_refunds(name: str) -> list:
    return [[tool_call(name, {"order_id": "A1024", "amount": 100.0})],
            [tool_call(name, {"order_id": "A1030", "amount": 50.0})], "Done."]


def _start(graph: Any, thread: str, text: str = "Refund A1024 and A1030.") -> dict:
    config = {"configurable": {"thread_id": thread}}
    graph.invoke({"messages": [{"role": "user", "content": text}]}, config)
    return config


def hitl(mode: str = "batched") -> Setup:
    """``create_agent`` + ``HumanInTheLoopMiddleware`` (``interrupt_mode`` batched or per_call)."""
    EFFECTS.clear()
    graph = create_agent(scripted_model(_two_refunds("submit_refund_request")), [submit_refund_request],
                         middleware=[HumanInTheLoopMiddleware({"submit_refund_request": True}, interrupt_mode=mode)],
                         checkpointer=InMemorySaver())
    return Setup(f"hitl_{mode}", graph, _start(graph, f"hitl-{mode}"), {"order_id": "A1024", "amount": 80.0})


def plain_in_create_agent() -> Setup:
    """A tool that calls ``interrupt()`` itself, under ``create_agent`` (each call a task of its own)."""
    EFFECTS.clear()
    graph = create_agent(scripted_model(_two_refunds("refund_after_review")), [refund_after_review],
                         checkpointer=InMemorySaver())
    return Setup("plain_create_agent", graph, _start(graph, "plain"), 80.0)


class _Chat(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def hand_built_tool_node() -> Setup:
    """A hand-built ``model -> ToolNode`` graph (notebook 08's shape) with two interrupting tools in one reply."""
    EFFECTS.clear()
    tools = [refund_after_review, cancel_after_review]
    model = scripted_model([[tool_call("refund_after_review", {"order_id": "A1024", "amount": 100.0}),
                             tool_call("cancel_after_review", {"order_id": "A1030"})], "Done."]).bind_tools(tools)
    builder = StateGraph(_Chat)
    builder.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", tools_condition)
    builder.add_edge("tools", "model")
    graph = builder.compile(checkpointer=InMemorySaver())
    return Setup("hand_built_tool_node", graph, _start(graph, "hand-built"), 80.0, answerable=False)


def deep_agent() -> Setup:
    """``create_deep_agent(..., interrupt_on={"write_file": True})``: two file writes, one after the other."""
    from deepagents import create_deep_agent

    EFFECTS.clear()
    model = scripted_model([[tool_call("write_file", {"file_path": "/policies/a.md", "content": "A\n"})],
                            [tool_call("write_file", {"file_path": "/policies/b.md", "content": "B\n"})], "Saved."])
    graph = create_deep_agent(model=model, interrupt_on={"write_file": True}, checkpointer=InMemorySaver())
    config = _start(graph, "deep", "Save two policies.")

    def written() -> Counter:
        """Each write_file that ran, by call id (its ToolMessages; a respond's answer is not a write)."""
        messages = graph.get_state(config).values.get("messages", [])
        return Counter(("write_file", m.tool_call_id, 0) for m in messages
                       if m.type == "tool" and m.name == "write_file" and m.status == "success"
                       and "lc_source" not in m.additional_kwargs)

    return Setup("deep_agent", graph, config, {"file_path": "/policies/a.md", "content": "A, edited\n"},
                 effects=written)


SETUPS: dict[str, Callable[[], Setup]] = {
    "hitl_batched": lambda: hitl("batched"),
    "hitl_per_call": lambda: hitl("per_call"),
    "plain_create_agent": plain_in_create_agent,
    "hand_built_tool_node": hand_built_tool_node,
    "deep_agent": deep_agent,
}
