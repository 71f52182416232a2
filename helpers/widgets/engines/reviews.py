"""Reading a pause: what one pending interrupt asks a reviewer to decide (no ipywidgets).

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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ...i18n import _
from ..text import sendable, shorten

__all__ = ["DECISIONS", "HITL_DESCRIPTION_PREFIX", "PLAIN_DECISIONS", "SAFE_PLAIN_DECISIONS", "Decision", "Review", "ReviewAction", "ReviewKind", "read_review"]

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
