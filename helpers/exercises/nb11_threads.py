"""Generated threads of exercise 11.1: the learner's write tool and the reference, called on one thread each.

A spec (:data:`THREADS`) is a support conversation that ends in the model's ``submit_refund_request`` call:
one to four customer turns, each what the customer wrote (asked for a refund of an order, said yes, or only
said thanks) and what the assistant did before the turn ended (replied, looked the order up, or quoted the
order last asked about: ``quote_refund`` writes ``quote = {"order_id", "amount", "turn"}``, ``turn`` being the
customer messages the thread held then); then zero to three customer messages saying yes, whether the model
looks the order up again right before it submits, and what it submits: the quoted order and amount, another
order, or another amount. So a quote may be made in the submit's own turn, before a yes written earlier, two
or three messages before the submit, or twice (an earlier quote superseded).

:func:`thread_outcome` builds the thread's messages and state as notebook 11's agent leaves them (the same
tool messages, the ``quote`` and ``refund_stage`` entries), and runs the call through LangGraph's ``ToolNode``
behind notebook 09's error mapping (:func:`helpers.error_contract.error_mapping`, langchain 1.5.2's
``ToolErrorMiddleware``), with a fresh :class:`~helpers.domain.RefundService` and the signed-in
``user-42``: a refusal becomes ``ToolMessage(status="error")``, any other exception ends the run. The
reviewer of the notebook's approval gate approves every call, so it is left out.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode

from ..domain import RefundService
from ..error_contract import error_mapping
from ..i18n import _
from .nb11_policy import _TOOL_NAME
from .nb11_run import CheckContext, _state_schema

__all__ = ["THREADS", "describe_thread", "thread_messages", "thread_outcome"]

#: What a customer writes in a turn: ask for a refund of an order, say yes, or only say thanks.
SAYS = ("ask A1030", "yes", "ask A1024", "thanks", "ask A1029")
#: What the assistant does before the turn ends: reply, look the order last asked about up, or quote it.
DOES = ("quote", "reply", "lookup")
#: What the model submits: the quoted order and amount, another order, or another amount.
SUBMITS = ("as quoted", "another order", "another amount")
_TEXT = {"yes": "Yes, please go ahead.", "thanks": "Thanks, that is all."}
#: Every order of ``user-42`` that can be refunded, and its refundable amount (helpers.domain).
_REFUNDABLE = {"A1024": 499.0, "A1030": 120.0, "A1029": 2899.0}

#: A generated thread: ``(turns, yes messages after them, lookup before the submit, what is submitted)``.
THREADS = st.tuples(st.lists(st.tuples(st.sampled_from(SAYS), st.sampled_from(DOES)), min_size=1, max_size=4)
                    .map(tuple), st.integers(0, 3), st.booleans(), st.sampled_from(SUBMITS))


def _said(says: str) -> str:
    return f"Can I get a refund for {says.split()[1]}?" if says.startswith("ask") else _TEXT[says]


def _call(name: str, args: dict, number: int) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{number}", "type": "tool_call"}])


def thread_messages(spec: tuple) -> tuple[list, dict | None, dict]:
    """The thread of ``spec`` (:data:`THREADS`): its messages up to the submit call (the last one), the
    ``quote`` state entry (``None`` when nothing was quoted) and the submit call's arguments."""
    turns, yes_after, look_again, submit = spec
    messages: list = []
    quote: dict | None = None
    order = "A1024"
    customer = 0

    def tool(name: str, args: dict, content: str) -> None:
        messages.append(_call(name, args, len(messages)))
        messages.append(ToolMessage(content, tool_call_id=f"call_{len(messages) - 1}", name=name))

    said = [*(says for says, _does in turns), *["yes"] * yes_after]
    done = [*(does for _says, does in turns), *["reply"] * yes_after]
    for number, (says, does) in enumerate(zip(said, done)):
        messages.append(HumanMessage(_said(says)))
        customer += 1
        order = says.split()[1] if says.startswith("ask") else order
        last = number == len(said) - 1
        if does == "lookup":
            tool("lookup_order", {"order_id": order}, json.dumps({"order_id": order, "status": "delivered"}))
        if does == "quote":
            quote = {"order_id": order, "amount": _REFUNDABLE[order], "turn": customer}
            tool("quote_refund", {"order_id": order}, json.dumps({"order_id": order,
                                                                  "refundable_amount": _REFUNDABLE[order]}))
            if not last:
                messages.append(AIMessage(f"{order} can be refunded up to {_REFUNDABLE[order]:.2f}. Shall I submit it?"))
        elif not last:
            messages.append(AIMessage("How else can I help?"))
    if look_again:
        tool("lookup_order", {"order_id": order}, json.dumps({"order_id": order, "status": "delivered"}))
    quoted = (quote["order_id"], quote["amount"]) if quote else ("A1024", 499.0)
    other = "A1030" if quoted[0] != "A1030" else "A1024"
    args = {"as quoted": {"order_id": quoted[0], "amount": quoted[1]},
            "another order": {"order_id": other, "amount": quoted[1]},
            "another amount": {"order_id": quoted[0], "amount": 100.0}}[submit]
    messages.append(_call(_TOOL_NAME, args, len(messages)))
    return messages, quote, args


def thread_outcome(answer: Any, spec: tuple) -> dict[str, Any]:
    """Run the submit call that ends the thread of ``spec`` with ``answer`` (a ``submit_refund_request``
    tool), through ``ToolNode`` behind the error mapping, on a fresh refund service.

    Returns:
        ``{"answered": "success" | "error" | "missing", "refunds": [(order_id, amount), ...],
        "refund_stage": ...}``.

    Raises:
        whatever the tool raises that the error mapping does not answer (a bug ends the run).
    """
    messages, quote, _args = thread_messages(spec)
    service = RefundService()
    graph = StateGraph(_state_schema(), context_schema=CheckContext)
    graph.add_node("tools", ToolNode([answer], wrap_tool_call=error_mapping().wrap_tool_call))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    state = {"messages": messages, "refund_stage": "quoted" if quote else "not_started", **({"quote": quote}
                                                                                             if quote else {})}
    final = graph.compile().invoke(state, context=CheckContext("user-42", service))
    call_id = messages[-1].tool_calls[0]["id"]
    answers = [m for m in final["messages"] if isinstance(m, ToolMessage) and m.tool_call_id == call_id]
    return {"answered": answers[-1].status if answers else "missing",
            "refunds": [(r.order_id, r.amount) for r in service.requests], "refund_stage": final.get("refund_stage")}


def describe_thread(spec: tuple) -> str:
    """The thread of ``spec`` in the learner's words: each customer message and what the assistant did."""
    turns, yes_after, look_again, submit = spec
    messages, quote, args = thread_messages(spec)
    steps = []
    for message in messages[:-1]:
        if isinstance(message, HumanMessage):
            steps.append(_("customer: {text!r}").format(text=message.content))
        elif isinstance(message, AIMessage) and message.tool_calls:
            call = message.tool_calls[0]
            steps.append(f"{call['name']}({call['args']['order_id']})")
    where = _("quote = {quote}").format(quote=quote) if quote else _("no quote in the state")
    return _("the thread: {steps}; {where}; then the model calls submit_refund_request({order_id!r}, {amount})").format(
        steps=", ".join(steps), where=where, order_id=args["order_id"], amount=args["amount"])
