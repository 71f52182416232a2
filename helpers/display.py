"""Display helpers: message traces, sequence and graph diagrams, state diffs, expected errors.

Each ``*_markdown`` / ``*_text`` function returns a string (tested directly); each ``show_*``
function displays it in Jupyter as Markdown. All output is deterministic: message ids that
LangGraph fills with random UUIDs are never shown; tool call ids (which the scripted model
makes deterministic) are.

Graph diagrams use ``graph.get_graph().draw_mermaid()`` text, rendered by JupyterLab from a
fenced ``mermaid`` block; ``draw_mermaid_png`` is never used because it calls a web service.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

__all__ = [
    "ADDRESS_PATTERN",
    "ErrorReport",
    "expect_error",
    "format_error",
    "graph_mermaid",
    "sequence_diagram",
    "show",
    "show_error",
    "show_graph",
    "show_sequence",
    "show_state_diff",
    "show_trace",
    "state_diff",
    "state_diff_markdown",
    "trace_markdown",
    "trace_rows",
]

_ROLE = {HumanMessage: "human", AIMessage: "ai", ToolMessage: "tool", SystemMessage: "system"}


def _role(message: BaseMessage) -> str:
    for cls, name in _ROLE.items():
        if isinstance(message, cls):
            return name
    return message.type


def _short(value: Any, limit: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cell(text: str) -> str:
    return text.replace("|", "\\|") or " "


def _calls_text(message: AIMessage) -> str:
    parts = [f"{c['name']}({_short(c['args'], 40)}) id={c['id']}" for c in message.tool_calls]
    parts += [f"INVALID {c['name']}({_short(c.get('args') or '', 30)}) id={c['id']}" for c in message.invalid_tool_calls]
    return "; ".join(parts)


def trace_rows(messages: Sequence[BaseMessage], *, limit: int = 70) -> list[dict[str, str]]:
    """One row per message: ``{"#", "role", "content", "tool calls / answers"}``.

    Args:
        messages: a message list, e.g. ``result["messages"]``.
        limit: content is shortened to this many characters.

    Returns:
        rows of strings; the last column lists an AIMessage's tool calls (name, args, id)
        or the ``tool_call_id`` and ``status`` a ToolMessage answers.
    """
    rows = []
    for number, message in enumerate(messages, start=1):
        link = ""
        if isinstance(message, AIMessage):
            link = _calls_text(message)
        elif isinstance(message, ToolMessage):
            link = f"answers {message.tool_call_id}" + (" (status=error)" if message.status == "error" else "")
        rows.append({"#": str(number), "role": _role(message), "content": _short(message.content, limit),
                     "tool calls / answers": link})
    return rows


def trace_markdown(messages: Sequence[BaseMessage], *, limit: int = 70) -> str:
    """The trace as a Markdown table (see :func:`trace_rows`)."""
    rows = trace_rows(messages, limit=limit)
    header = ["#", "role", "content", "tool calls / answers"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(row[h]) for h in header) + " |" for row in rows]
    return "\n".join(lines)


def sequence_diagram(messages: Sequence[BaseMessage], *, limit: int = 40) -> str:
    """A mermaid ``sequenceDiagram`` of a trace: User, App, Model and Tools as participants.

    A human message goes User->App->Model; a reply's tool calls Model->App (one arrow listing
    all calls of that reply), then App->Tools once per call; each
    ToolMessage Tools->App; before the model's next turn the App sends the history with the
    ToolMessages back to the Model; a text answer goes Model->App->User. Arrows name the
    ``tool_call_id`` that pairs a call with its result.

    Returns:
        mermaid source (without the surrounding code fence).
    """

    def label(text: str) -> str:
        return re.sub(r"[;#<>{}\"`]", "", _short(text, limit)).strip() or "(empty)"

    def args_text(args: Any) -> str:
        if isinstance(args, dict):
            return ", ".join(f"{k}={v}" for k, v in args.items())
        return str(args)

    lines = ["sequenceDiagram", "    participant U as User", "    participant A as App",
             "    participant M as Model", "    participant T as Tools"]
    results_pending = 0  # ToolMessages the model has not seen yet
    for message in messages:
        if isinstance(message, SystemMessage):
            lines.append(f"    Note over A,M: system prompt: {label(str(message.content))}")
        elif isinstance(message, HumanMessage):
            lines.append(f"    U->>A: {label(str(message.content))}")
            lines.append("    A->>M: messages + tool schemas")
            results_pending = 0
        elif isinstance(message, AIMessage):
            if results_pending:
                s = "" if results_pending == 1 else "s"
                lines.append(f"    A->>M: history + {results_pending} ToolMessage{s}")
                results_pending = 0
            text = message.text if hasattr(message, "text") else str(message.content)
            if text:
                lines.append(f"    M-->>A: {label(text)}")
            calls = [f"{c['name']} tool_call_id={c['id']}" for c in message.tool_calls]
            calls += [f"INVALID {c['name']} tool_call_id={c['id']}" for c in message.invalid_tool_calls]
            if calls:  # one reply may hold several calls: one arrow for the reply, then one run per call
                s = "" if len(calls) == 1 else "s"
                lines.append(f"    M-->>A: {len(calls)} tool call{s}: " + ", ".join(calls))
            for call in message.tool_calls:
                lines.append(f"    A->>T: run {call['name']}({label(args_text(call['args']))})")
            if text and not message.tool_calls and not message.invalid_tool_calls:
                lines.append("    A->>U: answer")
        elif isinstance(message, ToolMessage):
            status = " (error)" if message.status == "error" else ""
            lines.append(f"    T-->>A: ToolMessage tool_call_id={message.tool_call_id}{status}: {label(str(message.content))}")
            results_pending += 1
    return "\n".join(lines)


def graph_mermaid(graph: Any, *, xray: bool = False) -> str:
    """Mermaid text of a compiled graph: ``graph.get_graph(xray=xray).draw_mermaid()`` (langgraph 1.2)."""
    return graph.get_graph(xray=xray).draw_mermaid()


def _fenced_mermaid(source: str) -> str:
    return "```mermaid\n" + source.rstrip() + "\n```"


def show(markdown: str) -> None:
    """Display a Markdown string in Jupyter (``text/markdown`` output)."""
    from IPython.display import Markdown, display

    display(Markdown(markdown))


def show_trace(messages: Sequence[BaseMessage], *, limit: int = 70) -> None:
    """Display :func:`trace_markdown`."""
    show(trace_markdown(messages, limit=limit))


def show_sequence(messages: Sequence[BaseMessage], *, limit: int = 40) -> None:
    """Display :func:`sequence_diagram` as a rendered mermaid diagram."""
    show(_fenced_mermaid(sequence_diagram(messages, limit=limit)))


def show_graph(graph: Any, *, xray: bool = False) -> None:
    """Display a compiled graph as a mermaid diagram (no PNG, no web service)."""
    show(_fenced_mermaid(graph_mermaid(graph, xray=xray)))


# -- state diffs ----------------------------------------------------------------------------


def _value_text(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(m, BaseMessage) for m in value):
        return f"{len(value)} message{'' if len(value) == 1 else 's'}"
    return _short(value if isinstance(value, str) else _ADDRESS.sub("", repr(value)), 60)


def state_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """Compare two state snapshots key by key.

    Args:
        before, after: state dicts (e.g. ``graph.get_state(cfg).values``).

    Returns:
        ``[(key, change, before_text, after_text), ...]`` sorted by key, where change is
        ``"added"``, ``"removed"`` or ``"changed"``; unchanged keys are left out. Message
        lists are summarised as ``"N messages"``.
    """
    rows = []
    for key in sorted(set(before) | set(after)):
        if key not in before:
            rows.append((key, "added", "", _value_text(after[key])))
        elif key not in after:
            rows.append((key, "removed", _value_text(before[key]), ""))
        elif before[key] != after[key]:
            rows.append((key, "changed", _value_text(before[key]), _value_text(after[key])))
    return rows


def state_diff_markdown(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """:func:`state_diff` as a Markdown table (``no changes`` if equal)."""
    rows = state_diff(before, after)
    if not rows:
        return "_no changes_"
    lines = ["| key | change | before | after |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(_cell(part) for part in row) + " |" for row in rows]
    return "\n".join(lines)


def show_state_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    """Display :func:`state_diff_markdown`."""
    show(state_diff_markdown(before, after))


# -- expected errors ------------------------------------------------------------------------

_PATH = re.compile(r"(?<![\w:/.])(?:/[\w.\-+@~]+){2,}/([\w.\-+@~]+)")
_WINDOWS_PATH = re.compile(r"(?:\b[A-Za-z]:|\\\\[\w.\-]+)(?:[\\/][\w.\-+@~ ]+?)*[\\/]([\w.\-+@~]+\.\w+)")
#: `` at 0x7f...`` in reprs: a memory address, different on every run (never show it).
ADDRESS_PATTERN = re.compile(r" at 0x[0-9a-fA-F]+")
_ADDRESS = ADDRESS_PATTERN


def format_error(exc: BaseException) -> str:
    """``Type: message`` with machine paths reduced to file names and memory addresses removed."""
    text = f"{type(exc).__name__}: {exc}"
    text = _WINDOWS_PATH.sub(lambda m: m.group(1), text)
    text = _PATH.sub(lambda m: m.group(1), text)
    return _ADDRESS.sub("", text)


class ErrorReport:
    """Result of :func:`expect_error`: ``error`` is the caught exception, or ``None``."""

    def __init__(self) -> None:
        self.error: BaseException | None = None


def _report(error: BaseException | None, expected: tuple[type[BaseException], ...], result: Any = None) -> None:
    if error is None:
        print("!!! NO ERROR WAS RAISED !!!")
        print(f"!!! This cell expected an exception, but the call returned: {_short(repr(result), 120)}")
        print("!!! The pinned library may have changed behaviour: check the claim above.")
    elif expected and not isinstance(error, expected):
        names = ", ".join(e.__name__ for e in expected)
        print(f"!!! UNEXPECTED ERROR TYPE (expected {names}) !!!")
        print(format_error(error))
    else:
        print(format_error(error))


def show_error(func: Callable[..., Any], *args: Any, expected: type[BaseException] | tuple = Exception,
               **kwargs: Any) -> None:
    """Call ``func(*args, **kwargs)`` and print the error it raises as ``Type: message``.

    No traceback and no machine paths are printed. If nothing is raised, a loud
    ``!!! NO ERROR WAS RAISED !!!`` banner is printed instead (so nbval fails when a pinned
    library stops raising).

    Args:
        func: the callable expected to raise.
        expected: exception type(s) the cell expects; another type is printed with an
            ``UNEXPECTED ERROR TYPE`` banner.

    Returns:
        ``None`` (so nothing more is displayed); use :func:`expect_error` to keep the
        exception. ``KeyboardInterrupt`` and ``SystemExit`` are not caught.
    """
    expected_types = expected if isinstance(expected, tuple) else (expected,)
    try:
        result = func(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - showing any error is the point
        _report(exc, expected_types)
        return None
    _report(None, expected_types, result)
    return None


@contextlib.contextmanager
def expect_error(expected: type[BaseException] | tuple = Exception) -> Iterator[ErrorReport]:
    """Context-manager form of :func:`show_error` for multi-line code.

    Example:
        >>> with expect_error(ValueError) as caught:
        ...     int("x")
        ValueError: invalid literal for int() with base 10: 'x'
    """
    expected_types = expected if isinstance(expected, tuple) else (expected,)
    report = ErrorReport()
    try:
        yield report
    except Exception as exc:  # noqa: BLE001
        report.error = exc
        _report(exc, expected_types)
    else:
        _report(None, expected_types, "(the block finished)")
