"""Exercises for notebook 11 · capstone: the refund agent.

``CONFIRMATION_GUARD`` (11.1): the learner writes the write tool of the refund agent,
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
and run evaluation rows of notebook 11 with the careful and the careless scripted policy and with scripted
protocol cases. The reviewer approves every pause, so only the tool's guard can refuse. Each case builds a
fresh refund service, agent and thread.

The contract with the learner's tool is the notebook's: ``runtime.context.user_id`` (the signed-in
customer), ``runtime.context.refunds`` (a :class:`helpers.domain.RefundService`), and the ``quote`` state
entry ``{"order_id": str, "amount": float, "turn": int}`` written by ``quote_refund``.
"""

from __future__ import annotations

from typing import Any

from langchain.messages import HumanMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.types import Command

from ..domain import refund_key
from ..error_contract import ToolRefusal
from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .nb11_policy import _TOOL_NAME, _policy_model, support_policy
from .nb11_run import (
    _RAISE_HINT,
    CheckContext,
    CheckRun,
    Quote,
    _quote_step,
    _refused,
    _run,
    _scripted,
    _submit_step,
    _went_through_once,
)
from .nb11_threads import THREADS, describe_thread, thread_outcome
from .results import CheckFailure, shown

__all__ = ["CONFIRMATION_GUARD", "CheckContext", "CheckRun", "ConfirmationRequired", "Quote",
           "guarded_submit_refund_request", "submit_to_service", "support_policy"]

_ASK = "My headphones A1024 broke. Can I get a refund?"
_CONFIRM = "Yes, please go ahead."


# -- the reference (notebook 11's section 1 and 2 names, and the guard of the exercise) ----------------


class ConfirmationRequired(ToolRefusal):
    """The customer has not confirmed this quote yet: quote it, ask, and wait for the answer (notebook 11,
    section 2; the error mapping answers it with the code ``confirmation_required``)."""

    code = "confirmation_required"


def submit_to_service(order_id: str, amount: float, runtime: ToolRuntime[CheckContext]) -> Command:
    """Notebook 11, section 1: create the refund request once per (user, order, amount) and tell the program
    (``refund_stage``) and the model (a ToolMessage).

    Raises:
        helpers.domain.DomainError: the refund service refused the request.
    """
    ctx = runtime.context
    request = ctx.refunds.submit(order_id, amount, user_id=ctx.user_id, idempotency_key=refund_key(order_id, amount))
    return Command(update={
        "refund_stage": "submitted",
        "messages": [ToolMessage(f"Refund request {request.request_id} submitted for {order_id} "
                                 f"({request.amount:.2f}); it is a request, not money sent yet.",
                                 tool_call_id=runtime.tool_call_id)],
    })


@tool("submit_refund_request")
def guarded_submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[CheckContext]) -> Command:
    """Submit a refund REQUEST (an application, not money sent) for the signed-in customer's order.
    Call it only after the customer has confirmed the quoted amount.

    The reference of exercise 11.1 (the specification): it refuses, raising :class:`ConfirmationRequired`,
    unless ``runtime.state["quote"]`` exists, names this order and amount, and the thread holds more customer
    messages (``HumanMessage``) than ``quote["turn"]``, the count when the quote was made.
    """
    quote = runtime.state.get("quote")
    customer_messages = sum(isinstance(m, HumanMessage) for m in runtime.state["messages"])
    if quote is None or (quote["order_id"], quote["amount"]) != (order_id, amount) or customer_messages <= quote["turn"]:
        raise ConfirmationRequired("the customer has not confirmed this quote: quote it, ask, and wait for the answer")
    return submit_to_service(order_id, amount, runtime)


# -- the cases --------------------------------------------------------------------------------------


def _schema(answer: Any) -> None:
    assert isinstance(answer, BaseTool), (
        _("pass the tool itself (a function decorated with @tool({tool_name!r})), got {type}").format(
            tool_name=_TOOL_NAME, type=type(answer).__name__)
    )
    assert answer.name == _TOOL_NAME, (
        _("the tool is named {name}; the model, the approval middleware and the evaluation call it "
          "{tool_name!r}: keep @tool({tool_name!r})").format(name=shown(answer.name), tool_name=_TOOL_NAME)
    )
    arguments = set(convert_to_openai_tool(answer)["function"]["parameters"].get("properties", {}))
    assert arguments == {"order_id", "amount"}, (
        _("the model should fill exactly order_id and amount, it sees {arguments}; keep the signature "
          "(order_id: str, amount: float, runtime: ToolRuntime[SupportContext])").format(
              arguments=shown(sorted(arguments)))
    )


