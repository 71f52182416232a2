"""Reading a paused thread for the approval engine: what the pending interrupt asks a reviewer to decide,
and what the checkpoint says about whether it can be answered (no ipywidgets).

:func:`read_review` turns an ``Interrupt`` into a :class:`Review` of :class:`ReviewAction` objects,
each with the decisions it allows. Three kinds of pause are understood (:data:`ReviewKind`), as the
approval engine answers them:

``"interrupt"``
    A plain ``interrupt(payload)`` (notebook 08, ``helpers.exercises.nb08``): one decision per
    interrupt, sent as ``{"type": "approve"}``, ``{"type": "edit", "amount": <float>}`` or
    ``{"type": "reject", "reason": <text>}``. The payload's ``"allowed"`` list, else the decisions
    its ``response_schema`` names, else :data:`SAFE_PLAIN_DECISIONS` decide what is offered; its
    ``"amount"``/``"refundable"`` numbers are checked.
``"hitl"``
    A ``HumanInTheLoopMiddleware`` pause in its default ``interrupt_mode="batched"`` (langchain
    1.5.2): one interrupt whose value is ``{"action_requests": [...], "review_configs": [...]}``,
    one action per gated tool call of the model's reply. Each action's decisions come from its
    ``review_configs`` entry (``allowed_decisions``). One decision per action, in order, is sent as
    ``Command(resume={"decisions": [...]})``: ``{"type": "approve"}``, ``{"type": "edit",
    "edited_action": {"name": <tool>, "args": {...}}}``, ``{"type": "reject"[, "message": <text>]}``,
    ``{"type": "respond", "message": <text>}``. With two gated calls, the first decision is noted
    (outcome ``staged``) and both are sent together once the second is made.
``"hitl_per_call"``
    ``HumanInTheLoopMiddleware(..., interrupt_mode="per_call")``: one interrupt per gated call,
    value ``{"type": "tool_approval", "name", "args", ...}``; its decisions are read from the
    interrupt's ``response_schema``; each is answered alone, by interrupt id.

What the checkpoint says: the functions below :func:`read_review` read a ``StateSnapshot``
(``graph.get_state(config)``, langgraph 1.2.24) or a state dict and return what the engine must know:
the state values, whether the pending interrupt can be answered at all (a poisoned thread, an order
listed twice, several tool calls paused in one ``ToolNode`` task), which decisions the middleware
did not apply, and the texts that explain each. The engine is :mod:`helpers.widgets.engines.approval`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ...i18n import _
from ..text import about, error_text, json_text, sendable, shorten

__all__ = ["DECISIONS", "HITL_DESCRIPTION_PREFIX", "PLAIN_DECISIONS", "SAFE_PLAIN_DECISIONS", "Decision", "Review",
           "ReviewAction", "ReviewKind", "call_ids", "hitl_edit_notice", "ignored_decisions", "listed_twice",
           "listed_twice_message", "poisoned_message", "read_review", "shared_tool_task_message", "stuck_message",
           "unavailable_message", "unknown_message", "values_of"]

#: A reviewer's decision (``langchain.agents.middleware.human_in_the_loop.DecisionType``).
Decision = Literal["approve", "edit", "reject", "respond"]
DECISIONS: tuple[Decision, ...] = get_args(Decision)
#: The decisions a plain ``interrupt()`` payload can get from the panel (no ``respond``).
PLAIN_DECISIONS: tuple[Decision, ...] = ("approve", "edit", "reject")
#: What a plain payload gets when neither it (an ``"allowed"`` list) nor the interrupt's
#: ``response_schema`` declares its decisions: an edit carries fields (``"amount"``) a node may not
#: read, and LangGraph keeps the first resume value a node got, so an unreadable edit poisons the
#: thread (notebook 08's chat graph: ``KeyError: 'reason'``). Approve and reject are the safe set.
SAFE_PLAIN_DECISIONS: tuple[Decision, ...] = ("approve", "reject")
#: How HumanInTheLoopMiddleware's default description starts (``description_prefix``); it repeats the args.
HITL_DESCRIPTION_PREFIX = "Tool execution requires approval"
#: What kind of pause an interrupt is (see the module docstring).
ReviewKind = Literal["interrupt", "hitl", "hitl_per_call"]


@dataclass(frozen=True)
class ReviewAction:
    """One thing a reviewer decides: a plain payload, or one gated tool call of a HITL request.

    Attributes:
        position: 1-based position in its request (a plain payload is always 1).
        tool: the gated tool's name (``None`` for a plain payload).
        args: the tool call's arguments as the model wrote them (``None`` for a plain payload).
        description: the text the middleware wrote for the reviewer (``""`` for a plain payload).
        allowed: the decisions this action accepts, in :data:`DECISIONS` order.
        payload: the plain payload, or the HITL action request.
    """

    position: int
    tool: str | None
    args: dict | None
    description: str
    allowed: tuple[Decision, ...]
    payload: Any

    @property
    def order_id(self) -> Any:
        """The ``order_id`` this action is about (from the args or the payload), or ``None``."""
        source = self.args if self.args is not None else self.payload
        return source.get("order_id") if isinstance(source, dict) else None

    @property
    def label(self) -> str:
        """``"call 1: submit_refund_request"`` for a tool call, ``"the interrupt"`` for a payload.

        A tool name longer than 200 characters (a model can send any name) is cut.
        """
        if self.tool is None:
            return _("the interrupt")
        return _("call {position}: {tool}").format(position=self.position, tool=shorten(self.tool, 200))


@dataclass(frozen=True)
class Review:
    """What one pending interrupt asks for.

    Attributes:
        kind: a :data:`ReviewKind`.
        interrupt: the ``langgraph.types.Interrupt`` (kept for its id; the id is never shown).
        actions: the :class:`ReviewAction` objects, in order (one for ``interrupt`` and ``hitl_per_call``).
    """

    kind: ReviewKind
    interrupt: Any
    actions: tuple[ReviewAction, ...]

    @property
    def value(self) -> Any:
        """The interrupt's payload (``Interrupt.value``)."""
        return self.interrupt.value


