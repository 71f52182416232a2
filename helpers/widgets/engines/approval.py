"""The engine of the approval panel (notebooks 08, 09, 11): answer a paused run with checked resumes.

Plain Python, no ipywidgets: it reads what a thread waits for from its checkpoint, checks every
answer **before** anything is sent, sends one real ``Command(resume=...)`` and reports what came
next. :class:`helpers.widgets.ApprovalPanel` is its view; tests drive this engine directly.

The three kinds of pause it answers (a plain ``interrupt()``, HumanInTheLoopMiddleware batched and
``per_call``) and what each is sent are described in :mod:`.approval_pause`.

Why check first: LangGraph stores the first resume value a node receives with its task. If the
node then raises, every later resume of that thread replays the stored value (api-facts items 8,
11, 17): one bare ``{"type": "approve"}`` sent to a HITL pause (``KeyError: 'decisions'``) leaves
the thread stuck for good. So nothing is sent unless it has the shape the pause expects, a
decision the pause allows, and arguments that pass the tool's schema; a thread that is already
poisoned is reported (outcome ``poisoned``) and nothing more is sent to it.

Every decision answers the render it was made on: the engine numbers what it shows
(:attr:`ApprovalEngine.render`, a new number whenever the thing decided next changes: another
pause, the next call of a request, the first call again after Start over), and a decision carries
the number it was made on (``render=``; a call from code: the current one). A decision made on an
earlier render is refused and sends nothing (outcome ``refused``, :attr:`PanelResult.stale`): when
this engine's own earlier decision answered that render (the second click of a double click), the
result says what that decision did; when the run moved on otherwise (a second panel, a resume sent
elsewhere), it says "the run moved on: review the new request". So each render is answered at most
once, and never by a click made before it was drawn.

One click, start to end, is this module: what is pending and when to read it, what may be sent,
sending the resume and reading what came of it (:meth:`ApprovalEngine._resume`), the result it
reports (:class:`PanelResult`, :class:`SentDecision` and their one-line texts) and the sentences a
status or refusal says. Two jobs sit below it, each in its own module: reading a paused thread
(:mod:`.approval_pause`: what the pending interrupt asks, what the checkpoint says) and building and
checking each decision (:mod:`.approval_checks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.tools import BaseTool

from ...i18n import N_, _
from ..outcomes import PanelOutcome
from ..text import ABOUT_LIMIT, MAX_SHOWN, about, error_text, json_text, sendable, shorten, visible
from .approval_checks import Refused, build_decision, graph_tools
from .approval_pause import (DECISIONS, Decision, Review, ReviewAction, ReviewKind, call_ids, hitl_edit_notice,
                             ignored_decisions, listed_twice, listed_twice_message, poisoned_message, read_review,
                             shared_tool_task_message, stuck_message, unavailable_message, unknown_message, values_of)

__all__ = ["ActionName", "ApprovalEngine", "PanelResult", "PauseKey", "SUBJECT_LIMIT", "SentDecision",
           "UNKNOWN_RENDER", "call_subject", "decision_text", "outcome_text"]


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
        stale: the decision was made on an earlier render than the current one (e.g. the second click
            of a double click): outcome ``refused``, nothing sent; the view keeps showing
            :attr:`ApprovalEngine.standing` (what the run did) with this result's message under it.
    """

    action: ActionName
    outcome: PanelOutcome
    message: str
    sent: Any = None
    interrupts: list[Any] = field(default_factory=list)
    state: dict | None = None
    stale: bool = False


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
    its translated word (``已结束``, the badge's) in another: the value is a code, not a word to translate.
    A plain string naming an outcome (``"finished"``, as a decision recorded by code may hold) is read as that
    outcome; any other value is shown as it is."""
    if not isinstance(outcome, PanelOutcome):
        try:
            outcome = PanelOutcome(outcome)
        except ValueError:
            return str(outcome)
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
    """A HITL decision in a few words: ``approve``, ``edit amount 40``, ``reject "message"`` (``reject`` without one).

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
        return f"{kind} {json_text(decision['message'])}" if "message" in decision else about(kind)
    return about(kind)


# -- what a status or a refusal says ----------------------------------------------------------------------

#: Added to a decision-count error of HumanInTheLoopMiddleware (its ``after_model``, langchain 1.5.2).
WHEN_AGAIN = N_(" (HumanInTheLoopMiddleware evaluates its `when` predicates again on resume: they now gate a "
                "different number of calls than the request the panel showed, so the decisions cannot be "
                "matched to the calls)")


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


def moved_on_message(action: ReviewAction | None, decision: str) -> str:
    """A decision was made on a pause other than the one pending now (a second panel, a resume sent elsewhere).

    Args:
        action: what is decided now (``None``: nothing is pending any more); decision: the decision made.
    """
    if action is None:
        return _("The run moved on: this {decision} was made on a request that is no longer pending, and nothing "
                 "is pending now.").format(decision=decision)
    return _("The run moved on: review the new request ({action} of a pause the panel had not shown when this "
             "{decision} was made).").format(action=action.label, decision=decision)


def already_answered_message(decision: str, answered: str, answer: str) -> str:
    """A decision made on a render that this panel's own earlier decision already answered (a double click).

    Args:
        decision: the decision refused; answered: the label of what that render asked
            (``call 1: submit_refund_request``); answer: what the earlier decision did
            (``approve noted`` or the sent line, ``call 1 (A1024): approve -> finished``).
    """
    return _("This {decision} was made on {answered}, which an earlier click already answered ({answer}); it "
             "sent nothing. A double click counts once: to decide what is shown now, click again.").format(
        decision=decision, answered=answered, answer=answer)


def noted_text(decision: dict, action: ReviewAction) -> str:
    """What a noted (staged) decision did, for :func:`already_answered_message`: ``approve noted``."""
    return _("{decision} noted").format(decision=decision_text(decision, action.args))


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


#: How many earlier renders the engine remembers the answer of (for the message of a late second click).
ANSWERS_KEPT = 16
#: The ``render=`` of a click the page could not place (its page part did not load): always refused.
UNKNOWN_RENDER = -1


def unplaced_message(decision: str) -> str:
    """A click arrived without the render it was made on (the panel's page part did not load in the page)."""
    return _("The page did not say which request it showed when this {decision} was clicked (the panel's page "
             "part, an anywidget, did not load), so the panel cannot tell whether you saw what would be "
             "decided. Reload the page, or run panel.{decision}(...) in a cell.").format(decision=decision)

class ApprovalEngine:
    """Read a thread's pending interrupt, check a reviewer's decisions, send the real resume.

    Every method re-reads the checkpoint (``graph.get_state(config)``, langgraph 1.2.24) before it
    acts, so it answers what is pending now, never a stale view; each sends at most one
    ``graph.invoke(Command(resume=...), config, version="v2")`` (with ``context=`` when one is given). With several pending interrupts
    (parallel nodes) the first is answered, by id (``Command(resume={interrupt.id: value})``), as
    LangGraph requires. Nothing the graph raises leaves a method (``SystemExit`` included; only
    ``KeyboardInterrupt`` passes).

    Refused, with a message and nothing sent (outcome ``refused``): an action when nothing is
    pending, a decision made on an earlier render than :attr:`render` (``stale``; see the module
    docstring), or when the pause pending now is not the one the engine last showed; a decision the
    current action does not allow; every decision :func:`~.approval_checks.build_decision` refuses
    (its docstring and :func:`~.approval_checks.edited_args` list the checks).

    A pause that cannot be answered safely is read as outcome ``unanswerable`` as soon as the engine
    reads it: a plain request that lists its order twice, or a pause inside one ``ToolNode`` task
    that runs several tool calls (:mod:`.approval_pause`); every decision is refused with the reason.

    A resume that raises while the checkpoint still shows the same pause (a checkpoint write that
    failed after the tool ran, a node that called ``exit()``) has an unknown outcome (``unknown``):
    the tool may have run. The engine says so and refuses to send that pause anything more until
    the reviewer has checked the state and called :meth:`start_over`, so one click can never run
    a refund twice blindly.

    Args:
        graph: a compiled graph with a checkpointer (e.g. ``create_agent(..., checkpointer=...)``).
        config: the thread's config, ``{"configurable": {"thread_id": ...}}``; any thread id LangGraph
            takes (text, a number such as ``0``), but not ``None`` or empty text. The engine keeps a
            copy (``graph.get_state`` writes a non-text id back into its config dict as text).
        decisions: the decisions the panel may send (a subset of :data:`DECISIONS`); each
            interrupt's own allowed decisions narrow it further. ``None``: whatever each allows.
        tools: tools to check edited arguments against, when the graph has no ``tools`` node.
        context: the run's context (``invoke(..., context=...)``, langgraph 1.2.24), passed to every
            resume. LangGraph does not save the context in the checkpoint, so a graph built with a
            ``context_schema`` (e.g. ``create_agent(..., context_schema=SupportContext)``) whose tools
            read ``runtime.context`` needs it again on each resume. ``None``: no context is passed.

    Attributes:
        history: every :class:`SentDecision`, in order. last: the last :class:`PanelResult`.
        standing: the last result that was not a ``stale`` refusal (what the run did last).
        render: the number of what the engine shows now (see the module docstring); a decision
            made on another number is refused.
        review: the pending :class:`Review` answered next (``None`` when nothing is pending).
        last_review: the last :class:`Review` read, kept after it was answered (``None`` before any).
        staged: the decisions noted so far for a HITL request with several calls.

    Raises:
        ValueError: the graph has no checkpointer, the config has no ``thread_id`` (missing, ``None``
            or empty text), or ``decisions`` is empty or holds an unknown decision.
    """

    def __init__(self, graph: Any, config: dict, *, decisions: Sequence[str] | None = None,
                 tools: Sequence[BaseTool] = (), context: Any = None):
        if getattr(graph, "checkpointer", None) is None:
            raise ValueError("ApprovalPanel needs a graph compiled with a checkpointer: without one nothing can be resumed")
        configurable = config.get("configurable") if isinstance(config, dict) else None
        thread_id = configurable.get("thread_id") if isinstance(configurable, Mapping) else None
        if thread_id is None or (isinstance(thread_id, str) and not thread_id.strip()):
            raise ValueError("ApprovalPanel needs a config with a thread_id: {'configurable': {'thread_id': ...}}")
        if decisions is not None:
            unknown = [d for d in decisions if d not in DECISIONS]
            if unknown or not decisions:
                raise ValueError(f"decisions must be a non-empty subset of {DECISIONS}, got {tuple(decisions)}")
        # A copy: graph.get_state turns a thread_id that is not text into text in the dict it is given.
        self.graph, self.config = graph, {**config, "configurable": dict(configurable)}
        self.thread_id = shorten(sendable(str(thread_id)), ABOUT_LIMIT)
        self._raw_thread_id = thread_id
        self.decisions: tuple[Decision, ...] = tuple(decisions) if decisions is not None else DECISIONS
        self.agent_tools: dict[str, BaseTool] = graph_tools(graph)
        self.tools: dict[str, BaseTool] = {**self.agent_tools, **{tool.name: tool for tool in tools}}
        self.context = context
        self.history: list[SentDecision] = []
        self.staged: list[dict] = []
        self.review: Review | None = None
        self.last_review: Review | None = None
        self.render = 0
        self._render_key: PauseKey | None | str = "nothing shown yet"  # the pause_key `render` numbers
        self._answers: dict[int, tuple[str, str]] = {}  # render -> (what it asked, what answered it)
        self._interrupts: list[Any] = []
        self._snapshot: Any = None
        self._problem: tuple[PanelOutcome, str] | None = None  # unavailable / poisoned / stuck / unknown / unanswerable
        self._unknown: tuple[str, str] | None = None  # (interrupt id, message) after a resume whose outcome is unknown
        self.last = self.standing = self.refresh()

    # -- what is pending -----------------------------------------------------------------------

    @property
    def pending(self) -> list[Any]:
        """The pending interrupt payloads (``Interrupt.value``), in order, as last read."""
        return [i.value for i in self._interrupts]

    @property
    def current(self) -> ReviewAction | None:
        """The action the next decision is for (the first one without a noted decision), or ``None``."""
        if self.review is None or self._problem is not None:
            return None
        actions = self.review.actions
        return actions[len(self.staged)] if len(self.staged) < len(actions) else None

    @property
    def pause_key(self) -> PauseKey | None:
        """The identity of what is decided next, ``(interrupt id, call position)``, as last read; ``None``: nothing."""
        action = self.current
        return (self.review.interrupt.id, action.position) if action is not None else None

    @property
    def kind(self) -> ReviewKind:
        """The kind of pause this thread has: the last one read, kept after it was answered.

        The view shows the controls of this kind (an amount field for ``interrupt``, an args
        field for ``hitl``) also once the run has finished. Before any pause was read: ``hitl``
        when the graph has a ``HumanInTheLoopMiddleware`` node (``create_agent`` names it
        ``HumanInTheLoopMiddleware.after_model``, langchain 1.5.2), else ``interrupt``.
        """
        if self.last_review is not None:
            return self.last_review.kind
        nodes = getattr(self.graph, "nodes", None)
        names = nodes if isinstance(nodes, Mapping) else {}
        return "hitl" if any(str(name).startswith("HumanInTheLoopMiddleware") for name in names) else "interrupt"

    @property
    def outcome_unknown(self) -> bool:
        """A decision was sent, the graph raised, and the same pause is still pending: the tool may have
        run. Nothing more is sent to that pause until :meth:`start_over` (outcome ``unknown``)."""
        return self._unknown is not None

    def allowed(self) -> tuple[Decision, ...]:
        """The decisions a click can send now: the current action's, without one that is always refused.

        An approve whose own check refuses it whatever is typed (an amount above the refundable, a
        second call for the same refund) is left out, so its button is never enabled;
        :meth:`refusal` says why. Calling :meth:`approve` still returns that reason.
        """
        action = self.current
        if action is None:
            return ()
        return tuple(d for d in action.allowed if d != "approve" or not self.refusal("approve"))

    def refusal(self, decision: Decision) -> str:
        """Why ``decision`` with no typed value would be refused for the current action (``""``: it would not)."""
        action = self.current
        if action is None or decision not in action.allowed or decision != "approve":
            return ""
        try:
            self._build(action, decision, None)
        except Refused as refused:
            return str(refused)
        return ""

    def hidden_characters(self, action: ReviewAction | None = None) -> int:
        """How many characters of ``action``'s arguments (as JSON) a bounded view does not show (0: all shown)."""
        action = action or self.current
        if action is None or action.tool is None:
            return 0
        return max(0, len(json_text(action.args, limit=None)) - MAX_SHOWN)

    def state(self) -> dict | None:
        """The state values as last read (``None`` when the checkpointer cannot be read)."""
        return values_of(self._snapshot) if self._snapshot is not None else None

    def _read(self) -> None:
        """Re-read the checkpoint: pending interrupts, the review, and whether the thread can be answered."""
        previous = self.review.interrupt.id if self.review is not None else None
        try:
            snapshot = self.graph.get_state(self.config)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - e.g. a closed SQLite connection
            self._snapshot, self._interrupts, self.review = None, [], None
            self.staged = []
            self._problem = (PanelOutcome.UNAVAILABLE, unavailable_message(exc))
            return
        self._snapshot = snapshot
        self._interrupts = list(snapshot.interrupts)
        self.review = read_review(self._interrupts[0], self.decisions) if self._interrupts else None
        if self.review is not None:
            self.last_review = self.review
        if self.review is None or self.review.interrupt.id != previous:
            self.staged = []
        self._problem = None
        values = values_of(snapshot)
        if self._interrupts:
            poisoned = poisoned_message(self.graph, self.config, snapshot)
            shared = "" if poisoned else shared_tool_task_message(self.graph, snapshot, values)
            if poisoned:
                self._problem = (PanelOutcome.POISONED, poisoned)
            elif shared:
                self._problem = (PanelOutcome.UNANSWERABLE, shared)
        elif snapshot.next:
            self._problem = (PanelOutcome.STUCK, stuck_message(snapshot.next))
        if self._problem is None and self.review is not None and self.review.kind == "interrupt":
            order_id = self.review.actions[0].order_id
            twice = listed_twice(values, order_id)
            if twice is not None:
                self._problem = (PanelOutcome.UNANSWERABLE, listed_twice_message(order_id, *twice))
        if self._unknown is not None:
            if self.review is not None and self.review.interrupt.id == self._unknown[0]:
                if self._problem is None:
                    self._problem = (PanelOutcome.UNKNOWN, self._unknown[1])
            else:  # the pause was answered some other way: the panel reads the thread as it is
                self._unknown = None

    # -- plain methods: what the mouse does ----------------------------------------------------

    def refresh(self) -> PanelResult:
        """Read the thread's checkpoint again and report what is pending. Sends nothing.

        Returns:
            a :class:`PanelResult` with outcome ``paused``, ``finished``, ``stuck``, ``poisoned``,
            ``not_started``, ``unavailable``, ``unanswerable`` (the request lists the order twice,
            or several tool calls paused in one ToolNode task) or ``unknown`` (a failed resume left
            the same pause; see :meth:`start_over`).
        """
        self._read()
        return self._record(self._status("refresh"))

    def approve(self, *, render: int | None = None) -> PanelResult:
        """Approve the current action (plain: ``{"type": "approve"}``; HITL: the call runs as written).

        Args:
            render: the render this decision was made on (:attr:`render` when it was shown; a page
                sends it with each click); ``None``: the current one (a call from code). A decision
                made on another render sends nothing (``stale``), and so does one whose pause is no
                longer the one pending (the run moved on). Every decision method takes it.
        """
        return self._act("approve", None, render)

    def edit(self, value: Any = None, *, render: int | None = None) -> PanelResult:
        """Edit the current action.

        Args:
            value: for a plain payload the new amount (a number, or text such as ``"120.50"``);
                for a HITL call the new arguments (a dict, or JSON text of an object), checked
                against the tool's schema and sent as ``edited_action`` with the same tool name.
            render: see :meth:`approve`.
        """
        return self._act("edit", value, render)

    def reject(self, message: Any = None, *, render: int | None = None) -> PanelResult:
        """Reject the current action (plain: ``"reason"``, required; HITL: ``"message"``, optional)."""
        return self._act("reject", message, render)

    def respond(self, message: Any = None, *, render: int | None = None) -> PanelResult:
        """Answer a HITL call on the tool's behalf (``{"type": "respond", "message": ...}``; the tool does not run)."""
        return self._act("respond", message, render)

    def refuse(self, decision: Decision, reason: str) -> PanelResult:
        """Record a decision the view refused before any check (a page click it cannot read); sends nothing.

        Args:
            decision: the decision clicked; reason: why it was refused, in the edition's language.

        Returns:
            a ``refused`` result whose message is ``reason`` and "Nothing was sent." (what is pending
            as last read; the render stays).
        """
        return self._refuse(decision, reason)

    def start_over(self) -> PanelResult:
        """Forget the decisions noted for the current HITL request (none was sent). Sends nothing.

        After a resume whose outcome is unknown (outcome ``unknown``: the graph raised and the
        checkpoint still shows the same pause), this is also how the reviewer says "I checked the
        state": the panel answers that pause again. Deciding the same again may run the tool twice.
        """
        acknowledged = self._unknown is not None
        self.staged, self._unknown = [], None
        self._read()
        result = self._status("start_over")
        if result.outcome == PanelOutcome.PAUSED:
            result.message = start_over_lead(acknowledged) + result.message
        return self._record(result)

    def summary(self) -> str:
        """Plain text: one numbered line per decision sent (order id or tool names, resume value, outcome)."""
        lines = [f"{number}. {decision.line()}" for number, decision in enumerate(self.history, 1)]
        return summary_text(lines)

    # -- checks and the real resume ------------------------------------------------------------

    def _status(self, action: ActionName) -> PanelResult:
        """The result for the checkpoint as last read, when nothing was sent."""
        values = self.state()
        if self._problem is not None:
            outcome, message = self._problem
            return PanelResult(action, outcome, message, interrupts=self.pending, state=values)
        if self.review is not None:
            return PanelResult(action, PanelOutcome.PAUSED, paused_message(self.review, self.current),
                               interrupts=self.pending, state=values)
        if not values:
            return PanelResult(action, PanelOutcome.NOT_STARTED, not_started_message(self.thread_id,
                               self._raw_thread_id), state=values)
        return PanelResult(action, PanelOutcome.FINISHED, finished_message(), state=values)

    def _record(self, result: PanelResult) -> PanelResult:
        """Keep ``result`` as :attr:`last` (and :attr:`standing`), and number what is shown now."""
        self.last = result
        if not result.stale:
            self.standing = result
        if self.pause_key != self._render_key:  # something else is decided next: a new render
            self.render += 1
            self._render_key = self.pause_key
        return result

    def _answered(self, made_on: int, action: ReviewAction, answer: str) -> None:
        """Remember that this engine's decision answered render ``made_on`` (for a late second click)."""
        self._answers[made_on] = (action.label, answer)
        for old in [number for number in self._answers if number <= made_on - ANSWERS_KEPT]:
            del self._answers[old]

    def _act(self, decision: Decision, value: Any, render: int | None) -> PanelResult:
        made_on = self.render if render is None else render
        if made_on != self.render:  # made on an earlier render: a late click of a double click, a queued click
            self._read()
            answered = self._answers.get(made_on)
            message = (already_answered_message(decision, *answered) if answered is not None
                       else nothing_sent(unplaced_message(decision)) if made_on == UNKNOWN_RENDER
                       else nothing_sent(moved_on_message(self.current, decision)))
            return self._record(PanelResult(decision, PanelOutcome.REFUSED, message, interrupts=self.pending,
                                            state=self.state(), stale=True))
        shown = self._render_key
        self._read()  # what is pending now
        if self._problem is not None:
            outcome, message = self._problem
            kind = (PanelOutcome.REFUSED if outcome in (PanelOutcome.STUCK, PanelOutcome.UNKNOWN, PanelOutcome.UNANSWERABLE)
                    else outcome)
            return self._record(PanelResult(decision, kind, nothing_sent(message),
                                            interrupts=self.pending, state=self.state()))
        action = self.current
        if action is None:
            return self._refuse(decision, nothing_pending_message(self.thread_id))
        if shown != self.pause_key:  # the thread moved on since the engine last showed it (elsewhere)
            return self._refuse(decision, moved_on_message(action, decision))
        if decision not in action.allowed:
            return self._refuse(decision, not_accepted_message(action, decision))
        try:
            built = self._build(action, decision, value)
        except Refused as refused:
            return self._refuse(decision, str(refused))
        review = self.review
        if review.kind == "hitl":
            self.staged.append(built)
            if len(self.staged) < len(review.actions):
                message = staged_message(decision, action, len(self.staged), len(review.actions), self.current)
                self._answered(made_on, action, noted_text(built, action))
                return self._record(PanelResult(decision, PanelOutcome.STAGED, message,
                                                interrupts=self.pending, state=self.state()))
            resume: Any = {"decisions": list(self.staged)}
        else:
            resume = built
        hidden = sum(self.hidden_characters(a) for a, d in zip(review.actions, resume.get("decisions", [resume]))
                     if d.get("type") == "approve")
        sent_before = len(self.history)
        try:
            result = self._send(decision, review, resume)
        finally:
            if len(self.history) > sent_before:  # sent (also when a KeyboardInterrupt stopped the resume)
                self._answered(made_on, action, self.history[-1].line())
        if hidden and result.sent is not None:
            result.message += hidden_note(hidden)
        return result

    def _build(self, action: ReviewAction, decision: Decision, value: Any) -> dict:
        """The decision as the pause expects it (:func:`~.approval_checks.build_decision`), or :class:`Refused`."""
        earlier = self.review.actions[:len(self.staged)] if self.review is not None else ()
        return build_decision(action, decision, value, earlier=earlier, staged=self.staged, tools=self.tools,
                              agent_tools=self.agent_tools)

    def _send(self, decision: Decision, review: Review, resume: Any) -> PanelResult:
        """Send ``resume`` to ``review``'s pause and record what came next (:meth:`_resume`)."""
        self.staged = []
        try:
            result = self._resume(decision, review, resume)
        except KeyboardInterrupt:  # sent, then the kernel was stopped: the outcome is unknown (see _resume)
            self.history.append(SentDecision(review.value, resume, PanelOutcome.UNKNOWN))
            message = self._unknown[1] if self._unknown is not None else interrupted_message()
            self._record(PanelResult(decision, PanelOutcome.UNKNOWN, message, sent=resume,
                                     interrupts=self.pending, state=self.state()))
            raise
        self.history.append(SentDecision(review.value, resume, result.outcome))
        return self._record(result)

    def _refuse(self, action: ActionName, message: str) -> PanelResult:
        return self._record(PanelResult(action, PanelOutcome.REFUSED, nothing_sent(message),
                                        interrupts=self.pending, state=self.state()))

    def _resume(self, decision: Decision, review: Review, resume: Any) -> PanelResult:
        """Send ``resume`` to the pause of ``review`` and report what came next; never raises (but ``KeyboardInterrupt``,
        after marking the outcome unknown when the same pause is still pending: see :meth:`_failed_resume`).

        Args:
            decision: the decision that completed the resume (the last one clicked).
            review: the pause answered; keyed by interrupt id for ``per_call`` or when several are pending.
            resume: the resume value (``{"type": ...}`` or ``{"decisions": [...]}``).

        Returns:
            the :class:`PanelResult` (``sent`` is ``resume``). Outcome ``ignored`` when a reject or
            respond was not applied (:func:`~.approval_pause.ignored_decisions`).
        """
        from langgraph.types import Command

        keyed = review.kind == "hitl_per_call" or len(self.pending) > 1
        command = Command(resume={review.interrupt.id: resume} if keyed else resume)
        ids = call_ids(review, self.state()) if review.kind != "interrupt" else []
        try:
            extra = {"context": self.context} if self.context is not None else {}
            out = self.graph.invoke(command, self.config, version="v2", **extra)
        except KeyboardInterrupt:
            # The learner stopped the kernel while the resumed node ran: its side effect may have happened
            # while the checkpoint still shows this pause. Mark the outcome unknown (as for an error), so the
            # next click sends nothing to it, then let the interrupt stop the cell.
            self._failed_resume(decision, review, resume, _("KeyboardInterrupt: the kernel was interrupted"))
            raise
        except BaseException as exc:  # noqa: BLE001 - the graph's error is shown, never raised from a click
            return self._failed_resume( decision, review, resume, error_text(exc))
        self._read()
        result = self._after_resume(decision, resume, out)
        sent = resume.get("decisions", [resume]) if review.kind != "interrupt" else []
        ignored = ignored_decisions(review, sent, ids, result.state, hitl_edit_notice(self.graph))
        if ignored:
            message = _("Sent, but the middleware did not apply every decision: {ignored}. HumanInTheLoopMiddleware "
                        "evaluates its `when` predicate again on resume; it no longer gated this call, so the decision "
                        "was never read. Check what the tool did.").format(ignored="; ".join(ignored))
            result = PanelResult(decision, PanelOutcome.IGNORED, message, sent=resume,
                                 interrupts=self.pending, state=self.state())
        return result


    def _after_resume(self, decision: Decision, resume: Any, out: Any) -> PanelResult:
        """The result of a resume that returned, from the checkpoint as read after it."""
        if self._problem is not None and self._problem[0] == PanelOutcome.UNAVAILABLE:
            return PanelResult(decision, PanelOutcome.UNAVAILABLE, _("Sent. {problem}").format(problem=self._problem[1]),
                               sent=resume)
        if self._problem is not None and self._problem[0] == PanelOutcome.UNANSWERABLE:
            # the next pause cannot be answered here: say so now, not only on the next click
            message = _("Sent. The run paused again at the next interrupt, which the panel cannot answer. "
                        "{problem}").format(problem=self._problem[1])
            return PanelResult(decision, PanelOutcome.UNANSWERABLE, message, sent=resume,
                               interrupts=self.pending, state=self.state())
        if getattr(out, "interrupts", ()) or self.pending:
            return PanelResult(decision, PanelOutcome.PAUSED, _("Sent. The run paused again at the next interrupt."),
                               sent=resume, interrupts=self.pending, state=self.state())
        if self._problem is not None:
            return PanelResult(decision, PanelOutcome.STUCK, _("Sent. {problem}").format(problem=self._problem[1]),
                               sent=resume,
                               state=self.state())
        return PanelResult(decision, PanelOutcome.FINISHED, _("Sent. The run finished; no interrupt is left."),
                           sent=resume, state=self.state())


    def _failed_resume(self, decision: Decision, review: Review, resume: Any, error: str) -> PanelResult:
        """The result of a resume that raised, from the checkpoint as it is now.

        When the same pause is still pending (and its node did not store the resume: not
        ``poisoned``), the resume may have run the tool and then failed to save the checkpoint (a
        checkpoint write error, a node that called ``exit()``): the outcome is ``unknown``, as for
        "sent, reply lost", and the panel sends nothing more to that pause until :meth:`start_over`.
        """
        self._read()
        if "Number of human decisions" in error:
            error += _(WHEN_AGAIN)
        still_pending = self.review is not None and self.review.interrupt.id == review.interrupt.id
        if still_pending and self._problem is None:
            self._unknown = (review.interrupt.id, unknown_message(error))
            self._problem = (PanelOutcome.UNKNOWN, self._unknown[1])
            return PanelResult(decision, PanelOutcome.UNKNOWN, unknown_message(error, just_sent=True),
                               sent=resume, interrupts=self.pending, state=self.state())
        if self._problem is not None:
            after = self._problem[1]
        elif self.review is not None:
            after = _("The run is paused at another interrupt now: the tool may have run; check the state.")
        elif self.state():
            after = _("The checkpoint shows the run finished: the tool may have run; check the state.")
        else:
            after = _("The checkpoint cannot say what happened: the tool may have run; check the state.")
        return PanelResult(decision, PanelOutcome.ERROR, f"{error}\n{after}", sent=resume, interrupts=self.pending)
