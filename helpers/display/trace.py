"""Display helpers: message traces, sequence and graph diagrams, state diffs, expected errors.

Each ``*_markdown`` / ``*_text`` function returns a string (tested directly); each ``show_*``
function displays it in Jupyter as Markdown. All output is deterministic: message ids that
LangGraph fills with random UUIDs are never shown; tool call ids (which the scripted model
makes deterministic) are. Text from messages, tools and states is escaped with
:func:`markdown_text` before it goes into Markdown, so a reply holding ``<!--``, ``<b>`` or
``![x](http://...)`` shows as those characters and never hides output or fetches a remote image.

Graph diagrams use ``graph.get_graph().draw_mermaid()`` text, rendered by JupyterLab from a
fenced ``mermaid`` block; ``draw_mermaid_png`` is never used because it calls a web service.

The display is four modules, one job each; every public name is importable from :mod:`helpers.display`:

* :mod:`helpers.display.text`: safe text, Markdown escaping, :func:`show`, and printed rows that
  fit the output width (:func:`fit_row`);
* :mod:`helpers.display.state`: state diffs;
* :mod:`helpers.display.errors`: expected errors (:func:`format_error`, :func:`show_error`,
  :func:`expect_error`);
* this module: message traces, sequence diagrams and graph diagrams.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.types import GraphOutput, StateSnapshot

from .errors import ErrorReport, expect_error, format_error, show_error
from .state import show_state_diff, state_diff, state_diff_markdown
from .text import (
    ADDRESS_PATTERN,
    OUTPUT_WIDTH,
    _cell,
    _short,
    _type_name,
    fit_row,
    markdown_text,
    safe_repr,
    show,
    text_width,
)
from ..i18n import N_, _, ngettext

__all__ = [
    "ADDRESS_PATTERN",
    "ErrorReport",
    "OUTPUT_WIDTH",
    "as_messages",
    "expect_error",
    "fit_row",
    "format_error",
    "graph_mermaid",
    "markdown_text",
    "sequence_diagram",
    "show",
    "show_error",
    "show_graph",
    "show_sequence",
    "show_state_diff",
    "show_trace",
    "safe_repr",
    "state_diff",
    "state_diff_markdown",
    "text_width",
    "trace_markdown",
    "trace_rows",
]

_ROLE = {HumanMessage: "human", AIMessage: "ai", ToolMessage: "tool", SystemMessage: "system"}


def _role(message: BaseMessage) -> str:
    for cls, name in _ROLE.items():
        if isinstance(message, cls):
            return name
    return message.type


def _calls_text(message: AIMessage) -> str:
    parts = [f"{c['name']}({_short(c['args'], 40)}) id={c['id']}" for c in message.tool_calls]
    parts += [f"INVALID {c['name']}({_short(c.get('args') or '', 30)}) id={c['id']}" for c in message.invalid_tool_calls]
    return "; ".join(parts)


#: What the trace and diagram functions accept, for their error messages.
_TRACE_INPUT = ('a list of messages (e.g. result["messages"]), a state dict with a "messages" key, '
                'a GraphOutput (invoke(..., version="v2")) or a StateSnapshot (graph.get_state(config))')



def as_messages(value: Any, *, who: str = "trace_markdown") -> list[BaseMessage]:
    """The message list held by ``value``, whichever of the usual shapes it comes in.

    Accepted shapes (langgraph 1.2): a list or tuple of messages; one message; a state mapping with
    a ``"messages"`` key (``agent.invoke(...)``); a ``GraphOutput`` (``invoke(..., version="v2")``:
    its ``.value``); a ``StateSnapshot`` (``graph.get_state(config)``: its ``.values``); an object
    with a ``messages`` attribute (a Pydantic or dataclass state).

    Args:
        value: one of the shapes above.
        who: the calling function's name, for the error message.

    Returns:
        the messages, in order (a new list).

    Raises:
        TypeError: ``value`` is none of these shapes, a state has no ``messages``, or an element is
            not a message; the message says what was given and what is expected.
    """
    original = value
    if isinstance(value, GraphOutput):
        value = value.value
    elif isinstance(value, StateSnapshot):
        value = value.values
    if isinstance(value, BaseMessage):
        return [value]
    if isinstance(value, Mapping):
        if "messages" not in value:
            keys = ", ".join(safe_repr(k, 40) for k in list(value)[:8]) or "none"
            shape = "state dict with" if original is value else f"{_type_name(original)} whose state has"
            raise TypeError(f"{who}() got a {shape} no \"messages\" key (its keys: {keys}); "
                            f"it wants {_TRACE_INPUT}")
        value = value["messages"]
    elif not isinstance(value, (list, tuple)) and isinstance(getattr(value, "messages", None), (list, tuple)):
        value = value.messages
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{who}() got {_type_name(original)}; it wants {_TRACE_INPUT}")
    for index, item in enumerate(value):
        if not isinstance(item, BaseMessage):
            raise TypeError(f"{who}() got a list whose item {index} is {_type_name(item)}, not a message "
                            f"(HumanMessage, AIMessage, ToolMessage, ...); it wants {_TRACE_INPUT}")
    return list(value)


def _readable(message: BaseMessage) -> Any:
    """What a reader wants to see of ``message``'s content: the text itself for a list of content blocks
    (an MCP tool's result, a Responses reply: ``BaseMessage.text``, langchain-core 1.x, joins their text
    blocks), so JSON inside the text is not escaped a second time; the content as it is otherwise (a
    string, or a list with no text, shown as JSON)."""
    if isinstance(message.content, list):
        try:
            text = message.text
        except Exception:  # noqa: BLE001 - a malformed block list is shown as it is
            return message.content
        return text or message.content
    return message.content


def trace_rows(messages: Any, *, limit: int = 70) -> list[dict[str, str]]:
    """One row per message: ``{"#", "role", "content", "tool calls / answers"}``.

    Args:
        messages: a message list, e.g. ``result["messages"]``, or any shape :func:`as_messages`
            accepts (a state dict, a ``GraphOutput``, a ``StateSnapshot``).
        limit: content is shortened to this many characters.

    Returns:
        rows of strings; the last column lists an AIMessage's tool calls (name, args, id)
        or the ``tool_call_id`` and ``status`` a ToolMessage answers.

    Raises:
        TypeError: ``messages`` is not one of the accepted shapes (see :func:`as_messages`).
    """
    rows = []
    for number, message in enumerate(as_messages(messages, who="trace_rows"), start=1):
        link = ""
        if isinstance(message, AIMessage):
            link = _calls_text(message)
        elif isinstance(message, ToolMessage):
            link = (_("answers {id} (status=error)") if message.status == "error"
                    else _("answers {id}")).format(id=message.tool_call_id)
        rows.append({"#": str(number), "role": _role(message), "content": _short(_readable(message), limit),
                     "tool calls / answers": link})
    return rows


#: The trace table's column titles as shown (the row keys of :func:`trace_rows` stay English).
_TRACE_HEADER = {"#": "#", "role": N_("role"), "content": N_("content"),
                 "tool calls / answers": N_("tool calls / answers")}


def trace_markdown(messages: Any, *, limit: int = 70) -> str:
    """The trace as a Markdown table (see :func:`trace_rows`; the same shapes are accepted)."""
    rows = trace_rows(as_messages(messages, who="trace_markdown"), limit=limit)
    header = ["#", "role", "content", "tool calls / answers"]
    lines = ["| " + " | ".join(_(_TRACE_HEADER[h]) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(row[h]) for h in header) + " |" for row in rows]
    return "\n".join(lines)


def sequence_diagram(messages: Any, *, limit: int = 36) -> str:
    """A mermaid ``sequenceDiagram`` of a trace: User, App, Model and Tools as participants.

    A human message goes User->App, then App->Model with the tool schemas; a reply's tool calls go
    Model->App as one arrow listing the reply's call ids (one reply may hold several calls), then
    App->Tools once per call; each ToolMessage goes Tools->App; before the model's next turn the App
    sends the history with those ToolMessages back to the Model; a text answer goes Model->App->User.
    Every arrow of a call or a result names the ``tool_call_id`` that pairs them.

    Labels are kept short because mermaid (as bundled with JupyterLab 4.6) widens the gap between
    two *neighbouring* participants to fit their longest label and then scales the whole drawing
    down to the page: at 1280 px an old 80-character label rendered the text of notebook 02's
    diagram below 9 px. So User-App labels hold at most 28 characters, App-Model labels at most
    ``limit`` (and 40 for the tool-call arrow); App-Tools labels span the Model's lifeline and widen
    no gap, so they may be longer. A tool call whose ``name(key=value, ...)`` is longer than 36 characters
    is shown with its values only (``submit_refund_request(A1030, 120.0)``), so an amount is not cut
    off. Empty input gives a diagram with a "no messages" note, never a
    silently empty one.

    Args:
        messages: a message list or any shape :func:`as_messages` accepts.
        limit: characters of message content shown per arrow.

    Returns:
        mermaid source (without the surrounding code fence).

    Raises:
        TypeError: ``messages`` is not one of the accepted shapes (see :func:`as_messages`).
    """
    messages = as_messages(messages, who="sequence_diagram")

    def label(text: str, size: int = limit) -> str:
        return re.sub(r"[;#<>{}\"`]", "", _short(text, size)).strip() or "(empty)"

    def args_text(args: Any) -> str:
        if isinstance(args, dict):
            return ", ".join(f"{k}={v}" for k, v in args.items())
        return str(args)

    lines = ["sequenceDiagram", "    participant U as " + _("User"), "    participant A as " + _("App"),
             "    participant M as " + _("Model"), "    participant T as " + _("Tools")]
    if not messages:
        lines.append("    Note over U,T: " + _("no messages"))
    results_pending = 0  # ToolMessages the model has not seen yet
    for message in messages:
        if isinstance(message, SystemMessage):
            lines.append(f"    Note over A,M: system: {label(str(message.content), limit - 8)}")
        elif isinstance(message, HumanMessage):
            lines.append(f"    U->>A: {label(str(message.content), 28)}")
            lines.append("    A->>M: " + _("messages + tool schemas"))
            results_pending = 0
        elif isinstance(message, AIMessage):
            if results_pending:
                lines.append("    A->>M: " + ngettext("history + {n} ToolMessage", "history + {n} ToolMessages",
                                                    results_pending).format(n=results_pending))
                results_pending = 0
            text = message.text if hasattr(message, "text") else str(message.content)
            if text:
                lines.append(f"    M-->>A: {label(text)}")
            calls = [(c["id"], c["name"], "") for c in message.tool_calls]
            calls += [(c["id"], c["name"] or "?", " " + _("invalid")) for c in message.invalid_tool_calls]
            if len(calls) == 1:
                call_id, name, bad = calls[0]
                arrow = _("tool call {id}{invalid}: {name}").format(id=call_id, invalid=bad, name=name)
                lines.append(f"    M-->>A: {label(arrow, 40)}")
            elif calls:  # one reply, several calls: one arrow for the reply, then one run per call
                ids = ", ".join(f"{call_id}{bad}" for call_id, _name, bad in calls)
                arrow = _("{n} tool calls: {ids}").format(n=len(calls), ids=ids)
                lines.append(f"    M-->>A: {label(arrow, 40)}")
            for call in message.tool_calls:
                call_text = f"{call['name']}({args_text(call['args'])})"
                if len(call_text) > 36 and isinstance(call["args"], dict):  # values only, so amounts show
                    call_text = f"{call['name']}({', '.join(str(v) for v in call['args'].values())})"
                lines.append("    A->>T: " + _("run {id} {call}").format(id=label(str(call["id"]), 14),
                                                                     call=label(call_text, 36)))
            if text and not message.tool_calls and not message.invalid_tool_calls:
                lines.append("    A->>U: " + _("answer"))
        elif isinstance(message, ToolMessage):
            status = " error" if message.status == "error" else ""
            lines.append(f"    T-->>A: ToolMessage {label(str(message.tool_call_id), 14)}{status}: "
                         f"{label(str(message.content), 30)}")
            results_pending += 1
    return "\n".join(lines)


def graph_mermaid(graph: Any, *, xray: bool = False) -> str:
    """Mermaid text of a compiled graph: ``graph.get_graph(xray=xray).draw_mermaid()`` (langgraph 1.2)."""
    return graph.get_graph(xray=xray).draw_mermaid()


def _fenced_mermaid(source: str) -> str:
    return "```mermaid\n" + source.rstrip() + "\n```"


def show_trace(messages: Any, *, limit: int = 70) -> None:
    """Display :func:`trace_markdown` (a message list, state dict, ``GraphOutput`` or ``StateSnapshot``)."""
    show(trace_markdown(as_messages(messages, who="show_trace"), limit=limit))


def show_sequence(messages: Any, *, limit: int = 36) -> None:
    """Display :func:`sequence_diagram` as a rendered mermaid diagram (same shapes as :func:`as_messages`)."""
    show(_fenced_mermaid(sequence_diagram(as_messages(messages, who="show_sequence"), limit=limit)))


def show_graph(graph: Any, *, xray: bool = False) -> None:
    """Display a compiled graph as a mermaid diagram (no PNG, no web service)."""
    show(_fenced_mermaid(graph_mermaid(graph, xray=xray)))
