"""The approval panel (notebooks 08, 09, 11): an ``ipywidgets.VBox`` around :class:`ApprovalEngine`.

Use it on any paused thread whose graph has a checkpointer::

    from helpers.widgets import ApprovalPanel

    agent = create_agent(model, tools, middleware=[HumanInTheLoopMiddleware({"submit_refund_request": True})],
                         checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "refund-1"}}
    agent.invoke({"messages": [{"role": "user", "content": "Refund A1024"}]}, config)   # pauses
    panel = ApprovalPanel(agent, config)
    panel                                   # the last value of a cell: the panel opens

``ApprovalPanel(graph, config, *, decisions=None, tools=(), context=None, title=None)``
    ``graph``: a compiled graph with a checkpointer (``create_agent``, ``create_deep_agent``, or a
    ``StateGraph`` whose node calls ``interrupt()``); ``config``: the thread's config with a
    ``thread_id``; ``decisions``: the decisions the panel may send (subset of ``"approve"``,
    ``"edit"``, ``"reject"``, ``"respond"``; each pause narrows them further: a HITL action by its
    ``review_configs[i]["allowed_decisions"]``, a plain payload by its ``"allowed"`` list, else
    its ``response_schema``, else approve and reject only: an edit its node cannot read would
    poison the thread);
    ``tools``: tools to check edited arguments against when the graph has no ``tools`` node;
    ``context``: the run's context, passed to every resume (LangGraph does not checkpoint it: an
    agent built with a ``context_schema`` whose tools read ``runtime.context`` needs it on each
    ``invoke``, notebook 10); ``title``: the header (``None``: "Approval panel", in the edition's
    language). Raises ``ValueError`` without a checkpointer or a ``thread_id``.

Methods (each is also a button; each returns a :class:`~helpers.widgets.engines.approval.PanelResult`
with ``action``, ``outcome``, ``message``, ``sent``, ``interrupts``, ``state``, and never raises):

* ``approve()``; ``edit(value)``: the new amount for a plain payload (``120`` or ``"120.50"``), the
  new arguments for a HITL call (a dict or JSON text: plain JSON without ``NaN``/``Infinity``,
  checked strictly against the tool's schema, an ``amount`` by the refund amount rule, all before
  anything is sent); ``reject(message)`` (a plain payload needs the reason; a HITL reject may go
  without one, as HumanInTheLoopMiddleware accepts it); ``respond(message)`` (HITL only: the text
  goes back to the model as the tool's result, the tool does not run); ``start_over()`` (drop the decisions
  noted for a request with several calls, or, after an ``unknown`` outcome, say "I checked the
  state" so the pause can be answered again); ``refresh()`` (re-read the checkpoint, send nothing).
The controls fit the kind of pause (:attr:`ApprovalEngine.kind`): an amount and a reason field for a
plain payload, an args (JSON) and a message field and Respond for a HITL call, Start over for a
request with several calls. They stay the same once the run has finished, greyed out where nothing
can be sent; the list of decisions sent names each call and what it acts on
(``call 1 (A1024): approve; call 2 (A1030): edit amount 40 -> finished``).

Each decision answers only the pause it was made on (``seen=``, a :data:`PauseKey`): a button
passes the pause the page had drawn when it was clicked (the kernel numbers each rendered pause
and the page echoes the number back through a ``jsdlink``), a call from code the pause the panel
last rendered. When another pause is pending now (a double click after the run moved on, a second
panel on the thread), nothing is sent and the panel says "The run moved on: review the new
request" and shows it. Arguments cut in the list of calls can be opened whole
(``whole_args_view``), and an approve of such arguments says how much was not shown.

* ``allowed()``: the decisions a click can send now (an approve that is always refused is left
  out; its button's tooltip says why). ``pending``: the pending payloads.
  ``current``: the action the next decision is for. ``history``: the decisions sent.
  ``summary()``: one line per decision sent. ``engine``: the :class:`ApprovalEngine`.

A HITL request with two gated calls needs two decisions: the first click notes one (outcome
``staged``), the second sends ``Command(resume={"decisions": [first, second]})``. A resume that
raises while the same pause stays pending (e.g. a checkpoint write error after the tool ran) is
reported as ``unknown``, "the tool may have run; check the state", and nothing more is sent to
that pause until ``start_over()``. Every value shown is cut after a few thousand characters
(:mod:`helpers.widgets.text`); arguments too long for the args field are edited with ``edit({...})``. The outcomes are
:class:`~helpers.widgets.outcomes.PanelOutcome` values; the engine's docstring lists every check.
Handlers never ``print``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
from langchain_core.tools import BaseTool

from ..i18n import N_, _, ngettext
from .engines.approval import ApprovalEngine, PanelResult, PauseKey, SentDecision
from .engines.approval_checks import MAX_WHOLE
from .engines.approval_pause import HITL_DESCRIPTION_PREFIX, ReviewAction
from .outcomes import PanelOutcome
from .style import badge, block, box, muted
from .text import html_text, json_text, sendable, shorten, visible

__all__ = ["ApprovalPanel"]

# -- text rows: payloads, the final state, the amount field's text ---------------------------------------

#: The most payload keys shown; the rest are counted ("... and 3 more keys").
MAX_KEYS = 20
#: Edited arguments longer than this (as JSON) are not put into the args field; edit them in code.
MAX_EDITABLE = 20_000
#: The most messages listed in the final state (the last ones); the rest are counted.
MAX_MESSAGES = 30


def message_row(number: int, message: Any) -> str:
    """One message of the state as one readable row: ``3 tool call_1 success: refund request ...``."""
    kind = getattr(message, "type", None) or (message.get("role") if isinstance(message, dict) else "?")
    content = getattr(message, "content", None) if not isinstance(message, dict) else message.get("content")
    text = content if isinstance(content, str) else json_text(content, limit=300)
    parts = [f"{number:>3} {kind}"]
    if kind == "tool":
        parts.append(f"{shorten(sendable(str(getattr(message, 'tool_call_id', ''))), 80)} "
                     f"{getattr(message, 'status', '')}")
    calls = getattr(message, "tool_calls", None) or []
    line = " ".join(parts) + ": " + shorten(" ".join(sendable(text).split()), 300)
    for call in calls:
        line += f"\n      -> {shorten(sendable(str(call.get('name'))), 80)} {json_text(call.get('args'), limit=300)}"
    return line


def state_rows(state: dict) -> list[str]:
    """The state as readable rows: one per message, one per list entry or dict key of other keys."""
    rows = []
    for key, value in state.items():
        name = shorten(sendable(str(key)), 200)
        if key == "messages" and isinstance(value, list):
            rows.append(f"  {name}: {len(value)}")
            skipped = max(0, len(value) - MAX_MESSAGES)
            if skipped:
                rows.append("    " + _("... {count} earlier messages").format(count=skipped))
            rows += [f"  {message_row(n, m)}" for n, m in enumerate(value[skipped:], skipped + 1)]
        elif isinstance(value, list) and value:
            rows.append(f"  {name}:")
            rows += [f"    - {json_text(item, limit=300)}" for item in value[:MAX_KEYS]]
            if len(value) > MAX_KEYS:
                rows.append("    " + _("... and {count} more").format(count=f"{len(value) - MAX_KEYS:,}"))
        elif isinstance(value, dict) and value:
            rows.append(f"  {name}:")
            rows += [f"    {shorten(sendable(str(k)), 200)}: {json_text(v, limit=300)}"
                     for k, v in itertools.islice(value.items(), MAX_KEYS)]
            if len(value) > MAX_KEYS:
                rows.append("    " + _("... and {count} more keys").format(count=f"{len(value) - MAX_KEYS:,}"))
        else:
            rows.append(f"  {name}: {json_text(value)}")
    return rows


def payload_text(value: Any) -> str:
    """A payload as text: one ``key: json`` line per key for a dict, else indented JSON; bounded.

    Each key and value is cut by :func:`~helpers.widgets.text.json_text` / :func:`~helpers.widgets.text.shorten`
    (a 200,000-character field shows its first 4,000), and at most :data:`MAX_KEYS` keys are listed.
    """
    if isinstance(value, dict):
        lines = [f"{shorten(sendable(str(key)), 200)}: {json_text(item)}"
                 for key, item in itertools.islice(value.items(), MAX_KEYS)]
        if len(value) > MAX_KEYS:
            lines.append(_("... and {count} more keys").format(count=f"{len(value) - MAX_KEYS:,}"))
        return "\n".join(lines)
    return json_text(value, indent=2)


def as_float(value: Any) -> Any:
    """A number that is not an int/float (``Decimal``, ``Fraction``) as a float, for the amount field's text."""
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return value


