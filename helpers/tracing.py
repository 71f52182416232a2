"""A callback handler that records each protocol step of an agent run, offline (notebook 17).

:class:`ProtocolTrace` is a ``langchain_core`` ``BaseCallbackHandler``: pass it with
``agent.invoke(..., config={"callbacks": [trace]})``. It records, as :class:`TraceEvent` rows:

* ``model_request``: ``on_chat_model_start``, with the names of the tools bound to that request
  (``invocation_params["tools"]``, the OpenAI-format schemas ``bind_tools`` produced);
* ``model_reply``: ``on_llm_end``, with the reply's tool calls as ``(name, tool_call_id)``;
* ``tool_start``: ``on_tool_start``, whose keyword ``tool_call_id`` names the call
  (langchain-core 1.x, ``tools/base.py``, ``BaseTool.run``);
* ``tool_end``: ``on_tool_end``. Its keywords carry **no** ``tool_call_id``: the id is read from the
  ``ToolMessage`` it receives as ``output`` (a ``Command``'s ToolMessage is found in its update), or,
  failing that, from the ``tool_start`` of the same ``run_id``;
* ``tool_error``: ``on_tool_error``, whose keywords carry ``tool_call_id`` again;
* ``model_error``: ``on_llm_error``, a model request that raised (the provider refused it, timed out, ...).

A failed step is marked with its **protocol step** (:data:`FailureStep`, :func:`failure_step`): the model
request itself, the call's arguments (a schema the arguments do not fit, or arguments that are not JSON:
the reply's ``invalid_tool_calls``), the tool's execution (it raised, or answered with an error ToolMessage),
or the result pairing (a request refused because a call has no answer, or an answer no call). Where the
error object is at hand (a raised exception) it decides; :func:`failure_breakdown` sums the steps over
several runs.

Parallel tool calls run in threads and their events arrive in a changing order; :meth:`ProtocolTrace.steps`
gives a deterministic view (the tool events of one model turn in the order of the model's calls).
:func:`trace_mermaid` draws that view as a mermaid ``sequenceDiagram``; :func:`tool_stats` counts calls,
errors and latencies (mean and 95th percentile) per tool over several traces. Nothing here talks to LangSmith.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import ToolMessage

from .i18n import _

__all__ = ["FAILURE_STEPS", "EventKind", "FailureStep", "ProtocolTrace", "ToolStats", "TraceEvent",
           "failure_breakdown", "failure_step", "tool_stats", "trace_mermaid"]

EventKind = Literal["model_request", "model_reply", "model_error", "tool_start", "tool_end", "tool_error"]
#: The protocol step a failure belongs to, in the order a tool call passes them.
FailureStep = Literal["model_request", "arguments", "execution", "result_pairing"]
FAILURE_STEPS: tuple[FailureStep, ...] = ("model_request", "arguments", "execution", "result_pairing")
#: The course's provider rules about pairing (helpers.model.rules.ProviderRule values).
_PAIRING_RULES = {"unanswered_tool_call", "orphan_tool_message", "duplicate_tool_message", "duplicate_tool_call_id"}
#: What a provider's 400 about pairing says (OpenAI chat.completions and Responses API, Anthropic).
_PAIRING_WORDS = re.compile(r"tool_call_id|tool_use_id|tool_result|function call output|tool output found")


@dataclass(frozen=True)
class TraceEvent:
    """One protocol step.

    Attributes:
        kind: which step (see the module docstring).
        name: the tool's name for tool events, ``"model"`` for model events.
        tool_call_id: the call a tool event belongs to (``None`` for model events).
        tools: the tool names bound to a ``model_request``.
        calls: ``(name, tool_call_id)`` of each tool call in a ``model_reply``.
        detail: a short text: the result's text (``tool_end``: ``ToolMessage.text``, so an MCP
            result's text blocks without their ids), the error (``tool_error``),
            the arguments (``tool_start``), the reply's text (``model_reply``).
        status: ``"success"`` or ``"error"`` for ``tool_end`` (the ToolMessage's status), else ``""``.
        at: the clock's reading when the event was recorded (seconds).
        failure: the protocol step that failed here (``None``: nothing failed); see :func:`failure_step`.
        invalid: ``(name, tool_call_id)`` of each call in a ``model_reply`` whose arguments were not JSON
            (``AIMessage.invalid_tool_calls``): no tool runs for them.
    """

    kind: EventKind
    name: str
    tool_call_id: str | None = None
    tools: tuple[str, ...] = ()
    calls: tuple[tuple[str, str], ...] = ()
    detail: str = ""
    status: str = ""
    at: float = 0.0
    failure: FailureStep | None = None
    invalid: tuple[tuple[str, str], ...] = ()


def failure_step(error: BaseException, *, where: Literal["model", "tool"]) -> FailureStep:
    """The protocol step an exception belongs to.

    Args:
        error: what a model request or a tool run raised.
        where: ``"model"`` for ``on_llm_error``, ``"tool"`` for ``on_tool_error``.

    Returns:
        for a model request: ``"result_pairing"`` when the provider refused the history's pairing (the scripted
        model's :class:`helpers.model.ProviderRuleError` with a pairing rule, or a provider 400 that names
        ``tool_call_id`` / ``tool_use_id`` / a function call output), else ``"model_request"``; for a tool run:
        ``"arguments"`` when the arguments did not fit the tool's schema (pydantic ``ValidationError``, raised by
        ``BaseTool.run`` while it parses the input, langchain-core 1.x), else ``"execution"``.
    """
    if where == "tool":
        from pydantic import ValidationError

        return "arguments" if isinstance(error, ValidationError) else "execution"
    rule = getattr(error, "rule", None)
    if rule in _PAIRING_RULES or (rule is None and _PAIRING_WORDS.search(str(error))):
        return "result_pairing"
    return "model_request"


def _tool_message(output: Any) -> ToolMessage | None:
    """The ToolMessage a tool returned: itself, or the one inside a ``Command``'s update."""
    if isinstance(output, ToolMessage):
        return output
    update = getattr(output, "update", None)
    messages = update.get("messages", []) if isinstance(update, Mapping) else []
    return next((m for m in messages if isinstance(m, ToolMessage)), None)


