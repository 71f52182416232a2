"""Verifiers of notebook 11's self-check questions (``helpers/selfcheck/nb11.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest
from langchain.agents import create_agent
from langchain.messages import AIMessage
from langchain.tools import tool
from langgraph.types import Command

from helpers import scripted_model
from helpers.bug_answer import answer_bugs
from helpers.domain import RefundService
from helpers.error_contract import (
    CONTRACT,
    ErrorView,
    ToolRefusal,
    error_mapping,
    read_error,
)
from helpers.exercises import nb11
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.refund_desk import ASK, Customer, gated_agent, submit
from tests.solutions import nb11 as nb11_solutions


def verify_resume_without_context(q):
    service = RefundService()
    agent = gated_agent([[submit("A1024", 499.0)], "Done."])
    config = {"configurable": {"thread_id": "no-context"}}
    agent.invoke(ASK, config, context=Customer("user-42", service))
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'refunds'"):
        agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    assert agent.get_state(config).next == ("tools",) and service.submit_attempts == 0
    out = agent.invoke(None, config, context=Customer("user-42", service), version="v2")
    assert out.interrupts == () and len(service.requests) == 1
    return pick(q, "runtime.context None")


def verify_lost_reply_approvals(q):
    def retry_after_unknown(request):
        error = read_error(request.messages[-1])
        return [submit("A1024", 499.0)] if error and error["outcome"] == "unknown" else "Done."

    service = RefundService()
    service.simulate_outage(after_commit=True)
    agent = gated_agent([[submit("A1024", 499.0)], retry_after_unknown, retry_after_unknown],
                        middleware=[error_mapping(CONTRACT)])
    config, context = {"configurable": {"thread_id": "lost"}}, Customer("user-42", service)
    out = agent.invoke(ASK, config, context=context, version="v2")
    approvals = 0
    while out.interrupts:
        approvals += 1
        out = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config, context=context, version="v2")
    calls = [c["id"] for m in out.value["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    assert calls == ["call_1", "call_2"]
    requests = len(service.requests)
    return pick(q, f"{requests} request{'s' if requests > 1 else ''}, {approvals} approval{'s' if approvals > 1 else ''}")


class NotConfirmed(ToolRefusal):
    code = "confirmation_required"


def verify_guard_raises_valueerror(q):
    def agent_whose_guard_raises(exc: Exception):
        @tool("submit_refund_request")
        def guarded(order_id: str, amount: float) -> str:
            """Submit a refund request once the customer confirmed."""
            raise exc

        contract = CONTRACT | {"confirmation_required": ErrorView("refused", "Ask the customer first.", "Shall I?")}
        return create_agent(scripted_model([[submit("A1024", 499.0)], "ok"]), [guarded],
                            middleware=[answer_bugs(), error_mapping(contract)])   # build_agent's order

    answer = agent_whose_guard_raises(NotConfirmed("not confirmed")).invoke(ASK)["messages"][2]   # the right way
    assert answer.status == "error" and read_error(answer)["error"] == "confirmation_required"
    assert "not confirmed" not in answer.content
    answer = agent_whose_guard_raises(ValueError("not confirmed")).invoke(ASK)["messages"][2]
    assert answer.status == "error" and "not confirmed" not in answer.content
    return pick(q, f"An error ToolMessage with the code {read_error(answer)['error']}")


def verify_what_makes_row_3_pass(q):
    """The exercise's hidden check plays the careless policy with a reviewer who approves everything."""
    same_turn = "careless model: a submit in the same turn as the quote is refused"

    def status(answer):
        return {r.name: r.status for r in nb11.CONFIRMATION_GUARD.evaluate(answer).results}[same_turn]

    assert status(nb11_solutions.guarded_submit_refund_request) == "pass"
    assert status(nb11_solutions.wrong_unguarded) == "fail"      # approve/reject only, prompt or not
    return pick(q, "A guard in the submit tool")
