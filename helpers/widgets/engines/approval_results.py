"""What the approval engine reports: its results, the decisions it sent, and their one-line texts.

No ipywidgets, no LangGraph calls: :class:`PanelResult` (one action's outcome), :class:`SentDecision`
(one resume actually sent) and the short texts they are shown with (:func:`call_subject`,
:func:`decision_text`, :func:`about`, :func:`visible`). Part of :mod:`helpers.widgets.engines.approval`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal

from ...i18n import _
from ..outcomes import PanelOutcome
from ..text import json_text, sendable, shorten

__all__ = ["ABOUT_LIMIT", "ActionName", "PanelResult", "PauseKey", "SUBJECT_LIMIT", "SentDecision", "about",
           "call_subject", "decision_text", "outcome_text", "visible"]

#: Which pause a decision answers: (interrupt id, 1-based call position). Never shown (the id is random).
PauseKey = tuple[str, int]

#: What a :class:`PanelResult` reports on: a decision, a re-read of the checkpoint, or a cleared draft.
ActionName = Literal["approve", "edit", "reject", "respond", "refresh", "start_over"]


@dataclass
class PanelResult:
    """What one action of the engine did.

    Attributes:
        action: an :data:`ActionName`.
        outcome: a :class:`~helpers.widgets.outcomes.PanelOutcome`.
        message: one or two plain sentences for the learner.
        sent: the resume value passed to ``Command(resume=...)``; ``None`` when nothing was sent.
        interrupts: the payloads (``Interrupt.value``) pending after the action, in order.
        state: the state values after the action (``None`` when unknown: the graph raised, or the
            checkpointer cannot be read).
    """

    action: ActionName
    outcome: PanelOutcome
    message: str
    sent: Any = None
    interrupts: list[Any] = field(default_factory=list)
    state: dict | None = None


@dataclass
class SentDecision:
    """One resume the engine actually sent (refused and noted decisions are not recorded).

    Attributes:
        payload: the interrupt value that was answered.
        resume: the resume value sent, e.g. ``{"type": "edit", "amount": 120.0}`` or ``{"decisions": [...]}``.
        outcome: the :class:`PanelResult` outcome of that resume (``paused``, ``finished``, ``stuck``, ``error``).
    """

    payload: Any
    resume: Any
    outcome: PanelOutcome

    def line(self) -> str:
        """One line: what was answered and how, and the outcome.

        A plain payload: ``A1024: {"type": "approve"} -> paused`` (its ``order_id`` first, when it
        has one). A HITL request: one ``call N (subject): decision`` part per gated call, e.g.
        ``call 1 (A1024): approve; call 2 (A1030): edit amount 40 -> finished``; a ``per_call``
        interrupt: ``submit_refund_request (A1024): approve``. The subject is what the call acts on
        (:func:`call_subject`); an edit lists only the arguments it changed (:func:`decision_text`).
        Each value in it is bounded, and the line is cut after :data:`~helpers.widgets.text.MAX_SHOWN`
        characters before the outcome.
        """
        payload, resume = self.payload, self.resume
        if isinstance(payload, dict) and isinstance(payload.get("action_requests"), list) \
                and isinstance(resume, dict) and isinstance(resume.get("decisions"), list):
            requests = [r if isinstance(r, dict) else {} for r in payload["action_requests"]]
            several_tools = len({about(r.get("name")) for r in requests}) > 1
            parts = []
            for position, (request, decision) in enumerate(zip(requests, resume["decisions"]), 1):
                subject = call_subject(request.get("name"), request.get("args"), with_tool=several_tools)
                parts.append(_("call {position} ({subject}): {decision}").format(
                    position=position, subject=subject, decision=decision_text(decision, request.get("args"))))
            text = "; ".join(parts)
        elif isinstance(payload, dict) and payload.get("type") == "tool_approval":
            name = about(payload.get("name"))
            subject = call_subject(payload.get("name"), payload.get("args"), with_tool=False)
            suffix = f" ({subject})" if subject != name else ""
            text = f"{name}{suffix}: {decision_text(resume, payload.get('args'))}"
        else:
            order_id = payload.get("order_id") if isinstance(payload, dict) else None
            text = (f"{about(order_id)}: " if order_id is not None else "") + json_text(resume)
        return visible(sendable(f"{shorten(text)} -> {outcome_text(self.outcome)}"))


def outcome_text(outcome: PanelOutcome) -> str:
    """How ``outcome`` ends a line of the decisions sent: its value (``finished``) in the English edition,
    its translated word (``已结束``, the badge's) in another: the value is a code, not a word to translate."""
    word = _(outcome.word)
    return outcome.value if word == outcome.word else word


#: The longest argument value that can name what a call acts on (an order id, a file path).
SUBJECT_LIMIT = 60


def call_subject(tool: Any, args: Any, *, with_tool: bool) -> str:
    """What a gated call acts on, for the list of decisions sent: ``A1024``, ``/policies/refunds.md``.

    Args:
        tool: the call's tool name.
        args: the call's arguments as the model wrote them.
        with_tool: put the tool's name first (``cancel_order A1024``), for a request that gates
            more than one tool.

    Returns:
        the call's ``order_id`` (the course's refund tools), else its first argument whose value is
        printable text of at most :data:`SUBJECT_LIMIT` characters (``write_file``'s
        ``file_path``), else the tool's name alone.
    """
    name = about(tool)
    values = args if isinstance(args, dict) else {}
    candidates = ([values["order_id"]] if "order_id" in values else []) + list(values.values())
    subject = next((value for value in candidates if isinstance(value, str) and value.strip()
                    and value.isprintable() and len(value) <= SUBJECT_LIMIT), None)
    if subject is None:
        return name
    return f"{name} {subject}" if with_tool else subject


def decision_text(decision: Any, args: Any = None) -> str:
    """A HITL decision in a few words: ``approve``, ``edit amount 40``, ``reject "message"``.

    Args:
        decision: the decision as sent (``{"type": "edit", "edited_action": {...}}``, ...).
        args: the call's arguments as the model wrote them. With them, an edit lists only what it
            changed (``edit order_id "A1031", amount 40``; a dropped argument as ``without note``;
            the same arguments as ``edit (no change)``); without them, every edited argument.

    Returns:
        the text; each value bounded (:func:`~helpers.widgets.text.json_text`).
    """
    if not isinstance(decision, dict):
        return json_text(decision)
    kind = decision.get("type")
    if kind == "edit":
        edited = (decision.get("edited_action") or {}).get("args")
        if not (isinstance(edited, dict) and isinstance(args, dict)):
            return f"edit {json_text(edited)}"
        changes = [f"{about(key)} {json_text(value)}" for key, value in edited.items()
                   if key not in args or json_text(args[key]) != json_text(value)]
        changes += [_("without {name}").format(name=about(key)) for key in args if key not in edited]
        return f"edit {', '.join(changes)}" if changes else _("edit (no change)")
    if kind in ("reject", "respond"):
        return f"{kind} {json_text(decision.get('message'))}"
    return about(kind)


#: The most characters a name or order id takes in one line (a 200,000-character order id is cut).
ABOUT_LIMIT = 200


def about(value: Any) -> str:
    """A name or order id for one line: as it is when it is printable text, else as JSON; cut to :data:`ABOUT_LIMIT`."""
    if isinstance(value, str) and value.isprintable():
        return shorten(value, ABOUT_LIMIT)
    return visible(json_text(value, limit=ABOUT_LIMIT))


def visible(text: str) -> str:
    """``text`` with every invisible format character written as an escape (``\\u202e``).

    Bidi controls (``U+202E`` turns ``"\u202e4201A"`` into what reads as ``A1024``), zero-width
    characters and other Unicode "format" characters (category ``Cf``) are shown as ``\\uXXXX``,
    so a reviewer reads the id the tool will get. Line breaks and tabs stay.
    """
    if text.isascii():
        return text
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) == "Cf" else ch for ch in text)

