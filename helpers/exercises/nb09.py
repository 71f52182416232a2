"""Exercises for notebook 09 · errors and high-risk tools.

``MAP_ERRORS`` (09.1): the learner writes the error-mapping middleware, a ``wrap_tool_call``
function ``map_refund_errors(request, handler)`` (decorated with
``langchain.agents.middleware.wrap_tool_call`` or plain; both are accepted). The rules:

* a tool call that succeeds returns ``handler(request)``'s result unchanged;
* a :class:`helpers.domain.DomainError` becomes ``ToolMessage(status="error")`` answering the
  call's own ``tool_call_id``, whose content is ``model_view(exc)`` (the notebook's, which is
  :func:`helpers.error_contract.model_view`): a JSON object with the stable ``error`` code and
  an ``outcome`` (``"unknown"`` for ``service_unavailable``: the write may have happened), and
  none of the exception's internal text;
* anything else is a bug and propagates (the run ends), and LangGraph's control-flow
  exceptions (an ``interrupt()`` inside a tool raises ``GraphInterrupt``, an ``Exception``
  subclass) pass through untouched.

``CHOOSE_KEY`` (09.2): the learner writes ``line_key(order_id, line, amount, runtime) -> str``,
the idempotency key of a tool that refunds single order lines (``submit_line_refund``; each
line is refunded at most once), passed to :meth:`RefundService.submit`. The decision is which
facts identify the request: the order and the line do; the amount is a detail of it (a second
amount for the same line must be refused as ``idempotency_conflict``, not refunded again), and
the tool call id must not appear (a model retry with a new call id is the same request).
``refund_key`` (order and amount) is the wrong answer here: it merges two lines of equal amount.
Nothing outside the request belongs in the key either: the same line asked for in a later run of
the thread, from another thread of the same customer, or on another day is the same request (the
day case moves the clock one day on while the key is made: ``time.time`` and friends, and
``datetime.datetime.now``, see :func:`_days_later`), and a second amount is a detail whatever its
size (20.00, 25.00 and 120.00 for one line: a key with ``amount // 100`` in it fails).

Every hidden check builds a fresh :class:`RefundService` and runs a real ``create_agent``
(langchain 1.5.2) with the offline scripted model, so the middleware sits exactly where
``ToolErrorMiddleware`` would.
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ToolRetryMiddleware, wrap_tool_call
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import interrupt

from ..domain import DomainError, PermissionDenied, RefundService, ServiceUnavailable, refund_key
from ..model import scripted_model
from .core import Case, Exercise
from .results import CheckFailure, clipped, shown

__all__ = ["CHOOSE_KEY", "CheckContext", "MAP_ERRORS", "as_middleware"]

#: Internal text the hidden checks put into exception messages; none of it may reach the model.
_SECRETS = ("user-7", "row 991", "refunds-db-2.internal", "Traceback")


@dataclass(frozen=True)
class CheckContext:
    """The context the hidden checks pass: the trusted, signed-in ``user_id``."""

    user_id: str


_CUSTOMER = CheckContext("user-42")


def as_middleware(answer: Any) -> Any:
    """The learner's answer as an ``AgentMiddleware``.

    Args:
        answer: an ``AgentMiddleware`` (e.g. from ``@wrap_tool_call``) or a plain function
            ``(request, handler) -> ToolMessage | Command``.

    Returns:
        the middleware instance to pass to ``create_agent(middleware=[...])``.

    Raises:
        AssertionError: the answer is neither (with a hint).
    """
    if isinstance(answer, AgentMiddleware):
        return answer
    if callable(answer):
        return wrap_tool_call(answer)
    raise AssertionError(
        f"expected a function (request, handler) or a @wrap_tool_call middleware, got {type(answer).__name__}"
    )


# -- the refund tool the checks run ---------------------------------------------------------


def _submit_tool(service: Any, key: Callable[[str, float, Any], str]):
    """A refund tool on ``service`` whose idempotency key is ``key(order_id, amount, runtime)``."""

    @tool
    def submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[CheckContext]) -> str:
        """Create a refund REQUEST (not money sent) for one of the signed-in customer's orders."""
        request = service.submit(order_id, amount, user_id=runtime.context.user_id,
                                 idempotency_key=key(order_id, amount, runtime))
        return f"refund request {request.request_id} registered for {order_id} ({request.amount:.2f})"

    return submit_refund_request