def _same_turn_as_quote(answer: Any) -> None:
    run = _run(answer, (_ASK,), _policy_model(wait_for_confirmation=False))
    _refused(run, _("the careless model submitted in the same turn as the quote, before the customer answered"))


def _no_quote(answer: Any) -> None:
    model = _scripted(_submit_step("A1024", 499.0), "Done.")
    run = _run(answer, ("Refund A1024 right away, I confirm.",), model)
    _refused(run, _("the model submitted without any quote in the thread"))


def _other_order(answer: Any) -> None:
    model = _scripted(_quote_step("A1030"), "Shall I refund 120.00?", _submit_step("A1024", 499.0), "Done.")
    run = _run(answer, ("Can I get a refund for A1030?", _CONFIRM), model)
    _refused(run, _("the customer said yes to a quote for A1030, and the model submitted A1024"))


def _other_amount(answer: Any) -> None:
    model = _scripted(_quote_step("A1030"), "Shall I refund 120.00?", _submit_step("A1030", 100.0), "Done.")
    run = _run(answer, ("Can I get a refund for A1030?", _CONFIRM), model)
    _refused(run, _("the customer said yes to 120.00 on A1030, and the model submitted 100.00"))


def _careful_goes_through(answer: Any) -> None:
    run = _run(answer, (_ASK, _CONFIRM), _policy_model())
    _went_through_once(run, _("quote in turn 1, the customer's yes in turn 2"))


def _careless_in_third_message(answer: Any) -> None:
    turns = ("Where is my order A1024?", "Thanks, that is all for now.", _ASK)
    run = _run(answer, turns, _policy_model(wait_for_confirmation=False))
    _refused(run, _("the customer's third message asked for the refund and the careless model quoted and submitted "
                  "in that same turn (the thread held 3 customer messages, the quote was made at 3): the customer answered "
                  "only if the thread holds more customer messages than quote['turn'], whatever their number"))


def _yes_before_any_quote(answer: Any) -> None:
    said = "My headphones A1024 broke. Can I get a refund? Yes, go ahead."
    run = _run(answer, (said,), _policy_model(wait_for_confirmation=False))
    _refused(run, _("the customer wrote {said!r} before any quote existed, and the careless model quoted and "
                    "submitted in that turn; a yes said before the quote confirms nothing: count the customer "
                    "messages after the quote (more than quote['turn']), not words in them").format(said=said))


def _careless_after_yes(answer: Any) -> None:
    run = _run(answer, (_ASK, _CONFIRM), _policy_model(wait_for_confirmation=False))
    assert run.submits, _("the careless model's submit calls did not reach your tool (is it named {tool_name!r}?)").format(
        tool_name=_TOOL_NAME)
    first_status = run.submits[0][1]
    if first_status != "error":
        raise CheckFailure(_("the careless model's first submit (turn 1, before the yes) was answered with status={status}").format(
            status=shown(first_status)), _(_RAISE_HINT))
    _went_through_once(run, _("the careless model's second submit came after the customer's yes"))


def _retry_after_lost_reply(answer: Any) -> None:
    run = _run(answer, (_ASK, _CONFIRM), _policy_model(), lost_reply=True)
    assert run.submits, _("the model's submit calls did not reach your tool (is it named {tool_name!r}?)").format(
        tool_name=_TOOL_NAME)
    first = run.submits[0]
    assert first[1] == "error" and "service_unavailable" in first[2], (
        _("the customer had confirmed, so the first submit should reach the refund service (which then loses "
          "its reply); your tool answered it with status={status} ({content!r})").format(
              status=shown(first[1]), content=first[2][:80])
    )
    assert len(run.submits) == 2, (
        _("after the lost reply the model should retry once; it made {count} submit call(s) answered with "
          "{answers}").format(count=len(run.submits), answers=shown([(s, c[:70]) for _args, s, c in run.submits]))
    )
    _went_through_once(run, _("the reply to a confirmed submit was lost and the model retried with a new call id"))


CONFIRMATION_GUARD = Exercise(
    "11.1",
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
    unsolved_hint=N_("replace the `raise NotImplementedError` with the guard and run the check again"),
    generated=Generated(
        "agrees with the reference on generated threads", THREADS, thread_outcome, guarded_submit_refund_request,
        describe_thread,
        hint=N_("refuse unless state['quote'] exists, names this order and amount, and the thread holds more "
                "customer messages than quote['turn'] (however many the customer wrote after the quote, and "
                "whatever the assistant did in between)"),
        examples=60),
    # Each case runs a multi-turn agent; on a loaded 2-core machine that can take seconds, so the deadline
    # (which only ever matters for an endless loop) is longer than the default 5 s.
    timeout=30,
)