# -- the HTML parts: the pending request, the whole arguments, the status, the history ------------------

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


_STYLES = {"approve": "success", "edit": "warning", "reject": "danger", "respond": "info"}
#: A decision button's tooltip when the decision is not allowed and the engine gives no reason.
_NOT_ALLOWED = {"approve": N_("approve is not allowed here"), "edit": N_("edit is not allowed here"),
                "reject": N_("reject is not allowed here"), "respond": N_("respond is not allowed here")}
#: ``seen=`` not given: a decision from code answers the pause the panel last rendered.
_SHOWN: Any = object()


class ApprovalPanel(widgets.VBox):
    """Show what a paused run waits for and answer it with checked decisions (see the module docstring).

    Args:
        graph: a compiled graph with a checkpointer.
        config: the thread's config, ``{"configurable": {"thread_id": ...}}``.
        decisions: the decisions the panel may send (``None``: whatever each pause allows).
        tools: tools to check edited HITL arguments against, if the graph has no ``tools`` node.
        context: the run's context (``invoke(..., context=...)``), passed to every resume; ``None``: none.
        title: shown first in the panel (``None``: "Approval panel", translated).

    Attributes:
        engine: the :class:`ApprovalEngine`. header, pending_view, approve_button, amount_field,
        args_field, edit_button, message_field, reject_button, respond_button, start_over_button,
        refresh_button, status_view, history_view: the controls. whole_args_view: the arguments the
        pending list cuts (over 4,000 characters), whole, in a part that opens.

    Raises:
        ValueError: the graph has no checkpointer, the config has no ``thread_id``, or
            ``decisions`` holds an unknown or no decision.
    """

    def __init__(self, graph: Any, config: dict, *, decisions: Sequence[str] | None = None,
                 tools: Sequence[BaseTool] = (), context: Any = None, title: str | None = None):
        self.engine = ApprovalEngine(graph, config, decisions=decisions, tools=tools, context=context)
        title = _("Approval panel") if title is None else title
        self.header = widgets.HTML(_("<b>{title}</b> · thread <code>{thread}</code>").format(
            title=html_text(title), thread=html_text(self.engine.thread_id)))
        self.pending_view = widgets.HTML()
        self.whole_args_view = widgets.HTML()  # arguments the pending list cuts, whole, in an opening part
        self.approve_button = widgets.Button(description=_("Approve"))
        self.amount_field = widgets.Text(value="", description=_("amount:"),
                                         placeholder=_("e.g. 120.50, Enter sends"))
        self.args_field = widgets.Textarea(value="", description=_("args (JSON):"),
                                           layout=widgets.Layout(width="60%", height="4em"))
        self.edit_button = widgets.Button(description=_("Edit amount"))
        self.message_field = widgets.Text(value="", description=_("reason:"), placeholder=_("why it is rejected"))
        self.reject_button = widgets.Button(description=_("Reject"))
        self.respond_button = widgets.Button(description=_("Respond"))
        self.start_over_button = widgets.Button(description=_("Start over"),
                                                tooltip=_("Drop the decisions noted so far"))
        self.refresh_button = widgets.Button(description=_("Refresh"),
                                             tooltip=_("Read the checkpoint again; sends nothing"))
        self.status_view = widgets.HTML()
        self.history_view = widgets.HTML()
        # Which pause the page shows: the kernel numbers each rendered pause (``_rendered``); the page
        # copies the number into ``_seen`` when it has drawn it (jsdlink: the copy is made in the page
        # and synced back), so a click carries the pause the reviewer could see, even when two clicks
        # were queued before the first re-render reached the page.
        self._rendered = widgets.IntText(value=0, layout=widgets.Layout(display="none"))
        self._seen = widgets.IntText(value=0, layout=widgets.Layout(display="none"))
        self._link = widgets.jsdlink((self._rendered, "value"), (self._seen, "value"))
        self._shown_keys: dict[int, PauseKey | None] = {}
        self.approve_button.on_click(lambda _button: self.approve(seen=self._page_key()))
        self.edit_button.on_click(lambda _button: self.edit(seen=self._page_key()))
        self.reject_button.on_click(lambda _button: self.reject(seen=self._page_key()))
        self.respond_button.on_click(lambda _button: self.respond(seen=self._page_key()))
        self.start_over_button.on_click(lambda _button: self.start_over())
        self.refresh_button.on_click(lambda _button: self.refresh())
        self.amount_field.on_msg(self._on_field_message)  # the front end sends {"event": "submit"} on Enter
        self._args_for: tuple | None = None  # which action the args field was filled for
        super().__init__([
            self.header, self.pending_view, self.whole_args_view,
            widgets.HBox([self.approve_button]),
            widgets.HBox([self.amount_field, self.args_field, self.edit_button]),
            widgets.HBox([self.message_field, self.reject_button, self.respond_button]),
            widgets.HBox([self.start_over_button, self.refresh_button]),
            self.status_view, self.history_view, self._rendered, self._seen,
        ])
        self.add_class("course-approval-panel")
        self._render()
        self._seen.value = self._rendered.value  # the first drawing of the page shows the first render

    # -- plain methods: what the mouse does ---------------------------------------------------

    @property
    def graph(self) -> Any:
        """The graph the panel resumes."""
        return self.engine.graph

    @property
    def config(self) -> dict:
        """The thread's config."""
        return self.engine.config

    @property
    def pending(self) -> list[Any]:
        """The pending interrupt payloads (``Interrupt.value``), in order, as last read."""
        return self.engine.pending

    @property
    def current(self) -> ReviewAction | None:
        """The action the next decision is for, or ``None``."""
        return self.engine.current

    @property
    def history(self) -> list[SentDecision]:
        """Every decision sent, in order."""
        return self.engine.history

    @property
    def last(self) -> PanelResult:
        """The last result."""
        return self.engine.last

    def allowed(self) -> tuple[str, ...]:
        """The decisions the current action accepts."""
        return self.engine.allowed()

    def summary(self) -> str:
        """One line per decision sent."""
        return self.engine.summary()

    def refresh(self) -> PanelResult:
        """Read the checkpoint again and show it; sends nothing."""
        return self._show(self.engine.refresh())

    def approve(self, *, seen: Any = _SHOWN) -> PanelResult:
        """Approve the current action (see :meth:`ApprovalEngine.approve`).

        Every decision method takes ``seen``: the pause the decision was made on. A button passes
        the pause the page had drawn when it was clicked; a call from code answers the pause the
        panel last rendered. When another pause is pending now, nothing is sent.
        """
        return self._show(self.engine.approve(seen=self._key(seen)))

    def edit(self, value: Any = None, *, seen: Any = _SHOWN) -> PanelResult:
        """Edit the current action; ``None`` uses what is typed (the amount or the args field).

        A given value is written into the field first, as if typed (a number as its text).
        """
        plain = self._plain()
        field = self.amount_field if plain else self.args_field
        if value is not None:
            if isinstance(value, str):
                text = value
            elif plain:
                text = str(value) if isinstance(value, (int, float)) else str(as_float(value))
            else:
                text = json_text(value)
            field.value = sendable(text)
            value = value if not isinstance(value, str) else field.value
        result = self.engine.edit(field.value if value is None else value, seen=self._key(seen))
        if result.sent is not None and plain:
            self.amount_field.value = ""
        return self._show(result)

    def reject(self, message: Any = None, *, seen: Any = _SHOWN) -> PanelResult:
        """Reject the current action; ``None`` uses the message (reason) field."""
        return self._answer("reject", message, seen)

    def respond(self, message: Any = None, *, seen: Any = _SHOWN) -> PanelResult:
        """Respond on the tool's behalf (HITL); ``None`` uses the message field."""
        return self._answer("respond", message, seen)

    def start_over(self) -> PanelResult:
        """Drop the decisions noted for the current request; sends nothing."""
        return self._show(self.engine.start_over())

    # -- rendering ------------------------------------------------------------------------------

    def _key(self, seen: Any) -> PauseKey | None:
        """The pause a decision answers: ``seen`` when given, else the one this panel last rendered."""
        return self._shown_keys.get(self._rendered.value) if seen is _SHOWN else seen

    def _page_key(self) -> PauseKey | None:
        """The pause the page had drawn when a button was clicked (see ``_rendered`` / ``_seen``)."""
        return self._shown_keys.get(self._seen.value, ("not drawn yet", 0))

    def _answer(self, decision: str, message: Any, seen: Any) -> PanelResult:
        if message is not None:
            try:
                self.message_field.value = sendable(message if isinstance(message, str) else str(message))
            except Exception:  # noqa: BLE001 - an object whose __str__ raises: the engine says so
                pass
        method = self.engine.reject if decision == "reject" else self.engine.respond
        result = method(self.message_field.value if message is None or isinstance(message, str) else message,
                        seen=self._key(seen))
        if result.outcome != PanelOutcome.REFUSED:
            self.message_field.value = ""
        return self._show(result)

    def _on_field_message(self, _widget: Any, content: dict, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "submit" and not self.edit_button.disabled:
            self.edit(seen=self._page_key())  # Enter in the amount field: the pause the page shows

    def _plain(self) -> bool:
        """The panel shows the plain-interrupt controls (amount, reason), else the HITL ones (args, message).

        Decided by :attr:`ApprovalEngine.kind`, which keeps the kind of the last pause: a HITL panel
        keeps its args and message fields (disabled) once the run has finished.
        """
        return self.engine.kind == "interrupt"

    def _show(self, result: PanelResult) -> PanelResult:
        self._render()
        return result

    def _render(self) -> None:
        engine, result = self.engine, self.engine.last
        key = engine.pause_key
        if self._shown_keys.get(self._rendered.value, "none yet") != key:  # a new pause: number it first
            number = self._rendered.value + 1
            self._shown_keys = {k: v for k, v in self._shown_keys.items() if k >= number - 8}
            self._shown_keys[number] = key
            self._rendered.value = number
        plain = self._plain()
        self.pending_view.value = pending_html(engine)
        review = engine.review
        self.whole_args_view.value = "".join(whole_args_html(engine, action) for action in review.actions) \
            if review is not None and review.kind != "interrupt" else ""
        self.status_view.value = status_html(result)
        self.history_view.value = history_html(engine)
        # The fields and buttons that fit this kind of pause.
        self.amount_field.layout.display = None if plain else "none"
        self.args_field.layout.display = "none" if plain else None
        self.respond_button.layout.display = "none" if plain else None
        self.edit_button.description = _("Edit amount") if plain else _("Edit args")
        self.message_field.description = _("reason:") if plain else _("message:")
        self.message_field.placeholder = (_("why it is rejected") if plain
                                          else _("needed to respond; optional to reject"))
        current = engine.current
        key = (engine.review.interrupt.id, current.position) if current is not None and not plain else None
        if key != self._args_for:
            self._args_for = key
            text = json_text(current.args, limit=None) if key is not None else ""
            too_long = len(text) > MAX_EDITABLE
            self.args_field.value = "" if too_long else text
            self.args_field.placeholder = (
                _("the arguments are {size} characters of JSON, too long to edit here: call panel.edit({{...}}) "
                  "in a cell").format(size=f"{len(text):,}") if too_long
                else "" if key is not None else _("no tool call is pending"))
        allowed = engine.allowed()
        # A field whose decisions are not allowed now is greyed out, like its buttons.
        self.amount_field.disabled = self.args_field.disabled = "edit" not in allowed
        self.message_field.disabled = not ({"reject", "respond"} & set(allowed))
        for decision, button in (("approve", self.approve_button), ("edit", self.edit_button),
                                 ("reject", self.reject_button), ("respond", self.respond_button)):
            on = decision in allowed
            button.disabled = not on
            button.button_style = _STYLES[decision] if on else ""  # a disabled button is grey, not coloured
            button.tooltip = "" if on else shorten(engine.refusal(decision) or _(_NOT_ALLOWED[decision]), 300)
        unknown = engine.outcome_unknown
        self.start_over_button.disabled = not (engine.staged or unknown)
        self.start_over_button.tooltip = (_("I checked the state: answer this pause again") if unknown
                                          else _("Drop the decisions noted so far"))
        # Start over belongs to a request with several gated calls: it stays (disabled) after the run finished.
        last = engine.last_review
        several = last is not None and last.kind == "hitl" and len(last.actions) > 1
        self.start_over_button.layout.display = None if unknown or several else "none"

    def __repr__(self) -> str:
        return _("ApprovalPanel (thread {thread}): run this cell to open the panel").format(
            thread=repr(self.engine.thread_id))
