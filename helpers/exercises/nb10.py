"""Exercises for notebook 10 · capstone: the refund agent.

``CONFIRMATION_GUARD`` (10.1): the learner writes the write tool of the refund agent,
``@tool("submit_refund_request") guarded_submit_refund_request(order_id, amount, runtime)``, with a guard:
it refuses (raises the notebook's ``ConfirmationRequired``, a :class:`helpers.error_contract.ToolRefusal`;
a :class:`helpers.domain.DomainError` is accepted too) unless the customer has confirmed *this* quote, i.e.

* ``runtime.state["quote"]`` exists and names the same order and amount as the call, and
* the thread holds more customer messages (``HumanMessage``) than ``quote["turn"]``, the count when the
  quote was made (so the customer has answered the quote).

The hidden checks build the notebook's agent themselves (the same tools ``lookup_order`` and
``quote_refund``, ``SupportState`` with ``refund_stage`` and ``quote``, a context with ``user_id`` and
``refunds``, :func:`helpers.error_contract.error_mapping` (notebook 09's error contract: every refusal becomes
``ToolMessage(status="error")``, any other exception ends the run),
``HumanInTheLoopMiddleware`` before the submit, ``InMemorySaver``), plug the learner's tool in as the write,
and run evaluation rows of notebook 10 with the careful and the careless scripted policy and with scripted
protocol cases. The reviewer approves every pause, so only the tool's guard can refuse. Each case builds a
fresh refund service, agent and thread.

The contract with the learner's tool is the notebook's: ``runtime.context.user_id`` (the signed-in
customer), ``runtime.context.refunds`` (a :class:`helpers.domain.RefundService`), and the ``quote`` state
entry ``{"order_id": str, "amount": float, "turn": int}`` written by ``quote_refund``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from langchain.agents import AgentState, create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import ToolException, ToolRuntime, tool
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from helpers.domain import RefundService
from helpers.error_contract import error_mapping, read_error
from helpers.model import scripted_model, tool_call

from .core import Case, Exercise
from .results import CheckFailure, clipped, shown

__all__ = ["CONFIRMATION_GUARD", "CheckContext", "CheckRun", "Quote", "support_policy"]

_TOOL_NAME = "submit_refund_request"
_ORDER_ID = re.compile(r"\b[A-Z]\d{4}\b")
_YES = ("yes", "go ahead", "please do", "i confirm")
_ABOUT_REFUNDS = ("refund", "money back", "get back")
_ASK = "My headphones A1024 broke. Can I get a refund?"
_CONFIRM = "Yes, please go ahead."


@dataclass(frozen=True)
class CheckContext:
    """The runtime context of the checks' agent, shaped like notebook 10's ``SupportContext``.

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
    """``lookup_order`` and ``quote_refund`` exactly as notebook 10 section 1 writes them."""
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


# -- the scripted policy (notebook 10 section 3) ------------------------------------------------


def _answers(messages: list, name: str) -> list:
    """The ToolMessages in ``messages`` answering calls of tool ``name`` (paired by tool_call_id)."""
    ids = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls if c["name"] == name}
    return [m for m in messages if isinstance(m, ToolMessage) and m.tool_call_id in ids]


def _parsed(message: Any) -> tuple[bool, dict]:
    content = message.content
    data = json.loads(content) if isinstance(content, str) and content.startswith("{") else {"text": content}
    return message.status != "error", data


def _submit_then_report(quote: dict, attempts: list, call) -> Any:
    """Submit the quote; once more after an ``unknown`` outcome (a lost reply); else report the last attempt."""
    unknown = [m for m in attempts if (read_error(m) or {}).get("outcome") == "unknown"]
    if not attempts or (len(attempts) == 1 and unknown):
        return call(_TOOL_NAME, order_id=quote["order_id"], amount=quote["refundable_amount"])
    ok, result = _parsed(attempts[-1])
    return str(result.get("text")) if ok else f"Sorry, I could not submit it ({result.get('error', 'error')})."


