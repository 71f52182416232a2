"""Verifiers of notebook 09's self-check questions (``helpers/selfcheck/nb09.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware, ToolRetryMiddleware

from helpers import scripted_model, tool_call
from helpers.domain import DomainError, RefundService, refund_key
from helpers.error_contract import CONTRACT, error_mapping
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.refund_desk import ASK, Customer, submit, submit_refund_request


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
