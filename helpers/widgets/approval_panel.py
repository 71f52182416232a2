"""The approval panel of notebook 08: answer a paused run's ``interrupt()`` with real resumes.

Every control is also a plain method (``approve``, ``edit``, ``reject``, ``refresh``), so tests
drive it headless and the notebook can show a scripted run. Handlers never ``print``.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets
from langchain_core.messages import BaseMessage
from langgraph.types import Command

from ..display import _ADDRESS, format_error

__all__ = ["ApprovalPanel", "PanelResult", "SentDecision"]

#: The decisions the panel can send, and the resume value each one becomes.
DECISIONS = ("approve", "edit", "reject")


@dataclass
class PanelResult:
    """What one action of :class:`ApprovalPanel` did.

    Attributes:
        action: ``"approve"``, ``"edit"``, ``"reject"`` or ``"refresh"``.
        outcome: ``"paused"`` (the run waits at an interrupt), ``"finished"`` (no interrupt is
            left and no node is due: ``state`` holds the final values), ``"stuck"`` (no interrupt
            is pending but the checkpoint still has nodes to run, ``snapshot.next``: a node raised
            after the last resume, or a static breakpoint; the panel cannot answer it),
            ``"not_started"`` (the thread has no checkpoint yet), ``"refused"`` (the input was
            checked and nothing was sent), or ``"error"`` (the resume was sent and the graph
            raised; ``message`` says ``Type: message``, followed by the stuck note when the run
            is left stuck).
        message: one plain sentence for the learner.
        sent: the resume value passed to ``Command(resume=...)``; ``None`` when nothing was sent.
        interrupts: the payloads (``Interrupt.value``) pending after the action, in order.
        state: the state values after the action (``None`` when the graph raised).
    """

    action: str
    outcome: str
    message: str
    sent: Any = None
    interrupts: list[Any] = field(default_factory=list)
    state: dict | None = None


@dataclass
class SentDecision:
    """One resume the panel actually sent (refused actions are not recorded).

    Attributes:
        payload: the interrupt value that was answered.
        resume: the resume value sent, e.g. ``{"type": "edit", "amount": 120.0}``.
        outcome: the :class:`PanelResult` outcome of that resume (``paused``, ``finished``, ``error``).
    """

    payload: Any
    resume: Any
    outcome: str


def _clean(text: str) -> str:
    """``text`` with lone surrogates written as ``\\ud800`` escapes.

    A widget value must be encodable as UTF-8: jupyter_client's JSON packer fails on a lone
    surrogate (valid in JSON as ``"\\ud800"``) and the front end would never see the update.
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _plain(value: Any) -> Any:
    """``json.dumps`` fallback for what is not JSON, without random ids or memory addresses.

    A LangChain message (``BaseMessage``, e.g. in a ``messages`` state key) becomes
    ``{"type": ..., "content": ...}``: its ``str`` would show its random UUID ``id``. A dataclass
    becomes its fields; anything else its ``str`` with `` at 0x...`` removed.
    """
    if isinstance(value, BaseMessage):
        return {"type": value.type, "content": value.content}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(value, key=repr) if isinstance(value, (set, frozenset)) else list(value)
    return _ADDRESS.sub("", str(value))


