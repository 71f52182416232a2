"""The engine of the approval panel (notebooks 08, 09, 11): answer a paused run with checked resumes.

Plain Python, no ipywidgets: it reads what a thread waits for from its checkpoint, checks every
answer **before** anything is sent, sends one real ``Command(resume=...)`` and reports what came
next. :class:`helpers.widgets.ApprovalPanel` is its view; tests drive this engine directly.

Three kinds of pause are understood (:data:`ReviewKind`):

``"interrupt"``
    A plain ``interrupt(payload)`` (notebook 08, ``helpers.exercises.nb08``): one decision per
    interrupt, sent as ``{"type": "approve"}``, ``{"type": "edit", "amount": <float>}`` or
    ``{"type": "reject", "reason": <text>}``. A payload's ``"allowed"`` list narrows the decisions;
    its ``"amount"``/``"refundable"`` numbers are checked.
``"hitl"``
    A ``HumanInTheLoopMiddleware`` pause in its default ``interrupt_mode="batched"`` (langchain
    1.5.2): one interrupt whose value is ``{"action_requests": [...], "review_configs": [...]}``,
    one action per gated tool call of the model's reply. Each action's decisions come from its
    ``review_configs`` entry (``allowed_decisions``). One decision per action, in order, is sent as
    ``Command(resume={"decisions": [...]})``: ``{"type": "approve"}``, ``{"type": "edit",
    "edited_action": {"name": <tool>, "args": {...}}}``, ``{"type": "reject", "message": <text>}``,
    ``{"type": "respond", "message": <text>}``. With two gated calls, the first decision is noted
    (outcome ``staged``) and both are sent together once the second is made.
``"hitl_per_call"``
    ``HumanInTheLoopMiddleware(..., interrupt_mode="per_call")``: one interrupt per gated call,
    value ``{"type": "tool_approval", "name", "args", ...}``; its decisions are read from the
    interrupt's ``response_schema``; each is answered alone, by interrupt id.

Why check first: LangGraph stores the first resume value a node receives with its task. If the
node then raises, every later resume of that thread replays the stored value (api-facts items 8,
11, 17): one bare ``{"type": "approve"}`` sent to a HITL pause (``KeyError: 'decisions'``) leaves
the thread stuck for good. So nothing is sent unless it has the shape the pause expects, a
decision the pause allows, and arguments that pass the tool's schema; a thread that is already
poisoned is reported (outcome ``poisoned``) and nothing more is sent to it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.tools import BaseTool

from ..amounts import AmountError, parse_amount
from ..outcomes import PanelOutcome
from ..text import JsonInputError, error_text, json_problem, json_text, parse_json, sendable, shorten
from .reviews import DECISIONS, Decision, Review, ReviewAction, ReviewKind, read_review

__all__ = ["ActionName", "ApprovalEngine", "PanelResult", "SentDecision", "call_subject", "decision_text"]

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
            several_tools = len({_about(r.get("name")) for r in requests}) > 1
            parts = []
            for position, (request, decision) in enumerate(zip(requests, resume["decisions"]), 1):
                subject = call_subject(request.get("name"), request.get("args"), with_tool=several_tools)
                parts.append(f"call {position} ({subject}): {decision_text(decision, request.get('args'))}")
            text = "; ".join(parts)
        elif isinstance(payload, dict) and payload.get("type") == "tool_approval":
            name = _about(payload.get("name"))
            subject = call_subject(payload.get("name"), payload.get("args"), with_tool=False)
            about = f" ({subject})" if subject != name else ""
            text = f"{name}{about}: {decision_text(resume, payload.get('args'))}"
        else:
            about = payload.get("order_id") if isinstance(payload, dict) else None
            text = (f"{_about(about)}: " if about is not None else "") + json_text(resume)
        return sendable(f"{shorten(text)} -> {self.outcome}")


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
    name = _about(tool)
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
        changes = [f"{_about(key)} {json_text(value)}" for key, value in edited.items()
                   if key not in args or json_text(args[key]) != json_text(value)]
        changes += [f"without {_about(key)}" for key in args if key not in edited]
        return f"edit {', '.join(changes)}" if changes else "edit (no change)"
    if kind in ("reject", "respond"):
        return f"{kind} {json_text(decision.get('message'))}"
    return _about(kind)


class _Refused(Exception):
    """An answer that failed the engine's checks (never leaves the engine)."""


