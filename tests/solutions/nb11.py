"""Reference solutions and known-wrong answers for exercise 11.1 (``helpers.exercises.nb11.CONFIRMATION_GUARD``).

The tools are written the way the notebook's learner writes them: ``@tool("submit_refund_request")``, a guard,
then ``submit_to_service`` (notebook 11 section 1; ``ConfirmationRequired`` of section 2: both as the checker
module defines them, beside its reference ``guarded_submit_refund_request``).
"""

from __future__ import annotations

from typing import Any

from langchain.messages import HumanMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.types import Command

from helpers.exercises.nb11 import CheckContext, ConfirmationRequired, submit_to_service
from helpers.exercises.registry import AnswerSet, KnownWrong


def _customer_turns(runtime: ToolRuntime[Any]) -> int:
    return sum(isinstance(m, HumanMessage) for m in runtime.state["messages"])


@tool("submit_refund_request")
def guarded_submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Submit a refund REQUEST for the signed-in customer's order, once the customer confirmed the quote."""
    quote = runtime.state.get("quote")
    if quote is None:
        raise ConfirmationRequired("no quote was shown to the customer yet: quote it and ask first")
    if (quote["order_id"], quote["amount"]) != (order_id, amount):
        raise ConfirmationRequired(
            f"the customer was quoted {quote['amount']:.2f} for {quote['order_id']}, not {amount} for {order_id}")
    if _customer_turns(runtime) <= quote["turn"]:
        raise ConfirmationRequired("the customer has not answered the quote yet: ask and wait for the answer")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def guarded_with_error_message(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command | ToolMessage:
    """Also right: answer the call with an error ToolMessage instead of raising."""
    quote = runtime.state.get("quote") or {}
    confirmed = (quote.get("order_id"), quote.get("amount")) == (order_id, amount) and \
        _customer_turns(runtime) > quote.get("turn", 10**9)
    if not confirmed:
        return ToolMessage('{"error": "confirmation_required"}', tool_call_id=runtime.tool_call_id, status="error")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_unguarded(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: no guard at all (the notebook's section 1 tool)."""
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_stage_only(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: 'a quote was made' is not 'the customer answered it' (the quote sets the stage in the same turn)."""
    if runtime.state.get("refund_stage") != "quoted":
        raise ConfirmationRequired("quote first")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_no_turn_check(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: checks the quote's order and amount but not that the customer answered it."""
    quote = runtime.state.get("quote")
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount):
        raise ConfirmationRequired("not the quoted refund")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_turn_only(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: checks that the customer answered some quote, not that it was this order and amount."""
    quote = runtime.state.get("quote")
    if quote is None or _customer_turns(runtime) <= quote["turn"]:
        raise ConfirmationRequired("not confirmed")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_two_customer_messages(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: 'the customer answered' read as 'the thread holds at least 2 customer messages' (issue 16)."""
    quote = runtime.state.get("quote")
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or _customer_turns(runtime) < 2:
        raise ConfirmationRequired("not confirmed")
    return submit_to_service(order_id, amount, runtime)


_YES_WORDS = ("yes", "go ahead", "please do", "i confirm")


@tool("submit_refund_request")
def wrong_yes_in_last_message(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: 'the customer confirmed' read as 'the last customer message holds a yes-word' (issue 16)."""
    quote = runtime.state.get("quote")
    said = [m.content for m in runtime.state["messages"] if isinstance(m, HumanMessage)][-1:]
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or \
            not any(word in str(said).lower() for word in _YES_WORDS):
        raise ConfirmationRequired("not confirmed")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_always_refuses(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: refuses every submit, so no refund ever happens."""
    raise ConfirmationRequired("please confirm")


@tool("submit_refund_request")
def wrong_returns_text(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command | str:
    """Wrong: refuses with a plain string, which becomes a *successful* ToolMessage."""
    quote = runtime.state.get("quote")
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or \
            _customer_turns(runtime) <= quote["turn"]:
        return "Please confirm first."
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_raises_value_error(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: the right guard, but it refuses with a ValueError, which the error mapping lets end the run."""
    quote = runtime.state.get("quote")
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or \
            _customer_turns(runtime) <= quote["turn"]:
        raise ValueError("the customer has not confirmed this quote")
    return submit_to_service(order_id, amount, runtime)


@tool
def wrong_name(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong: decorated without the name, so the tool is called 'wrong_name' and the model never finds it."""
    return guarded_submit_refund_request.func(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_next_message_only(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong (issue 27): 'the customer answered' read as 'the thread holds exactly one customer message more than
    quote["turn"]': a second message after the quote (a yes said twice) refuses a confirmed refund. Every named
    case has at most one customer message after the quote."""
    quote = runtime.state.get("quote")
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or \
            _customer_turns(runtime) != quote["turn"] + 1:
        raise ConfirmationRequired("not confirmed")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def wrong_first_quote_in_the_thread(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Wrong (issue 27): when the quote was made is read from the thread, as the customer messages before its
    first quote_refund answer: after a second quote (another order, same turn as the submit) it lets the submit
    through. Every named case quotes once."""
    quote = runtime.state.get("quote")
    messages = runtime.state["messages"]
    first = next((i for i, m in enumerate(messages) if isinstance(m, ToolMessage) and m.name == "quote_refund"), None)
    if quote is None or first is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or \
            _customer_turns(runtime) <= sum(isinstance(m, HumanMessage) for m in messages[:first]):
        raise ConfirmationRequired("not confirmed")
    return submit_to_service(order_id, amount, runtime)


@tool("submit_refund_request")
def crashing_key_error(order_id: str, amount: float, runtime: ToolRuntime[Any]) -> Command:
    """Crashes: reads runtime.state["quote"] without checking that a quote exists (KeyError ends the run)."""
    quote = runtime.state["quote"]
    if _customer_turns(runtime) <= quote["turn"] or (quote["order_id"], quote["amount"]) != (order_id, amount):
        raise ConfirmationRequired("not confirmed")
    return submit_to_service(order_id, amount, runtime)


_CASE = {
    "careful": "careful model: after the customer's yes the refund goes through once",
    "schema": "the model still sees submit_refund_request(order_id, amount)",
    "same turn": "careless model: a submit in the same turn as the quote is refused",
    "no quote": "a submit with no quote in the thread is refused",
    "other order": "a yes to one order's quote does not cover another order",
    "other amount": "a yes to 120.00 does not cover 100.00",
    "careless two turns": "careless model: refused before the yes, submitted after it",
    "lost reply": "a retry after a lost reply is not refused, and makes no second refund",
    "third message": "careless model: a quote and submit in the customer's third message are refused",
    "yes before quote": "a yes written before any quote does not confirm it",
}


_GENERATED = "agrees with the reference on generated threads"


def _cases(*keys: str) -> tuple[str, ...]:
    return tuple(_CASE[k] for k in keys)


def answer_from(body):
    """A submit_refund_request tool whose body is ``body()`` (for the contract test's hostile answers)."""

    @tool("submit_refund_request")
    def hostile(order_id: str, amount: float, runtime: ToolRuntime[CheckContext]) -> Command:
        """Create a refund request for an order."""
        return body()

    return hostile


CONFIRMATION_GUARD = AnswerSet(
    solutions={"raises ConfirmationRequired": guarded_submit_refund_request,
               "returns an error ToolMessage": guarded_with_error_message},
    wrong={
        "unguarded": KnownWrong(wrong_unguarded, fails=_cases("same turn", "no quote", "other order", "other amount",
                                                              "careless two turns", "third message",
                                                              "yes before quote"), status="fail"),
        "stage only": KnownWrong(wrong_stage_only, fails=_cases("same turn", "other order", "other amount",
                                                                "careless two turns", "third message",
                                                                "yes before quote"), status="fail"),
        "no turn check": KnownWrong(wrong_no_turn_check, fails=_cases("same turn", "careless two turns",
                                                                      "third message", "yes before quote"),
                                    status="fail"),
        "at least 2 customer messages": KnownWrong(wrong_two_customer_messages, fails=_cases("third message"),
                                                   status="fail"),
        "a yes-word in the last message": KnownWrong(wrong_yes_in_last_message, fails=_cases("yes before quote"),
                                                     status="fail"),
        "turn only": KnownWrong(wrong_turn_only, fails=_cases("other order", "other amount"), status="fail"),
        "always refuses": KnownWrong(wrong_always_refuses, fails=_cases("careful", "careless two turns", "lost reply"),
                                     status="fail"),
        "refuses with text": KnownWrong(wrong_returns_text, fails=_cases("same turn"), status="fail"),
        "refuses with ValueError": KnownWrong(wrong_raises_value_error, fails=_cases(
            "same turn", "no quote", "other order", "other amount", "careless two turns", "third message",
            "yes before quote"), status="fail"),
        "wrong name": KnownWrong(wrong_name, fails=_cases("schema"), status="fail"),
        "exactly one customer message after the quote": KnownWrong(wrong_next_message_only, fails=(_GENERATED,),
                                                                   status="fail"),
        "the turn of the thread's first quote": KnownWrong(wrong_first_quote_in_the_thread, fails=(_GENERATED,),
                                                           status="fail"),
    },
    crashing={"KeyError without a quote": crashing_key_error},
    stub_names={"SupportContext": CheckContext},
    answer_from=answer_from,
)