class ProtocolTrace(BaseCallbackHandler):
    """Records the protocol steps of a run as :class:`TraceEvent` rows (thread-safe).

    Args:
        clock: returns the time in seconds; default ``time.perf_counter``. Pass a fake clock to get
            latencies that are the same on every run.

    Attributes:
        events: the events in the order they arrived (parallel tool calls: in a changing order).
    """

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        import time

        self.events: list[TraceEvent] = []
        self._clock = clock or time.perf_counter
        self._lock = threading.Lock()
        self._calls: dict[UUID, tuple[str, str | None]] = {}  # run_id -> (tool, tool_call_id)

    def _add(self, event: TraceEvent) -> None:
        with self._lock:
            self.events.append(event)

    def _at(self) -> float:
        return float(self._clock())

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any) -> None:
        tools = (kwargs.get("invocation_params") or {}).get("tools") or []
        names = tuple(t.get("function", t).get("name", "?") for t in tools if isinstance(t, Mapping))
        self._add(TraceEvent("model_request", "model", tools=names, detail=f"{len(messages[0])} messages",
                             at=self._at()))

    def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        message = getattr(response.generations[0][0], "message", None)
        calls = tuple((c["name"], c["id"]) for c in getattr(message, "tool_calls", []))
        invalid = tuple((c.get("name") or "?", c.get("id") or "?") for c in getattr(message, "invalid_tool_calls", []))
        self._add(TraceEvent("model_reply", "model", calls=calls, detail=str(getattr(message, "content", "")),
                             at=self._at(), failure="arguments" if invalid else None, invalid=invalid))

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._add(TraceEvent("model_error", "model", detail=f"{type(error).__name__}: {error}", status="error",
                             at=self._at(), failure=failure_step(error, where="model")))

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: UUID, **kwargs: Any) -> None:
        name, call_id = (serialized or {}).get("name", "?"), kwargs.get("tool_call_id")
        with self._lock:
            self._calls[run_id] = (name, call_id)
        self._add(TraceEvent("tool_start", name, call_id, detail=str(kwargs.get("inputs", input_str)),
                             at=self._at()))

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        name, call_id = self._calls.get(run_id, ("?", None))
        message = _tool_message(output)
        if message is not None:  # the end event carries the id only inside the ToolMessage
            call_id = message.tool_call_id
        status = message.status if message is not None else "success"
        detail = message.text if message is not None else str(output)  # text blocks, no block ids
        self._add(TraceEvent("tool_end", name, call_id, detail=detail, status=status, at=self._at(),
                             failure="execution" if status == "error" else None))

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        name, start_id = self._calls.get(run_id, ("?", None))
        call_id = kwargs.get("tool_call_id") or start_id
        self._add(TraceEvent("tool_error", name, call_id, detail=f"{type(error).__name__}: {error}",
                             status="error", at=self._at(), failure=failure_step(error, where="tool")))

    def steps(self) -> list[TraceEvent]:
        """The events in a deterministic order: each model turn, then its tool events grouped by call,
        in the order of the reply's tool calls (start, then end or error). Events of a call the reply did
        not name (none, on a correct run) come last in arrival order."""
        with self._lock:
            events = list(self.events)
        model = [e for e in events if e.kind.startswith("model_")]
        by_call: dict[str | None, list[TraceEvent]] = {}
        for event in events:
            if event.kind.startswith("tool_"):
                by_call.setdefault(event.tool_call_id, []).append(event)
        ordered: list[TraceEvent] = []
        for event in model:
            ordered.append(event)
            for _name, call_id in event.calls:
                ordered += by_call.pop(call_id, [])
        for rest in by_call.values():
            ordered += rest
        return ordered

    def reset(self) -> None:
        """Forget every event (reuse the handler for the next run)."""
        with self._lock:
            self.events.clear()
            self._calls.clear()


