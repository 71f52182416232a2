"""HTML pieces the widget views share: verdict badges, coloured boxes, wrapping text blocks.

Plain strings with inline styles (an ``ipywidgets.HTML`` value is inserted as it is, and a
notebook has no stylesheet of its own). A verdict is always a word *and* a colour, so it reads
without colour vision and without an emoji font. No ipywidgets import.

Every block here sets :data:`LINE_HEIGHT`: ipywidgets gives an ``HTML`` widget's content the line
height of one input row (``--jp-widgets-inline-height``, 28px, ipywidgets 8.1), so text that wraps
onto a second line would otherwise look double-spaced. A view that writes its own ``<p>`` or
``<div>`` around text that may wrap puts :data:`LINE_HEIGHT` in its style too.
"""

from __future__ import annotations

from typing import Literal

from ..i18n import _, ngettext
from .outcomes import Tone
from .text import html_text

__all__ = ["COLOURS", "LINE_HEIGHT", "WRAP", "badge", "block", "box", "history", "muted"]

#: tone -> (text colour, background colour, border colour); contrast at least 4.5:1 on the background.
COLOURS: dict[Tone, tuple[str, str, str]] = {
    "ok": ("#1b5e20", "#e8f5e9", "#2e7d32"),
    "warn": ("#6d4c00", "#fff8e1", "#f9a825"),
    "bad": ("#b71c1c", "#ffebee", "#c62828"),
    "info": ("#263238", "#eceff1", "#607d8b"),
}

#: The line height of widget text (a number: it scales with the font, and nested elements inherit it).
LINE_HEIGHT = "line-height: 1.4"

#: Long output wraps at word boundaries; a word longer than the line (an id, a URL) breaks anywhere.
WRAP = f"white-space: pre-wrap; overflow-wrap: anywhere; word-break: normal; margin: 2px 0; {LINE_HEIGHT}"


def badge(word: str, tone: Tone) -> str:
    """A verdict word in a coloured pill, e.g. ``badge("RAN", "ok")``.

    Args:
        word: the English verdict (an outcome's ``word``, or a literal marked with ``N_``): the pill
            shows it in the edition's language (``_(word)``: ``已运行`` in the Chinese edition), and
            ``data-verdict`` keeps it in English, the same in both editions (what tests look for).
        tone: its colour (:data:`~helpers.widgets.outcomes.Tone`).
    """
    text, background, border = COLOURS[tone]
    return (f"<span class='course-badge' data-verdict='{html_text(word)}' style='display: inline-block; "
            f"font-weight: bold; padding: 0 6px; border-radius: 3px; color: {text}; background: {background}; "
            f"border: 1px solid {border}'>{html_text(_(word))}</span>")


def box(inner_html: str, tone: Tone, *, css_class: str = "course-box", data: dict[str, str] | None = None) -> str:
    """A block with a coloured left border and background (success and error turns look different)."""
    text, background, border = COLOURS[tone]
    attributes = "".join(f" data-{key}='{html_text(value)}'" for key, value in (data or {}).items())
    return (f"<div class='{css_class}' data-tone='{tone}'{attributes} style='border-left: 4px solid {border}; "
            f"background: {background}; color: {text}; padding: 4px 8px; margin: 4px 0; {LINE_HEIGHT}'>{inner_html}</div>")


def block(text: str, *, css_class: str = "course-text") -> str:
    """Preformatted text that wraps (``<pre>`` with :data:`WRAP`), escaped."""
    return f"<pre class='{css_class}' style='{WRAP}'>{html_text(text)}</pre>"


def muted(text: str, *, css_class: str = "course-note") -> str:
    """A short grey note (the state before anything happened, a hint)."""
    return f"<p class='{css_class}' style='color: #546e7a; margin: 2px 0; {LINE_HEIGHT}'><i>{html_text(text)}</i></p>"


def history(entries: list, noun: Literal["turn", "run"]) -> str:
    """The learner's last turns or runs as a list: one ``<li data-outcome=...>`` per entry.

    Args:
        entries: objects with ``outcome`` and ``history_line()`` (a ``ModelTurn``, a ``PlaygroundResult``).
        noun: what one entry is: ``"turn"`` or ``"run"`` (the heading is translated as a whole).

    Returns:
        the HTML, or ``""`` for no entries.
    """
    if not entries:
        return ""
    items = "".join(f"<li data-outcome='{e.outcome}'>{html_text(e.history_line())}</li>" for e in entries)
    count = len(entries)
    label = (ngettext("Your last {count} turn:", "Your last {count} turns:", count) if noun == "turn"
             else ngettext("Your last {count} run:", "Your last {count} runs:", count)).format(count=count)
    return (f"<div class='course-history' style='{LINE_HEIGHT}'><small>{label}</small>"
            f"<ul style='margin: 0'>{items}</ul></div>")
