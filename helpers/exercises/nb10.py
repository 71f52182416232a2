"""Exercises of notebook 10 (human approval).

``CHECK_DECISIONS`` (10.1): the learner writes the check an application runs before it answers a
batched ``HumanInTheLoopMiddleware`` pause::

    check_decisions(request: dict, decisions: list) -> list[str]

``request`` is the interrupt's value (``action_requests`` and ``review_configs``, one of each per
gated call, in call order); the answer is the list of problems, in words, and empty when
``Command(resume={"decisions": decisions})`` is safe to send. Safe means what notebook 10 shows on
langchain 1.5.2: one decision per gated call, each decision's ``type`` allowed by that call's
review config, and an edit that keeps the paused call's tool (a batched edit that names another
tool runs it with no pause of its own). A wrong batched answer is saved with the paused step and
replayed, so it must be caught before it is sent.

Every hidden case pauses a real ``create_agent`` (scripted model, ``InMemorySaver``) and calls the
answer on the interrupt's own value; where the answer says "safe", the case resumes the thread with
those decisions and checks that the run went on.
"""

from __future__ import annotations

import copy
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.messages import HumanMessage
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from ..i18n import N_, _
from ..model import scripted_model, tool_call
from .core import Case, Exercise
from .results import shown

__all__ = ["CHECK_DECISIONS"]


@tool
def submit_refund_request(order_id: str, amount: float) -> str:
    """Create a refund request for an order."""
    return f"refund request registered for {order_id} ({amount:.2f})"


@tool
def issue_store_credit(customer: str, amount: float) -> str:
    """Issue store credit to a customer."""
    return f"store credit of {amount:.2f} issued to {customer}"


_ALL = ["approve", "edit", "reject", "respond"]
_SUBMIT_1 = tool_call("submit_refund_request", {"order_id": "A1024", "amount": 100.0}, "call_1")
_SUBMIT_2 = tool_call("submit_refund_request", {"order_id": "A1030", "amount": 50.0}, "call_2")
_APPROVE = {"type": "approve"}


def _paused(calls: list[dict], allowed: list[str] = _ALL) -> tuple[Any, dict, dict]:
    """A fresh agent paused on its own thread before ``calls``; returns (agent, config, interrupt value)."""
    gate = HumanInTheLoopMiddleware(interrupt_on={"submit_refund_request": {"allowed_decisions": allowed},
                                                  "issue_store_credit": {"allowed_decisions": ["approve", "reject"]}})
    agent = create_agent(scripted_model([calls, "Done."]), [submit_refund_request, issue_store_credit],
                         middleware=[gate], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "check"}}
    out = agent.invoke({"messages": [HumanMessage("Please refund A1024 and A1030.")]}, config, version="v2")
    return agent, config, out.interrupts[0].value


def _problems(answer: Any, request: dict, decisions: list) -> list:
    """The answer's problems for a copy of ``decisions`` (the cases' own lists stay untouched): a list
    of strings; neither argument may be changed."""
    kept_request, given = copy.deepcopy(request), copy.deepcopy(decisions)
    got = answer(request, given)
    assert isinstance(got, list) and all(isinstance(p, str) for p in got), (
        _("return a list of problems in words (strings), empty when the decisions are safe; got {got}").format(
            got=shown(got)))
    assert request == kept_request and given == decisions, (
        _("leave the request and the decisions as they are: only read them (the app sends these decisions next)"))
    return list(got)


def _safe(calls: list[dict], decisions: list, allowed: list[str] = _ALL) -> Any:
    def run(answer: Any) -> None:
        agent, config, request = _paused(calls, allowed)
        got = _problems(answer, request, decisions)
        assert got == [], _("these decisions are safe to send, but your check found problems: {got}").format(
            got=shown(got))
        out = agent.invoke(Command(resume={"decisions": copy.deepcopy(decisions)}), config, version="v2")
        assert not out.interrupts, _("the run should have gone on (a case of the checks themselves)")
    return run


def _refused(calls: list[dict], decisions: list, why: str, allowed: list[str] = _ALL) -> Any:
    def run(answer: Any) -> None:
        request = _paused(calls, allowed)[2]
        got = _problems(answer, request, decisions)
        assert got, _("{why}; your check found no problem with {decisions}").format(
            why=_(why), decisions=shown(decisions))
    return run


_EDIT_SAME = {"type": "edit", "edited_action": {"name": "submit_refund_request",
                                                "args": {"order_id": "A1024", "amount": 40.0}}}
_EDIT_OTHER = {"type": "edit", "edited_action": {"name": "issue_store_credit",
                                                 "args": {"customer": "user-7", "amount": 5000.0}}}
_NO_RESPOND = ["approve", "edit", "reject"]

CHECK_DECISIONS = Exercise(
    "10.1",
    "check a batched resume before you send it",
    [
        Case("one approval for one call is safe", _safe([_SUBMIT_1], [_APPROVE])),
        Case("two decisions for two calls, in order, are safe",
             _safe([_SUBMIT_1, _SUBMIT_2], [_APPROVE, {"type": "reject", "message": "A1030 needs a photo."}])),
        Case("an edit that keeps the tool is safe", _safe([_SUBMIT_1], [_EDIT_SAME])),
        Case("one decision for two calls is refused",
             _refused([_SUBMIT_1, _SUBMIT_2], [_APPROVE],
                      N_("two gated calls need two decisions (the middleware raises, and the saved value is "
                         "replayed)"))),
        Case("a decision the gate does not allow is refused",
             _refused([_SUBMIT_1], [{"type": "respond", "message": "ok"}],
                      N_("this gate's review_configs allow approve, edit and reject only"), _NO_RESPOND)),
        Case("the second decision is checked too",
             _refused([_SUBMIT_1, _SUBMIT_2], [_APPROVE, {"type": "respond", "message": "ok"}],
                      N_("the second call's review config does not allow respond"), _NO_RESPOND)),
        Case("a misspelt decision type is refused",
             _refused([_SUBMIT_1], [{"type": "aprove"}], N_("'aprove' is no decision type"))),
        Case("an edit that changes the tool is refused",
             _refused([_SUBMIT_1], [_EDIT_OTHER],
                      N_("a batched edit that names another tool runs it with no pause of its own"))),
    ],
    timeout=30,
)