def _facts_key(order_id: str, amount: Any, runtime: Any) -> str:
    return refund_key(order_id, amount)


def _run(tools: Sequence[Any], script: Sequence[Any], middleware: Sequence[Any], *, checkpointer: Any = None,
         config: dict | None = None) -> Any:
    """One user turn through ``create_agent`` with a scripted model, on thread ``"check"`` unless ``config``
    names another; returns the ``GraphOutput`` (v2)."""
    agent = create_agent(scripted_model(script), list(tools), context_schema=CheckContext,
                         middleware=list(middleware), checkpointer=checkpointer)
    return agent.invoke({"messages": [HumanMessage("Please refund my order.")]},
                        config or {"configurable": {"thread_id": "check"}}, context=_CUSTOMER, version="v2")


def _answer_of(output: Any, call_id: str) -> Any:
    answers = [m for m in output.value["messages"] if isinstance(m, ToolMessage) and m.tool_call_id == call_id]
    assert answers, (
        f"no ToolMessage answers tool call {call_id!r}: return a ToolMessage with "
        "tool_call_id=request.tool_call['id']"
    )
    assert len(answers) == 1, f"tool call {call_id!r} got {len(answers)} ToolMessages; answer each call once"
    return answers[0]


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
        f"the ToolMessage content should be the string model_view(exc), got {type(content).__name__}"
    )
    try:
        payload = json.loads(content)
    except ValueError:
        raise AssertionError(
            f"the content should be model_view(exc), a JSON object with the code, got {clipped(content, 80)!r}"
        ) from None
    assert isinstance(payload, dict) and payload.get("error") == code, (
        f"expected the stable code {code!r} in the content's 'error' field, got {clipped(content, 100)!r}"
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
                f"{type(exc).__name__} ({exc.code}) propagated out of the agent and ended the run",
                "catch DomainError around handler(request) and return a ToolMessage(status='error')",
            ) from None
        message = _answer_of(out, call_id)
        assert message.status == "error", f"a {code} answer must have status='error', got {shown(message.status)}"
        payload = _payload(message, code)
        if code == "service_unavailable":
            assert payload.get("outcome") == "unknown", (
                "the service committed and then the reply was lost: the model must hear outcome 'unknown' "
                f"(model_view does this), not {shown(payload.get('outcome'))}"
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
            f"the model was told internals ({', '.join(leaked)}): build the content from the error code "
            "(model_view(exc)), never from str(exc) or a traceback"
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
        "a KeyError (a bug in the tool) was turned into a ToolMessage "
        f"({clipped(message.content, 60)!r}): only a DomainError is mapped; a bug must propagate so that it is seen and fixed"
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
        "a tool that calls interrupt() no longer pauses the run: interrupt() raises GraphInterrupt, an "
        "Exception subclass; catch DomainError only (or re-raise langgraph.errors.GraphBubbleUp)"
    )


def _success_unchanged(answer: Any) -> None:
    service = RefundService()
    out = _run([_submit_tool(service, _facts_key)],
               [[{"name": "submit_refund_request", "args": {"order_id": "A1024", "amount": 100.0}, "id": "call_ok",
                  "type": "tool_call"}], "ok"], [as_middleware(answer)])
    message = _answer_of(out, "call_ok")
    assert message.status == "success" and message.content == "refund request RF-0001 registered for A1024 (100.00)", (
        f"a successful call must come back unchanged; got status={shown(message.status)}, content={clipped(message.content, 80)!r}"
    )
    assert service.submit_attempts == 1, f"the middleware ran the tool {service.submit_attempts} times; call handler once"


