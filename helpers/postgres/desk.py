"""The refund desk agent that notebook 18's kernel and every worker process build the same way.

A checkpoint stores state, not code (notebook 08, section 5): a worker that continues or resumes a
thread must build the same graph as the worker that started it, so the agent lives in a module that
both import. It is notebooks 04-11's desk, cut down to what Part III needs:

* :class:`DeskContext`: the trusted facts of one run, filled by the worker (never by the model): the
  signed-in customer and the shared refund ledger (:class:`~helpers.postgres.ledger.RefundLedger`);
* :func:`submit_refund_request`: the one tool; ownership and idempotency come from the context and the
  ledger, and an amount above the approval threshold waits for a colleague (``interrupt()``);
* :func:`desk_policy`: the scripted model's every move (a fixture, as notebook 11's policy): a customer
  message ``refund A1024 499.00`` becomes a call of the tool; a tool result becomes a one-line reply;
* :func:`build_desk_agent`: ``create_agent`` with the tool, the context schema and the checkpointer;
* :func:`thread_lock` and :func:`take_turn`: one customer message as one run, optionally serialized per
  thread with an advisory lock (``pg_advisory_lock(hashtextextended(thread_id, 0))``: the run waits while
  another run holds the thread, the Agent Server's "enqueue").
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.types import Command, interrupt

from ..domain import DomainError, OrderStore, refund_key
from ..model import scripted_model, tool_call
from .ledger import RefundLedger

__all__ = ["LOCK_SQL", "DeskContext", "Turn", "approval_threshold", "build_desk_agent", "desk_policy", "policy_model",
           "replies", "submit_refund_request", "take_turn", "thread_lock"]

#: How a run takes and releases its thread: a session-level advisory lock keyed by a 64-bit hash of the id.
LOCK_SQL = ("SELECT pg_advisory_lock(hashtextextended(%s, 0))", "SELECT pg_advisory_unlock(hashtextextended(%s, 0))")
_REFUND = re.compile(r"refund\s+([A-Z]+-?\d+)\s+([0-9]+(?:\.[0-9]{1,2})?)", re.IGNORECASE)


@functools.cache
def approval_threshold() -> float:
    """Refunds above this amount wait for a colleague's approval: the course's threshold (``data/policies.json``,
    read on first use, not at import: a wheel of the helpers has no data folder)."""
    return OrderStore().approval_threshold


@dataclass(frozen=True)
class DeskContext:
    """Trusted facts for one run, passed at invoke time; the model never chooses them."""

    user_id: str  # the signed-in customer
    ledger: RefundLedger  # the shared refund ledger the tool writes to


@tool
def submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[DeskContext]) -> str:
    """Submit a refund REQUEST (not money sent) for one of the signed-in customer's orders.
    Amounts above 1000.00 wait for a colleague's approval."""
    ctx = runtime.context
    if amount > approval_threshold():
        decision = interrupt({"order_id": order_id, "amount": amount, "user_id": ctx.user_id})
        if decision != "approve":
            return f"not submitted: a colleague answered {decision!r}"
    try:
        done = ctx.ledger.submit(order_id, amount, user_id=ctx.user_id,
                                 idempotency_key=refund_key(order_id, amount))
    except DomainError as exc:  # a refusal reaches the model as an error result (notebook 09)
        return json.dumps(exc.to_dict())
    word = "already registered" if done.replayed else "created"
    return f"refund request {done.request.request_id} {word} for {order_id} ({amount:.2f})"


def desk_policy(request: Any) -> Any:
    """The scripted model's move for one request (a fixture: it matches text, it is no language model).

    The last message decides: a tool result -> reply with it in one line (a refusal, the tool's JSON error
    result, as an apology with its message); a customer message
    ``refund <order> <amount>`` -> call :func:`submit_refund_request`; anything else -> ask for that.
    """
    last = request.messages[-1]
    if isinstance(last, ToolMessage):
        try:
            refused = json.loads(str(last.content))
        except ValueError:
            return f"Done: {last.content}."
        return f"Sorry, that did not work: {refused.get('message', refused)}."
    if isinstance(last, HumanMessage):
        found = _REFUND.search(str(last.content))
        if found:
            return [tool_call("submit_refund_request", {"order_id": found.group(1).upper(),
                                                        "amount": float(found.group(2))})]
    return "Which order, and how much? Write for example: refund A1024 120.00"


def policy_model(steps: int = 100_000, before: Callable[[Any], None] | None = None):
    """A scripted model that plays :func:`desk_policy` for up to ``steps`` requests, any thread in any order.

    Args:
        steps: the script's length (a bound, as every script has one).
        before: called with each request before the move is chosen (notebook 18's workers wait there
            for each other, to make two runs overlap on purpose).
    """
    def move(request: Any) -> Any:
        if before is not None:
            before(request)
        return desk_policy(request)

    return scripted_model([move] * steps, allow_interleaving=True)


def build_desk_agent(checkpointer: Any, model: Any = None):
    """The refund desk agent: :func:`submit_refund_request`, :class:`DeskContext`, ``checkpointer``.

    Args:
        checkpointer: e.g. ``CourseDatabase.checkpointer()`` (``PostgresSaver``).
        model: the chat model (default :func:`policy_model`).
    """
    return create_agent(model if model is not None else policy_model(), [submit_refund_request],
                        context_schema=DeskContext, checkpointer=checkpointer)


@contextmanager
def thread_lock(conn: Any, thread_id: str) -> Iterator[None]:
    """Hold ``thread_id``'s advisory lock on ``conn``'s session for the block: a second run on the same
    thread waits at the door until the first one leaves (the lock also ends with the session)."""
    conn.execute(LOCK_SQL[0], (thread_id,))
    try:
        yield
    finally:
        conn.execute(LOCK_SQL[1], (thread_id,))


@dataclass(frozen=True)
class Turn:
    """What one run of :func:`take_turn` did: ``reply`` (the last message's text), ``interrupted`` (a
    paused run's payloads) and ``messages`` (how many the thread held after the run, by this run's view)."""

    thread_id: str
    reply: str
    interrupted: tuple
    messages: int


def take_turn(agent: Any, ledger: RefundLedger, thread_id: str, user_id: str, message: Any, *,
              lock_conn: Any = None, durability: str | None = None) -> Turn:
    """One run on ``thread_id`` for ``user_id``: ``message`` is a customer's text or a ``Command(resume=...)``;
    ``lock_conn``: the session that holds the thread's lock for the run (``None``: no lock); ``durability``:
    LangGraph's (``None``: its default, a checkpoint per step)."""
    data = message if isinstance(message, Command) else {"messages": [HumanMessage(message)]}
    config = {"configurable": {"thread_id": thread_id}}
    context = DeskContext(user_id=user_id, ledger=ledger)  # trusted: from the login, not from the model
    options = {"durability": durability} if durability else {}
    with thread_lock(lock_conn, thread_id) if lock_conn is not None else _no_lock():
        out = agent.invoke(data, config, context=context, version="v2", **options)
    messages = out.value["messages"]
    reply = messages[-1].content if isinstance(messages[-1], AIMessage) else ""
    return Turn(thread_id, str(reply), tuple(i.value for i in out.interrupts), len(messages))


@contextmanager
def _no_lock() -> Iterator[None]:
    yield


def replies(messages: list) -> list[str]:
    """The texts of the AI replies in ``messages`` that carry no tool call (what the customers read)."""
    return [str(m.content) for m in messages if isinstance(m, AIMessage) and not m.tool_calls]
