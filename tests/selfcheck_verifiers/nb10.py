"""Verifiers of notebook 10's self-check questions (``helpers/selfcheck/nb10.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest
from langchain.agents.middleware import ToolCallLimitMiddleware
from langchain.messages import ToolMessage
from langgraph.types import Command

from helpers.domain import RefundService
from helpers.scripted_moves import insists_on
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.refund_desk import ASK, Customer, gated_agent, submit


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


def verify_run_limit_across_resumes(q):
    def pauses(**limit):
        service = RefundService()
        agent = gated_agent([insists_on(submit("A1024", 499.0))] * 10,
                            middleware=[ToolCallLimitMiddleware(tool_name="submit_refund_request",
                                                                exit_behavior="end", **limit)])
        config = {"configurable": {"thread_id": "loop"}}
        context = Customer("user-42", service)
        reject = {"decisions": [{"type": "reject", "message": "No refund without a photo."}]}
        out = agent.invoke(ASK, config, context=context, version="v2")
        count = 0
        while out.interrupts and count < 5:
            count += 1
            out = agent.invoke(Command(resume=reject), config, context=context, version="v2")
        assert service.submit_attempts == 0
        return count, bool(out.interrupts)

    assert pauses(thread_limit=2) == (2, False)         # counts across resumes: the loop ends
    assert pauses(run_limit=2) == (5, True)             # starts at zero on every resume: still paused
    return pick(q, "Nothing: every resume is a new run")
