"""Exercises for notebook 08 · interrupt and resume.

``FINISH_REFUND`` (08.1): given the approval graph from :func:`build_approval_graph`, a
``config`` with a ``thread_id`` and a refund request, start the run, answer every approval
interrupt correctly and return the final state:

* amount within the refundable amount -> resume with ``{"type": "approve"}``;
* amount above it -> resume with ``{"type": "edit", "amount": <the refundable amount>}``.

The hidden checks build a fresh graph (``InMemorySaver``) per case and look at the
checkpointed state afterwards: did the run reach its end, were the right amounts
submitted, was the request sent once (resumed, not restarted) on the same thread.

:func:`finish_refund` is the reference. The generated check (:data:`REQUESTS`) sends one to three orders in
any order, each asking well below, exactly, a cent below or above, half a unit above or twice its refundable
amount (some as ints, as a JSON client sends them), and compares what the checkpoint holds afterwards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal, TypedDict, get_args

from hypothesis import strategies as st

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["ALLOWED_DECISIONS", "AMOUNTS", "Decision", "ApprovalState", "FINISH_REFUND", "REQUESTS",
           "build_approval_graph", "decide", "finish_refund", "request_outcome"]

#: The decisions the approval node accepts, as listed in every interrupt payload.
Decision = Literal["approve", "edit"]
ALLOWED_DECISIONS: tuple[Decision, ...] = get_args(Decision)
_MAX_STARTS = 5


class ApprovalState(TypedDict, total=False):
    """State of the approval graph.

    Attributes:
        items: the request, ``[{"order_id": str, "amount": float}, ...]``.
        approved: ``[{"order_id", "amount", "decision"}, ...]`` after review.
        requests: refund request ids created by the submit node (``["RF-0001", ...]``).
        stage: ``"awaiting_approval"`` -> ``"approved"`` -> ``"submitted"``.
    """

    items: list[dict]
    approved: list[dict]
    requests: list[str]
    stage: str


def _amount_from(decision: Any, item: dict, refundable: float) -> float:
    if not isinstance(decision, dict) or decision.get("type") not in ALLOWED_DECISIONS:
        raise ValueError(
            _("resume value must be {{'type': 'approve'}} or {{'type': 'edit', 'amount': <number>}}, "
              "got {decision}").format(decision=shown(decision))
        )
    if decision["type"] == "approve":
        return float(item["amount"])
    amount = decision.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise ValueError(_("an 'edit' decision needs a numeric 'amount', got {decision}").format(
            decision=shown(decision)))
    return float(amount)


def build_approval_graph(checkpointer: Any = None, *, counter: Counter | None = None):
    """Build the refund approval graph used by the notebook and the hidden checks.

    Nodes: ``intake`` -> ``review`` -> ``submit``. ``review`` calls ``interrupt(payload)`` once
    per item, with ``payload = {"order_id", "amount", "refundable", "allowed"}``, and expects
    a resume value ``{"type": "approve"}`` or ``{"type": "edit", "amount": x}``. ``submit``
    creates the refunds with :class:`helpers.domain.RefundService` (user ``user-42``, the
    idempotency key ``refund_key(order_id, amount)``), so an amount above the refundable amount is refused there.

    Args:
        checkpointer: e.g. ``InMemorySaver()``; needed to resume.
        counter: optional ``collections.Counter``; ``counter["intake"]`` counts how often a
            run was started and ``counter["review"]`` how often the review node ran.

    Returns:
        the compiled graph.

    Raises (from ``invoke``):
        ValueError: a run started without ``items`` (e.g. a resume sent to another
            thread_id), or a malformed resume value.
        helpers.domain.DomainError: the refund service refused a submission
            (``AmountExceedsRefundable`` when an approved amount is above the refundable one).
        RuntimeError: the request was started more than 5 times on one graph.
    """
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import interrupt

    from helpers.domain import AmountExceedsRefundable, RefundService, refund_key

    service = RefundService()
    counts = counter if counter is not None else Counter()

    def intake(state: ApprovalState) -> dict:
        counts["intake"] += 1
        if counts["intake"] > _MAX_STARTS:
            raise RuntimeError(
                _("the request was started again and again: answer the interrupt with Command(resume=...)"))
        if not state.get("items"):
            raise ValueError(
                _("this run has no refund items: a resume sent to a new thread_id starts a fresh, empty run"))
        return {"stage": "awaiting_approval", "approved": [], "requests": []}

    def review(state: ApprovalState) -> dict:
        counts["review"] += 1
        approved = []
        for item in state["items"]:
            refundable = service.quote(item["order_id"], user_id="user-42").refundable_amount
            decision = interrupt({
                "order_id": item["order_id"],
                "amount": item["amount"],
                "refundable": refundable,
                "allowed": list(ALLOWED_DECISIONS),
            })
            amount = _amount_from(decision, item, refundable)
            approved.append({"order_id": item["order_id"], "amount": amount, "decision": decision["type"]})
        return {"approved": approved, "stage": "approved"}

    def submit(state: ApprovalState) -> dict:
        ids = []
        for entry in state["approved"]:
            try:
                request = service.submit(entry["order_id"], entry["amount"], user_id="user-42",
                                         idempotency_key=refund_key(entry["order_id"], entry["amount"]))
            except AmountExceedsRefundable as exc:
                # same error type and details, plus what the approver should have answered
                raise AmountExceedsRefundable(
                    _("{error}; the '{decision}' answer for {order_id} asked too much: above the payload's "
                      "'refundable', answer {{'type': 'edit', 'amount': payload['refundable']}}").format(
                        error=exc, decision=entry['decision'], order_id=entry['order_id']),
                    **exc.details,
                ) from None
            ids.append(request.request_id)
        return {"requests": ids, "stage": "submitted"}

    graph = StateGraph(ApprovalState)
    graph.add_node("intake", intake)
    graph.add_node("review", review)
    graph.add_node("submit", submit)
    graph.add_edge(START, "intake")
    graph.add_edge("intake", "review")
    graph.add_edge("review", "submit")
    graph.add_edge("submit", END)
    return graph.compile(checkpointer=checkpointer)


# -- hidden checks ----------------------------------------------------------------------------


def _run(answer, items: list[dict], thread: str) -> tuple[Any, Any, dict, Counter]:
    from langgraph.checkpoint.memory import InMemorySaver

    counter: Counter = Counter()
    graph = build_approval_graph(InMemorySaver(), counter=counter)
    config = {"configurable": {"thread_id": thread}}
    returned = answer(graph, config, {"items": [dict(i) for i in items]})
    return graph, returned, config, counter


def _approved(graph, config) -> list[tuple[str, float, str]]:
    snapshot = graph.get_state(config)
    assert snapshot.next == (), (
        _("the run is still paused before {next} with {count} open interrupt(s): keep resuming until no "
          "interrupt is left").format(next=list(snapshot.next), count=len(snapshot.interrupts))
    )
    values = snapshot.values
    assert values.get("stage") == "submitted", _("the run ended with stage={stage}, expected 'submitted'").format(
        stage=shown(values.get('stage')))
    return [(a["order_id"], a["amount"], a["decision"]) for a in values["approved"]]


def _within_refundable(answer) -> None:
    graph, _returned, config, _extra = _run(answer, [{"order_id": "A1024", "amount": 450.0}], "check-approve")
    got = _approved(graph, config)
    assert got == [("A1024", 450.0, "approve")], (
        _("A1024 asks 450.0 of a refundable 499.0: expected an 'approve' for 450.0, got {got}").format(got=shown(got))
    )


def _above_refundable(answer) -> None:
    graph, _returned, config, _extra = _run(answer, [{"order_id": "A1030", "amount": 150.0}], "check-edit")
    got = _approved(graph, config)
    assert got == [("A1030", 120.0, "edit")], (
        _("A1030 asks 150.0 but only 120.0 is refundable: expected an 'edit' to 120.0, got {got}").format(
            got=shown(got))
    )


def _two_interrupts(answer) -> None:
    items = [{"order_id": "A1024", "amount": 499.0}, {"order_id": "A1030", "amount": 200.0}]
    graph, _returned, config, _extra = _run(answer, items, "check-two")
    got = _approved(graph, config)
    assert got == [("A1024", 499.0, "approve"), ("A1030", 120.0, "edit")], (
        _("two orders mean two interrupts, one after the other; expected A1024 approved at 499.0 and A1030 "
          "edited to 120.0, got {got}").format(got=shown(got))
    )


def _started_once(answer) -> None:
    items = [{"order_id": "A1024", "amount": 100.0}, {"order_id": "A1029", "amount": 2899.0}]
    graph, _returned, config, counter = _run(answer, items, "check-once")
    assert counter["intake"] == 1, (
        _("the request was started {intake} times; send it once, then answer with "
          "graph.invoke(Command(resume=...), config) on the same thread").format(intake=counter['intake'])
    )
    _approved(graph, config)


def _returns_final_state(answer) -> None:
    graph, returned, config, _extra = _run(answer, [{"order_id": "A1024", "amount": 20.0}], "check-return")
    value = getattr(returned, "value", returned)  # a GraphOutput (version="v2") or the v1 dict
    assert isinstance(value, dict), _("return the final state values (a dict), got {type}").format(
        type=type(value).__name__)
    final = graph.get_state(config).values
    assert value.get("stage") == "submitted" and value.get("requests") == final.get("requests"), (
        _("return the state after the last resume; got stage={stage}, requests={requests}").format(
            stage=shown(value.get('stage')), requests=shown(value.get('requests')))
    )
    assert "__interrupt__" not in value, _("the returned result still holds '__interrupt__': resume before returning")


# -- the reference and the generated requests ---------------------------------------------------------------


def decide(payload: dict) -> dict:
    """The approval policy of 08.1: ``{"type": "approve"}`` when ``payload["amount"] <= payload["refundable"]``,
    else ``{"type": "edit", "amount": payload["refundable"]}``."""
    if payload["amount"] <= payload["refundable"]:
        return {"type": "approve"}
    return {"type": "edit", "amount": payload["refundable"]}


def finish_refund(graph: Any, config: dict, request: dict) -> dict:
    """The reference of 08.1 (the specification): start ``request`` once on the thread of ``config``, answer
    every interrupt with :func:`decide` by ``Command(resume=...)`` on the same thread, return the final state
    values (``invoke(..., version="v2")``, langgraph 1.2)."""
    from langgraph.types import Command

    out = graph.invoke(request, config, version="v2")
    while out.interrupts:
        out = graph.invoke(Command(resume=decide(out.interrupts[0].value)), config, version="v2")
    return out.value


#: The orders a generated request may hold (each at most once), and their refundable amounts (helpers.domain).
_REFUNDABLE = {"A1024": 499.0, "A1030": 120.0, "A1029": 2899.0}
#: How an item's amount relates to its order's refundable amount.
AMOUNTS = ("well below it", "exactly it", "a cent below it", "a cent above it", "half a unit above it",
           "twice it", "exactly it, as an int", "well below it, as an int")
_AMOUNT = {"well below it": lambda r: 20.0, "exactly it": lambda r: r, "exactly it, as an int": lambda r: int(r),
           "well below it, as an int": lambda r: 20, "a cent below it": lambda r: r - 0.01,
           "a cent above it": lambda r: r + 0.01, "half a unit above it": lambda r: r + 0.5,
           "twice it": lambda r: 2 * r}

#: A generated request: one to three items ``(order, how its amount relates to the refundable amount)``, each
#: order at most once, in any order.
REQUESTS = st.lists(st.tuples(st.sampled_from(tuple(_REFUNDABLE)), st.sampled_from(AMOUNTS)), min_size=1,
                    max_size=3, unique_by=lambda item: item[0]).map(tuple)


def _items(spec: tuple) -> list[dict]:
    return [{"order_id": order, "amount": round(_AMOUNT[how](_REFUNDABLE[order]), 2)} for order, how in spec]


def request_outcome(answer: Any, spec: tuple) -> dict[str, Any]:
    """Run ``answer`` on a fresh approval graph with the request of ``spec`` (:data:`REQUESTS`), then read the
    checkpoint: what was approved (order, amount, decision), the refund requests, the stage, the nodes the run
    is still paused before, how often the request was started, and the stage of the state the answer returned."""
    graph, returned, config, counter = _run(answer, _items(spec), "generated")
    snapshot = graph.get_state(config)
    value = getattr(returned, "value", returned)
    return {"approved": [(a["order_id"], a["amount"], a["decision"]) for a in snapshot.values.get("approved", [])],
            "requests": snapshot.values.get("requests"), "stage": snapshot.values.get("stage"),
            "paused before": list(snapshot.next), "started": counter["intake"],
            "returned stage": value.get("stage") if isinstance(value, dict) else type(value).__name__}


def _describe_request(spec: tuple) -> str:
    items = ", ".join(_("{order_id} {amount:.2f} (refundable {refundable:.2f})").format(
        order_id=item["order_id"], amount=item["amount"], refundable=_REFUNDABLE[item["order_id"]])
        for item in _items(spec))
    return _("a request for {items}").format(items=items)


FINISH_REFUND = Exercise(
    "08.1",
    "answer the approval interrupts and finish the run",
    [
        # No generic per-case hints: they would also be printed under unrelated crashes (a wrong
        # resume shape, another thread). Each failed assertion and each error the graph raises
        # says what to change for that case.
        Case("an amount within the refundable amount is approved", _within_refundable),
        Case("an amount above the refundable amount is edited down", _above_refundable),
        Case("two orders: both interrupts are answered and the run ends", _two_interrupts),
        Case("the request is sent once and resumed on the same thread", _started_once),
        Case("the final state is returned", _returns_final_state),
    ],
    generated=Generated(
        "agrees with the reference on generated requests", REQUESTS, request_outcome, finish_refund,
        _describe_request,
        hint=N_("compare each payload's amount with its own 'refundable' exactly as given (cents count): approve "
                "when it is not above it, else edit to payload['refundable']; answer every interrupt, in any "
                "number, on the same thread"),
        examples=40),
)