def _json(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` with :func:`_plain` as fallback; never raises."""
    try:
        return json.dumps(value, default=_plain, ensure_ascii=False, **kwargs)
    except (TypeError, ValueError, RecursionError):
        return _ADDRESS.sub("", repr(value))


def _dumps(value: Any) -> str:
    """A payload as text: one ``key: json`` line per key for a dict, else indented JSON."""
    if isinstance(value, dict):
        return "\n".join(f"{key}: {_json(item)}" for key, item in value.items())
    return _json(value, indent=2)


def _values(snapshot: Any) -> dict:
    """A checkpoint's state values as a dict (``StateSnapshot.values``; a dataclass or model too)."""
    values = snapshot.values
    if isinstance(values, dict):
        return dict(values)
    if dataclasses.is_dataclass(values) and not isinstance(values, type):
        return dataclasses.asdict(values)
    if hasattr(values, "model_dump"):
        return values.model_dump()
    return dict(vars(values))


def _number(value: Any) -> bool:
    """``value`` is an ``int`` or ``float`` (not a ``bool``)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _about(order_id: Any) -> str:
    """An ``order_id`` for one summary line: as it is when it is printable text, else as JSON."""
    if isinstance(order_id, str) and order_id.isprintable():
        return order_id
    return _json(order_id)


class ApprovalPanel:
    """Show what a paused run waits for, and answer it with Approve, Edit (amount) or Reject (reason).

    The panel reads the pending interrupts from the checkpoint (``graph.get_state(config)``) and
    shows their payloads (``Interrupt.value``; never the random ``Interrupt.id``). Each action
    sends one real ``graph.invoke(Command(resume=value), config, version="v2")`` (langgraph
    1.2.24) and shows what came next: the next pending interrupt or the final state. With several
    pending interrupts (parallel nodes) the first one is answered by id,
    ``Command(resume={interrupt.id: value})``, as LangGraph requires.

    Resume values: ``{"type": "approve"}``, ``{"type": "edit", "amount": <float>}``,
    ``{"type": "reject", "reason": <str>}`` (the shapes used by notebook 08 and
    ``helpers.exercises.nb08.build_approval_graph``).

    Every answer is checked **before** it is sent, because LangGraph stores the first resume
    value with the paused task: if the node then raises, a later correct resume does not replace
    it (the thread is poisoned). Refused, with a message and nothing sent: an action when nothing
    is pending; a decision the payload's ``"allowed"`` list (if it has one) does not contain; an
    approval of a payload whose ``"amount"`` is above its ``"refundable"``; an edit amount that
    is not a finite number, not above 0, not whole cents (more than 2 decimals, as
    ``helpers.domain.RefundService`` requires; float noise such as ``120.50000000001`` is
    rounded), or above the payload's ``"refundable"`` (if it has one); an empty reject reason.
    Typed text stays in its field when refused. If a run is left stuck anyway (no interrupt
    pending, ``snapshot.next`` not empty), the panel says so (outcome ``"stuck"``), never
    "finished".

    Args:
        graph: a compiled graph with a checkpointer.
        config: the thread's config, ``{"configurable": {"thread_id": ...}}``.
        decisions: the decisions this graph accepts (a subset of ``approve``, ``edit``,
            ``reject``); a payload's own ``"allowed"`` list narrows it further.
        title: shown first in the panel (and in its plain-text repr).

    Attributes:
        history: every :class:`SentDecision`, in order.
        last: the last :class:`PanelResult`.
        view: the ``ipywidgets.VBox`` (displayed when the object is a cell's value).

    Raises:
        ValueError: the graph has no checkpointer, the config has no ``thread_id``, or
            ``decisions`` holds an unknown or no decision.
    """

    def __init__(self, graph: Any, config: dict, *, decisions: tuple[str, ...] = DECISIONS,
                 title: str = "Approval panel"):
        if getattr(graph, "checkpointer", None) is None:
            raise ValueError("ApprovalPanel needs a graph compiled with a checkpointer: without one nothing can be resumed")
        thread_id = (config or {}).get("configurable", {}).get("thread_id")
        if not thread_id:
            raise ValueError("ApprovalPanel needs a config with a thread_id: {'configurable': {'thread_id': ...}}")
        unknown = [d for d in decisions if d not in DECISIONS]
        if unknown or not decisions:
            raise ValueError(f"decisions must be a non-empty subset of {DECISIONS}, got {tuple(decisions)}")
        self.graph, self.config, self.thread_id = graph, config, str(thread_id)
        self.decisions = tuple(decisions)
        self.history: list[SentDecision] = []
        self._pending: list[Any] = []  # Interrupt objects, kept for their ids; only .value is ever shown
        self.header = widgets.HTML(_clean(f"<b>{html.escape(title)}</b> · thread "
                                          f"<code>{html.escape(self.thread_id)}</code>"))
        self.pending_view = widgets.HTML()
        self.amount_field = widgets.Text(value="", description="amount:", placeholder="e.g. 120.0")
        self.reason_field = widgets.Text(value="", description="reason:", placeholder="why it is rejected")
        self.approve_button = widgets.Button(description="Approve", button_style="success")
        self.edit_button = widgets.Button(description="Edit amount", button_style="warning")
        self.reject_button = widgets.Button(description="Reject", button_style="danger")
        self.message_view = widgets.HTML()
        self.result_view = widgets.HTML()
        self.history_view = widgets.HTML()
        self.approve_button.on_click(lambda _button: self.approve())
        self.edit_button.on_click(lambda _button: self.edit())
        self.reject_button.on_click(lambda _button: self.reject())
        self.view = widgets.VBox([
            self.header, self.pending_view,
            widgets.HBox([self.approve_button]),
            widgets.HBox([self.amount_field, self.edit_button]),
            widgets.HBox([self.reason_field, self.reject_button]),
            self.message_view, self.result_view, self.history_view,
        ])
        self.last = self.refresh()

    # -- plain methods: what the mouse does ---------------------------------------------------

    @property
    def pending(self) -> list[Any]:
        """The pending interrupt payloads (``Interrupt.value``), in order, as last read."""
        return [i.value for i in self._pending]

    def allowed(self) -> tuple[str, ...]:
        """The decisions the first pending interrupt accepts (empty when nothing is pending)."""
        if not self._pending:
            return ()
        payload = self._pending[0].value
        listed = payload.get("allowed") if isinstance(payload, dict) else None
        if isinstance(listed, (list, tuple)):
            return tuple(d for d in self.decisions if d in listed)
        return self.decisions

    def refresh(self) -> PanelResult:
        """Read the thread's checkpoint again and show what is pending. Sends nothing.

        Returns:
            a :class:`PanelResult` with outcome ``paused``, ``finished``, ``stuck`` or ``not_started``.
        """
        snapshot = self.graph.get_state(self.config)
        self._pending = list(snapshot.interrupts)
        values = _values(snapshot)
        if self._pending:
            result = PanelResult("refresh", "paused", "The run is paused: answer the interrupt shown above.",
                                 interrupts=self.pending, state=values)
        elif snapshot.next:
            result = PanelResult("refresh", "stuck", self._stuck_message(snapshot.next), state=values)
        elif not values:
            result = PanelResult("refresh", "not_started",
                                 f"Thread {self.thread_id!r} has no checkpoint: start the run first.", state=values)
        else:
            result = PanelResult("refresh", "finished", "No interrupt is pending; the run finished.", state=values)
        return self._show(result)

    @staticmethod
    def _stuck_message(next_nodes: tuple[str, ...]) -> str:
        names = ", ".join(repr(name) for name in next_nodes)
        return (f"No interrupt is pending, but the run has NOT finished: it stopped before {names} "
                "(a node raised after the last resume, or a breakpoint). There is nothing this panel can answer; "
                "fix the cause, then continue with graph.invoke(None, config).")

    def approve(self) -> PanelResult:
        """Answer the first pending interrupt with ``{"type": "approve"}``.

        Refused when the payload's ``"amount"`` is above its ``"refundable"`` (both numbers): the
        approved amount would be refused by the refund service after the review, leaving the run
        stuck; edit the amount instead.
        """
        return self._resume("approve", self._checked_approve)

    def edit(self, amount: Any = None) -> PanelResult:
        """Answer with ``{"type": "edit", "amount": x}``.

        Args:
            amount: the new amount (number, e.g. ``int``/``float``/``Decimal``, or text); ``None``
                uses what is typed in the amount field. A given value is written into the field
                first, as if typed (``str(amount)``; a ``Fraction`` as its float).
        """
        if amount is not None:
            if isinstance(amount, numbers.Real) and not isinstance(amount, (bool, int, float)):
                amount = float(amount)  # e.g. Fraction(241, 2), whose str "241/2" is not a number
            self.amount_field.value = _clean(amount if isinstance(amount, str) else str(amount))
        return self._resume("edit", self._checked_amount)

    def reject(self, reason: str | None = None) -> PanelResult:
        """Answer with ``{"type": "reject", "reason": text}``.

        Args:
            reason: why (text); ``None`` uses what is typed in the reason field.
        """
        if reason is not None:
            self.reason_field.value = _clean(str(reason))
        return self._resume("reject", self._checked_reason)

    # -- checks and the real resume -----------------------------------------------------------

    def _checked_amount(self) -> dict:
        text = self.amount_field.value.strip()
        try:
            amount = float(text)
        except ValueError:
            raise _Refused(f"The amount {text!r} is not a number.") from None
        if not math.isfinite(amount):
            raise _Refused(f"The amount {text!r} is not a finite number.")
        if amount <= 0:
            raise _Refused(f"The amount must be more than 0, got {amount}.")
        cents = round(amount, 2)
        if abs(cents - amount) > 1e-9:  # the tolerance of helpers.domain._cents
            raise _Refused(f"The amount {text!r} has more than 2 decimals: refunds are paid in whole cents.")
        if cents <= 0:
            raise _Refused(f"The amount {text!r} rounds to 0.00: it must be at least 0.01.")
        amount = cents
        payload = self._pending[0].value
        refundable = payload.get("refundable") if isinstance(payload, dict) else None
        if _number(refundable) and amount > refundable:
            raise _Refused(f"The amount {amount} is above the refundable {float(refundable)}; "
                           "the refund service would refuse it after the review.")
        return {"type": "edit", "amount": amount}

    def _checked_approve(self) -> dict:
        payload = self._pending[0].value
        if isinstance(payload, dict) and _number(payload.get("amount")) and _number(payload.get("refundable")) \
                and payload["amount"] > payload["refundable"]:
            raise _Refused(f"Approving keeps the amount {float(payload['amount'])}, above the refundable "
                           f"{float(payload['refundable'])}; the refund service would refuse it after the review. "
                           "Edit the amount instead.")
        return {"type": "approve"}

    def _checked_reason(self) -> dict:
        reason = self.reason_field.value.strip()
        if not reason:
            raise _Refused("A rejection needs a reason: type one in the reason field.")
        return {"type": "reject", "reason": reason}

    def _resume(self, action: str, build) -> PanelResult:
        self._pending = list(self.graph.get_state(self.config).interrupts)  # answer what is pending now
        if not self._pending:
            return self._refuse(action, f"Nothing is pending on thread {self.thread_id!r}: there is no interrupt to answer.")
        if action not in self.allowed():
            return self._refuse(action, f"This interrupt does not accept {action!r}; it allows: "
                                        f"{', '.join(self.allowed()) or 'nothing this panel can send'}.")
        try:
            value = build()
        except _Refused as refused:
            return self._refuse(action, str(refused))
        first = self._pending[0]
        command = Command(resume=value) if len(self._pending) == 1 else Command(resume={first.id: value})
        try:
            out = self.graph.invoke(command, self.config, version="v2")
        except Exception as exc:  # noqa: BLE001 - the graph's error is shown, never raised from a click
            snapshot = self.graph.get_state(self.config)
            self._pending = list(snapshot.interrupts)
            message = format_error(exc)
            if not self._pending and snapshot.next:
                message += "\n" + self._stuck_message(snapshot.next)
            result = PanelResult(action, "error", message, sent=value, interrupts=self.pending, state=None)
        else:
            # The state from the checkpoint is a dict whatever the schema (out.value may be a dataclass).
            snapshot = self.graph.get_state(self.config)
            self._pending = list(out.interrupts)
            if self._pending:
                result = PanelResult(action, "paused", "Sent. The run paused again at the next interrupt.",
                                     sent=value, interrupts=self.pending, state=_values(snapshot))
            elif snapshot.next:
                result = PanelResult(action, "stuck", "Sent. " + self._stuck_message(snapshot.next),
                                     sent=value, state=_values(snapshot))
            else:
                result = PanelResult(action, "finished", "Sent. The run finished; no interrupt is left.",
                                     sent=value, state=_values(snapshot))
        self.history.append(SentDecision(first.value, value, result.outcome))
        if action == "edit":
            self.amount_field.value = ""
        if action == "reject":
            self.reason_field.value = ""
        return self._show(result)

    def _refuse(self, action: str, message: str) -> PanelResult:
        result = PanelResult(action, "refused", message + " Nothing was sent.", interrupts=self.pending)
        self.last = result
        self.message_view.value = _clean(f"<p class='course-refused' style='color:#b00020'>"
                                         f"{html.escape(result.message)}</p>")
        self._update_buttons()
        return result

    # -- rendering ------------------------------------------------------------------------------

    def _show(self, result: PanelResult) -> PanelResult:
        self.last = result
        self.message_view.value = ""
        self.pending_view.value = _clean(self._pending_html())
        self.result_view.value = _clean(self._result_html(result))
        self.history_view.value = _clean(self._history_html())
        self._update_buttons()
        return result

    def _update_buttons(self) -> None:
        allowed = self.allowed()
        self.approve_button.disabled = "approve" not in allowed
        self.edit_button.disabled = "edit" not in allowed
        self.reject_button.disabled = "reject" not in allowed

    def _pending_html(self) -> str:
        if not self._pending:
            return "<p class='course-pending' data-pending='0'><i>No interrupt is pending.</i></p>"
        parts = [f"<p class='course-pending' data-pending='{len(self._pending)}'><b>Pending interrupt"
                 f"{'s' if len(self._pending) > 1 else ''}</b> (the payload, <code>Interrupt.value</code>):</p>"]
        for index, interrupt in enumerate(self._pending, 1):
            label = "" if len(self._pending) == 1 else f"{index}. ({'answered next' if index == 1 else 'waits'})"
            parts.append(f"<div>{label}<pre>{html.escape(_dumps(interrupt.value))}</pre></div>")
        parts.append(f"<p>Allowed here: {html.escape(', '.join(self.allowed()) or 'none of approve, edit, reject')}</p>")
        return "".join(parts)

    @staticmethod
    def _result_html(result: PanelResult) -> str:
        lines = [result.message]
        if result.sent is not None:
            lines.insert(0, f"Command(resume={_json(result.sent)})")
        if result.outcome in ("finished", "stuck") and result.state is not None:
            lines.append("Final state:" if result.outcome == "finished" else "State at the checkpoint:")
            lines += [f"  {key}: {_json(value)}" for key, value in result.state.items()]
        return (f"<pre class='course-result' data-outcome='{result.outcome}'>"
                f"{html.escape(chr(10).join(lines))}</pre>")

    def _history_html(self) -> str:
        if not self.history:
            return "<p class='course-history'><i>No decision sent yet.</i></p>"
        rows = "".join(f"<li>{html.escape(self._line(decision))}</li>" for decision in self.history)
        return f"<div class='course-history'><b>Sent decisions</b><ol>{rows}</ol></div>"

    @staticmethod
    def _line(decision: SentDecision) -> str:
        payload = decision.payload
        about = payload.get("order_id") if isinstance(payload, dict) else None
        prefix = f"{_about(about)}: " if about is not None else ""
        return f"{prefix}{_json(decision.resume)} -> {decision.outcome}"

    def summary(self) -> str:
        """Plain text: each decision sent, with the payload's ``order_id`` when it has one, and its outcome.

        One line per decision (an ``order_id`` that is not printable text, e.g. one with a line
        break, is shown as JSON).
        """
        lines = [f"{number}. {self._line(decision)}" for number, decision in enumerate(self.history, 1)]
        return _clean("\n".join(lines)) or "no decision sent"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.view)


class _Refused(Exception):
    """An answer that failed the panel's checks (never leaves the panel)."""
