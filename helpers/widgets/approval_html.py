"""The approval panel's HTML parts (no ipywidgets): the pending request, the whole arguments, the status, the history.

Each function reads the :class:`~helpers.widgets.engines.approval.ApprovalEngine` (or one of its
results) and returns the HTML one ``ipywidgets.HTML`` of :class:`helpers.widgets.ApprovalPanel`
shows, with its words in the language of the notebook's edition (:mod:`helpers.i18n`); outcome
words, decision names and values stay as sent. Every value is bounded (:mod:`.text`).
"""

from __future__ import annotations

from typing import Any

from ..i18n import _, ngettext
from .approval_rows import MAX_WHOLE, payload_text, state_rows
from .engines.approval_results import PanelResult, visible
from .engines.reviews import HITL_DESCRIPTION_PREFIX, ReviewAction
from .outcomes import PanelOutcome
from .style import badge, block, box, muted
from .text import html_text, json_text, shorten

__all__ = ["history_html", "pending_html", "status_html", "whole_args_html"]


def _action_status(noted: dict | None, deciding: bool) -> str:
    """Where one call of a HITL request stands: ``noted: approve``, ``deciding now`` or ``waits``."""
    if noted is not None:
        return _("noted: {decision}").format(decision=noted["type"])
    return _("deciding now") if deciding else _("waits")


def pending_html(engine: Any) -> str:
    """What the run waits for: each payload, or each gated call with its status and allowed decisions;
    why approve is off (when it is); the decisions allowed here."""
    review = engine.review
    if review is None:
        nothing = html_text(_("No interrupt is pending."))
        return f"<p class='course-pending' data-pending='0'><i>{nothing}</i></p>"
    count = len(engine.pending)
    heading = ngettext("<b>Pending interrupt</b> (the payload, <code>Interrupt.value</code>):",
                       "<b>Pending interrupts</b> (the payload, <code>Interrupt.value</code>):", count)
    parts = [f"<p class='course-pending' data-pending='{count}' style='margin: 2px 0'>{heading}</p>"]
    if review.kind == "interrupt":
        for index, payload in enumerate(engine.pending, 1):
            label = "" if count == 1 else (_("{number}. (answered next)") if index == 1
                                           else _("{number}. (waits)")).format(number=index)
            parts.append(f"<div>{label}{block(visible(payload_text(payload)), css_class='course-payload')}</div>")
    else:
        current = engine.current
        for action, noted in zip(review.actions, [*engine.staged, *[None] * len(review.actions)]):
            deciding = current is not None and action.position == current.position
            status = _("{status}; allowed: {allowed}").format(status=_action_status(noted, deciding),
                                                              allowed=", ".join(action.allowed))
            text = f"{action.label}({json_text(action.args)})  [{status}]"
            if action.description and not action.description.startswith(HITL_DESCRIPTION_PREFIX):
                text += f"\n  {shorten(action.description)}"
            parts.append(block(visible(text), css_class="course-action"))
        if count > 1:
            more = _("{count} more interrupt(s) wait after this one.").format(count=count - 1)
            parts.append(f"<p><small>{html_text(more)}</small></p>")
    allowed = engine.allowed()
    refused = engine.refusal("approve")
    if refused:
        off = _("Approve is off: {reason}").format(reason=shorten(refused, 400))
        parts.append(f"<p style='margin: 2px 0'>{html_text(off)}</p>")
    here = _("Allowed here: {decisions}").format(
        decisions=", ".join(allowed) or _("none of approve, edit, reject, respond"))
    parts.append(f"<p style='margin: 2px 0'>{html_text(here)}</p>")
    return "".join(parts)


def whole_args_html(engine: Any, action: ReviewAction) -> str:
    """For arguments cut in the pending list: a part that opens to show them whole, saying how much was cut."""
    hidden = engine.hidden_characters(action)
    if not hidden:
        return ""
    whole = json_text(action.args, indent=2, limit=MAX_WHOLE)
    size = len(json_text(action.args, limit=None))
    if size <= MAX_WHOLE:
        summary = _("{action}: {hidden} of {size} characters of its arguments are not shown above; approving sends "
                    "them all. Open to read the whole arguments.")
    else:
        summary = _("{action}: {hidden} of {size} characters of its arguments are not shown above; approving sends "
                    "them all. Open to read the whole arguments (the first {limit} characters; edit or reject what "
                    "you cannot read).")
    summary = summary.format(action=action.label, hidden=f"{hidden:,}", size=f"{size:,}", limit=f"{MAX_WHOLE:,}")
    return (f"<details class='course-whole-args'><summary>{summary}</summary>"
            f"{block(visible(whole), css_class='course-whole-args-text')}</details>")


def status_html(result: PanelResult) -> str:
    """One status: the last result alone (a refusal replaces the previous "Sent." block)."""
    lines = []
    if result.sent is not None:
        lines.append(f"Command(resume={json_text(result.sent)})")
    lines.append(result.message)
    if result.outcome in (PanelOutcome.FINISHED, PanelOutcome.STUCK) and result.state is not None:
        lines.append(_("Final state:") if result.outcome == PanelOutcome.FINISHED else _("State at the checkpoint:"))
        lines += state_rows(result.state)
    outcome = result.outcome
    return box(f"{badge(outcome.word, outcome.tone)}{block(visible(chr(10).join(lines)), css_class='course-result')}",
               outcome.tone, css_class="course-status", data={"outcome": outcome})


def history_html(engine: Any) -> str:
    """The decisions sent, one numbered row each (outcome in ``data-outcome``), or a note that none was."""
    history = engine.history
    if not history:
        return muted(_("No decision sent yet."), css_class="course-history")
    rows = "".join(f"<li data-outcome='{d.outcome}'>{html_text(d.line())}</li>" for d in history)
    heading = html_text(_("Sent decisions"))
    return (f"<div class='course-history'><b>{heading}</b>"
            f"<ol style='margin: 0'>{rows}</ol></div>")
