"""How a hidden case of exercise 11.1 runs: notebook 11's agent built around the learner's write tool
(:class:`CheckContext`, :class:`Quote`, the read tools, ``create_agent``), one run of a few customer turns
(:class:`CheckRun`) and the verdicts shared by the cases (refused, went through once). The cases and the
exercise are in :mod:`helpers.exercises.nb11`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from langchain.agents import AgentState, create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import ToolException, ToolRuntime, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from helpers.domain import RefundService
from helpers.error_contract import error_mapping
from helpers.i18n import N_, _
from helpers.model import scripted_model, tool_call

from .nb11_policy import _TOOL_NAME
from .results import CheckFailure, clipped, shown

__all__ = ["CheckContext", "CheckRun", "Quote"]


@dataclass(frozen=True)
class CheckContext:
    """The runtime context of the checks' agent, shaped like notebook 11's ``SupportContext``.

    Attributes:
        user_id: the signed-in customer (``"user-42"`` in every case).
        refunds: a fresh :class:`helpers.domain.RefundService` per case.
    """

    user_id: str
    refunds: Any


class Quote(TypedDict):
    """The ``quote`` state entry: what the customer was offered, and how many customer messages the
    thread held at that moment (``turn``)."""

    order_id: str
    amount: float
    turn: int


def _state_schema():
    class CheckState(AgentState):
        refund_stage: NotRequired[Literal["not_started", "quoted", "submitted"]]
        quote: NotRequired[Quote]

    return CheckState


def _read_tools() -> list:
    """``lookup_order`` and ``quote_refund`` exactly as notebook 11 section 1 writes them."""
    @tool
    def lookup_order(order_id: str, runtime: ToolRuntime[CheckContext]) -> dict:
        """Look up one of the signed-in customer's orders: product, status, amount, what was refunded.
        Read-only. Use it for questions about an order."""
        ctx = runtime.context
        return ctx.refunds.store.get_order(order_id, user_id=ctx.user_id).to_dict()

    @tool
    def quote_refund(order_id: str, runtime: ToolRuntime[CheckContext]) -> Command:
        """Work out how much of the signed-in customer's order can be refunded today, and under which
        policy. Read-only: it creates nothing. Use it before offering a refund."""
        ctx = runtime.context
        quote = ctx.refunds.quote(order_id, user_id=ctx.user_id)
        turns = sum(isinstance(m, HumanMessage) for m in runtime.state["messages"])
        facts = {"order_id": order_id, "refundable_amount": quote.refundable_amount, "policy": quote.policy}
        return Command(update={
            "refund_stage": "quoted",
            "quote": {"order_id": order_id, "amount": quote.refundable_amount, "turn": turns},
            "messages": [ToolMessage(json.dumps(facts), tool_call_id=runtime.tool_call_id)],
        })

    return [lookup_order, quote_refund]


def _agent(model: Any, submit_tool: Any):
    return create_agent(
        model,
        [*_read_tools(), submit_tool],
        system_prompt="You are the refund desk. Submit only after the customer confirmed the quote.",
        state_schema=_state_schema(),
        context_schema=CheckContext,
        middleware=[
            HumanInTheLoopMiddleware(interrupt_on={_TOOL_NAME: {"allowed_decisions": ["approve", "reject"]}}),
            error_mapping(),
        ],
        checkpointer=InMemorySaver(),
    )



# -- running a case -------------------------------------------------------------------------------


@dataclass
class CheckRun:
    """What one checked run left behind.

    Attributes:
        submits: ``[(args, status, content)]`` for every ``submit_refund_request`` call, in order; status is
            the answering ToolMessage's ``status`` (``"missing"`` if the call was never answered).
        refunds: the refund requests the service holds at the end.
        stage: the final ``refund_stage`` (``None`` if never set).
    """

    submits: list[tuple[dict, str, str]]
    refunds: tuple
    stage: str | None


def _run(answer: Any, turns: tuple[str, ...], model: Any, *, lost_reply: bool = False) -> CheckRun:
    refunds = RefundService()
    if lost_reply:
        refunds.simulate_outage(after_commit=True)
    agent = _agent(model, answer)
    config = {"configurable": {"thread_id": "check"}, "recursion_limit": 30}
    context = CheckContext("user-42", refunds)
    try:
        for text in turns:
            out = agent.invoke({"messages": [HumanMessage(text)]}, config, context=context, version="v2")
            while out.interrupts:  # the reviewer approves every pause: only the tool's guard can refuse
                count = len(out.interrupts[0].value["action_requests"])
                out = agent.invoke(Command(resume={"decisions": [{"type": "approve"}] * count}), config,
                                   context=context, version="v2")
    except (ValueError, ToolException) as exc:  # a refusal raised as the wrong exception (never a refusal itself)
        raise AssertionError(
            _("your tool raised {type}: {exc}, and that ended the run: the error mapping answers refusals only (a "
              "ToolRefusal or a DomainError), any other exception propagates (notebook 09); {hint}").format(
                  type=type(exc).__name__, exc=clipped(exc, 300), hint=_(_RAISE_HINT))
        ) from None
    values = agent.get_state(config).values
    answers = {m.tool_call_id: m for m in values["messages"] if isinstance(m, ToolMessage)}
    submits = []
    for message in values["messages"]:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                if call["name"] == _TOOL_NAME:
                    reply = answers.get(call["id"])
                    submits.append((call["args"], reply.status if reply else "missing",
                                    clipped(reply.content, 500) if reply else ""))
    return CheckRun(submits, refunds.requests, values.get("refund_stage"))


def _scripted(*steps: Any):
    return scripted_model(list(steps))


def _submit_step(order_id: str, amount: float) -> list:
    return [tool_call(_TOOL_NAME, {"order_id": order_id, "amount": amount})]


def _quote_step(order_id: str) -> list:
    return [tool_call("quote_refund", {"order_id": order_id})]


_RAISE_HINT = N_(
    "raise ConfirmationRequired(...) (a ToolRefusal): the error mapping then answers the call with "
    "ToolMessage(status='error') and the model can ask the customer"
)



def _refused(run: CheckRun, situation: str) -> None:
    assert run.submits, _("{situation}: the model's submit call did not reach your tool (is it named {tool_name!r}?)").format(
        situation=situation, tool_name=_TOOL_NAME)
    if run.refunds:
        raise CheckFailure(
            _("{situation}, yet your tool created {refunds}").format(
                situation=situation, refunds=shown([(r.request_id, r.order_id, r.amount) for r in run.refunds])),
            _("refuse before calling submit_to_service"),
        )
    args, status, content = run.submits[0]
    if status != "error":
        raise CheckFailure(_("{situation}: nothing was created, but the call was answered with status={status} ({content!r})").format(
            situation=situation, status=shown(status), content=content[:80]), _(_RAISE_HINT))


def _went_through_once(run: CheckRun, situation: str) -> None:
    assert run.submits, _("{situation}: the model never called {tool_name} (is your tool named {tool_name!r}?)").format(
        situation=situation, tool_name=_TOOL_NAME)
    statuses = [status for _args, status, _content in run.submits]
    assert len(run.refunds) == 1, (
        _("{situation}: expected one refund request, found {count}; your tool answered the submits with {answers}").format(
            situation=situation, count=len(run.refunds), answers=shown([(s, c[:70]) for _args, s, c in run.submits]))
    )
    assert statuses[-1] == "success", (
        _("{situation}: the last submit was answered with status={statuses} ({submits!r}); the customer had "
          "confirmed this quote, so the guard must let it through").format(
              situation=situation, statuses=shown(statuses[-1]), submits=run.submits[-1][2][:90])
    )
    assert run.stage == "submitted", _("{situation}: refund_stage is {stage}, expected 'submitted'").format(
        situation=situation, stage=shown(run.stage))