#: The most characters a name or order id takes in one line (a 200,000-character order id is cut).
ABOUT_LIMIT = 200


def _about(value: Any) -> str:
    """A name or order id for one line: as it is when it is printable text, else as JSON; cut to :data:`ABOUT_LIMIT`."""
    if isinstance(value, str) and value.isprintable():
        return shorten(value, ABOUT_LIMIT)
    return json_text(value, limit=ABOUT_LIMIT)


def _number(value: Any) -> bool:
    """``value`` is an ``int`` or ``float`` (not a ``bool``)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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


def _listed_twice(state: Mapping[str, Any] | None, order_id: Any) -> tuple[str, int] | None:
    """``(state key, count)`` when a list in the state holds ``order_id`` in more than one entry."""
    if order_id is None or not state:
        return None
    for key, value in state.items():
        if isinstance(value, list):
            count = sum(1 for entry in value if isinstance(entry, dict) and entry.get("order_id") == order_id)
            if count > 1:
                return key, count
    return None


def _listed_twice_message(order_id: Any, key: str, count: int) -> str:
    """Why a plain pause whose request lists ``order_id`` ``count`` times (state key ``key``) is not answered."""
    return (f"This request lists order {_about(order_id)} {count} times (state key {_about(key)!r}). The panel "
            "approves one refund request per order: a second one with the same idempotency key is merged into the "
            "first or refused, so this run cannot finish from the panel and no decision can be sent. Start a new "
            "run that lists the order once.")


def _properties(tool: BaseTool) -> dict[str, Any]:
    """The tool's argument properties as JSON schema (what the model sees), ``{}`` when unknown."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    try:
        properties = convert_to_openai_tool(tool)["function"]["parameters"].get("properties", {})
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a schema that cannot be converted: no amount rule from it
        return {}
    return properties if isinstance(properties, dict) else {}


def _is_number(prop: Any) -> bool:
    """A JSON-schema property that takes a number (``"number"``/``"integer"``, also inside ``anyOf``)."""
    if not isinstance(prop, dict):
        return False
    if prop.get("type") in ("number", "integer"):
        return True
    return any(_is_number(option) for option in prop.get("anyOf", ()) if isinstance(option, dict))


def _schema_problems(tool: BaseTool, args: dict, text: str) -> str:
    """Why ``args`` (``text`` is their JSON) fail the tool's argument schema, or ``""``.

    The schema is ``tool.tool_call_schema`` (what the model sees; injected arguments left out),
    validated strictly as JSON (pydantic 2: ``model_validate_json(text, strict=True)``). An
    argument the schema does not declare is a problem unless the schema allows extra arguments.
    """
    from pydantic import BaseModel, ValidationError

    schema = tool.tool_call_schema
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        problems = []
        try:
            schema.model_validate_json(text, strict=True)
        except ValidationError as exc:
            problems = [f"{'.'.join(str(p) for p in error['loc']) or 'arguments'}: {error['msg']}"
                        for error in exc.errors()]
        if schema.model_config.get("extra") != "allow":
            known = {*schema.model_fields, *(f.alias for f in schema.model_fields.values() if f.alias)}
            for name in (key for key in args if key not in known):
                problems.append(f"{_about(name)}: not an argument of this tool (it takes: {', '.join(sorted(known))})")
        return shorten("; ".join(problems))
    if isinstance(schema, dict):  # a JSON-schema tool: only the required keys can be checked here
        missing = [key for key in schema.get("required", []) if key not in args]
        return "; ".join(f"{key}: Field required" for key in missing)
    return ""


def _graph_tools(graph: Any) -> dict[str, BaseTool]:
    """The tools of a graph's ``tools`` node (``create_agent``, ``create_deep_agent``), by name."""
    nodes = getattr(graph, "nodes", None) or {}
    node = nodes.get("tools") if isinstance(nodes, Mapping) else None
    tools = getattr(getattr(node, "bound", None), "tools_by_name", None)
    return dict(tools) if isinstance(tools, Mapping) else {}


