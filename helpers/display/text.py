"""Values as safe text for a notebook's output: ``repr`` without memory addresses that never raises
(:func:`safe_repr`), short forms, Markdown escaping (:func:`markdown_text`, so a reply holding
``<!--``, ``<b>`` or ``![x](http://...)`` shows as those characters), :func:`show`, which
displays a Markdown string, and :func:`fit_row`, a printed row of aligned columns that fits
:data:`OUTPUT_WIDTH` (what JupyterLab shows on one line at 1280 px).

The bottom floor of :mod:`helpers.display` (which re-exports its public names); it imports neither
LangChain nor LangGraph.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

#: `` at 0x7f...`` in reprs: a memory address, different on every run (never show it).
ADDRESS_PATTERN = re.compile(r" at 0x[0-9a-fA-F]+")
_ADDRESS = ADDRESS_PATTERN


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



def _type_name(value: Any) -> str:
    return type(value).__name__



def show(markdown: str) -> None:
    """Display a Markdown string in Jupyter (``text/markdown`` output)."""
    from IPython.display import Markdown, display

    display(Markdown(markdown))


#: Monospace characters that fit on one output line where a learner reads the course: JupyterLab 4.6
#: in a 1280 x 800 window with the file browser open (its default layout). Measured in headless
#: Chromium: the output area's ``<pre>`` is 840 px wide and one character of its 13 px monospace font
#: (DejaVu Sans Mono; Menlo has the same advance) is 7.83 px, so 107 characters fit and the 108th wraps.
OUTPUT_WIDTH = 107


def text_width(text: str) -> int:
    """How many monospace columns ``text`` takes: East Asian wide and full-width characters (CJK) count 2."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _wrap(text: str, room: int) -> list[str]:
    """``text`` cut into lines of at most ``room`` columns, at spaces where it can (CJK text at any character)."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:  # a word longer than the room is cut where it must be
            if text_width(line + char) > room:
                lines.append(line)
                line = ""
            line += char
    return lines + [line]


def fit_row(prefix: str, text: str, *, width: int = OUTPUT_WIDTH) -> str:
    """One printed row of aligned columns that fits ``width``: the last column wraps under itself.

    ``prefix`` holds the row's first columns, already padded (``f"{label:<12} -> {outcome:<8} "``);
    ``text`` is the last column (a message, a repr). Its lines are wrapped at spaces and the
    continuation lines are indented to where ``text`` starts, so every column stays aligned in
    JupyterLab (see :data:`OUTPUT_WIDTH`). Nothing is cut off. When ``prefix`` leaves fewer than 30
    columns, ``text`` starts on the next line, indented by 4. Line breaks in ``text`` are kept.

    Args:
        prefix: the padded first columns (may be ``""``).
        text: the last column; a non-str is turned into one with ``str``.
        width: the line budget in monospace columns (CJK characters count 2, see :func:`text_width`).

    Returns:
        the row, one or more lines joined by ``"\\n"``, each at most ``width`` columns (a prefix wider
        than ``width`` is kept whole on its own line).
    """
    text = text if isinstance(text, str) else str(text)
    indent = text_width(prefix)
    head = []
    if width - indent < 30:
        head, indent = [prefix.rstrip()], 4
    lines = [piece for paragraph in text.split("\n") for piece in _wrap(paragraph, width - indent)]
    if head:
        rows = head + [" " * indent + line for line in lines]
    else:
        rows = [prefix + lines[0]] + [" " * indent + line for line in lines[1:]]
    return "\n".join(row.rstrip() for row in rows)
