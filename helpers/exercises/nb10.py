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
those decisions and checks that the run went on. The generated check (:data:`DECISIONS`) builds the
interrupt value directly: one to three gated calls of two tools whose review configs differ, a
refund gate with or without ``edit`` and ``respond``, a decision per call (the four types, one in
another case, one misspelt; an edit that names either tool), and one decision too few or too many;
:func:`check_decisions` is the reference, and the check compares only whether the answer found a
problem.
"""

from __future__ import annotations

import copy
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.messages import HumanMessage
from langchain.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from hypothesis import strategies as st
from langgraph.types import Command

from ..i18n import N_, _
from ..model import scripted_model, tool_call
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["CHECK_DECISIONS", "DECISIONS", "check_decisions", "decisions_outcome", "generated_request"]


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


def _paused(calls: list[dict], allowed: list[str] = _ALL,
            credit_allowed: list[str] = ("approve", "reject")) -> tuple[Any, dict, dict]:
    """A fresh agent paused on its own thread before ``calls`` (the refund gate allows ``allowed``, the
    store-credit gate ``credit_allowed``); returns (agent, config, interrupt value)."""
    gate = HumanInTheLoopMiddleware(interrupt_on={"submit_refund_request": {"allowed_decisions": list(allowed)},
                                                  "issue_store_credit": {"allowed_decisions": list(credit_allowed)}})
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

# -- the reference and the generated requests -------------------------------------------------------------


def check_decisions(request: dict, decisions: list) -> list[str]:
    """The reference of 10.1 (the specification): the problems of ``decisions`` as the answer to the batched
    ``HumanInTheLoopMiddleware`` pause ``request`` (langchain 1.5.2); ``[]`` when they are safe to send.

    Args:
        request: the interrupt's value: ``action_requests`` and ``review_configs``, one of each per gated
            call, in call order.
        decisions: what the app is about to send as ``Command(resume={"decisions": decisions})``.

    Returns:
        one string per problem: the number of decisions is not the number of gated calls; a decision's
        ``type`` is not in its call's ``allowed_decisions``; an edit names another tool than its call's.
    """
    actions, configs = request["action_requests"], request["review_configs"]
    if len(decisions) != len(actions):
        return [f"{len(actions)} gated call(s) need {len(actions)} decision(s), in call order; got {len(decisions)}"]
    problems = []
    for number, (action, config, decision) in enumerate(zip(actions, configs, decisions), start=1):
        if decision.get("type") not in config["allowed_decisions"]:
            problems.append(f"call {number}: {decision.get('type')!r} is not one of {config['allowed_decisions']}")
        elif decision["type"] == "edit" and decision["edited_action"]["name"] != action["name"]:
            problems.append(f"call {number}: an edit must keep the tool {action['name']}")
    return problems


#: The gated tools of the generated requests, and what each one's review config may allow.
_TOOLS = ("submit_refund_request", "issue_store_credit")
_REFUND_GATES = (tuple(_ALL), tuple(_NO_RESPOND), ("approve", "reject"))
_CREDIT_GATES = (("approve", "reject"), ("approve", "reject", "respond"))
#: A decision's type as an app may send it: the four types, one in another case, one misspelt.
DECISION_TYPES = ("approve", "reject", "edit", "respond", "Approve", "aprove")
#: The arguments of a generated call, by tool and by which of three orders (or customers) it is about.
_ARGS = {"submit_refund_request": ({"order_id": "A1024", "amount": 100.0}, {"order_id": "A1030", "amount": 120.0},
                                   {"order_id": "A1029", "amount": 2899.0}),
         "issue_store_credit": ({"customer": "user-7", "amount": 5.0}, {"customer": "user-42", "amount": 20.0},
                                {"customer": "user-9", "amount": 5000.0})}

#: How many decisions the app sends: one per gated call, one too few, one too many.
COUNTS = ("one per call", "one missing", "one more")


def _weighted(values: tuple, weights: tuple) -> st.SearchStrategy:
    """``values[i]`` drawn ``weights[i]`` times as often as a weight of 1 (the first shrinks best)."""
    slots = [value for value, weight in zip(values, weights) for _copy in range(weight)]
    return st.integers(0, len(slots) - 1).map(slots.__getitem__)


#: A generated pause and answer: ``(calls, the refund gate's allowed decisions, the store-credit gate's, count)``;
#: a call is
#: ``(gated tool, which order or customer it is about, the type of its decision, the tool its decision names if
#: it is an edit)``. Most decisions are well formed and most answers have one per call, so that one wrong
#: detail decides.
DECISIONS = st.tuples(
    st.lists(st.tuples(st.sampled_from(_TOOLS), st.integers(0, 2), _weighted(DECISION_TYPES, (4, 2, 4, 2, 1, 1)),
                       st.sampled_from(_TOOLS)), min_size=1, max_size=3).map(tuple),
    st.sampled_from(_REFUND_GATES),
    st.sampled_from(_CREDIT_GATES),
    _weighted(COUNTS, (4, 1, 1)),
)


def _decision(kind: str, named: str, which: int) -> dict[str, Any]:
    """A decision of type ``kind``; an edit names the tool ``named`` with the amount halved."""
    decision: dict[str, Any] = {"type": kind}
    if kind.lower() in ("reject", "respond"):
        decision["message"] = "This one needs a photo of the damage."
    if kind.lower() == "edit":
        args = dict(_ARGS[named][which])
        decision["edited_action"] = {"name": named, "args": {**args, "amount": args["amount"] / 2}}
    return decision


def generated_request(spec: tuple) -> tuple[dict, list]:
    """The interrupt value and the decisions of ``spec`` (:data:`DECISIONS`), shaped as
    ``HumanInTheLoopMiddleware`` 1.5.2 builds and reads them (fresh dicts on every call)."""
    calls, refund_gate, credit_gate, count = spec
    gates = dict(zip(_TOOLS, (refund_gate, credit_gate)))
    request = {
        "action_requests": [{"name": name, "args": dict(_ARGS[name][which]),
                             "description": f"Tool execution requires approval\n\nTool: {name}\n"
                                            f"Args: {_ARGS[name][which]}"}
                            for name, which, _kind, _named in calls],
        "review_configs": [{"action_name": name, "allowed_decisions": list(gates[name])}
                           for name, _which, _kind, _named in calls],
    }
    decisions = [_decision(kind, named, which) for _name, which, kind, named in calls]
    if count == "one missing":
        decisions.pop()
    elif count == "one more":
        decisions.append({"type": "approve"})
    return request, decisions


def decisions_outcome(answer: Any, spec: tuple) -> str:
    """``"safe"`` when ``answer`` finds no problem with the spec's decisions, else ``"refused"`` (the problems'
    words are the answer's own). Raises AssertionError when the answer returns no list of strings or changes
    its arguments."""
    request, decisions = generated_request(spec)
    return "refused" if _problems(answer, request, decisions) else "safe"


def _describe_decisions(spec: tuple) -> str:
    request, decisions = generated_request(spec)
    gates = ", ".join(_("{tool} (allows {allowed})").format(tool=config["action_name"],
                                                           allowed=", ".join(config["allowed_decisions"]))
                      for config in request["review_configs"])
    return _("{count} gated call(s) in call order: {gates}; the decisions: {decisions}").format(
        count=len(request["action_requests"]), gates=gates, decisions=shown(decisions, 300))


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
    generated=Generated(
        "agrees with the reference on generated pauses", DECISIONS, decisions_outcome, check_decisions,
        _describe_decisions,
        hint=N_("read each call's own review config (the calls of one pause may be different tools with different "
                "allowed decisions), compare the type exactly as written, ask for exactly one decision per call, "
                "and an edit must name its own call's tool"),
        examples=300),
)