def support_policy(request: Any, *, wait_for_confirmation: bool = True) -> Any:
    """Notebook 10's scripted policy: the next move of a careful (or careless) support agent.

    Args:
        request: the :class:`helpers.model.RecordedRequest` the model receives.
        wait_for_confirmation: False gives the careless variant, which submits as soon as it has a quote.

    Returns:
        a script step: a list with one tool call, or a text reply.
    """
    messages = request.messages
    last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
    said, turn = str(messages[last].content), messages[last:]

    def call(name: str, **args: Any) -> Any:
        return [tool_call(name, args)] if name in request.tool_names else f"({name}: not available)"

    shown = [quote for ok, quote in map(_parsed, _answers(messages[:last], "quote_refund")) if ok]
    if shown and any(word in said.lower() for word in _YES):
        return _submit_then_report(shown[-1], _answers(turn, _TOOL_NAME), call)
    match = _ORDER_ID.search(said)
    if not match:
        return "Which order is it about? Please give me its order id."
    order_id, lookups = match.group(), _answers(turn, "lookup_order")
    if not lookups:
        return call("lookup_order", order_id=order_id)
    ok, order = _parsed(lookups[-1])
    if not ok:
        return f"Sorry, I cannot help with order {order_id}."
    if not any(word in said.lower() for word in _ABOUT_REFUNDS):
        return f"Your order {order_id} is {order.get('status')}."
    quotes = _answers(turn, "quote_refund")
    if not quotes:
        return call("quote_refund", order_id=order_id)
    ok, quote = _parsed(quotes[-1])
    if not ok:
        return f"Sorry, order {order_id} cannot be refunded."
    if not wait_for_confirmation:
        return _submit_then_report(quote, _answers(turn, _TOOL_NAME), call)
    return f"Order {order_id} can be refunded up to {quote['refundable_amount']:.2f}. Shall I submit it?"


def _policy_model(wait_for_confirmation: bool = True):
    return scripted_model([lambda r: support_policy(r, wait_for_confirmation=wait_for_confirmation)] * 40)


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
            f"your tool raised {type(exc).__name__}: {clipped(exc, 300)}, and that ended the run: the error mapping answers "
            f"refusals only (a ToolRefusal or a DomainError), any other exception propagates (notebook 09); "
            f"{_RAISE_HINT}"
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


_RAISE_HINT = (
    "raise ConfirmationRequired(...) (a ToolRefusal): the error mapping then answers the call with "
    "ToolMessage(status='error') and the model can ask the customer"
)



def _refused(run: CheckRun, situation: str) -> None:
    assert run.submits, f"{situation}: the model's submit call did not reach your tool (is it named {_TOOL_NAME!r}?)"
    if run.refunds:
        raise CheckFailure(
            f"{situation}, yet your tool created {shown([(r.request_id, r.order_id, r.amount) for r in run.refunds])}",
            "refuse before calling submit_to_service",
        )
    args, status, content = run.submits[0]
    if status != "error":
        raise CheckFailure(f"{situation}: nothing was created, but the call was answered with status={shown(status)} "
                           f"({content[:80]!r})", _RAISE_HINT)


def _went_through_once(run: CheckRun, situation: str) -> None:
    assert run.submits, f"{situation}: the model never called {_TOOL_NAME} (is your tool named {_TOOL_NAME!r}?)"
    statuses = [status for _, status, _ in run.submits]
    assert len(run.refunds) == 1, (
        f"{situation}: expected one refund request, found {len(run.refunds)}; your tool answered the "
        f"submits with {shown([(s, c[:70]) for _, s, c in run.submits])}"
    )
    assert statuses[-1] == "success", (
        f"{situation}: the last submit was answered with status={shown(statuses[-1])} ({run.submits[-1][2][:90]!r}); "
        "the customer had confirmed this quote, so the guard must let it through"
    )
    assert run.stage == "submitted", f"{situation}: refund_stage is {shown(run.stage)}, expected 'submitted'"


# -- the cases --------------------------------------------------------------------------------------


def _schema(answer: Any) -> None:
    assert isinstance(answer, BaseTool), (
        f"pass the tool itself (a function decorated with @tool({_TOOL_NAME!r})), got {type(answer).__name__}"
    )
    assert answer.name == _TOOL_NAME, (
        f"the tool is named {shown(answer.name)}; the model, the approval middleware and the evaluation call it "
        f"{_TOOL_NAME!r}: keep @tool({_TOOL_NAME!r})"
    )
    arguments = set(convert_to_openai_tool(answer)["function"]["parameters"].get("properties", {}))
    assert arguments == {"order_id", "amount"}, (
        f"the model should fill exactly order_id and amount, it sees {shown(sorted(arguments))}; keep the signature "
        "(order_id: str, amount: float, runtime: ToolRuntime[SupportContext])"
    )


def _same_turn_as_quote(answer: Any) -> None:
    run = _run(answer, (_ASK,), _policy_model(wait_for_confirmation=False))
    _refused(run, "the careless model submitted in the same turn as the quote, before the customer answered")


def _no_quote(answer: Any) -> None:
    model = _scripted(_submit_step("A1024", 499.0), "Done.")
    run = _run(answer, ("Refund A1024 right away, I confirm.",), model)
    _refused(run, "the model submitted without any quote in the thread")


