"""Sending a resume for the approval engine, and reading what came of it (no ipywidgets).

:func:`send` passes one checked decision to the graph as ``graph.invoke(Command(resume=...),
config, version="v2")`` (langgraph 1.2.24; with the run's ``context=``) and turns what the
checkpoint shows afterwards into a :class:`~.approval_results.PanelResult`: paused again,
finished, stuck, a decision the middleware ignored, an error, or an unknown outcome. Part of
:mod:`helpers.widgets.engines.approval`; ``engine`` is its :class:`~.approval.ApprovalEngine`.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_, _
from ..outcomes import PanelOutcome
from ..text import error_text
from .approval_pause import call_ids, hitl_edit_notice, ignored_decisions, unknown_message
from .approval_results import PanelResult
from .reviews import Decision, Review

__all__ = ["send"]

#: Added to a decision-count error of HumanInTheLoopMiddleware (its ``after_model``, langchain 1.5.2).
WHEN_AGAIN = N_(" (HumanInTheLoopMiddleware evaluates its `when` predicates again on resume: they now gate a "
                "different number of calls than the request the panel showed, so the decisions cannot be "
                "matched to the calls)")


def send(engine: Any, decision: Decision, review: Review, resume: Any) -> PanelResult:
    """Send ``resume`` to the pause of ``review`` and report what came next; never raises (but ``KeyboardInterrupt``,
    after marking the outcome unknown when the same pause is still pending: see :func:`_failed`).

    Args:
        engine: the :class:`~.approval.ApprovalEngine` (its graph, config, context; re-read after).
        decision: the decision that completed the resume (the last one clicked).
        review: the pause answered; keyed by interrupt id for ``per_call`` or when several are pending.
        resume: the resume value (``{"type": ...}`` or ``{"decisions": [...]}``).

    Returns:
        the :class:`PanelResult` (``sent`` is ``resume``). Outcome ``ignored`` when a reject or
        respond was not applied (:func:`~.approval_pause.ignored_decisions`).
    """
    from langgraph.types import Command

    keyed = review.kind == "hitl_per_call" or len(engine.pending) > 1
    command = Command(resume={review.interrupt.id: resume} if keyed else resume)
    ids = call_ids(review, engine.state()) if review.kind != "interrupt" else []
    try:
        extra = {"context": engine.context} if engine.context is not None else {}
        out = engine.graph.invoke(command, engine.config, version="v2", **extra)
    except KeyboardInterrupt:
        # The learner stopped the kernel while the resumed node ran: its side effect may have happened
        # while the checkpoint still shows this pause. Mark the outcome unknown (as for an error), so the
        # next click sends nothing to it, then let the interrupt stop the cell.
        _failed(engine, decision, review, resume, _("KeyboardInterrupt: the kernel was interrupted"))
        raise
    except BaseException as exc:  # noqa: BLE001 - the graph's error is shown, never raised from a click
        return _failed(engine, decision, review, resume, error_text(exc))
    engine._read()
    result = _after(engine, decision, resume, out)
    sent = resume.get("decisions", [resume]) if review.kind != "interrupt" else []
    ignored = ignored_decisions(review, sent, ids, result.state, hitl_edit_notice(engine.graph))
    if ignored:
        message = _("Sent, but the middleware did not apply every decision: {ignored}. HumanInTheLoopMiddleware "
                    "evaluates its `when` predicate again on resume; it no longer gated this call, so the decision "
                    "was never read. Check what the tool did.").format(ignored="; ".join(ignored))
        result = PanelResult(decision, PanelOutcome.IGNORED, message, sent=resume,
                             interrupts=engine.pending, state=engine.state())
    return result


def _after(engine: Any, decision: Decision, resume: Any, out: Any) -> PanelResult:
    """The result of a resume that returned, from the checkpoint as read after it."""
    if engine._problem is not None and engine._problem[0] == PanelOutcome.UNAVAILABLE:
        return PanelResult(decision, PanelOutcome.UNAVAILABLE, _("Sent. {problem}").format(problem=engine._problem[1]),
                           sent=resume)
    if engine._problem is not None and engine._problem[0] == PanelOutcome.UNANSWERABLE:
        # the next pause cannot be answered here: say so now, not only on the next click
        message = _("Sent. The run paused again at the next interrupt, which the panel cannot answer. "
                    "{problem}").format(problem=engine._problem[1])
        return PanelResult(decision, PanelOutcome.UNANSWERABLE, message, sent=resume,
                           interrupts=engine.pending, state=engine.state())
    if getattr(out, "interrupts", ()) or engine.pending:
        return PanelResult(decision, PanelOutcome.PAUSED, _("Sent. The run paused again at the next interrupt."),
                           sent=resume, interrupts=engine.pending, state=engine.state())
    if engine._problem is not None:
        return PanelResult(decision, PanelOutcome.STUCK, _("Sent. {problem}").format(problem=engine._problem[1]),
                           sent=resume,
                           state=engine.state())
    return PanelResult(decision, PanelOutcome.FINISHED, _("Sent. The run finished; no interrupt is left."),
                       sent=resume, state=engine.state())


def _failed(engine: Any, decision: Decision, review: Review, resume: Any, error: str) -> PanelResult:
    """The result of a resume that raised, from the checkpoint as it is now.

    When the same pause is still pending (and its node did not store the resume: not
    ``poisoned``), the resume may have run the tool and then failed to save the checkpoint (a
    checkpoint write error, a node that called ``exit()``): the outcome is ``unknown``, as for
    "sent, reply lost", and the panel sends nothing more to that pause until :meth:`start_over`.
    """
    engine._read()
    if "Number of human decisions" in error:
        error += _(WHEN_AGAIN)
    still_pending = engine.review is not None and engine.review.interrupt.id == review.interrupt.id
    if still_pending and engine._problem is None:
        engine._unknown = (review.interrupt.id, unknown_message(error))
        engine._problem = (PanelOutcome.UNKNOWN, engine._unknown[1])
        return PanelResult(decision, PanelOutcome.UNKNOWN, unknown_message(error, just_sent=True),
                           sent=resume, interrupts=engine.pending, state=engine.state())
    if engine._problem is not None:
        after = engine._problem[1]
    elif engine.review is not None:
        after = _("The run is paused at another interrupt now: the tool may have run; check the state.")
    elif engine.state():
        after = _("The checkpoint shows the run finished: the tool may have run; check the state.")
    else:
        after = _("The checkpoint cannot say what happened: the tool may have run; check the state.")
    return PanelResult(decision, PanelOutcome.ERROR, f"{error}\n{after}", sent=resume, interrupts=engine.pending)
