"""The hidden cases of exercise 09.1 (``nb09.MAP_ERRORS``): the error-mapping middleware.

The rules they check are in :mod:`helpers.exercises.nb09`'s docstring.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import interrupt

from ..domain import (
    DomainError,
    PermissionDenied,
    RefundService,
    ServiceUnavailable,
)
from ..i18n import _
from .nb09_agent import (
    _CUSTOMER,
    _answer_of,
    _facts_key,
    _run,
    _submit_tool,
    as_middleware,
)
from .results import CheckFailure, clipped, shown

__all__ = []


#: Internal text the hidden checks put into exception messages; none of it may reach the model.
_SECRETS = ("user-7", "row 991", "refunds-db-2.internal", "Traceback")


# -- 09.1: the error-mapping middleware ----------------------------------------------------------


def _error_scenario(code: str) -> tuple[Any, dict, Callable[[str, float, Any], str]]:
    """A fresh service, the model's arguments and the key for a submit that fails with ``code``."""
    service = RefundService()
    key = _facts_key
    args = {
        "invalid_request": {"order_id": "", "amount": 10.0},  # valid JSON for the schema, refused by the service
        "order_not_found": {"order_id": "Z9999", "amount": 10.0},
        "permission_denied": {"order_id": "B2048", "amount": 159.0},
        "not_refundable": {"order_id": "A1028", "amount": 100.0},
        "invalid_amount": {"order_id": "A1024", "amount": -5.0},
        "amount_exceeds_refundable": {"order_id": "A1024", "amount": 600.0},
        "idempotency_conflict": {"order_id": "A1024", "amount": 50.0},
        "service_unavailable": {"order_id": "A1024", "amount": 200.0},
    }[code]
    if code == "idempotency_conflict":  # a tool whose key names only the order, used before for 100.00

        def key(order_id: str, amount: Any, runtime: Any) -> str:
            return f"refund:{order_id}"

        service.submit("A1024", 100.0, user_id=_CUSTOMER.user_id, idempotency_key="refund:A1024")
    if code == "service_unavailable":
        service.simulate_outage(after_commit=True)  # committed, then the reply is lost
    return service, args, key


def _payload(message: Any, code: str) -> dict:
    content = message.content
    assert isinstance(content, str), (
        _("the ToolMessage content should be the string model_view(exc), got {type}").format(
            type=type(content).__name__)
    )
    try:
        payload = json.loads(content)
    except ValueError:
        raise AssertionError(
            _("the content should be model_view(exc), a JSON object with the code, got {content!r}").format(
                content=clipped(content, 80))
        ) from None
    assert isinstance(payload, dict) and payload.get("error") == code, (
        _("expected the stable code {code!r} in the content's 'error' field, got {content!r}").format(
            code=code, content=clipped(content, 100))
    )
    return payload


def _domain_error_case(code: str) -> Callable[[Any], None]:
    def run(answer: Any) -> None:
        service, args, key = _error_scenario(code)
        call_id = f"call_{code}"
        try:
            out = _run([_submit_tool(service, key)],
                       [[{"name": "submit_refund_request", "args": args, "id": call_id, "type": "tool_call"}], "ok"],
                       [as_middleware(answer)])
        except DomainError as exc:
            raise CheckFailure(
                _("{type} ({code}) propagated out of the agent and ended the run").format(
                    type=type(exc).__name__, code=exc.code),
                _("catch DomainError around handler(request) and return a ToolMessage(status='error')"),
            ) from None
        message = _answer_of(out, call_id)
        assert message.status == "error", _("a {code} answer must have status='error', got {status}").format(
            code=code, status=shown(message.status))
        payload = _payload(message, code)
        if code == "service_unavailable":
            assert payload.get("outcome") == "unknown", (
                _("the service committed and then the reply was lost: the model must hear outcome 'unknown' "
                  "(model_view does this), not {outcome}").format(outcome=shown(payload.get("outcome")))
            )

    return run


def _no_internals(answer: Any) -> None:
    raised = {
        "call_leak_1": PermissionDenied("order B2048 belongs to user-7 (owner lookup row 991)", order_id="B2048"),
        "call_leak_2": ServiceUnavailable("upstream 503 from refunds-db-2.internal\nTraceback (most recent call last): ...",
                                          order_id="A1024"),
    }

    @tool("submit_refund_request")
    def leaky(order_id: str, amount: float) -> str:
        """Create a refund request (a backend whose error messages carry internals)."""
        raise raised["call_leak_1" if order_id == "B2048" else "call_leak_2"]

    for call_id, args in (("call_leak_1", {"order_id": "B2048", "amount": 1.0}),
                          ("call_leak_2", {"order_id": "A1024", "amount": 1.0})):
        out = _run([leaky], [[{"name": "submit_refund_request", "args": args, "id": call_id, "type": "tool_call"}], "ok"],
                   [as_middleware(answer)])
        content = str(_answer_of(out, call_id).content)
        leaked = [s for s in _SECRETS if s in content]
        assert not leaked, (
            _("the model was told internals ({leaked}): build the content from the error code "
              "(model_view(exc)), never from str(exc) or a traceback").format(leaked=", ".join(leaked))
        )