def _label(text: str, size: int) -> str:
    text = " ".join(str(text).split())
    text = text if len(text) <= size else text[: size - 3] + "..."
    return re.sub(r"[;#<>{}\"`]", "", text).strip() or "(empty)"


def trace_mermaid(events: Iterable[TraceEvent]) -> str:
    """A mermaid ``sequenceDiagram`` of trace events (give it :meth:`ProtocolTrace.steps`).

    Participants: Agent (the loop), Model, Tools. A request shows its bound tools, a reply its calls
    with their ids, each tool event its ``tool_call_id``; an error (of a tool or of a model request) is drawn
    with a cross (``--x``); a call with no tool event (answered by a middleware, e.g. refused or rejected)
    gets a note "no tool ran", a call whose arguments were not JSON a note saying so.

    Returns:
        mermaid source without the code fence (display it in a fenced ``mermaid`` block).
    """
    lines = ["sequenceDiagram", "    participant A as " + _("Agent"), "    participant M as " + _("Model"),
             "    participant T as " + _("Tools")]
    events = list(events)
    if not events:
        lines.append("    Note over A,T: " + _("no events"))
    ran = {e.tool_call_id for e in events if e.kind in ("tool_start", "tool_end", "tool_error")}
    for e in events:
        if e.kind == "model_request":
            tools = _label(", ".join(e.tools) or _("none"), 44)
            lines.append("    A->>M: " + _("request, tools: {tools}").format(tools=tools))
        elif e.kind == "model_error":
            lines.append("    M--xA: " + _("the request failed: {error}").format(error=_label(e.detail, 40)))
        elif e.kind == "model_reply":
            calls = ", ".join(f"{name} {call_id}" for name, call_id in e.calls)
            said = _("calls {calls}").format(calls=calls) if calls else e.detail or _("text")
            lines.append(f"    M-->>A: {_label(said, 44)}")
            for name, call_id in e.invalid:
                lines.append("    Note over A,T: " + _("{id} {name}: arguments are not JSON, no tool ran").format(
                    id=_label(call_id, 14), name=_label(name, 20)))
            for name, call_id in e.calls:
                if call_id not in ran:  # answered by a middleware (or not at all): the tool never ran
                    lines.append("    Note over A,T: " + _("{id} {name}: no tool ran").format(
                        id=_label(call_id, 14), name=_label(name, 20)))
        elif e.kind == "tool_start":
            lines.append(f"    A->>T: {_label(e.tool_call_id or '?', 14)} {_label(e.name + ' ' + e.detail, 40)}")
        elif e.kind == "tool_end":
            lines.append(f"    T-->>A: {_label(e.tool_call_id or '?', 14)} {e.status}: {_label(e.detail, 36)}")
        else:
            lines.append("    T--xA: " + _("{id} raised {error}").format(id=_label(e.tool_call_id or "?", 14),
                                                                     error=_label(e.detail, 36)))
    return "\n".join(lines)


