"""Fixtures shared by the verifiers of notebooks 09, 10 and 11: the signed-in customer, a gated refund tool."""

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.messages import HumanMessage
from langchain.tools import ToolRuntime, tool
from langgraph.checkpoint.memory import InMemorySaver

from helpers import scripted_model, tool_call
from helpers.domain import RefundService, refund_key


@dataclass(frozen=True)
class Customer:
    """The signed-in customer and the refund service of one run (the context of notebooks 09-11)."""

    user_id: str
    refunds: RefundService


@tool
def submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[Customer]) -> str:
    """Create a refund request for one of the signed-in customer's orders."""
    ctx = runtime.context
    request = ctx.refunds.submit(order_id, amount, user_id=ctx.user_id, idempotency_key=refund_key(order_id, amount))
    return f"refund request {request.request_id} registered for {order_id} ({request.amount:.2f})"


def submit(order_id: str, amount: float) -> dict:
    return tool_call("submit_refund_request", {"order_id": order_id, "amount": amount})


def gated_agent(script, tools=(submit_refund_request,), *, middleware=()):
    return create_agent(scripted_model(script), list(tools), context_schema=Customer, checkpointer=InMemorySaver(),
                        middleware=[HumanInTheLoopMiddleware(interrupt_on={"submit_refund_request": True}),
                                    *middleware])


ASK = {"messages": [HumanMessage("Please refund A1024.")]}
