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
  state" so the pause can be answered again); ``refresh()`` (re-read the checkpoint, send nothing);
  ``on_page_message(content)`` (a decision clicked in the page, as the page part sends it).
The controls fit the kind of pause (:attr:`ApprovalEngine.kind`): an amount and a reason field for a
plain payload, an args (JSON) and a message field and Respond for a HITL call, Start over for a
request with several calls. They stay the same once the run has finished, greyed out where nothing
can be sent; the list of decisions sent names each call and what it acts on
(``call 1 (A1024): approve; call 2 (A1030): edit amount 40 -> finished``).

Each decision answers only the render it was made on (``render=``, :attr:`ApprovalEngine.render
<helpers.widgets.engines.approval.ApprovalEngine.render>`): in the page, the panel's page part
(:class:`~helpers.widgets.page_clicks.PageClicks`, an anywidget) turns a click into a
message carrying the render the page had drawn and what its fields held, and the second and third clicks of a double or
triple click carry the render their first click was made on (:meth:`on_page_message`); a call
from code answers the current render. A decision made on an earlier render sends nothing: after a
double click the status keeps saying what the first click did, with a note that the second sent
nothing; when another pause is pending now (a second panel on the thread) the panel says "The run
moved on: review the new request" and shows it. Arguments cut in the list of calls can be opened
whole (``whole_args_view``), and an approve of such arguments says how much was not shown.

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
from .engines.approval import UNKNOWN_RENDER, ApprovalEngine, PanelResult, SentDecision
from .engines.approval_checks import MAX_WHOLE
from .engines.approval_pause import DECISIONS, HITL_DESCRIPTION_PREFIX, ReviewAction
from .outcomes import PanelOutcome
from .page_clicks import UNREADABLE_CLICK, PageButton, PageClicks, page_click
from .style import LINE_HEIGHT, badge, block, box, muted
from .text import MAX_SHOWN, html_text, json_text, sendable, shorten, visible

__all__ = ["ApprovalPanel"]

# -- text rows: payloads, the final state, the amount field's text ---------------------------------------

#: The most payload keys shown; the rest are counted ("... and 3 more keys").
MAX_KEYS = 20
#: Edited arguments longer than this (as JSON) are not put into the args field; edit them in code.
MAX_EDITABLE = 20_000
#: The most messages listed in the final state (the last ones); the rest are counted.
MAX_MESSAGES = 30


#: The most characters of a message's text in the final state; a ToolMessage gets :data:`MAX_TOOL_TEXT`.
MAX_MESSAGE_TEXT = 300
#: A ToolMessage is what the model reads back (a tool's result, or why the call failed: an edited
#: call's failure comes after HumanInTheLoopMiddleware's 300-character note), so it is shown whole up to
#: :data:`~helpers.widgets.text.MAX_SHOWN` characters.
MAX_TOOL_TEXT = MAX_SHOWN


def message_row(number: int, message: Any) -> str:
    """One message of the state as one readable row: ``3 tool call_1 success: refund request ...``.

    A message's text is cut after :data:`MAX_MESSAGE_TEXT` characters, a ToolMessage's after
    :data:`MAX_TOOL_TEXT` (its lines kept, indented under the row).
    """
    kind = getattr(message, "type", None) or (message.get("role") if isinstance(message, dict) else "?")
    content = getattr(message, "content", None) if not isinstance(message, dict) else message.get("content")
    limit = MAX_TOOL_TEXT if kind == "tool" else MAX_MESSAGE_TEXT
    text = content if isinstance(content, str) else json_text(content, limit=limit)
    parts = [f"{number:>3} {kind}"]
    if kind == "tool":
        parts.append(f"{shorten(sendable(str(getattr(message, 'tool_call_id', ''))), 80)} "
                     f"{getattr(message, 'status', '')}")
        lines = [" ".join(line.split()) for line in shorten(sendable(text), limit).splitlines()]
        shown = "\n      ".join(line for line in lines if line)
    else:
        shown = shorten(" ".join(sendable(text).split()), limit)
    calls = getattr(message, "tool_calls", None) or []
    line = " ".join(parts) + ": " + shown
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
    why approve is off (when it is); the decisions allowed here. Its first element carries the
    engine's ``data-render`` number (what a page click made on this view says it answers)."""
    review = engine.review
    if review is None:
        nothing = html_text(_("No interrupt is pending."))
        return f"<p class='course-pending' data-pending='0' data-render='{engine.render}'><i>{nothing}</i></p>"
    count = len(engine.pending)
    heading = ngettext("<b>Pending interrupt</b> (the payload, <code>Interrupt.value</code>):",
                       "<b>Pending interrupts</b> (the payload, <code>Interrupt.value</code>):", count)
    parts = [f"<p class='course-pending' data-pending='{count}' data-render='{engine.render}' "
             f"style='margin: 2px 0'>{heading}</p>"]
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
    return (f"<details class='course-whole-args'><summary>{html_text(summary)}</summary>"
            f"{block(visible(whole), css_class='course-whole-args-text')}</details>")