def _per_call_decisions(schema: Any) -> tuple[Decision, ...]:
    """The decisions a ``per_call`` interrupt's JSON ``response_schema`` accepts."""
    if not isinstance(schema, dict):
        return ()
    mapping = (schema.get("discriminator") or {}).get("mapping")
    if isinstance(mapping, dict):
        return tuple(d for d in DECISIONS if d in mapping)
    kind = (schema.get("properties") or {}).get("type") or {}
    listed = kind.get("enum") if isinstance(kind.get("enum"), list) else [kind.get("const")]
    return tuple(d for d in DECISIONS if d in listed)


def read_review(interrupt: Any, decisions: Sequence[Decision] = DECISIONS) -> Review:
    """What one pending interrupt asks for.

    Args:
        interrupt: a ``langgraph.types.Interrupt`` (its ``value`` and, for ``per_call``, its
            ``response_schema``: a JSON schema whose discriminator lists the allowed decisions).
        decisions: the decisions the reviewer may send at all; each action's own list narrows them.

    Returns:
        a :class:`Review`: ``hitl`` for a ``HumanInTheLoopMiddleware`` batched request
        (``action_requests`` + ``review_configs``, matched by position, else by ``action_name``),
        ``hitl_per_call`` for a ``{"type": "tool_approval", ...}`` value, else ``interrupt``
        (a plain payload: its ``"allowed"`` list, else the decisions its ``response_schema``
        names, else :data:`SAFE_PLAIN_DECISIONS`, narrowed to approve / edit / reject).
    """
    value = interrupt.value
    if isinstance(value, dict) and isinstance(value.get("action_requests"), list) \
            and isinstance(value.get("review_configs"), list):
        requests, configs = value["action_requests"], value["review_configs"]
        actions = []
        for index, request in enumerate(requests):
            request = request if isinstance(request, dict) else {}
            name = request.get("name")
            config = configs[index] if len(configs) == len(requests) and isinstance(configs[index], dict) else \
                next((c for c in configs if isinstance(c, dict) and c.get("action_name") == name), {})
            listed = config.get("allowed_decisions") or ()
            allowed = tuple(d for d in decisions if d in listed)
            args = request.get("args") if isinstance(request.get("args"), dict) else {}
            actions.append(ReviewAction(index + 1, sendable(str(name)), dict(args),
                                        sendable(str(request.get("description", ""))), allowed, request))
        return Review("hitl", interrupt, tuple(actions))
    if isinstance(value, dict) and value.get("type") == "tool_approval" and "name" in value:
        listed = _per_call_decisions(getattr(interrupt, "response_schema", None))
        allowed = tuple(d for d in decisions if d in listed)
        args = value.get("args") if isinstance(value.get("args"), dict) else {}
        action = ReviewAction(1, sendable(str(value["name"])), dict(args),
                              sendable(str(value.get("description", ""))), allowed, value)
        return Review("hitl_per_call", interrupt, (action,))
    listed = value.get("allowed") if isinstance(value, dict) else None
    if not isinstance(listed, (list, tuple)):
        schema = getattr(interrupt, "response_schema", None)
        listed = _per_call_decisions(schema) if isinstance(schema, dict) else SAFE_PLAIN_DECISIONS
    allowed = tuple(d for d in decisions if d in PLAIN_DECISIONS and d in listed)
    return Review("interrupt", interrupt, (ReviewAction(1, None, None, "", allowed, value),))