def _other_order(answer: Any) -> None:
    model = _scripted(_quote_step("A1030"), "Shall I refund 120.00?", _submit_step("A1024", 499.0), "Done.")
    run = _run(answer, ("Can I get a refund for A1030?", _CONFIRM), model)
    _refused(run, "the customer said yes to a quote for A1030, and the model submitted A1024")


def _other_amount(answer: Any) -> None:
    model = _scripted(_quote_step("A1030"), "Shall I refund 120.00?", _submit_step("A1030", 100.0), "Done.")
    run = _run(answer, ("Can I get a refund for A1030?", _CONFIRM), model)
    _refused(run, "the customer said yes to 120.00 on A1030, and the model submitted 100.00")


def _careful_goes_through(answer: Any) -> None:
    run = _run(answer, (_ASK, _CONFIRM), _policy_model())
    _went_through_once(run, "quote in turn 1, the customer's yes in turn 2")


def _careless_in_third_message(answer: Any) -> None:
    turns = ("Where is my order A1024?", "Thanks, that is all for now.", _ASK)
    run = _run(answer, turns, _policy_model(wait_for_confirmation=False))
    _refused(run, "the customer's third message asked for the refund and the careless model quoted and submitted "
                  "in that same turn (the thread held 3 customer messages, the quote was made at 3): the customer answered "
                  "only if the thread holds more customer messages than quote['turn'], whatever their number")


def _yes_before_any_quote(answer: Any) -> None:
    said = "My headphones A1024 broke. Can I get a refund? Yes, go ahead."
    run = _run(answer, (said,), _policy_model(wait_for_confirmation=False))
    _refused(run, f"the customer wrote {said!r} before any quote existed, and the careless model quoted and "
                  "submitted in that turn; a yes said before the quote confirms nothing: count the customer messages "
                  "after the quote (more than quote['turn']), not words in them")


def _careless_after_yes(answer: Any) -> None:
    run = _run(answer, (_ASK, _CONFIRM), _policy_model(wait_for_confirmation=False))
    assert run.submits, f"the careless model's submit calls did not reach your tool (is it named {_TOOL_NAME!r}?)"
    first_status = run.submits[0][1]
    if first_status != "error":
        raise CheckFailure(f"the careless model's first submit (turn 1, before the yes) was answered with "
                           f"status={shown(first_status)}", _RAISE_HINT)
    _went_through_once(run, "the careless model's second submit came after the customer's yes")


def _retry_after_lost_reply(answer: Any) -> None:
    run = _run(answer, (_ASK, _CONFIRM), _policy_model(), lost_reply=True)
    assert run.submits, f"the model's submit calls did not reach your tool (is it named {_TOOL_NAME!r}?)"
    first = run.submits[0]
    assert first[1] == "error" and "service_unavailable" in first[2], (
        "the customer had confirmed, so the first submit should reach the refund service (which then loses "
        f"its reply); your tool answered it with status={shown(first[1])} ({first[2][:80]!r})"
    )
    assert len(run.submits) == 2, (
        f"after the lost reply the model should retry once; it made {len(run.submits)} submit call(s) "
        f"answered with {shown([(s, c[:70]) for _, s, c in run.submits])}"
    )
    _went_through_once(run, "the reply to a confirmed submit was lost and the model retried with a new call id")


CONFIRMATION_GUARD = Exercise(
    "10.1",
    "the write waits for the customer's confirmation",
    [
        # The first case runs the stub's body: its NotImplementedError means "not solved yet".
        Case("careful model: after the customer's yes the refund goes through once", _careful_goes_through),
        Case("the model still sees submit_refund_request(order_id, amount)", _schema),
        Case("careless model: a submit in the same turn as the quote is refused", _same_turn_as_quote),
        Case("a submit with no quote in the thread is refused", _no_quote),
        Case("a yes to one order's quote does not cover another order", _other_order),
        Case("a yes to 120.00 does not cover 100.00", _other_amount),
        Case("careless model: refused before the yes, submitted after it", _careless_after_yes),
        Case("a retry after a lost reply is not refused, and makes no second refund", _retry_after_lost_reply),
        Case("careless model: a quote and submit in the customer's third message are refused",
             _careless_in_third_message),
        Case("a yes written before any quote does not confirm it", _yes_before_any_quote),
    ],
    unsolved_hint="replace the `raise NotImplementedError` with the guard and run the check again",
    # Each case runs a multi-turn agent; on a loaded 2-core machine that can take seconds, so the deadline
    # (which only ever matters for an endless loop) is longer than the default 5 s.
    timeout=30,
)