def _bug_propagates(answer: Any) -> None:
    @tool("submit_refund_request")
    def buggy(order_id: str, amount: float) -> str:
        """Create a refund request (version with a bug)."""
        return {"tier": "gold"}["level"]  # KeyError: a programming error

    try:
        out = _run([buggy], [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 1.0},
                               "id": "call_bug", "type": "tool_call"}], "ok"], [as_middleware(answer)])
    except KeyError:
        return
    message = _answer_of(out, "call_bug")
    raise AssertionError(
        _("a KeyError (a bug in the tool) was turned into a ToolMessage ({content!r}): only a DomainError is "
          "mapped; a bug must propagate so that it is seen and fixed").format(content=clipped(message.content, 60))
    )


def _interrupt_passes(answer: Any) -> None:
    @tool
    def ask_manager(order_id: str) -> str:
        """Ask a manager to approve a refund (pauses the run)."""
        return f"manager said {interrupt({'approve_refund_for': order_id})}"

    out = _run([ask_manager], [[{"name": "ask_manager", "args": {"order_id": "A1029"}, "id": "call_ask",
                                 "type": "tool_call"}], "ok"], [as_middleware(answer)],
               checkpointer=InMemorySaver(), config={"configurable": {"thread_id": "check-interrupt"}})
    assert out.interrupts, (
        _("a tool that calls interrupt() no longer pauses the run: interrupt() raises GraphInterrupt, an "
          "Exception subclass; catch DomainError only (or re-raise langgraph.errors.GraphBubbleUp)")
    )


def _success_unchanged(answer: Any) -> None:
    service = RefundService()
    out = _run([_submit_tool(service, _facts_key)],
               [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 100.0}, "id": "call_ok",
                  "type": "tool_call"}], "ok"], [as_middleware(answer)])
    message = _answer_of(out, "call_ok")
    assert message.status == "success" and message.content == "refund request RF-0001 registered for A1024 (100.00)", (
        _("a successful call must come back unchanged; got status={status}, content={content!r}").format(
            status=shown(message.status), content=clipped(message.content, 80))
    )
    assert service.submit_attempts == 1, _("the middleware ran the tool {count} times; call handler once").format(
        count=service.submit_attempts)


def _argument_errors_unchanged(answer: Any) -> None:
    service = RefundService()
    out = _run([_submit_tool(service, _facts_key)],
               [[{"name": "submit_refund_request", "args": {"order_id": "A1024"}, "id": "call_args",
                  "type": "tool_call"}], "ok"], [as_middleware(answer)])
    message = _answer_of(out, "call_args")
    assert message.status == "error" and "amount" in str(message.content) and "Field required" in str(message.content), (
        _("ToolNode answers a missing argument itself (\"... amount: Field required ...\"); pass that ToolMessage "
          "through unchanged, got {content!r}").format(content=clipped(message.content, 80))
    )


def _parallel_calls(answer: Any) -> None:
    service = RefundService()
    calls = [{"name": "submit_refund_request", "args": {"order_id": "B2048", "amount": 10.0}, "id": "call_a",
              "type": "tool_call"},
             {"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 10.0}, "id": "call_b",
              "type": "tool_call"}]
    out = _run([_submit_tool(service, _facts_key)], [calls, "ok"], [as_middleware(answer)])
    first, second = _answer_of(out, "call_a"), _answer_of(out, "call_b")
    assert first.status == "error" and second.status == "success", (
        _("two calls in one reply: call_a (another customer's order) must get the error and call_b the success; "
          "got call_a status={first}, call_b status={second}").format(first=shown(first.status),
                                                                      second=shown(second.status))
    )
    _payload(first, "permission_denied")


def _probe_mapping(answer: Any) -> None:
    _run([_submit_tool(RefundService(), _facts_key)],
         [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 1.0}, "id": "call_probe",
            "type": "tool_call"}], "ok"], [as_middleware(answer)])


#: Every code of ``helpers.domain.ErrorCode``: each case makes the real service raise its class. The most
#: telling first (a shared FAIL row shows the first): another customer's order, the notebook's own example.
_CODES = ("permission_denied", "order_not_found", "not_refundable", "invalid_amount", "amount_exceeds_refundable",
          "idempotency_conflict", "service_unavailable", "invalid_request")
