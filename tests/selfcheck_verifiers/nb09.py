"""Verifiers of notebook 09's self-check questions (``helpers/selfcheck/nb09.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware, ToolRetryMiddleware
from langchain.messages import ToolMessage
from langgraph.types import Command

from helpers import scripted_model, tool_call
from helpers.domain import DomainError, RefundService, refund_key
from helpers.error_contract import CONTRACT, error_mapping
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.refund_desk import (
    ASK,
    Customer,
    gated_agent,
    submit,
    submit_refund_request,
)


def verify_who_answers_a_bad_argument(q):
    seen = []

    def on_error(exc, request):
        seen.append(exc)
        return "mapped" if isinstance(exc, DomainError) else None

    agent = create_agent(scripted_model([[tool_call("submit_refund_request", {"order_id": "A1024"})], "ok"]),
                         [submit_refund_request], context_schema=Customer, middleware=[ToolErrorMiddleware(on_error)])
    answer = agent.invoke(ASK, context=Customer("user-42", RefundService()))["messages"][2]
    assert answer.status == "error" and answer.content.startswith("Error invoking tool 'submit_refund_request'")
    assert "amount: Field required" in answer.content and seen == []
    return pick(q, "ToolNode, before the tool runs")


def verify_default_retry_on_a_refusal(q):
    def attempts(**retry):
        service = RefundService()
        agent = create_agent(scripted_model([[submit("B2048", 159.0)], "ok"]), [submit_refund_request],
                             context_schema=Customer,
                             middleware=[error_mapping(CONTRACT),      # reports what the retries pass on
                                         ToolRetryMiddleware(max_retries=2, initial_delay=0, jitter=False, **retry)])
        agent.invoke(ASK, context=Customer("user-42", service))
        return service.submit_attempts

    assert attempts(retry_on=lambda exc: isinstance(exc, DomainError) and exc.retryable) == 1   # not "1" by default
    return pick(q, str(attempts()))


def verify_key_for_a_new_call(q):
    def refunds(first_key, second_key):
        """The first submit commits and its reply is lost; the model's new call submits again."""
        service = RefundService()
        service.simulate_outage(after_commit=True)
        with pytest.raises(DomainError) as lost:
            service.submit("A1024", 200.0, user_id="user-42", idempotency_key=first_key)
        assert lost.value.code == "service_unavailable" and len(service.requests) == 1   # committed, reply lost
        service.submit("A1024", 200.0, user_id="user-42", idempotency_key=second_key)
        return len(service.requests)

    assert refunds("call:call_1", "call:call_2") == 2                   # a key from the tool call id
    assert refunds("attempt-1", "attempt-2") == 2                       # a fresh key per attempt
    assert refunds(refund_key("A1024", 200.0), refund_key("A1024", 200)) == 1
    return pick(q, "refund_key(order_id, amount)")


def verify_two_gated_calls(q):
    def paused(thread):
        service = RefundService()
        agent = gated_agent([[submit("A1024", 100.0), submit("A1030", 50.0)], "Done."])
        config = {"configurable": {"thread_id": thread}}
        out = agent.invoke(ASK, config, context=Customer("user-42", service), version="v2")
        assert len(out.interrupts) == 1 and len(out.interrupts[0].value["action_requests"]) == 2
        return service, agent, config

    service, agent, config = paused("two")
    decisions = [{"type": "approve"}, {"type": "reject", "message": "photo first"}]
    out = agent.invoke(Command(resume={"decisions": decisions}), config, context=Customer("user-42", service),
                       version="v2")
    answers = {m.tool_call_id: m.status for m in out.value["messages"] if isinstance(m, ToolMessage)}
    assert out.interrupts == () and answers == {"call_1": "success", "call_2": "error"}
    assert [(r.order_id, r.amount) for r in service.requests] == [("A1024", 100.0)]

    service, agent, config = paused("one-decision")
    with pytest.raises(ValueError, match=r"Number of human decisions \(1\) does not match .* \(2\)"):
        agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config, context=Customer("user-42", service))
    return pick(q, "One resume: {\"decisions\"")


def verify_after_a_wrong_resume(q):
    service = RefundService()
    agent = gated_agent([[submit("A1024", 499.0)], "Done."])
    config = {"configurable": {"thread_id": "wrong"}}
    context = Customer("user-42", service)
    agent.invoke(ASK, config, context=context)
    for resume in ({"type": "approve"}, {"decisions": [{"type": "approve"}]}):
        with pytest.raises(KeyError, match="decisions"):
            agent.invoke(Command(resume=resume), config, context=context)
    assert service.submit_attempts == 0
    return pick(q, "the same KeyError")