# -- what the checkpoint says ------------------------------------------------------------------------------

def values_of(snapshot: Any) -> dict:
    """A checkpoint's state values as a dict (``StateSnapshot.values``; a dataclass or model too)."""
    values = snapshot.values
    if isinstance(values, dict):
        return dict(values)
    if dataclasses.is_dataclass(values) and not isinstance(values, type):
        return dataclasses.asdict(values)
    if hasattr(values, "model_dump"):
        return values.model_dump()
    return dict(vars(values))


def listed_twice(state: Mapping[str, Any] | None, order_id: Any) -> tuple[str, int] | None:
    """``(state key, count)`` when a list in the state holds ``order_id`` in more than one entry."""
    if order_id is None or not state:
        return None
    for key, value in state.items():
        if isinstance(value, list):
            count = sum(1 for entry in value if isinstance(entry, dict) and entry.get("order_id") == order_id)
            if count > 1:
                return key, count
    return None


def listed_twice_message(order_id: Any, key: str, count: int) -> str:
    """Why a plain pause whose request lists ``order_id`` ``count`` times (state key ``key``) is not answered."""
    return _("This request lists order {order_id} {count} times (state key {key}). The panel approves one refund "
             "request per order: a second one with the same idempotency key is merged into the first or refused, "
             "so this run cannot finish from the panel and no decision can be sent. Start a new run that lists the "
             "order once.").format(order_id=about(order_id), count=count, key=repr(about(key)))


def _last_tool_calls(state: Mapping[str, Any] | None) -> list[dict]:
    """The tool calls of the last ``AIMessage`` in ``state["messages"]`` (``[]`` when there is none)."""
    messages = state.get("messages") if isinstance(state, Mapping) else None
    for message in reversed(messages if isinstance(messages, list) else []):
        calls = getattr(message, "tool_calls", None)
        if getattr(message, "type", None) == "ai":
            return [call for call in calls or [] if isinstance(call, dict)]
    return []


def shared_tool_task_message(graph: Any, snapshot: Any, state: Mapping[str, Any] | None) -> str:
    """Why a pause inside one ``ToolNode`` task that runs several tool calls cannot be answered, or ``""``.

    A hand-built ``model -> ToolNode`` graph runs every call of a reply in **one** task. LangGraph
    numbers a task's interrupts by the order its ``interrupt()`` calls happen (``_interrupt_id(ns,
    index)``, langgraph 1.2.24; the calls run in a thread pool), so neither a plain resume nor one
    keyed by interrupt id is tied to the call the panel shows, and every resume runs the task
    again from its top: the sibling calls run again. ``create_agent`` sends each call as a task of
    its own (a ``Send``), where the ids are stable; there this returns ``""``.
    """
    from langgraph.prebuilt import ToolNode

    nodes = getattr(graph, "nodes", None)
    for task in getattr(snapshot, "tasks", ()):
        path = getattr(task, "path", ()) or ()
        node = nodes.get(task.name) if isinstance(nodes, Mapping) else None
        if not task.interrupts or (path and path[0] != "__pregel_pull"):
            continue
        if not isinstance(getattr(node, "bound", None), ToolNode):
            continue
        calls = _last_tool_calls(state)
        if len(calls) > 1:
            names = ", ".join(about(call.get("name")) for call in calls)
            return _("The node {node} is a ToolNode running {count} tool calls ({names}) in one task, and one of "
                     "them paused. LangGraph gives that task's interrupts ids in the order its tools reach "
                     "interrupt(), which can change from run to run, so the panel cannot make sure its answer "
                     "reaches the call shown, and each resume runs the other calls again. Nothing can be sent from "
                     "the panel. Let each call be a task of its own (create_agent does), or have the model send one "
                     "such call per reply.").format(node=repr(about(task.name)), count=len(calls), names=names)
    return ""


