"""Display helpers: message traces, sequence and graph diagrams, state diffs, expected errors.

Each ``*_markdown`` / ``*_text`` function returns a string (tested directly); each ``show_*``
function displays it in Jupyter as Markdown. All output is deterministic: message ids that
LangGraph fills with random UUIDs are never shown; tool call ids (which the scripted model
makes deterministic) are. Text from messages, tools and states is escaped with
:func:`markdown_text` before it goes into Markdown, so a reply holding ``<!--``, ``<b>`` or
``![x](http://...)`` shows as those characters and never hides output or fetches a remote image.

Graph diagrams use ``graph.get_graph().draw_mermaid()`` text, rendered by JupyterLab from a
fenced ``mermaid`` block; ``draw_mermaid_png`` is never used because it calls a web service.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.types import GraphOutput, StateSnapshot

__all__ = [
    "ADDRESS_PATTERN",
    "ErrorReport",
    "as_messages",
    "expect_error",
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
    "trace_markdown",
    "trace_rows",
]

_ROLE = {HumanMessage: "human", AIMessage: "ai", ToolMessage: "tool", SystemMessage: "system"}


def _role(message: BaseMessage) -> str:
    for cls, name in _ROLE.items():
        if isinstance(message, cls):
            return name
    return message.type


def safe_repr(value: Any, limit: int | None = None) -> str:
    """``repr(value)`` without memory addresses, that never raises.

    Args:
        value: any object.
        limit: cut the text to this many characters (ending in ``…``); ``None`` keeps it whole.

    Returns:
        the repr with `` at 0x...`` removed; for an object whose ``__repr__`` raises (or returns
        something that is not a str), ``<a Foo whose repr raised RuntimeError>``.
        ``KeyboardInterrupt`` is never swallowed.
    """
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError("__repr__ returned a non-string")
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - a broken __repr__ must not break a display
        text = f"<{_a_type(value)} whose repr raised {type(error).__name__}>"
    text = _ADDRESS.sub("", text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def _a_type(value: Any) -> str:
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _safe_str(value: Any) -> str:
    """``str(value)``, or :func:`safe_repr` when ``__str__`` raises (``json.dumps`` fallback)."""
    try:
        text = str(value)
        if isinstance(text, str):
            return _ADDRESS.sub("", text)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a broken __str__ must not break a display
        pass
    return safe_repr(value)


def _short(value: Any, limit: int = 70) -> str:
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=_safe_str)
        except (TypeError, ValueError, RecursionError):  # NaN keys, a circular list, huge ints, ...
            text = safe_repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Markdown (CommonMark + GFM, as JupyterLab renders it with marked) and HTML that could make text
# render as something else. Escaped only where it would change the rendering, so plain text
# ("lookup_order", "Q&A", "3 < 4") stays exactly as it was.
_MD_BACKSLASH = re.compile(r"\\(?=[!-/:-@\[-`{-~])")        # a backslash that would escape the next character
_MD_ALWAYS = re.compile(r"([`*~$|])")                         # code spans, emphasis, strikethrough, math, table cells
_MD_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")  # emphasis (an underscore inside a word is text)
_MD_LINK_END = re.compile(r"\](?=[(\[])")                      # [text](url), ![alt](src), [text][ref]
_MD_BARE_URL = re.compile(r"\b((?:https?|ftp)):(?=//)|\b(www)\.(?=\w)", re.IGNORECASE)  # GFM autolinks
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")                      # <b>, </p>, <!-- ... -->, <?...>, <http://...>
_MD_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")               # &lt; &#60; would turn into a character
_MD_LINE_START = re.compile(r"^([#>+=-])|^(\d+)([.)])")         # headings, quotes, lists, rules, setext underlines


def markdown_text(text: str, *, cell: bool = False) -> str:
    """``text`` escaped so that Markdown (and HTML inside it) renders it as exactly this text.

    For one line of text inside a Markdown table cell or sentence (line breaks become spaces).
    Nothing in it can become an image (``![x](http://...)``: an offline course must never fetch a
    remote image), a link (``[x](url)``, ``<http://...>``, a bare ``http://`` or ``www.``), an HTML
    tag or comment (``<b>``, ``<!--`` that would hide the rest of the output), an entity (``&lt;``),
    emphasis, a code span, strikethrough, LaTeX math (``$...$``: JupyterLab typesets it) or a
    table column (``|``). Characters are escaped only where they would change the rendering, so
    ordinary text (``lookup_order``, ``Q&A``, ``3 < 4``) is returned unchanged.

    Args:
        text: the text to show (a non-str is turned into one with ``str``).
        cell: True for the text of a table cell, where block syntax (``#``, ``>``, ``1.``, ``-``)
            does not apply, so a leading character is left as it is.

    Returns:
        the escaped text (backslash escapes, ``&lt;`` and ``&amp;``), which renders as ``text``.
    """
    text = text if isinstance(text, str) else str(text)
    text = " ".join(text.splitlines())
    text = _MD_BACKSLASH.sub(r"\\\\", text)
    text = _MD_ALWAYS.sub(r"\\\1", text)
    text = _MD_UNDERSCORE.sub(r"\\_", text)
    text = _MD_LINK_END.sub(r"\\]", text)
    text = _MD_BARE_URL.sub(lambda m: f"{m.group(1)}\\:" if m.group(1) else f"{m.group(2)}\\.", text)
    text = _MD_ENTITY.sub("&amp;", text)
    text = _MD_TAG.sub("&lt;", text)
    if cell:
        return text
    return _MD_LINE_START.sub(lambda m: f"\\{m.group(1)}" if m.group(1) else f"{m.group(2)}\\{m.group(3)}", text)


def _cell(text: str) -> str:
    return markdown_text(text, cell=True) or " "


def _calls_text(message: AIMessage) -> str:
    parts = [f"{c['name']}({_short(c['args'], 40)}) id={c['id']}" for c in message.tool_calls]
    parts += [f"INVALID {c['name']}({_short(c.get('args') or '', 30)}) id={c['id']}" for c in message.invalid_tool_calls]
    return "; ".join(parts)


#: What the trace and diagram functions accept, for their error messages.
_TRACE_INPUT = ('a list of messages (e.g. result["messages"]), a state dict with a "messages" key, '
                'a GraphOutput (invoke(..., version="v2")) or a StateSnapshot (graph.get_state(config))')


def _type_name(value: Any) -> str:
    return type(value).__name__


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
            link = f"answers {message.tool_call_id}" + (" (status=error)" if message.status == "error" else "")
        rows.append({"#": str(number), "role": _role(message), "content": _short(message.content, limit),
                     "tool calls / answers": link})
    return rows


def trace_markdown(messages: Any, *, limit: int = 70) -> str:
    """The trace as a Markdown table (see :func:`trace_rows`; the same shapes are accepted)."""
    rows = trace_rows(as_messages(messages, who="trace_markdown"), limit=limit)
    header = ["#", "role", "content", "tool calls / answers"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
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

    lines = ["sequenceDiagram", "    participant U as User", "    participant A as App",
             "    participant M as Model", "    participant T as Tools"]
    if not messages:
        lines.append("    Note over U,T: no messages")
    results_pending = 0  # ToolMessages the model has not seen yet
    for message in messages:
        if isinstance(message, SystemMessage):
            lines.append(f"    Note over A,M: system: {label(str(message.content), limit - 8)}")
        elif isinstance(message, HumanMessage):
            lines.append(f"    U->>A: {label(str(message.content), 28)}")
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
            calls = [(c["id"], c["name"], "") for c in message.tool_calls]
            calls += [(c["id"], c["name"] or "?", " invalid") for c in message.invalid_tool_calls]
            if len(calls) == 1:
                call_id, name, bad = calls[0]
                lines.append(f"    M-->>A: {label(f'tool call {call_id}{bad}: {name}', 40)}")
            elif calls:  # one reply, several calls: one arrow for the reply, then one run per call
                ids = ", ".join(f"{call_id}{bad}" for call_id, _, bad in calls)
                lines.append(f"    M-->>A: {label(f'{len(calls)} tool calls: {ids}', 40)}")
            for call in message.tool_calls:
                call_text = f"{call['name']}({args_text(call['args'])})"
                if len(call_text) > 36 and isinstance(call["args"], dict):  # values only, so amounts show
                    call_text = f"{call['name']}({', '.join(str(v) for v in call['args'].values())})"
                lines.append(f"    A->>T: run {label(str(call['id']), 14)} {label(call_text, 36)}")
            if text and not message.tool_calls and not message.invalid_tool_calls:
                lines.append("    A->>U: answer")
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


def show(markdown: str) -> None:
    """Display a Markdown string in Jupyter (``text/markdown`` output)."""
    from IPython.display import Markdown, display

    display(Markdown(markdown))


def show_trace(messages: Any, *, limit: int = 70) -> None:
    """Display :func:`trace_markdown` (a message list, state dict, ``GraphOutput`` or ``StateSnapshot``)."""
    show(trace_markdown(as_messages(messages, who="show_trace"), limit=limit))


def show_sequence(messages: Any, *, limit: int = 36) -> None:
    """Display :func:`sequence_diagram` as a rendered mermaid diagram (same shapes as :func:`as_messages`)."""
    show(_fenced_mermaid(sequence_diagram(as_messages(messages, who="show_sequence"), limit=limit)))


def show_graph(graph: Any, *, xray: bool = False) -> None:
    """Display a compiled graph as a mermaid diagram (no PNG, no web service)."""
    show(_fenced_mermaid(graph_mermaid(graph, xray=xray)))


# -- state diffs ----------------------------------------------------------------------------


def _value_text(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(m, BaseMessage) for m in value):
        return f"{len(value)} message{'' if len(value) == 1 else 's'}"
    return _short(value if isinstance(value, str) else safe_repr(value), 60)


#: What the state-diff functions accept, for their error messages.
_STATE_INPUT = ("a state dict (e.g. result or graph.get_state(config).values), a StateSnapshot "
                "(graph.get_state(config)) or a GraphOutput (invoke(..., version=\"v2\"))")


def _state_values(value: Any, side: str, who: str) -> Mapping[Any, Any]:
    if isinstance(value, StateSnapshot):
        value = value.values
    elif isinstance(value, GraphOutput):
        value = value.value
    if isinstance(value, Mapping):
        return value
    given = "None (for an empty state pass {})" if value is None else _a_type(value)
    raise TypeError(f"{who}() got {given} as {side}; it wants {_STATE_INPUT}")


def _same(a: Any, b: Any, depth: int = 0) -> bool:
    """True when two state values are equal; NaN equals NaN, and a comparison that raises compares reprs."""
    if a is b:
        return True
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if depth < 50 and type(a) is type(b):
        if isinstance(a, Mapping) and not isinstance(a, BaseMessage):
            return a.keys() == b.keys() and all(_same(a[k], b[k], depth + 1) for k in a)
        if isinstance(a, (list, tuple)):
            return len(a) == len(b) and all(_same(x, y, depth + 1) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - e.g. an array whose == is ambiguous: compare what is shown
        return safe_repr(a) == safe_repr(b)


def _key_order(key: Any) -> tuple:
    """Sort keys of any types together: str keys first in their own order, then others by type and repr."""
    return (0, key, "") if isinstance(key, str) else (1, type(key).__name__, safe_repr(key))


def state_diff(before: Any, after: Any) -> list[tuple[str, str, str, str]]:
    """Compare two states key by key.

    Args:
        before, after: state dicts (e.g. ``graph.get_state(cfg).values``), ``StateSnapshot``
            objects (``graph.get_state(cfg)``: their ``.values`` are compared) or ``GraphOutput``
            objects (``invoke(..., version="v2")``: their ``.value``), as in langgraph 1.2.

    Returns:
        ``[(key, change, before_text, after_text), ...]`` sorted by key (str keys first; keys of
        other types after them, shown by their repr), where change is ``"added"``, ``"removed"``
        or ``"changed"``; unchanged keys are left out (a NaN that stays NaN is unchanged). Message
        lists are summarised as ``"N messages"``.

    Raises:
        TypeError: ``before`` or ``after`` is none of these (``None`` included); the message says
            which one and what is expected.
    """
    before = _state_values(before, "before", "state_diff")
    after = _state_values(after, "after", "state_diff")
    rows = []
    for key in sorted({*before, *after}, key=_key_order):
        name = key if isinstance(key, str) else safe_repr(key, 60)
        if key not in before:
            rows.append((name, "added", "", _value_text(after[key])))
        elif key not in after:
            rows.append((name, "removed", _value_text(before[key]), ""))
        elif not _same(before[key], after[key]):
            rows.append((name, "changed", _value_text(before[key]), _value_text(after[key])))
    return rows


def state_diff_markdown(before: Any, after: Any) -> str:
    """:func:`state_diff` as a Markdown table (``_no changes_`` if equal; cells escaped, see :func:`markdown_text`)."""
    rows = state_diff(before, after)
    if not rows:
        return "_no changes_"
    lines = ["| key | change | before | after |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(_cell(part) for part in row) + " |" for row in rows]
    return "\n".join(lines)


def show_state_diff(before: Any, after: Any) -> None:
    """Display :func:`state_diff_markdown`."""
    show(state_diff_markdown(before, after))


# -- expected errors ------------------------------------------------------------------------

# Machine paths in error messages are cut to their last part (the file or folder name), so an
# output never shows where the course lives (/Users/Jane Doe/..., C:\Users\...) and stays the same
# on every machine. A folder name may hold single spaces when a separator follows it. A POSIX path
# of two parts is a machine path only under a system folder (/tmp/x.json, /home/alice): Deep Agents'
# virtual files (/notes/A1024.md, notebook 11) keep their path.
_SYSTEM_ROOTS = frozenset({
    "Applications", "Library", "System", "Users", "Volumes", "bin", "boot", "builds", "content", "dev", "etc",
    "home", "kaggle", "lib", "media", "mnt", "nix", "opt", "private", "proc", "root", "run", "sbin", "snap",
    "srv", "sys", "tmp", "usr", "var", "work", "workspace", "workspaces",
})
_SEGMENT = r"[\w.\-+@~%]+"
_FOLDER = rf"{_SEGMENT}(?: {_SEGMENT})*"
_SEP = r"(?:\\{1,2}|/)"  # \, or \\ as in the repr of a Windows path, or /
_POSIX_PATH = re.compile(rf"(?<![\w:/.\\])/(?:{_FOLDER}/)+{_SEGMENT}/?")
_WINDOWS_PATH = re.compile(rf"(?<![\w\\])(?:[A-Za-z]:|\\{{2,4}}[\w.\-]+)(?:{_SEP}{_FOLDER}(?={_SEP}))*{_SEP}{_SEGMENT}")
_FILE_URL = re.compile(r"\bfile:(?://[^/\s'\"]*)?/[^\s'\"]*", re.IGNORECASE)
_QUOTED_PATH = re.compile(r"""(['"])((?:file:/|/|[A-Za-z]:[\\/]|\\\\)[^'"\n]*?[\\/][^'"\n]*?)\1""")
#: `` at 0x7f...`` in reprs: a memory address, different on every run (never show it).
ADDRESS_PATTERN = re.compile(r" at 0x[0-9a-fA-F]+")
_ADDRESS = ADDRESS_PATTERN


def _last_part(path: str) -> str:
    """The last part of a POSIX or Windows path or ``file:`` URL (``/a/b c/d.py`` -> ``d.py``)."""
    parts = [part for part in re.split(r"[\\/]+", path) if part]
    return parts[-1] if parts else path


def _machine_path(path: str) -> bool:
    """True for a path that tells where something lives on this machine (see ``_SYSTEM_ROOTS``)."""
    if not path.startswith("/") or path.startswith("//"):
        return True  # a Windows path, a UNC path or a file: URL
    parts = [part for part in path.split("/") if part]
    return len(parts) >= 3 or (len(parts) == 2 and parts[0] in _SYSTEM_ROOTS)


def _cut(path: str) -> str:
    return _last_part(path) if _machine_path(path) else path


def _strip_paths(text: str, exc: BaseException) -> str:
    for attribute in ("filename", "filename2"):  # OSError: the exact path, spaces and all
        path = getattr(exc, attribute, None) if isinstance(exc, OSError) else None
        if isinstance(path, str) and re.search(r"[\\/]", path.strip("\\/")) and _machine_path(path):
            text = text.replace(repr(path), repr(_last_part(path))).replace(path, _last_part(path))
    text = _QUOTED_PATH.sub(lambda m: m.group(1) + _cut(m.group(2)) + m.group(1), text)
    text = _FILE_URL.sub(lambda m: _last_part(m.group(0)), text)
    text = _WINDOWS_PATH.sub(lambda m: _last_part(m.group(0)), text)
    return _POSIX_PATH.sub(lambda m: _cut(m.group(0)), text)


def _message_of(exc: BaseException) -> str:
    """``str(exc)``, or a placeholder when the exception's ``__str__`` raises or returns a non-str."""
    try:
        message = str(exc)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a broken __str__ must not let a traceback out
        return "<its message could not be turned into text>"  # the wording of helpers.widgets.text.error_text
    return message


def format_error(exc: BaseException) -> str:
    """``Type: message`` with machine paths reduced to their last part and memory addresses removed.

    Paths cut to their last part: POSIX paths of three or more parts (``/Users/Jane Doe/x.py``), and
    of two under a system folder (``/tmp/secret.json``; a virtual file such as Deep Agents'
    ``/notes/A1024.md`` is kept), also quoted or with spaces in folder names; Windows paths, also
    as an ``OSError`` shows them (``'C:\\\\Users\\\\...'``); ``file:`` URLs. Web URLs
    (``https://errors.pydantic.dev/...``) are kept.

    Args:
        exc: any exception.

    Returns:
        one line of text, e.g. ``FileNotFoundError: [Errno 2] No such file or directory: 'x.json'``.
        Never raises (except ``KeyboardInterrupt``): an exception whose ``__str__`` raises is shown
        by its type and a note saying so.
    """
    text = f"{type(exc).__name__}: {_message_of(exc)}"
    return _ADDRESS.sub("", _strip_paths(text, exc))


class ErrorReport:
    """Result of :func:`expect_error`: ``error`` is the caught exception, or ``None``."""

    def __init__(self) -> None:
        self.error: BaseException | None = None


def _report(error: BaseException | None, expected: tuple[type[BaseException], ...], result: Any = None) -> None:
    if error is None:
        print("!!! NO ERROR WAS RAISED !!!")
        print(f"!!! This cell expected an exception, but the call returned: {_short(safe_repr(result), 120)}")
        print("!!! The pinned library may have changed behaviour: check the claim above.")
    elif expected and not isinstance(error, expected):
        names = ", ".join(e.__name__ for e in expected)
        print(f"!!! UNEXPECTED ERROR TYPE (expected {names}) !!!")
        print(format_error(error))
    else:
        print(format_error(error))


def _expected_types(expected: Any, who: str) -> tuple[type[BaseException], ...]:
    types = expected if isinstance(expected, tuple) else (expected,)
    if not types or not all(isinstance(t, type) and issubclass(t, BaseException) for t in types):
        raise TypeError(f"{who}(expected=...) wants an exception class or a tuple of them, "
                        f"e.g. expected=ValueError; got {_short(safe_repr(expected), 60)}")
    return types


def _report_not_callable(value: Any) -> None:
    shown = _short(safe_repr(value), 80)
    print("!!! show_error WANTS A FUNCTION TO CALL, e.g. show_error(lambda: f(x)) !!!")
    print(f"!!! It got the value {shown} ({_type_name(value)}): the call already ran before show_error "
          "saw it, and it did not raise.")


def show_error(func: Callable[..., Any], *args: Any, expected: type[BaseException] | tuple = Exception,
               **kwargs: Any) -> None:
    """Call ``func(*args, **kwargs)`` and print the error it raises as ``Type: message``.

    No traceback and no machine paths are printed. If nothing is raised, a loud
    ``!!! NO ERROR WAS RAISED !!!`` banner is printed instead (so nbval fails when a pinned
    library stops raising). ``show_error(f(x))`` is a common slip: ``f(x)`` runs *before*
    ``show_error`` is called, so ``show_error`` gets its result, not a function; that is reported
    as ``!!! show_error WANTS A FUNCTION TO CALL ...`` (never as if the value's ``TypeError: ...
    not callable`` were the expected error). Write ``show_error(lambda: f(x))`` or
    ``show_error(f, x)``.

    Args:
        func: the callable expected to raise (called with ``args`` and ``kwargs``).
        expected: exception type(s) the cell expects; another type is printed with an
            ``UNEXPECTED ERROR TYPE`` banner.

    Returns:
        ``None`` (so nothing more is displayed); use :func:`expect_error` to keep the
        exception. ``KeyboardInterrupt`` and ``SystemExit`` are not caught.

    Raises:
        TypeError: ``expected`` is not an exception class or a tuple of them.
    """
    expected_types = _expected_types(expected, "show_error")
    if not callable(func):
        _report_not_callable(func)
        return None
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
    expected_types = _expected_types(expected, "expect_error")
    report = ErrorReport()
    try:
        yield report
    except Exception as exc:  # noqa: BLE001
        report.error = exc
        _report(exc, expected_types)
    else:
        _report(None, expected_types, "(the block finished)")