class ApprovalEngine:
    """Read a thread's pending interrupt, check a reviewer's decisions, send the real resume.

    Every method re-reads the checkpoint (``graph.get_state(config)``, langgraph 1.2.24) before it
    acts, so it answers what is pending now, never a stale view; each sends at most one
    ``graph.invoke(Command(resume=...), config, version="v2")`` (with ``context=`` when one is given). With several pending interrupts
    (parallel nodes) the first is answered, by id (``Command(resume={interrupt.id: value})``), as
    LangGraph requires. Nothing the graph raises leaves a method (``SystemExit`` included; only
    ``KeyboardInterrupt`` passes).

    Refused, with a message and nothing sent (outcome ``refused``): an action when nothing is
    pending; a decision the current action does not allow; for a plain payload, an approval whose
    ``"amount"`` is above its ``"refundable"``, an edit amount that :func:`~helpers.widgets.amounts.
    parse_amount` refuses or that is above ``"refundable"``, an empty reason; for a HITL call,
    edited arguments that are not a JSON object, are not plain JSON (``NaN``, ``Infinity``, a
    function, a set), fail the tool's schema checked strictly as JSON (``true`` is not a number),
    name an argument the tool does not take, or hold an ``amount`` that is not a refund amount
    (above 0, whole cents; see :meth:`_edited_args`; the tool is looked up in the graph's ``tools``
    node, or passed as ``tools=``), an empty message for reject or respond; an approval or edit of
    an order the same HITL reply already approves (two gated calls for one order), because one
    refund request per order and turn is what the refund service's idempotency key allows.

    For the same reason a plain pause whose request lists its order twice (two items of one order
    in the state) is read as outcome ``unanswerable`` as soon as the engine reads it (on opening
    and on every re-read): no decision is allowed, every one is refused with the reason, and the
    message says to start a new run that lists the order once.

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
        self.tools: dict[str, BaseTool] = {**_graph_tools(graph), **{tool.name: tool for tool in tools}}
        self.context = context
        self.history: list[SentDecision] = []
        self.staged: list[dict] = []
        self.review: Review | None = None
        self.last_review: Review | None = None
        self._interrupts: list[Any] = []
        self._snapshot: Any = None
        self._problem: tuple[PanelOutcome, str] | None = None  # unavailable / poisoned / stuck / unknown / unanswerable, as last read
        self._unknown: tuple[str, str] | None = None  # (interrupt id, message) after a resume whose outcome is unknown
        self.last = self.refresh()

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
        """The decisions the current action accepts (empty when nothing can be answered)."""
        action = self.current
        return action.allowed if action is not None else ()

    def state(self) -> dict | None:
        """The state values as last read (``None`` when the checkpointer cannot be read)."""
        return _values(self._snapshot) if self._snapshot is not None else None

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
            self._problem = (PanelOutcome.UNAVAILABLE, self._unavailable_message(exc))
            return
        self._snapshot = snapshot
        self._interrupts = list(snapshot.interrupts)
        self.review = read_review(self._interrupts[0], self.decisions) if self._interrupts else None
        if self.review is not None:
            self.last_review = self.review
        if self.review is None or self.review.interrupt.id != previous:
            self.staged = []
        self._problem = None
        if self._interrupts:
            poisoned = self._poisoned(snapshot)
            if poisoned:
                self._problem = (PanelOutcome.POISONED, poisoned)
        elif snapshot.next:
            self._problem = (PanelOutcome.STUCK, self._stuck_message(snapshot.next))
        if self._problem is None and self.review is not None and self.review.kind == "interrupt":
            order_id = self.review.actions[0].order_id
            twice = _listed_twice(_values(snapshot), order_id)
            if twice is not None:
                self._problem = (PanelOutcome.UNANSWERABLE, _listed_twice_message(order_id, *twice))
        if self._unknown is not None:
            if self.review is not None and self.review.interrupt.id == self._unknown[0]:
                if self._problem is None:
                    self._problem = (PanelOutcome.UNKNOWN, self._unknown[1])
            else:  # the pause was answered some other way: the panel reads the thread as it is
                self._unknown = None

    def _poisoned(self, snapshot: Any) -> str:
        """Why the pending interrupt can never be answered (its task raised after a stored resume), or ``""``."""
        for task in getattr(snapshot, "tasks", ()):
            if task.interrupts and task.error is not None:
                stored: list[Any] = []
                try:
                    saved = self.graph.checkpointer.get_tuple(self.config)
                    for write in (saved.pending_writes or []) if saved else []:
                        if write[0] == task.id and write[1] == "__resume__":
                            stored.extend(write[2] if isinstance(write[2], list) else [write[2]])
                except KeyboardInterrupt:
                    raise
                except BaseException:  # noqa: BLE001 - the message works without the stored values
                    pass
                values = f" ({json_text(stored)})" if stored else ""
                error = error_text(task.error) if isinstance(task.error, BaseException) else sendable(str(task.error))
                return (f"The node {task.name!r} raised after an earlier resume ({error}). "
                        f"LangGraph keeps the resume value it got{values} and replays it on every resume, so an "
                        "answer sent now would never reach the node: this thread is stuck. Ways out: write the "
                        "state past the node with graph.update_state(config, values, as_node=...), replay from an "
                        "earlier checkpoint (graph.get_state_history(config)), or start a new thread.")
        return ""

    @staticmethod
    def _stuck_message(next_nodes: tuple[str, ...]) -> str:
        names = ", ".join(repr(name) for name in next_nodes)
        return (f"No interrupt is pending, but the run has NOT finished: it stopped before {names} "
                "(a node raised after the last resume, or a breakpoint). There is nothing this panel can answer; "
                "fix the cause, then continue with graph.invoke(None, config).")

    @staticmethod
    def _unknown_message(error: str, *, just_sent: bool = False) -> str:
        lead = ("Sent, but the graph raised" if just_sent else
                "The last decision sent to this pause has an unknown outcome: the graph raised")
        return (f"{lead} ({error}) and the checkpoint still shows the same pause, so the outcome is unknown: "
                "the tool may have run; check the state (e.g. the refund requests or the audit log) before "
                "deciding again. The panel "
                "sends this pause nothing more on its own: after checking, press Start over (start_over()) to "
                "decide again.")

    @staticmethod
    def _unavailable_message(exc: BaseException) -> str:
        text = f"The checkpointer cannot be read ({error_text(exc)}), so the panel cannot see or answer the pause."
        if "closed database" in str(exc).lower():
            text += (" Its SQLite connection was closed, e.g. the `with SqliteSaver.from_conn_string(...)` block "
                     "ended. Build the graph on a saver that stays open, e.g. "
                     "SqliteSaver(sqlite3.connect(path, check_same_thread=False)), and open a new panel.")
        return text

    # -- plain methods: what the mouse does ----------------------------------------------------

    def refresh(self) -> PanelResult:
        """Read the thread's checkpoint again and report what is pending. Sends nothing.

        Returns:
            a :class:`PanelResult` with outcome ``paused``, ``finished``, ``stuck``, ``poisoned``,
            ``not_started``, ``unavailable``, ``unanswerable`` (the request lists the order twice) or
            ``unknown`` (a failed resume left the same pause; see :meth:`start_over`).
        """
        self._read()
        return self._record(self._status("refresh"))

    def approve(self) -> PanelResult:
        """Approve the current action (plain: ``{"type": "approve"}``; HITL: the call runs as written)."""
        return self._act("approve", None)

    def edit(self, value: Any = None) -> PanelResult:
        """Edit the current action.

        Args:
            value: for a plain payload the new amount (a number, or text such as ``"120.50"``);
                for a HITL call the new arguments (a dict, or JSON text of an object), checked
                against the tool's schema and sent as ``edited_action`` with the same tool name.
        """
        return self._act("edit", value)

    def reject(self, message: Any = None) -> PanelResult:
        """Reject the current action with a reason (plain: ``"reason"``; HITL: ``"message"``; required)."""
        return self._act("reject", message)

    def respond(self, message: Any = None) -> PanelResult:
        """Answer a HITL call on the tool's behalf (``{"type": "respond", "message": ...}``; the tool does not run)."""
        return self._act("respond", message)

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
            lead = ("You checked the state: the panel answers this pause again. If the tool did run, approving "
                    "or editing again runs it a second time; reject or respond instead. Nothing was sent. "
                    if acknowledged else "The noted decisions were dropped; nothing was sent. ")
            result.message = lead + result.message
        return self._record(result)

    def summary(self) -> str:
        """Plain text: one numbered line per decision sent (order id or tool names, resume value, outcome)."""
        lines = [f"{number}. {decision.line()}" for number, decision in enumerate(self.history, 1)]
        return "\n".join(lines) or "no decision sent"

    # -- checks and the real resume ------------------------------------------------------------

    def _status(self, action: ActionName) -> PanelResult:
        """The result for the checkpoint as last read, when nothing was sent."""
        values = self.state()
        if self._problem is not None:
            outcome, message = self._problem
            return PanelResult(action, outcome, message, interrupts=self.pending, state=values)
        if self.review is not None:
            return PanelResult(action, PanelOutcome.PAUSED, self._paused_message(), interrupts=self.pending,
                               state=values)
        if not values:
            message = f"Thread {self.thread_id!r} has no checkpoint: start the run first."
            if not isinstance(self._raw_thread_id, str) and not self._raw_thread_id:
                message += (f" (LangGraph 1.2.24 saves a run whose thread_id is {self._raw_thread_id!r} under that "
                            f"value, but graph.get_state reads it as the text {self.thread_id!r}, so such a run "
                            f"cannot be read back: give the thread a text id, e.g. {self.thread_id!r}.)")
            return PanelResult(action, PanelOutcome.NOT_STARTED, message, state=values)
        return PanelResult(action, PanelOutcome.FINISHED, "No interrupt is pending; the run finished.", state=values)

    def _paused_message(self) -> str:
        review, action = self.review, self.current
        if review is None or action is None:
            return "The run is paused."
        if review.kind == "hitl" and len(review.actions) > 1:
            return (f"The run is paused: {len(review.actions)} gated calls need one decision each, sent together. "
                    f"Deciding {action.label}.")
        return "The run is paused: answer the interrupt shown above."

    def _record(self, result: PanelResult) -> PanelResult:
        self.last = result
        return result

    def _act(self, decision: Decision, value: Any) -> PanelResult:
        self._read()  # answer what is pending now
        if self._problem is not None:
            outcome, message = self._problem
            kind = (PanelOutcome.REFUSED if outcome in (PanelOutcome.STUCK, PanelOutcome.UNKNOWN, PanelOutcome.UNANSWERABLE)
                    else outcome)
            return self._record(PanelResult(decision, kind, f"{message} Nothing was sent.",
                                            interrupts=self.pending, state=self.state()))
        action = self.current
        if action is None:
            return self._refuse(decision, f"Nothing is pending on thread {self.thread_id!r}: "
                                          "there is no interrupt to answer.")
        if decision not in action.allowed:
            return self._refuse(decision, f"{action.label.capitalize()} does not accept {decision!r}; it allows: "
                                          f"{', '.join(action.allowed) or 'nothing this panel can send'}.")
        try:
            built = self._build(action, decision, value)
        except _Refused as refused:
            return self._refuse(decision, str(refused))
        review = self.review
        if review.kind == "hitl":
            self.staged.append(built)
            if len(self.staged) < len(review.actions):
                following = self.current
                return self._record(PanelResult(
                    decision, PanelOutcome.STAGED,
                    f"Noted {decision} for {action.label} ({len(self.staged)} of {len(review.actions)}); nothing "
                    f"is sent until every call has a decision. Now decide {following.label}.",
                    interrupts=self.pending, state=self.state()))
            resume: Any = {"decisions": list(self.staged)}
        else:
            resume = built
        return self._send(decision, review, resume)

    def _build(self, action: ReviewAction, decision: Decision, value: Any) -> dict:
        """The decision as the pause expects it, or :class:`_Refused` with the reason."""
        plain = action.tool is None
        if decision in ("reject", "respond"):
            text = "" if value is None else sendable(str(value)).strip()
            if not text:
                what = "A rejection needs a reason" if decision == "reject" else "A response needs a message"
                field_name = "reason" if plain else "message"
                raise _Refused(f"{what}: type one in the {field_name} field.")
            return {"type": "reject", "reason": text} if plain else {"type": decision, "message": text}
        if plain:
            return self._build_plain(action, decision, value)
        if decision == "approve":
            self._check_one_per_order(action, action.args or {})
            return {"type": "approve"}
        args = self._edited_args(action, value)
        self._check_one_per_order(action, args)
        return {"type": "edit", "edited_action": {"name": action.tool, "args": args}}

    def _build_plain(self, action: ReviewAction, decision: Decision, value: Any) -> dict:
        payload = action.payload if isinstance(action.payload, dict) else {}
        refundable = payload.get("refundable")
        if decision == "approve":
            amount = payload.get("amount")
            if _number(amount) and _number(refundable) and amount > refundable:
                raise _Refused(f"Approving keeps the amount {float(amount)}, above the refundable {float(refundable)}; "
                               "the refund service would refuse it after the review. Edit the amount instead.")
            return {"type": "approve"}
        if value is None or (isinstance(value, str) and not value.strip()):
            raise _Refused("An edit needs the new amount: type it in the amount field.")
        try:
            amount = parse_amount(value)
        except AmountError as exc:
            raise _Refused(str(exc)) from None
        if _number(refundable) and amount > refundable:
            raise _Refused(f"The amount {amount} is above the refundable {float(refundable)}; "
                           "the refund service would refuse it after the review.")
        return {"type": "edit", "amount": amount}

    def _edited_args(self, action: ReviewAction, value: Any) -> dict:
        """The edited arguments as they will be sent, or :class:`_Refused` with the reason.

        The checks, in order (each refusal names the argument):

        1. a JSON object (a dict, or JSON text of one; at most 100 levels deep);
        2. plain JSON (:func:`~helpers.widgets.text.json_problem`): what ``json.dumps(..., allow_nan=False)``
           writes, so no ``NaN``/``Infinity``, no function, set, ``Decimal`` or other Python object.
           A tool call's arguments are JSON on the wire, and the resume is saved by the checkpointer:
           a value it cannot save fails *after* the tool ran, leaving the pause to be answered again;
           the JSON text is what is sent (a tuple becomes a list);
        3. the tool's argument schema (``tool.tool_call_schema``, what the model sees), validated
           strictly as JSON (pydantic ``model_validate_json(strict=True)``): a number where it says
           number (``true`` and ``"50"`` are not numbers), an integer where it says integer, every
           required argument, the schema's own constraints (``Field(gt=0, le=500)``); an argument the
           tool does not take is refused (the tool would ignore it silently), unless its schema allows
           extra arguments. A JSON-schema tool (a dict schema) is checked for its required arguments only;
        4. the refund amount rule, decided for this course: an argument named ``amount`` that the
           schema types as a number is a refund amount and must pass
           :func:`~helpers.widgets.amounts.parse_amount`, the rule of the plain-interrupt edit and of
           ``helpers.domain.RefundService`` (above 0, whole cents), on top of any constraint the
           schema states. Float noise (``0.1 + 0.2``) is sent as the cents value.
        """
        if value is None or (isinstance(value, str) and not value.strip()):
            raise _Refused("An edit needs the new arguments: type them as a JSON object in the args field.")
        if isinstance(value, str):
            try:
                args = parse_json(value)
            except JsonInputError as problem:
                raise _Refused(f"The edited argument text {problem}.") from None
        else:
            args = value
        if not isinstance(args, dict):
            raise _Refused("The edited arguments are not a JSON object: tool arguments are an object, "
                           "e.g. {\"order_id\": \"A1024\", \"amount\": 120.0}.")
        problem = json_problem(args, "args")
        if problem:
            raise _Refused(f"The edited arguments are not plain JSON: {problem}. Tool arguments travel as JSON "
                           "and the checkpointer must save them.")
        text = json.dumps(args, ensure_ascii=False, allow_nan=False)
        args = json.loads(text)  # exactly what is sent: the JSON a model could have written
        tool = self.tools.get(action.tool)
        if tool is None:
            raise _Refused(f"The panel cannot find the tool {_about(action.tool)!r} in the graph's tools node, so it "
                           "cannot check edited arguments against its schema; pass tools=[...] to the panel.")
        try:
            problems = _schema_problems(tool, args, text)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a schema whose validation itself fails
            problems = error_text(exc)
        if problems:
            raise _Refused(f"The edited arguments do not fit {_about(action.tool)}'s schema ({problems}).")
        if "amount" in args and _is_number(_properties(tool).get("amount")):
            try:
                cents = parse_amount(args["amount"])
            except AmountError as exc:
                raise _Refused(f"The edited amount is not a refund amount: {exc}") from None
            if cents != args["amount"]:
                args["amount"] = cents
        return args

    def _check_one_per_order(self, action: ReviewAction, args: dict) -> None:
        """Refuse approving a second gated call for an order this request already approves or edits."""
        order_id = args.get("order_id")
        if order_id is None or self.review is None:
            return
        for earlier, staged in zip(self.review.actions, self.staged):
            if staged["type"] not in ("approve", "edit") or earlier.tool != action.tool:
                continue
            earlier_args = staged["edited_action"]["args"] if staged["type"] == "edit" else (earlier.args or {})
            if earlier_args.get("order_id") == order_id:
                raise _Refused(f"Calls {earlier.position} and {action.position} both ask {action.tool} for order "
                               f"{_about(order_id)}. Approving both would send two refund requests for one order in "
                               "one turn (with one idempotency key per order, the second is merged into the first "
                               "or refused). Keep one: reject or respond to this call.")

    def _send(self, decision: Decision, review: Review, resume: Any) -> PanelResult:
        from langgraph.types import Command

        interrupt = review.interrupt
        keyed = review.kind == "hitl_per_call" or len(self._interrupts) > 1
        command = Command(resume={interrupt.id: resume} if keyed else resume)
        self.staged = []
        try:
            extra = {"context": self.context} if self.context is not None else {}
            out = self.graph.invoke(command, self.config, version="v2", **extra)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - the graph's error is shown, never raised from a click
            result = self._failed(decision, review, resume, error_text(exc))
        else:
            self._read()
            if self._problem is not None and self._problem[0] == PanelOutcome.UNAVAILABLE:
                result = PanelResult(decision, PanelOutcome.UNAVAILABLE, "Sent. " + self._problem[1], sent=resume)
            elif self._problem is not None and self._problem[0] == PanelOutcome.UNANSWERABLE:
                # the next pause asks for an order listed twice: say so now, not only on the next click
                result = PanelResult(decision, PanelOutcome.UNANSWERABLE, "Sent. The run paused again at the next "
                                     "interrupt, which the panel cannot answer. " + self._problem[1], sent=resume, interrupts=self.pending, state=self.state())
            elif getattr(out, "interrupts", ()) or self._interrupts:
                result = PanelResult(decision, PanelOutcome.PAUSED, "Sent. The run paused again at the next interrupt.",
                                     sent=resume, interrupts=self.pending, state=self.state())
            elif self._problem is not None:
                result = PanelResult(decision, PanelOutcome.STUCK, "Sent. " + self._problem[1], sent=resume,
                                     state=self.state())
            else:
                result = PanelResult(decision, PanelOutcome.FINISHED, "Sent. The run finished; no interrupt is left.",
                                     sent=resume, state=self.state())
        self.history.append(SentDecision(review.value, resume, result.outcome))
        return self._record(result)

    def _failed(self, decision: Decision, review: Review, resume: Any, error: str) -> PanelResult:
        """The result of a resume that raised, from the checkpoint as it is now.

        When the same pause is still pending (and its node did not store the resume: not
        ``poisoned``), the resume may have run the tool and then failed to save the checkpoint (a
        checkpoint write error, a node that called ``exit()``): the outcome is ``unknown``, as for
        "sent, reply lost", and the panel sends nothing more to that pause until :meth:`start_over`.
        """
        self._read()
        still_pending = self.review is not None and self.review.interrupt.id == review.interrupt.id
        if still_pending and self._problem is None:
            self._unknown = (review.interrupt.id, self._unknown_message(error))
            self._problem = (PanelOutcome.UNKNOWN, self._unknown[1])
            return PanelResult(decision, PanelOutcome.UNKNOWN, self._unknown_message(error, just_sent=True),
                               sent=resume, interrupts=self.pending, state=self.state())
        if self._problem is not None:
            after = self._problem[1]
        elif self.review is not None:
            after = "The run is paused at another interrupt now: the tool may have run; check the state."
        elif self.state():
            after = "The checkpoint shows the run finished: the tool may have run; check the state."
        else:
            after = "The checkpoint cannot say what happened: the tool may have run; check the state."
        return PanelResult(decision, PanelOutcome.ERROR, f"{error}\n{after}", sent=resume, interrupts=self.pending)

    def _refuse(self, action: ActionName, message: str) -> PanelResult:
        return self._record(PanelResult(action, PanelOutcome.REFUSED, message + " Nothing was sent.",
                                        interrupts=self.pending, state=self.state()))