def status_html(result: PanelResult, standing: PanelResult | None = None) -> str:
    """One status: the last result alone (a refusal replaces the previous "Sent." block).

    A ``stale`` result (a decision made on an earlier render: the second click of a double click)
    does not replace what the run did: the status shows ``standing`` (the last other result) and
    the stale result's message under it, in a ``course-stale`` note.
    """
    if result.stale and standing is not None and not standing.stale:
        note = (f"<p class='course-stale' data-action='{html_text(result.action)}' "
                f"style='margin: 2px 0; {LINE_HEIGHT}'><small>{html_text(result.message)}</small></p>")
        return _status_box(standing, extra=note)
    return _status_box(result)


def _status_box(result: PanelResult, extra: str = "") -> str:
    """The status box of one result; ``extra`` (HTML) goes under its text."""
    lines = []
    if result.sent is not None:
        lines.append(f"Command(resume={json_text(result.sent)})")
    lines.append(result.message)
    if result.outcome in (PanelOutcome.FINISHED, PanelOutcome.STUCK) and result.state is not None:
        lines.append(_("Final state:") if result.outcome == PanelOutcome.FINISHED else _("State at the checkpoint:"))
        lines += state_rows(result.state)
    outcome = result.outcome
    return box(f"{badge(outcome.word, outcome.tone)}{block(visible(chr(10).join(lines)), css_class='course-result')}"
               f"{extra}", outcome.tone, css_class="course-status", data={"outcome": outcome})


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
        pending list cuts (over 4,000 characters), whole, in a part that opens. clicks: the page
        part (:class:`~helpers.widgets.page_clicks.PageClicks`), invisible.

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
        self.approve_button = self._decision_button("approve", _("Approve"))
        self.amount_field = widgets.Text(value="", description=_("amount:"),
                                         placeholder=_("e.g. 120.50, Enter sends"))
        self.args_field = widgets.Textarea(value="", description=_("args (JSON):"),
                                           layout=widgets.Layout(width="60%", height="4em"))
        self.edit_button = self._decision_button("edit", _("Edit amount"))
        self.message_field = widgets.Text(value="", description=_("reason:"), placeholder=_("why it is rejected"))
        self.reject_button = self._decision_button("reject", _("Reject"))
        self.respond_button = self._decision_button("respond", _("Respond"))
        for name, field in (("amount", self.amount_field), ("args", self.args_field),
                            ("message", self.message_field)):
            field.add_class(f"course-field-{name}")  # where the page part reads what was typed
        self.start_over_button = widgets.Button(description=_("Start over"),
                                                tooltip=_("Drop the decisions noted so far"))
        self.refresh_button = widgets.Button(description=_("Refresh"),
                                             tooltip=_("Read the checkpoint again; sends nothing"))
        self.status_view = widgets.HTML()
        self.history_view = widgets.HTML()
        # The page part: a click in the page arrives as one message saying which render it was made on.
        self.clicks = PageClicks("course-approval-panel", enter={"amount": "edit"})
        self.clicks.on_msg(lambda _widget, content, _buffers: self.on_page_message(content))
        self.approve_button.on_click(lambda _button: self.approve())
        self.edit_button.on_click(lambda _button: self.edit())
        self.reject_button.on_click(lambda _button: self.reject())
        self.respond_button.on_click(lambda _button: self.respond())
        self.start_over_button.on_click(lambda _button: self.start_over())
        self.refresh_button.on_click(lambda _button: self.refresh())
        self.amount_field.on_msg(self._on_field_message)  # a bare {"event": "submit"} (Enter) from the page
        self._args_for: tuple | None = None  # which action the args field was filled for
        super().__init__([
            self.header, self.pending_view, self.whole_args_view,
            widgets.HBox([self.approve_button]),
            widgets.HBox([self.amount_field, self.args_field, self.edit_button]),
            widgets.HBox([self.message_field, self.reject_button, self.respond_button]),
            widgets.HBox([self.start_over_button, self.refresh_button]),
            self.status_view, self.history_view, self.clicks,
        ])
        self.add_class("course-approval-panel")
        self._render()

    def _decision_button(self, decision: str, description: str) -> PageButton:
        # A decision button: the page part sends its clicks (class course-action-<decision>); a bare click
        # from the page (the page part did not load) is refused, because nothing says what the learner saw.
        return PageButton(decision, description=description, unplaced=lambda: self._unplaced(decision))

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

    def approve(self, *, render: int | None = None) -> PanelResult:
        """Approve the current action (see :meth:`ApprovalEngine.approve`).

        Every decision method takes ``render``: the render the decision was made on (what the page
        sends with a click, :meth:`on_page_message`); ``None``, a call from code, answers the
        current render. A decision made on an earlier render sends nothing.
        """
        return self._show(self.engine.approve(render=render))

    def edit(self, value: Any = None, *, render: int | None = None) -> PanelResult:
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
        result = self.engine.edit(field.value if value is None else value, render=render)
        if result.sent is not None and plain:
            self.amount_field.value = ""
        return self._show(result)

    def reject(self, message: Any = None, *, render: int | None = None) -> PanelResult:
        """Reject the current action; ``None`` uses the message (reason) field."""
        return self._answer("reject", message, render)

    def respond(self, message: Any = None, *, render: int | None = None) -> PanelResult:
        """Respond on the tool's behalf (HITL); ``None`` uses the message field."""
        return self._answer("respond", message, render)

    def on_page_message(self, content: Any) -> PanelResult | None:
        """A message from the page part: one decision clicked in the page (tests send the same).

        Args:
            content: ``{"event": "action", "action": "approve" | "edit" | "reject" | "respond",
                "render": <int>, "clicks": <MouseEvent.detail>, "fields": {"amount": str | None,
                "args": str | None, "message": str | None}}``, as ``page_clicks.js`` sends it
                (:func:`~helpers.widgets.page_clicks.page_click`): ``render`` is the render the page
                had drawn (for the second and third clicks of one double or triple click, the
                render of its first); ``fields`` what the text fields held when it was clicked
                (``None``: not found, the synced value is used).

        Returns:
            the decision's result; ``None`` for a message that is not a decision (ignored, like
            anything else the page could send). A click made on an earlier render is refused
            without writing what it carries into the fields (that text was typed for what that
            render showed, not for what is decided now). A click whose fields have another shape
            than the page part sends is refused too.
        """
        click = page_click(content, DECISIONS)
        if click is None:
            return None
        if click.render != self.engine.render:
            # Made on an earlier render (the late click of a double click): the engine refuses it, and the
            # text it carries, typed for what that render showed, is not written into the fields now shown.
            return self._show(getattr(self.engine, click.action)(render=click.render))
        unreadable = click.unreadable(texts=("amount", "args", "message"))
        if unreadable:  # the fields' own copies can be older than what the page showed: none is used instead
            return self._show(self.engine.refuse(click.action, _(UNREADABLE_CLICK).format(
                fields=", ".join(unreadable))))
        if click.action == "approve":
            return self.approve(render=click.render)
        if click.action == "edit":
            return self.edit(click.text("amount" if self._plain() else "args"), render=click.render)
        return self._answer(click.action, click.text("message"), click.render)

    def start_over(self) -> PanelResult:
        """Drop the decisions noted for the current request; sends nothing."""
        return self._show(self.engine.start_over())

    # -- rendering ------------------------------------------------------------------------------

    def _unplaced(self, decision: str) -> PanelResult:
        """A bare click or Enter from the page: nothing says which render it was made on; refused."""
        return self._show(getattr(self.engine, decision)(**({"value": None} if decision == "edit" else {}),
                                                          render=UNKNOWN_RENDER))

    def _answer(self, decision: str, message: Any, render: int | None) -> PanelResult:
        if message is not None:
            try:
                self.message_field.value = sendable(message if isinstance(message, str) else str(message))
            except Exception:  # noqa: BLE001 - an object whose __str__ raises: the engine says so
                pass
        method = self.engine.reject if decision == "reject" else self.engine.respond
        result = method(self.message_field.value if message is None or isinstance(message, str) else message,
                        render=render)
        if result.outcome != PanelOutcome.REFUSED:
            self.message_field.value = ""
        return self._show(result)

    def _on_field_message(self, _widget: Any, content: dict, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "submit" and not self.edit_button.disabled:
            self._unplaced("edit")  # the page part sends Enter in the amount field itself, with its render

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
        plain = self._plain()
        self.pending_view.value = pending_html(engine)
        review = engine.review
        self.whole_args_view.value = "".join(whole_args_html(engine, action) for action in review.actions) \
            if review is not None and review.kind != "interrupt" else ""
        self.status_view.value = status_html(result, engine.standing)
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
        # Last: the page holds this number only once it has applied every part of this render above
        # (the kernel's messages reach the page in order), so a click carrying it was made on what it shows.
        self.clicks.render = engine.render

    def __repr__(self) -> str:
        return _("ApprovalPanel (thread {thread}): run this cell to open the panel").format(
            thread=repr(self.engine.thread_id))
