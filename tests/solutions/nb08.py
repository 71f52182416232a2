"""Reference solutions and known-wrong answers for exercise 08.1 (``helpers.exercises.nb08.FINISH_REFUND``)."""

from __future__ import annotations

from langgraph.types import Command

from helpers.exercises.registry import AnswerSet, KnownWrong


def decide(payload: dict) -> dict:
    """The approval policy: approve within the refundable amount, otherwise edit down to it."""
    if payload["amount"] <= payload["refundable"]:
        return {"type": "approve"}
    return {"type": "edit", "amount": payload["refundable"]}


def finish_refund(graph, config, request):
    """Reference (v2 output): start once, resume on the same thread until no interrupt is left."""
    out = graph.invoke(request, config, version="v2")
    while out.interrupts:
        out = graph.invoke(Command(resume=decide(out.interrupts[0].value)), config, version="v2")
    return out.value


def finish_refund_v1(graph, config, request):
    """Reference (v1 output and get_state): reads the pending interrupt from the checkpoint."""
    graph.invoke(request, config)
    while graph.get_state(config).interrupts:
        payload = graph.get_state(config).interrupts[0].value
        graph.invoke(Command(resume=decide(payload)), config)
    return graph.get_state(config).values


def wrong_resume_once(graph, config, request):
    """Wrong: answers only the first interrupt; a second order stays paused."""
    out = graph.invoke(request, config, version="v2")
    if out.interrupts:
        out = graph.invoke(Command(resume=decide(out.interrupts[0].value)), config, version="v2")
    return out.value


def wrong_always_edit(graph, config, request):
    """Wrong: always edits to the refundable amount, even when less was asked."""
    out = graph.invoke(request, config, version="v2")
    while out.interrupts:
        payload = out.interrupts[0].value
        out = graph.invoke(Command(resume={"type": "edit", "amount": payload["refundable"]}), config, version="v2")
    return out.value


def wrong_whole_units(graph, config, request):
    """Wrong (issue 27): compares whole currency units ('floats are imprecise'): a cent above the refundable amount
    is approved, and the refund service refuses the submit. Every named amount is whole."""
    out = graph.invoke(request, config, version="v2")
    while out.interrupts:
        payload = out.interrupts[0].value
        decision = {"type": "approve"} if round(payload["amount"]) <= round(payload["refundable"]) else \
            {"type": "edit", "amount": payload["refundable"]}
        out = graph.invoke(Command(resume=decision), config, version="v2")
    return out.value


def wrong_restarts(graph, config, request):
    """Wrong: sends the request again with the approval in it instead of Command(resume=...)."""
    out = graph.invoke(request, config, version="v2")
    for _ in range(3):
        if not out.interrupts:
            break
        out = graph.invoke({**request, "decision": decide(out.interrupts[0].value)}, config, version="v2")
    return out.value


def wrong_returns_interrupted(graph, config, request):
    """Wrong: resumes correctly but returns the first (interrupted) result."""
    first = graph.invoke(request, config)
    while graph.get_state(config).interrupts:
        graph.invoke(Command(resume=decide(graph.get_state(config).interrupts[0].value)), config)
    return first


def crashing_plain_string(graph, config, request):
    """Crashes: resumes with the string "approve"; the node rejects it with ValueError."""
    out = graph.invoke(request, config, version="v2")
    while out.interrupts:
        out = graph.invoke(Command(resume="approve"), config, version="v2")
    return out.value


def crashing_other_thread(graph, config, request):
    """Crashes: resumes on a new thread_id, which starts a fresh, empty run."""
    out = graph.invoke(request, config, version="v2")
    other = {"configurable": {"thread_id": "another-thread"}}
    while out.interrupts:
        out = graph.invoke(Command(resume=decide(out.interrupts[0].value)), other, version="v2")
    return out.value


def crashing_always_approve(graph, config, request):
    """Crashes: approves 150.0 on A1030 where 120.0 is refundable; the refund service refuses it."""
    out = graph.invoke(request, config, version="v2")
    while out.interrupts:
        out = graph.invoke(Command(resume={"type": "approve"}), config, version="v2")
    return out.value


FINISH_REFUND = AnswerSet(
    solutions={"v2": finish_refund, "v1": finish_refund_v1},
    wrong={
        "resumes once": KnownWrong(wrong_resume_once, fails=("two orders: both interrupts are answered and the run ends",)),
        "always edits": KnownWrong(wrong_always_edit, fails=("an amount within the refundable amount is approved",)),
        "restarts instead of resuming": KnownWrong(
            wrong_restarts, fails=("the request is sent once and resumed on the same thread",)),
        "returns the interrupted result": KnownWrong(wrong_returns_interrupted, fails=("the final state is returned",),
                                                     status="fail"),
        "compares whole units": KnownWrong(wrong_whole_units,
                                           fails=("agrees with the reference on generated requests",)),
    },
    crashing={
        "plain string resume": crashing_plain_string,
        "resume on another thread": crashing_other_thread,
        "always approve": crashing_always_approve,
    },
    answer_from=lambda body: lambda graph, config, request: body(),
)