def _argument_errors_unchanged(answer: Any) -> None:
    service = RefundService()
    out = _run([_submit_tool(service, _facts_key)],
               [[{"name": "submit_refund_request", "args": {"order_id": "A1024"}, "id": "call_args",
                  "type": "tool_call"}], "ok"], [as_middleware(answer)])
    message = _answer_of(out, "call_args")
    assert message.status == "error" and "amount" in str(message.content) and "Field required" in str(message.content), (
        "ToolNode answers a missing argument itself (\"... amount: Field required ...\"); pass that ToolMessage "
        f"through unchanged, got {clipped(message.content, 80)!r}"
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
        "two calls in one reply: call_a (another customer's order) must get the error and call_b the success; "
        f"got call_a status={shown(first.status)}, call_b status={shown(second.status)}"
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

MAP_ERRORS = Exercise(
    "09.1",
    "map domain errors to error ToolMessages",
    [
        Case("a successful call comes back unchanged", _success_unchanged),
        *[Case(f"{code} becomes an error ToolMessage with its code", _domain_error_case(code)) for code in _CODES],
        Case("no internals reach the model", _no_internals),
        Case("each of two calls in one reply gets its own answer", _parallel_calls),
        Case("argument errors keep ToolNode's answer", _argument_errors_unchanged),
        Case("a bug still propagates", _bug_propagates),
        Case("an interrupt inside a tool still pauses the run", _interrupt_passes),
    ],
    probe=_probe_mapping,
    none_hint="did you forget to return the handler's result (`return handler(request)`)? Without `return` the "
              "middleware gives None",
)


# -- 09.2: the key for refunds per order line ---------------------------------------------------


#: The real clock, taken when this module is imported: what :func:`_days_later` puts back.
_REAL_CLOCK = {name: getattr(time, name) for name in ("time", "time_ns", "localtime", "gmtime", "strftime", "ctime")}
_REAL_DATETIME = datetime.datetime


def _put_clock_back() -> None:
    """The real clock again (a stop that arrived inside :func:`_days_later`'s clean-up cannot leave it moved)."""
    for name, value in _REAL_CLOCK.items():
        setattr(time, name, value)
    datetime.datetime = _REAL_DATETIME


@contextmanager
def _days_later(days: int, answer: Any) -> Iterator[None]:
    """The wall clock ``days`` days later while the block runs, for the key function ``answer``.

    Moves ``time.time``, ``time.time_ns``, ``time.localtime``, ``time.gmtime``, ``time.strftime`` and
    ``time.ctime`` (``date.today()`` and ``datetime.today()`` read ``time.time``, CPython 3.11), and
    ``datetime.datetime.now`` / ``utcnow`` (which read the C clock): the ``datetime`` module's
    ``datetime`` and any name in the answer's globals bound to it are a subclass that moves them.
    Everything is put back when the block ends, even when it raises. Process-wide while it runs, so
    the checks use it only around one call of the key function (microseconds).
    """
    if not days:
        yield
        return
    shift = days * 86_400
    _put_clock_back()
    real, real_datetime = _REAL_CLOCK, _REAL_DATETIME

    def moved() -> float:
        return real["time"]() + shift

    class _MovedDatetime(real_datetime):  # type: ignore[misc, valid-type]
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return real_datetime.fromtimestamp(moved(), tz)

        @classmethod
        def utcnow(cls) -> Any:
            return real_datetime.fromtimestamp(moved(), datetime.timezone.utc).replace(tzinfo=None)

    fake = {
        "time": moved,
        "time_ns": lambda: real["time_ns"]() + shift * 1_000_000_000,
        "localtime": lambda secs=None: real["localtime"](moved() if secs is None else secs),
        "gmtime": lambda secs=None: real["gmtime"](moved() if secs is None else secs),
        "strftime": lambda fmt, t=None: real["strftime"](fmt, real["localtime"](moved()) if t is None else t),
        "ctime": lambda secs=None: real["ctime"](moved() if secs is None else secs),
    }
    names = getattr(answer, "__globals__", None)
    bound = [name for name, value in names.items() if value is real_datetime] if isinstance(names, dict) else []
    try:
        for name, value in fake.items():
            setattr(time, name, value)
        datetime.datetime = _MovedDatetime
        for name in bound:
            names[name] = _MovedDatetime
        yield
    finally:
        _put_clock_back()
        for name in bound:
            if names.get(name) is _MovedDatetime:
                names[name] = real_datetime


def _line_tool(service: Any, answer: Callable[[str, int, float, Any], str], clock: dict | None = None):
    """The line-refund tool with the learner's key; a non-string key is reported before the service sees it.

    ``clock["days"]`` (read at each call) moves the wall clock that many days on while the key is made."""

    @tool
    def submit_line_refund(order_id: str, line: int, amount: float, runtime: ToolRuntime[CheckContext]) -> str:
        """Create a refund REQUEST for one line of one of the signed-in customer's orders."""
        with _days_later((clock or {}).get("days", 0), answer):
            key = answer(order_id, line, amount, runtime)
        assert isinstance(key, str) and key, f"the key must be a non-empty string, got {shown(key)}"
        request = service.submit(order_id, amount, user_id=runtime.context.user_id, idempotency_key=key,
                                 reason=f"line {line}")
        return f"refund request {request.request_id} registered for line {line} of {order_id} ({request.amount:.2f})"

    return submit_line_refund


def _errors_as_messages():
    """The course's mapping, reduced to what the key checks need: a DomainError becomes its code."""
    @wrap_tool_call
    def codes(request: Any, handler: Any) -> Any:
        try:
            return handler(request)
        except DomainError as exc:
            return ToolMessage(json.dumps({"error": exc.code}), tool_call_id=request.tool_call["id"], status="error")

    return codes


def _line_call(order_id: str, line: int, amount: float, call_id: str | None = None) -> dict:
    return {"name": "submit_line_refund", "args": {"order_id": order_id, "line": line, "amount": amount},
            "id": call_id, "type": "tool_call"}


def _refunds(service: Any) -> list[tuple[str, float, str]]:
    return [(r.order_id, r.amount, r.reason) for r in service.requests]


def _runtime(call_id: str) -> Any:
    return SimpleNamespace(tool_call_id=call_id, context=_CUSTOMER, state={"messages": []},
                           config={"configurable": {"thread_id": "check"}})


def _key_is_the_request(answer: Any) -> None:
    value = answer("A1024", 2, 20.0, _runtime("call_9"))
    assert isinstance(value, str) and value, f"the key must be a non-empty string, got {shown(value)}"
    again = answer("A1024", 2, 20.0, _runtime("call_10"))
    assert again == value, (
        f"the same line gave two keys ({shown(value)}, {shown(again)}) for two tool calls: the key must not depend on the "
        "tool call id or on chance"
    )


def _same_call_replayed(answer: Any) -> None:
    service = RefundService()
    service.simulate_outage(after_commit=True)
    retry = ToolRetryMiddleware(max_retries=1, retry_on=lambda e: isinstance(e, DomainError) and e.retryable,
                                on_failure="error", initial_delay=0, jitter=False)
    _run([_line_tool(service, answer)], [[_line_call("A1024", 2, 20.0, "call_1")], "ok"], [_errors_as_messages(), retry])
    got = _refunds(service)
    assert len(got) == 1, (
        f"the same tool call ran twice (a retry after a lost reply): {len(got)} refunds were created; the key must "
        "be the same on every run of the same call (no random or per-attempt part)"
    )


def _model_retries_after_lost_reply(answer: Any) -> None:
    service = RefundService()
    service.simulate_outage(after_commit=True)
    _run([_line_tool(service, answer)],
         [[_line_call("A1024", 2, 20.0, "call_1")], [_line_call("A1024", 2, 20.0, "call_2")], "ok"],
         [_errors_as_messages()])
    got = _refunds(service)
    assert len(got) == 1, (
        f"the reply of call_1 was lost and the model asked again with a new tool call (call_2): {len(got)} refunds "
        "were created; a key that changes with the tool call id (or at random) cannot see that it is the same request"
    )


def _two_lines_same_amount(answer: Any) -> None:
    service = RefundService()
    _run([_line_tool(service, answer)],
         [[_line_call("A1024", 2, 20.0)], [_line_call("A1024", 3, 20.0)], "ok"], [_errors_as_messages()])
    got = _refunds(service)
    assert got == [("A1024", 20.0, "line 2"), ("A1024", 20.0, "line 3")], (
        f"lines 2 and 3 of A1024, 20.00 each, are two refunds, but {len(got)} were created: a key from the order and "
        "the amount (refund_key) cannot tell two lines apart; the line identifies the request"
    )


def _second_amount_same_line(answer: Any) -> None:
    service = RefundService()
    out = _run([_line_tool(service, answer)],
               [[_line_call("A1024", 2, 20.0, "call_1")], [_line_call("A1024", 2, 25.0, "call_2")],
                [_line_call("A1024", 2, 120.0, "call_3")], "ok"],
               [_errors_as_messages()])
    got = _refunds(service)
    assert len(got) == 1, (
        f"line 2 of A1024 was refunded {len(got)} times ({shown(got)}) for 20.00, 25.00 and 120.00: a line is refunded at "
        "most once, so the amount is a detail of the request, no part of it (not even rounded or in hundreds) "
        "identifies it; with the same key, the service refuses another amount as idempotency_conflict"
    )
    for call_id, amount in (("call_2", "25.00"), ("call_3", "120.00")):
        reply = _answer_of(out, call_id)
        assert reply.status == "error" and "idempotency_conflict" in str(reply.content), (
            f"the second amount ({amount}) for line 2 should be refused as idempotency_conflict, got "
            f"{clipped(reply.content, 80)!r}"
        )


def _line_runs(answer: Any, runs: Sequence[tuple[str, str, int]]) -> list[tuple[str, float, str]]:
    """Runs of one agent on one service and checkpointer: ``(thread_id, customer's words, days later)`` each,
    every run asking for line 2 of A1024 (20.00) with a new tool call id and a new context object; the refunds."""
    _put_clock_back()
    service, clock = RefundService(), {"days": 0}
    script: list[Any] = []
    for number in range(len(runs)):
        script += [[_line_call("A1024", 2, 20.0, f"call_{number + 1}")], "ok"]
    agent = create_agent(scripted_model(script), [_line_tool(service, answer, clock)], context_schema=CheckContext,
                         middleware=[_errors_as_messages()], checkpointer=InMemorySaver())
    for thread, words, days in runs:
        clock["days"] = days
        agent.invoke({"messages": [HumanMessage(words)]}, {"configurable": {"thread_id": thread}},
                     context=CheckContext(_CUSTOMER.user_id), version="v2")
    return _refunds(service)


def _asked_again(runs: Sequence[tuple[str, str, int]], situation: str, fix: str) -> Callable[[Any], None]:
    """A case: the ``runs`` of :func:`_line_runs` must create one refund; else ``situation``, the count, ``fix``."""

    def run(answer: Any) -> None:
        got = _line_runs(answer, runs)
        assert len(got) == 1, f"{situation}, and {len(got)} refunds were created: {fix}"

    return run


_ASK = "Please refund line 2 of A1024."
_later_run_same_thread = _asked_again(
    [("check", _ASK, 0), ("check", "Did that work? Refund line 2 of A1024, please.", 0)],
    "the customer asked for line 2 of A1024 again in a later run of the same thread",
    "what the customer wrote, the run, the step or the message count is not part of the request; build the key "
    "from the order and the line only")
_two_threads = _asked_again(
    [("chat-web", _ASK, 0), ("chat-phone", _ASK, 0)],
    "the same customer asked for line 2 of A1024 in two threads (two chats)",
    "the thread id names the conversation, not the request; leave it out of the key")
_two_days = _asked_again(
    [("check", _ASK, 0), ("check", _ASK, 1)],
    "the customer asked for line 2 of A1024 today and again tomorrow",
    "a date or a time in the key makes the same request new every day; leave the clock out of the key")


def _same_line_two_orders(answer: Any) -> None:
    service = RefundService()
    _run([_line_tool(service, answer)],
         [[_line_call("A1024", 1, 20.0)], [_line_call("A1030", 1, 20.0)], "ok"], [_errors_as_messages()])
    got = _refunds(service)
    assert [order for order, _, _ in got] == ["A1024", "A1030"], (
        f"line 1 of A1024 and line 1 of A1030 are two refunds, but {len(got)} were created: line numbers start again "
        "on every order, so the order id belongs in the key too"
    )


def _probe_key(answer: Any) -> None:
    answer("A1024", 2, 20.0, _runtime("call_probe"))


CHOOSE_KEY = Exercise(
    "09.2",
    "a key for refunds per order line",
    [
        Case("the key depends only on the request", _key_is_the_request),
        Case("a replay of the same call creates one refund", _same_call_replayed),
        Case("the model's retry with a new tool call creates one refund", _model_retries_after_lost_reply),
        Case("two lines of the same amount are two refunds", _two_lines_same_amount),
        Case("a second amount for a refunded line creates no second refund", _second_amount_same_line),
        Case("the same line number on two orders is two refunds", _same_line_two_orders),
        Case("the same line asked for again in a later run creates one refund", _later_run_same_thread),
        Case("the same line asked for from two threads creates one refund", _two_threads),
        Case("the same line asked for on two days creates one refund", _two_days),
    ],
    probe=_probe_key,
    # The run, thread and day cases run two agent turns each; on a loaded 2-core machine that can take
    # seconds, so the deadline (which only ever matters for an endless loop) is longer than the default 5 s.
    timeout=30,
)
