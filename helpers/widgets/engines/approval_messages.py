"""The approval engine's sentences for the reviewer: what a status or a refusal says (no ipywidgets).

Each function returns one message of a :class:`~.approval_results.PanelResult` in the language of
the notebook's edition (:mod:`helpers.i18n`); the engine (:mod:`helpers.widgets.engines.approval`)
decides which one applies. The texts that explain a checkpoint (a poisoned or stuck thread, an
order listed twice) are in :mod:`.approval_pause`; a check's refusal is raised by
:mod:`.approval_checks`. Part of :mod:`helpers.widgets.engines.approval`.
"""

from __future__ import annotations

from typing import Any

from ...i18n import _
from .reviews import Review, ReviewAction

__all__ = ["finished_message", "hidden_note", "interrupted_message", "moved_on_message", "not_accepted_message",
           "not_started_message", "nothing_pending_message", "nothing_sent", "paused_message", "staged_message",
           "start_over_lead", "summary_text"]


def nothing_sent(message: str) -> str:
    """``message`` followed by "Nothing was sent." (every refusal ends with it)."""
    return _("{message} Nothing was sent.").format(message=message)


def not_started_message(thread_id: str, raw_thread_id: Any) -> str:
    """The thread has no checkpoint; for a falsy non-text id (``0``) also why it cannot be read back.

    Args:
        thread_id: the thread id as text (shown); raw_thread_id: the id as the config gave it.
    """
    if not isinstance(raw_thread_id, str) and not raw_thread_id:
        return _("Thread {thread} has no checkpoint: start the run first. (LangGraph 1.2.24 saves a run whose "
                 "thread_id is {raw} under that value, but graph.get_state reads it as the text {thread}, so such "
                 "a run cannot be read back: give the thread a text id, e.g. {thread}.)").format(
                   thread=repr(thread_id), raw=repr(raw_thread_id))
    return _("Thread {thread} has no checkpoint: start the run first.").format(thread=repr(thread_id))


def finished_message() -> str:
    """Nothing is pending and no node is due."""
    return _("No interrupt is pending; the run finished.")


def paused_message(review: Review | None, action: ReviewAction | None) -> str:
    """The run waits at ``review``; ``action`` is decided next (a request with several calls says which)."""
    if review is None or action is None:
        return _("The run is paused.")
    if review.kind == "hitl" and len(review.actions) > 1:
        return _("The run is paused: {count} gated calls need one decision each, sent together. "
                 "Deciding {action}.").format(count=len(review.actions), action=action.label)
    return _("The run is paused: answer the interrupt shown above.")


def start_over_lead(acknowledged: bool) -> str:
    """What :meth:`~.approval.ApprovalEngine.start_over` did, put before the paused message.

    Args:
        acknowledged: the reviewer said "I checked the state" after an unknown outcome (else the
            noted decisions were dropped).
    """
    if acknowledged:
        return _("You checked the state: the panel answers this pause again. If the tool did run, approving or "
                 "editing again runs it a second time; reject or respond instead. Nothing was sent. ")
    return _("The noted decisions were dropped; nothing was sent. ")


def summary_text(lines: list[str]) -> str:
    """The numbered decisions sent, one per line, or the sentence saying there is none."""
    return "\n".join(lines) or _("no decision sent")


def nothing_pending_message(thread_id: str) -> str:
    """A decision arrived while nothing is pending (the run finished, or never started)."""
    return _("Nothing is pending on thread {thread}: there is no interrupt to answer.").format(thread=repr(thread_id))


def moved_on_message(action: ReviewAction, decision: str) -> str:
    """A decision was made on a pause other than the one pending now (a double click, a second panel)."""
    return _("The run moved on: review the new request ({action} of a pause the panel had not shown when this "
             "{decision} was made).").format(action=action.label, decision=decision)


def not_accepted_message(action: ReviewAction, decision: str) -> str:
    """``action`` does not allow ``decision``; the message lists what it allows."""
    allowed = ", ".join(action.allowed) or _("nothing this panel can send")
    return _("{action} does not accept {decision}; it allows: {allowed}.").format(
        action=action.label.capitalize(), decision=repr(decision), allowed=allowed)


def staged_message(decision: str, action: ReviewAction, noted: int, total: int, following: ReviewAction) -> str:
    """A decision noted for one call of a request with several; nothing is sent until each call has one."""
    return _("Noted {decision} for {action} ({noted} of {total}); nothing is sent until every call has a decision. "
             "Now decide {following}.").format(decision=decision, action=action.label, noted=noted, total=total,
                                               following=following.label)


def hidden_note(hidden: int) -> str:
    """Added to a sent approve whose arguments the request list cut (``hidden`` characters not shown there)."""
    return _(" The approved arguments held {count} characters more than the request list shows; the panel's "
             "'whole arguments' part showed them all.").format(count=f"{hidden:,}")


def interrupted_message() -> str:
    """The kernel was interrupted after a resume was sent: the outcome is unknown."""
    return _("Sent, then the kernel was interrupted (KeyboardInterrupt): the tool may have run; check the state.")