@dataclass
class ToolStats:
    """Per-tool figures over several traces.

    Attributes:
        calls: tool runs started.
        errors: runs that ended in an error (an error ToolMessage or a raised exception).
        seconds: the latency of each finished run (end or error ``at`` minus start ``at``).
    """

    calls: int = 0
    errors: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def error_rate(self) -> float:
        """``errors / calls`` (0.0 when the tool was never called)."""
        return self.errors / self.calls if self.calls else 0.0

    @property
    def mean_seconds(self) -> float:
        """The mean latency in seconds (0.0 without a finished run)."""
        return sum(self.seconds) / len(self.seconds) if self.seconds else 0.0

    @property
    def p95_seconds(self) -> float:
        """The 95th percentile latency in seconds, by the nearest-rank method (the smallest latency that at
        least 95 % of the runs do not exceed; 0.0 without a finished run)."""
        if not self.seconds:
            return 0.0
        ranked = sorted(self.seconds)
        return ranked[max(0, -(-95 * len(ranked) // 100) - 1)]


def tool_stats(traces: Iterable[Iterable[TraceEvent]]) -> dict[str, ToolStats]:
    """``{tool name: ToolStats}`` over the events of several runs, joined by ``tool_call_id``.

    A tool with an error ``tool_end`` (e.g. a refusal the tool returned, or one a middleware made)
    and a ``tool_error`` both count as errors. Tools appear in the order they were first called.
    """
    stats: dict[str, ToolStats] = {}
    for events in traces:
        started: dict[str | None, TraceEvent] = {}
        for e in events:
            if e.kind == "tool_start":
                stats.setdefault(e.name, ToolStats()).calls += 1
                started[e.tool_call_id] = e
            elif e.kind in ("tool_end", "tool_error"):
                row = stats.setdefault(e.name, ToolStats())
                row.errors += e.status == "error"
                start = started.pop(e.tool_call_id, None)
                if start is not None:
                    row.seconds.append(round(e.at - start.at, 6))
    return stats


def failure_breakdown(traces: Iterable[Iterable[TraceEvent]]) -> dict[FailureStep, list[TraceEvent]]:
    """``{protocol step: the failed events}`` over several runs, every step of :data:`FAILURE_STEPS` present.

    A ``model_reply`` with calls that are not JSON counts once per such call (each one an ``arguments`` failure);
    every other failed event counts once. Steps are in protocol order; events in the order given.
    """
    found: dict[FailureStep, list[TraceEvent]] = {step: [] for step in FAILURE_STEPS}
    for events in traces:
        for event in events:
            if event.failure is not None:
                found[event.failure] += [event] * max(1, len(event.invalid))
    return found
