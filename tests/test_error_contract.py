"""The error contract (helpers.error_contract): three views of one refusal, and the middleware that applies it."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain.messages import HumanMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import interrupt

from helpers import scripted_model, tool_call
from helpers.domain import (
    AmountExceedsRefundable,
    DomainError,
    PermissionDenied,
    RefundService,
    ServiceUnavailable,
    refund_key,
)
from helpers.error_contract import (
    CONTRACT,
    FALLBACK,
    ErrorView,
    ToolRefusal,
    domain_codes,
    error_mapping,
    is_refusal,
    log_record,
    missing_codes,
    model_view,
    read_error,
    view_for,
)


@dataclass(frozen=True)
class Ctx:
    user_id: str


class NotConfirmed(ToolRefusal):
    code = "not_confirmed"


def test_every_domain_code_has_an_entry():
    assert missing_codes() == []
    assert {"permission_denied", "service_unavailable"} <= set(domain_codes())
    assert missing_codes({}) == domain_codes()


def test_only_the_lost_reply_is_unknown():
    unknown = sorted(code for code, view in CONTRACT.items() if view.outcome == "unknown")
    assert unknown == ["service_unavailable"]
    transient = sorted(cls.code for cls in DomainError.__subclasses__() if cls.retryable)
    assert transient == unknown, "a transient error is exactly the one whose outcome is unknown"


def test_the_contract_is_read_only_and_extends_with_a_union():
    with pytest.raises(TypeError):
        CONTRACT["x"] = FALLBACK  # type: ignore[index]
    extended = CONTRACT | {"not_confirmed": ErrorView("refused", "Ask the customer first.", "Shall I?")}
    assert extended["not_confirmed"].model == "Ask the customer first." and "not_confirmed" not in CONTRACT


def test_model_view_has_code_outcome_guidance_and_only_safe_details():
    exc = AmountExceedsRefundable("amount 600.00 exceeds 499.00 (db row 991)", order_id="A1024", requested=600.0,
                                  refundable=499.0, owner="user-7")
    payload = json.loads(model_view(exc))
    assert payload == {"error": "amount_exceeds_refundable", "outcome": "refused",
                       "message": CONTRACT["amount_exceeds_refundable"].model,
                       "order_id": "A1024", "requested": 600.0, "refundable": 499.0}
    assert "row 991" not in model_view(exc) and "user-7" not in model_view(exc)


def test_model_view_of_a_lost_reply_says_unknown_not_the_exception_text():
    exc = ServiceUnavailable("refund service timed out after accepting the request", order_id="A1024")
    payload = json.loads(model_view(exc))
    assert payload["outcome"] == "unknown" and "timed out" not in payload["message"]


def test_unknown_codes_fall_back_and_refusals_of_a_tool_use_the_given_contract():
    assert view_for("no_such_code") is FALLBACK
    assert json.loads(model_view(NotConfirmed("not yet")))["message"] == FALLBACK.model
    contract = CONTRACT | {"not_confirmed": ErrorView("refused", "Ask the customer first.", "Shall I?")}
    assert json.loads(model_view(NotConfirmed("not yet"), contract))["message"] == "Ask the customer first."


def test_is_refusal_tells_refusals_from_bugs():
    assert is_refusal(PermissionDenied("x")) and is_refusal(NotConfirmed("x"))
    assert not is_refusal(ValueError("x")) and not is_refusal(KeyError("x"))


def test_read_error_reads_only_contract_payloads():
    good = ToolMessage(model_view(PermissionDenied("x", order_id="B2048")), tool_call_id="c1", status="error")
    assert read_error(good)["error"] == "permission_denied"
    assert read_error(ToolMessage(good.content, tool_call_id="c1")) is None  # status success
    assert read_error(ToolMessage("Error invoking tool ...", tool_call_id="c1", status="error")) is None
    assert read_error(ToolMessage('{"error": "x"}', tool_call_id="c1", status="error")) is None  # no outcome
    assert read_error(HumanMessage("hi")) is None


# -- the middleware in a real create_agent -----------------------------------------------------


def _refund_tool(service: RefundService):
    @tool
    def submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[Ctx]) -> str:
        """Create a refund request."""
        if amount == 13.0:
            raise NotConfirmed("the customer has not confirmed", order_id=order_id)
        request = service.submit(order_id, amount, user_id=runtime.context.user_id,
                                 idempotency_key=refund_key(order_id, amount))
        return f"registered {request.request_id}"

    return submit_refund_request


def _run(tools, calls, middleware, **kwargs):
    agent = create_agent(scripted_model([calls, "ok"]), tools, context_schema=Ctx, middleware=middleware, **kwargs)
    return agent.invoke({"messages": [HumanMessage("refund")]}, kwargs.get("config"), context=Ctx("user-42"))


def test_error_mapping_answers_each_refusal_with_its_call_id_and_logs_it():
    service, log = RefundService(), []
    calls = [tool_call("submit_refund_request", {"order_id": "B2048", "amount": 10.0}, "call_a"),
             tool_call("submit_refund_request", {"order_id": "A1024", "amount": 13.0}, "call_b"),
             tool_call("submit_refund_request", {"order_id": "A1024", "amount": 10.0}, "call_c")]
    contract = CONTRACT | {"not_confirmed": ErrorView("refused", "Ask first.", "Shall I?")}
    result = _run([_refund_tool(service)], calls, [error_mapping(contract, log=log)])
    answers = {m.tool_call_id: m for m in result["messages"] if isinstance(m, ToolMessage)}
    assert (answers["call_a"].status, read_error(answers["call_a"])["error"]) == ("error", "permission_denied")
    assert read_error(answers["call_b"])["message"] == "Ask first."
    assert (answers["call_c"].status, answers["call_c"].content) == ("success", "registered RF-0001")
    log.sort(key=lambda r: r["tool_call_id"])  # parallel calls run in a thread pool: any order
    assert [(r["code"], r["tool_call_id"], r["user_id"]) for r in log] == [
        ("permission_denied", "call_a", "user-42"), ("not_confirmed", "call_b", "user-42")]
    assert log[0]["exception"] == "PermissionDenied: order B2048 does not belong to user-42"
    assert log[0]["args"] == {"order_id": "B2048", "amount": 10.0}


def test_error_mapping_lets_a_bug_end_the_run():
    @tool
    def broken(order_id: str) -> str:
        """A tool with a bug."""
        return {"a": 1}["b"]

    with pytest.raises(KeyError):
        _run([broken], [tool_call("broken", {"order_id": "A1024"})], [error_mapping()])


def test_error_mapping_lets_an_interrupt_pause_the_run():
    @tool
    def ask_manager(order_id: str) -> str:
        """Ask a manager (pauses)."""
        return interrupt({"order": order_id})

    agent = create_agent(scripted_model([[tool_call("ask_manager", {"order_id": "A1029"})], "ok"]), [ask_manager],
                         middleware=[error_mapping()], checkpointer=InMemorySaver())
    out = agent.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": "t"}}, version="v2")
    assert out.interrupts and not [m for m in out.value["messages"] if isinstance(m, ToolMessage)]


def test_log_record_without_a_context():
    class Request:
        tool_call = {"name": "t", "args": {}, "id": "c9"}
        runtime = None

    record = log_record(ValueError("boom"), Request())
    assert record == {"code": None, "tool": "t", "tool_call_id": "c9", "args": {}, "user_id": None,
                      "exception": "ValueError: boom"}