def poisoned_message(graph: Any, config: dict, snapshot: Any) -> str:
    """Why the pending interrupt can never be answered (its task raised after a stored resume), or ``""``.

    The message names the way out for this node: ``graph.update_state(config, values, as_node=...)``
    (for a tools node: a ToolMessage answering each unanswered call), an earlier checkpoint, or a
    new thread.
    """
    for task in getattr(snapshot, "tasks", ()):
        if not (task.interrupts and task.error is not None):
            continue
        stored: list[Any] = []
        try:
            saved = graph.checkpointer.get_tuple(config)
            for write in (saved.pending_writes or []) if saved else []:
                if write[0] == task.id and write[1] == "__resume__":
                    stored.extend(write[2] if isinstance(write[2], list) else [write[2]])
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - the message works without the stored values
            pass
        values = f" ({json_text(stored)})" if stored else ""
        error = error_text(task.error) if isinstance(task.error, BaseException) else sendable(str(task.error))
        calls = _last_tool_calls(values_of(snapshot)) if snapshot.values is not None else []
        if calls and task.name in ("tools", *(name for name in (getattr(graph, "nodes", None) or {})
                                              if str(name).startswith("HumanInTheLoopMiddleware"))):
            ids = ", ".join(repr(shorten(str(call.get("id")), 80)) for call in calls)
            example = _("answer the model's calls yourself: {code}").format(
                code=f"graph.update_state(config, {{\"messages\": [ToolMessage(\"not run: the review failed\", "
                     f"tool_call_id=...) for each of {ids}]}}, as_node={task.name!r})")
        else:
            example = _("graph.update_state(config, <the values {node} would return>, as_node={node})").format(
                node=repr(task.name))
        return _("The node {node} raised after an earlier resume ({error}). LangGraph keeps the resume value it "
                 "got{values} and replays it on every resume, so an answer sent now would never reach the node: "
                 "this thread is stuck. Ways out: write the state past the node, e.g. {example}; replay from an "
                 "earlier checkpoint (graph.get_state_history(config)); or start a new thread.").format(
                   node=repr(about(task.name)), error=error, values=values, example=example)
    return ""


def stuck_message(next_nodes: Sequence[str]) -> str:
    """Why nothing is pending although the run has not finished (a node raised, or a breakpoint)."""
    names = ", ".join(repr(name) for name in next_nodes)
    return _("No interrupt is pending, but the run has NOT finished: it stopped before {names} (a node raised "
             "after the last resume, or a breakpoint). There is nothing this panel can answer. A tool may have "
             "committed its side effect before it raised: check the state (e.g. the refund requests or the audit "
             "log) first, because graph.invoke(None, config, context=...) runs that node again from its top (pass "
             "the run's context=, as the panel does, when its tools read runtime.context). If the side effect "
             "happened, write its answer with graph.update_state(...) instead of running the node "
             "again.").format(names=names)


def unknown_message(error: str, *, just_sent: bool = False) -> str:
    """A resume raised and the same pause is still pending: the tool may have run."""
    if just_sent:
        message = _("Sent, but the graph raised ({error}) and the checkpoint still shows the same pause, so the "
                    "outcome is unknown: the tool may have run; check the state (e.g. the refund requests or the "
                    "audit log) before deciding again. The panel sends this pause nothing more on its own: after "
                    "checking, press Start over (start_over()) to decide again.")
    else:
        message = _("The last decision sent to this pause has an unknown outcome: the graph raised ({error}) and "
                    "the checkpoint still shows the same pause, so the outcome is unknown: the tool may have run; "
                    "check the state (e.g. the refund requests or the audit log) before deciding again. The panel "
                    "sends this pause nothing more on its own: after checking, press Start over (start_over()) to "
                    "decide again.")
    return message.format(error=error)


