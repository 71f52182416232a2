"""The hidden cases of exercise 09.2 (``nb09.CHOOSE_KEY``): the idempotency key for refunds per order line.

The rules they check are in :mod:`helpers.exercises.nb09`'s docstring; :func:`_days_later` moves the
wall clock for the day case.
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain.agents.middleware import (
    ToolRetryMiddleware,
    wrap_tool_call,
)
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from ..domain import (
    DomainError,
    RefundService,
)
from ..i18n import N_, _
from ..model import scripted_model
from .nb09_agent import _CUSTOMER, CheckContext, _answer_of, _run
from .results import clipped, shown

__all__ = ["LINES", "REQUESTS", "describe_requests", "line_key", "requests_outcome"]


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
        assert isinstance(key, str) and key, _("the key must be a non-empty string, got {key}").format(key=shown(key))
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
    assert isinstance(value, str) and value, _("the key must be a non-empty string, got {key}").format(
        key=shown(value))
    again = answer("A1024", 2, 20.0, _runtime("call_10"))
    assert again == value, (
        _("the same line gave two keys ({first}, {second}) for two tool calls: the key must not depend on the "
          "tool call id or on chance").format(first=shown(value), second=shown(again))
    )


def _same_call_replayed(answer: Any) -> None:
    service = RefundService()
    service.simulate_outage(after_commit=True)
    retry = ToolRetryMiddleware(max_retries=1, retry_on=lambda e: isinstance(e, DomainError) and e.retryable,
                                on_failure="error", initial_delay=0, jitter=False)
    _run([_line_tool(service, answer)], [[_line_call("A1024", 2, 20.0, "call_1")], "ok"], [_errors_as_messages(), retry])
    got = _refunds(service)
    assert len(got) == 1, (
        _("the same tool call ran twice (a retry after a lost reply): {count} refunds were created; the key must "
          "be the same on every run of the same call (no random or per-attempt part)").format(count=len(got))
    )


def _model_retries_after_lost_reply(answer: Any) -> None:
    service = RefundService()
    service.simulate_outage(after_commit=True)
    _run([_line_tool(service, answer)],
         [[_line_call("A1024", 2, 20.0, "call_1")], [_line_call("A1024", 2, 20.0, "call_2")], "ok"],
         [_errors_as_messages()])
    got = _refunds(service)
    assert len(got) == 1, (
        _("the reply of call_1 was lost and the model asked again with a new tool call (call_2): {count} refunds "
          "were created; a key that changes with the tool call id (or at random) cannot see that it is the same "
          "request").format(count=len(got))
    )


def _two_lines_same_amount(answer: Any) -> None:
    service = RefundService()
    _run([_line_tool(service, answer)],
         [[_line_call("A1024", 2, 20.0)], [_line_call("A1024", 3, 20.0)], "ok"], [_errors_as_messages()])
    got = _refunds(service)
    assert got == [("A1024", 20.0, "line 2"), ("A1024", 20.0, "line 3")], (
        _("lines 2 and 3 of A1024, 20.00 each, are two refunds, but {count} were created: a key from the order and "
          "the amount (refund_key) cannot tell two lines apart; the line identifies the request").format(count=len(got))
    )


def _second_amount_same_line(answer: Any) -> None:
    service = RefundService()
    out = _run([_line_tool(service, answer)],
               [[_line_call("A1024", 2, 20.0, "call_1")], [_line_call("A1024", 2, 25.0, "call_2")],
                [_line_call("A1024", 2, 120.0, "call_3")], "ok"],
               [_errors_as_messages()])
    got = _refunds(service)
    assert len(got) == 1, (
        _("line 2 of A1024 was refunded {count} times ({refunds}) for 20.00, 25.00 and 120.00: a line is refunded "
          "at most once, so the amount is a detail of the request, no part of it (not even rounded or in hundreds) "
          "identifies it; with the same key, the service refuses another amount as idempotency_conflict").format(
            count=len(got), refunds=shown(got))
    )
    for call_id, amount in (("call_2", "25.00"), ("call_3", "120.00")):
        reply = _answer_of(out, call_id)
        assert reply.status == "error" and "idempotency_conflict" in str(reply.content), (
            _("the second amount ({amount}) for line 2 should be refused as idempotency_conflict, got "
              "{content!r}").format(amount=amount, content=clipped(reply.content, 80))
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
        assert len(got) == 1, _("{situation}, and {count} refunds were created: {fix}").format(
            situation=_(situation), count=len(got), fix=_(fix))

    return run


_ASK = "Please refund line 2 of A1024."
_later_run_same_thread = _asked_again(
    [("check", _ASK, 0), ("check", "Did that work? Refund line 2 of A1024, please.", 0)],
    N_("the customer asked for line 2 of A1024 again in a later run of the same thread"),
    N_("what the customer wrote, the run, the step or the message count is not part of the request; build the key "
       "from the order and the line only"))
_two_threads = _asked_again(
    [("chat-web", _ASK, 0), ("chat-phone", _ASK, 0)],
    N_("the same customer asked for line 2 of A1024 in two threads (two chats)"),
    N_("the thread id names the conversation, not the request; leave it out of the key"))
_two_days = _asked_again(
    [("check", _ASK, 0), ("check", _ASK, 1)],
    N_("the customer asked for line 2 of A1024 today and again tomorrow"),
    N_("a date or a time in the key makes the same request new every day; leave the clock out of the key"))


def _same_line_two_orders(answer: Any) -> None:
    service = RefundService()
    _run([_line_tool(service, answer)],
         [[_line_call("A1024", 1, 20.0)], [_line_call("A1030", 1, 20.0)], "ok"], [_errors_as_messages()])
    got = _refunds(service)
    assert [refund[0] for refund in got] == ["A1024", "A1030"], (
        _("line 1 of A1024 and line 1 of A1030 are two refunds, but {count} were created: line numbers start again "
          "on every order, so the order id belongs in the key too").format(count=len(got))
    )


def _probe_key(answer: Any) -> None:
    answer("A1024", 2, 20.0, _runtime("call_probe"))


# -- generated requests --------------------------------------------------------------------------


def line_key(order_id: str, line: int, amount: float, runtime: Any) -> str:
    """The reference of 09.2 (the specification): the order and the line identify a line refund; the amount is
    a detail of it (a second amount for the line is refused as ``idempotency_conflict``), and nothing of the
    call, the run, the thread or the clock belongs in the key (keys are already scoped per user by the
    service).

    Args:
        order_id, line, amount: the tool call's arguments.
        runtime: the tool's ``ToolRuntime`` (not read).

    Returns:
        e.g. ``"refund:A1024:line-2"``.
    """
    return f"refund:{order_id}:line-{line}"


#: What a generated request may ask for: ``(order, line, amount)``.
LINES = (("A1024", 2, 20.0), ("A1024", 3, 20.0), ("A1030", 2, 20.0), ("A1024", 2, 25.0), ("A1029", 1, 120.0),
         ("A1024", 2, 120.0), ("A1030", 1, 120.0), ("A1029", 1, 20.0))
#: The conversations a request may come from, and how the customer words it.
THREADS = ("chat-web", "chat-phone", "email")
WORDS = ("Please refund line {line} of {order}.", "Refund {order}, line {line}, please.",
         "Did that work? I still want line {line} of {order} refunded.")
#: How a request reaches the tool: a new call, the same call run again (a retry middleware's replay), or a new
#: call after the service lost its reply to this one.
KINDS = ("new call", "replay of the previous call", "reply lost")
#: How many days after the first request this one is made.
DAYS = (0, 1, 31, 366)

#: A generated series: one to four requests, each ``((order, line, amount), thread, words, kind, days later)``.
REQUESTS = st.lists(st.tuples(st.sampled_from(LINES), st.sampled_from(THREADS), st.integers(0, len(WORDS) - 1),
                              st.sampled_from(KINDS), st.sampled_from(DAYS)), min_size=1, max_size=4).map(tuple)


def requests_outcome(answer: Any, spec: tuple) -> list[str]:
    """The requests of ``spec`` (:data:`REQUESTS`) sent one after the other to a fresh refund service, each with
    the key ``answer(order_id, line, amount, runtime)`` made on its day (the clock moved as in the day case).

    Each request has its own tool call id (``call_<n>``), except a replay, which repeats the previous request
    with its call id; ``runtime.state["messages"]`` holds its thread's customer messages so far, this one last;
    ``runtime.config`` names its thread; ``runtime.context`` is a new context object of ``user-42``.

    Returns:
        per request, the request id the service returned (``RF-0001``, ...) or the code it refused with
        (``idempotency_conflict``, ``amount_exceeds_refundable``, ``service_unavailable`` for a lost reply).

    Raises:
        AssertionError: a key that is not a non-empty string.
    """
    service = RefundService()
    threads: dict[str, list] = {}
    results: list[str] = []
    previous: tuple | None = None
    for number, request in enumerate(spec, 1):
        (order_id, line, amount), thread, words, kind, days = request
        if kind == "replay of the previous call" and previous is not None:
            (order_id, line, amount), thread, words, days, call_id = previous
        else:
            call_id = f"call_{number}"
            threads.setdefault(thread, []).append(HumanMessage(WORDS[words].format(line=line, order=order_id)))
        runtime = SimpleNamespace(tool_call_id=call_id, context=CheckContext(_CUSTOMER.user_id),
                                  state={"messages": list(threads[thread])},
                                  config={"configurable": {"thread_id": thread}})
        with _days_later(days, answer):
            key = answer(order_id, line, amount, runtime)
        assert isinstance(key, str) and key, _("the key must be a non-empty string, got {key}").format(key=shown(key))
        if kind == "reply lost":
            service.simulate_outage(after_commit=True)
        try:
            results.append(service.submit(order_id, amount, user_id=_CUSTOMER.user_id, idempotency_key=key,
                                          reason=f"line {line}").request_id)
        except DomainError as exc:
            results.append(exc.code)
        previous = ((order_id, line, amount), thread, words, days, call_id)
    return results


def describe_requests(spec: tuple) -> str:
    """The requests of ``spec`` in the learner's words."""
    parts = []
    for number, ((order_id, line, amount), thread, words, kind, days) in enumerate(spec):
        if kind == "replay of the previous call" and number:
            parts.append(_("the previous call run again"))
            continue
        said = WORDS[words].format(line=line, order=order_id)
        part = _("{said!r} ({amount:.2f}) in {thread}").format(said=said, amount=amount, thread=thread)
        if days:
            part += _(", {days} day(s) after the first request").format(days=days)
        parts.append(part + (_(", its reply lost") if kind == "reply lost" else ""))
    return _("one after the other: {requests}").format(requests="; ".join(parts))