def unavailable_message(exc: BaseException) -> str:
    """The checkpointer cannot be read (e.g. a closed SQLite connection)."""
    if "closed database" in str(exc).lower():
        text = _("The checkpointer cannot be read ({error}), so the panel cannot see or answer the pause. Its "
                 "SQLite connection was closed, e.g. the `with SqliteSaver.from_conn_string(...)` block ended. "
                 "Build the graph on a saver that stays open, e.g. SqliteSaver(sqlite3.connect(path, "
                 "check_same_thread=False)), and open a new panel.")
    else:
        text = _("The checkpointer cannot be read ({error}), so the panel cannot see or answer the pause.")
    return text.format(error=error_text(exc))


def call_ids(review: Review, state: Mapping[str, Any] | None) -> list[str | None]:
    """The tool call id of each action of a HITL review, in order (``None`` where it cannot be told).

    A batched request's action requests carry the call's name and arguments but not its id; they
    are matched, in order, to the calls of the last ``AIMessage`` with the same name and arguments.
    A ``per_call`` interrupt names its call's ``tool_call_id`` when the middleware sends it.
    """
    if review.kind == "hitl_per_call":
        value = review.value if isinstance(review.value, dict) else {}
        known = value.get("tool_call_id") or value.get("id")
        if isinstance(known, str):
            return [known]
    calls = _last_tool_calls(state)
    used: set[int] = set()
    ids: list[str | None] = []
    for action in review.actions:
        match = next((index for index, call in enumerate(calls) if index not in used
                      and call.get("name") == action.tool and call.get("args") == action.args), None)
        if match is not None:
            used.add(match)
        ids.append(calls[match].get("id") if match is not None else None)
    return ids


def hitl_edit_notice(graph: Any) -> str:
    """The text HumanInTheLoopMiddleware prepends to an edited call's result (``edit_notice``), or ``""``.

    Read from the middleware behind the graph's ``HumanInTheLoopMiddleware.after_model`` node
    (``create_agent`` binds that node to the middleware's method, langchain 1.5.2); ``""`` when
    it cannot be found or the notice is switched off (``edit_notice=None``).
    """
    nodes = getattr(graph, "nodes", None)
    for name, node in (nodes.items() if isinstance(nodes, Mapping) else ()):
        if str(name).startswith("HumanInTheLoopMiddleware"):
            middleware = getattr(getattr(getattr(node, "bound", None), "func", None), "__self__", None)
            notice = getattr(middleware, "edit_notice", None)
            return notice if isinstance(notice, str) else ""
    return ""


def ignored_decisions(review: Review, sent: Sequence[dict], ids: Sequence[str | None],
                      state: Mapping[str, Any] | None, edit_notice: str = "") -> list[str]:
    """The reject, respond and edit decisions the middleware did not apply, as one line each.

    HumanInTheLoopMiddleware (langchain 1.5.2) marks the ToolMessage it writes for a reject or
    respond (``additional_kwargs["lc_data"]["decision"]``) and starts an edited call's result with
    its ``edit_notice``. A call rejected by the panel whose answer lacks that mark was run by its
    tool; an edited call whose result lacks the notice ran with the model's own arguments: on
    resume the middleware evaluates its ``when`` predicate again, and when it no longer gates the
    call, the decision is never read. Edits are checked only when ``edit_notice`` is known.
    """
    messages = state.get("messages") if isinstance(state, Mapping) else None
    answers = {getattr(m, "tool_call_id", None): m for m in (messages if isinstance(messages, list) else [])
               if getattr(m, "type", None) == "tool"}
    lines = []
    for action, decision, call_id in zip(review.actions, sent, ids):
        kind = decision.get("type")
        if call_id is None or call_id not in answers or kind not in ("reject", "respond", "edit"):
            continue
        text = str(getattr(answers[call_id], "content", ""))
        if kind == "edit":
            if not edit_notice or edit_notice in text:
                continue
            line = _("{action} ({subject}): the edit was not applied and the tool ran with the model's own "
                     "arguments (its result: {result})")
        else:
            marked = (getattr(answers[call_id], "additional_kwargs", None) or {}).get("lc_data") or {}
            if marked.get("decision") == kind:
                continue
            line = _("{action} ({subject}): the {decision} was not applied and the tool ran (its result: {result})")
        lines.append(line.format(action=action.label, subject=about((action.args or {}).get("order_id", action.tool)),
                                 decision=kind, result=shorten(sendable(text), 200)))
    return lines
