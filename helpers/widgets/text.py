"""Text for widget values: escaping, JSON parsing and showing, errors as one line, all of it bounded.

The one place where the widgets turn input text into values and values into text that can
travel to the browser. No ipywidgets import (the engines use it too).

* A widget value must be encodable as UTF-8: jupyter_client's JSON packer fails on a lone
  surrogate (``"\\ud800"`` is valid JSON, but not valid UTF-8), and the front end would never
  see the update. :func:`sendable` writes such characters as ``\\ud800`` escapes.
* Shown values never hold a memory address (``<Obj object at 0x7f...>``) or a message's random
  id: both differ in every run, and committed notebook outputs must not.
* Every shown value is bounded: :func:`json_text`, :func:`value_text` and :func:`error_text`
  stop after :data:`MAX_SHOWN` characters and end the text with :func:`shorten`'s marker. They
  build the text piece by piece (the JSON encoder's lazy ``iterencode``, a repr that walks lists,
  tuples, sets and dicts itself), so a reducer that returns ``[a] * 200_000`` is cut after a few
  thousand characters instead of being turned into 50 MB of text first. Only an object's own
  ``__repr__``/``__str__`` (learner code) can build a long text; it is called once and cut.
* Input JSON is refused beyond :data:`MAX_DEPTH` levels of nesting: deeper values parse, but
  then break ``json.dumps``, pydantic and the widgets' own summaries with ``RecursionError``.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from ..display import ADDRESS_PATTERN, format_error
from ..i18n import N_, _

__all__ = ["ABOUT_LIMIT", "MAX_DEPTH", "MAX_SHOWN", "JsonInputError", "about", "error_text", "html_text", "inline_code",
           "json_depth", "json_problem", "json_text", "parse_json", "sendable", "shorten", "value_text", "visible"]

#: Input JSON nested deeper than this is refused (deeper values hit Python's recursion limit later).
MAX_DEPTH = 100

#: A shown text longer than this many characters is cut (a tool that returns megabytes must not
#: freeze the browser). Escaped for HTML, a cut text is at most 6 times as long (``"`` -> ``&quot;``).
MAX_SHOWN = 4000

_TOO_DEEP = N_("<a value nested too deeply to show>")


def sendable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udXXX`` escapes, so it can be sent as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def shorten(text: str, limit: int | None = MAX_SHOWN, *, complete: bool = True) -> str:
    """``text`` cut to ``limit`` characters, saying so: the widgets' one shortening.

    Args:
        text: the text, or (``complete=False``) the first part of a longer text that was not built.
        limit: the most characters kept; ``None`` keeps everything.
        complete: whether ``text`` is the whole text. When it is, the marker counts what was left
            out, ``"... (5,000 more characters)"``; when the rest was never built (a bounded
            :func:`json_text` / :func:`value_text`), it says ``"... (cut at 4,000 characters)"``.

    Returns:
        ``text`` itself when it fits (and is complete), else the first ``limit`` characters and the marker.
    """
    if limit is None or (complete and len(text) <= limit):
        return text
    if complete:
        return _("{text}... ({count} more characters)").format(text=text[:limit], count=f"{len(text) - limit:,}")
    return _("{text}... (cut at {count} characters)").format(text=text[:limit], count=f"{limit:,}")


def _take(chunks: Iterable[str], limit: int | None) -> str:
    """Join ``chunks`` until more than ``limit`` characters are there, then stop and :func:`shorten`."""
    parts: list[str] = []
    size = 0
    for chunk in chunks:
        parts.append(chunk)
        size += len(chunk)
        if limit is not None and size > limit:
            return shorten("".join(parts), limit, complete=False)
    return "".join(parts)


def html_text(value: Any) -> str:
    """``str(value)`` escaped for HTML (``<``, ``&``, quotes) and made :func:`sendable`."""
    return html.escape(sendable(value if isinstance(value, str) else str(value)))


#: A `code` span: text between two backticks, at least one character, no backtick inside.
_CODE_SPAN = re.compile(r"`([^`]+)`")


def inline_code(text: str, *, quote: bool = True) -> str:
    """``text`` escaped for HTML and made :func:`sendable`, with each `backticked` part shown as ``<code>``.

    The course's one "Markdown-like" text: self-check prompts, choices and feedback (the self-check
    view) and exercise reports (``helpers.exercises.results``) are written by the course with
    backticks around code. Everything is escaped first (``html.escape``), so a backtick, ``<``
    or ``&`` in a learner's value can never become markup; only then do backtick pairs become
    ``<code>...</code>`` (an unpaired backtick stays as typed).

    Args:
        text: the text, e.g. ``"call `tool.invoke(args)`"``.
        quote: escape ``"`` and ``'`` too. ``False`` for a checkbox label (the front end shows the
            raw description as the label's hover title, where ``&quot;`` would show as typed) and for
            Markdown output, whose quotes need no escaping.

    Returns:
        the HTML text, e.g. ``"call <code>tool.invoke(args)</code>"``.
    """
    return _CODE_SPAN.sub(r"<code>\1</code>", html.escape(sendable(text), quote=quote))


def error_text(exc: BaseException, limit: int | None = MAX_SHOWN) -> str:
    """``Type: message`` (helpers.display.format_error: no machine paths, no addresses), cut to ``limit``; never raises.

    An exception whose ``__str__`` itself raises is shown by its type alone.
    """
    try:
        return sendable(shorten(format_error(exc), limit))
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a broken __str__ must not break the widget
        return _("{type}: <its message could not be turned into text>").format(type=type(exc).__name__)


def _object_text(text: str, limit: int | None) -> str:
    """An object's own ``str``/``repr`` without memory addresses, cut to ``limit`` (with room for an address)."""
    if limit is not None and len(text) > limit + 64:
        return shorten(ADDRESS_PATTERN.sub("", text[:limit + 64]), limit, complete=False)
    return ADDRESS_PATTERN.sub("", text)


def _plain_for(limit: int | None):
    """The ``json`` ``default`` hook: what is not JSON, without random ids or memory addresses.

    A LangChain message becomes ``{"type", "content"}`` (its ``str`` holds a random UUID id);
    a dataclass its fields; a set a sorted list; a tuple a list; anything else its ``str``
    without `` at 0x...``, cut to ``limit``.
    """
    def plain(value: Any) -> Any:
        from langchain_core.messages import BaseMessage

        if isinstance(value, BaseMessage):
            return {"type": value.type, "content": value.content}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return dataclasses.asdict(value)
        if isinstance(value, (set, frozenset)):
            return sorted(value, key=repr)
        if isinstance(value, tuple):
            return list(value)
        return _object_text(str(value), limit)

    return plain


def json_text(value: Any, *, indent: int | None = None, limit: int | None = MAX_SHOWN) -> str:
    """Readable JSON of any value (non-JSON parts via the ``default`` hook), cut to ``limit``; never raises.

    Always :func:`sendable`.

    ``limit=None`` gives the whole text (for a value that is edited, not only shown).
    """
    encoder = json.JSONEncoder(default=_plain_for(limit), ensure_ascii=False, indent=indent)
    try:
        text = _take(encoder.iterencode(value), limit)
    except RecursionError:
        return _(_TOO_DEEP)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - e.g. a circular list, a __str__ that raises inside the hook
        try:
            text = _repr_text(value, limit)
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001
            return _("<{type} that cannot be shown>").format(type=type(value).__name__)
    return sendable(text)


class _TooDeep(Exception):
    """A value nests deeper than :data:`MAX_DEPTH` levels (inside :func:`_repr_chunks`)."""


_OPEN = {list: ("[", "]"), tuple: ("(", ")"), set: ("{", "}"), frozenset: ("frozenset({", "})"), dict: ("{", "}")}


def _repr_chunks(value: Any, limit: int | None, active: set[int], depth: int = 0) -> Iterator[str]:
    """``repr(value)`` in pieces, the way Python writes it, without building the whole text.

    Lists, tuples, sets, frozensets and dicts (exactly those types) are walked here, so only the
    items needed before the cut are turned into text; a container already being shown is written
    ``[...]`` / ``{...}`` as Python does; a long ``str`` is cut before its repr is built. Anything
    else is its own ``repr`` (learner code: called once, cut to ``limit``).
    """
    kind = type(value)
    if kind in _OPEN:
        if depth >= MAX_DEPTH:
            raise _TooDeep
        if id(value) in active:
            yield "{...}" if kind is dict else "[...]"
            return
        if not value:
            yield {list: "[]", tuple: "()", set: "set()", frozenset: "frozenset()", dict: "{}"}[kind]
            return
        active.add(id(value))
        opening, closing = _OPEN[kind]
        yield opening
        for index, item in enumerate(value.items() if kind is dict else value):
            if index:
                yield ", "
            if kind is dict:
                yield from _repr_chunks(item[0], limit, active, depth + 1)
                yield ": "
                item = item[1]
            yield from _repr_chunks(item, limit, active, depth + 1)
        if kind is tuple and len(value) == 1:
            yield ","
        yield closing
        active.discard(id(value))
    elif kind is str and limit is not None and len(value) > limit:
        yield repr(value[:limit + 1])
    elif kind is int:
        try:
            yield repr(value)
        except ValueError:  # more digits than int -> str allows (sys.get_int_max_str_digits)
            digits = int(value.bit_length() * math.log10(2)) + 1
            yield _("<an int of about {count} digits>").format(count=f"{digits:,}")
    else:
        yield _object_text(repr(value), limit)


def _repr_text(value: Any, limit: int | None) -> str:
    """The bounded repr (:func:`_repr_chunks`), or :data:`_TOO_DEEP`; raises what a ``__repr__`` raises."""
    try:
        return _take(_repr_chunks(value, limit, set()), limit)
    except (RecursionError, _TooDeep):
        return _(_TOO_DEEP)


def value_text(value: Any, *, limit: int | None = MAX_SHOWN, prefer_json: bool = True) -> str:
    """JSON text of a value, or its ``repr`` (no address) when it is not JSON, cut to ``limit``; never raises.

    Unlike :func:`json_text` a non-JSON value is shown as Python shows it (``(1, 2)``,
    ``<Receipt object>``), so a learner sees that a reducer returned something JSON cannot hold.
    ``limit=None`` gives the whole text. ``prefer_json=False`` skips the JSON attempt.
    """
    if prefer_json:
        try:
            return sendable(_take(json.JSONEncoder(ensure_ascii=False).iterencode(value), limit))
        except RecursionError:
            return _(_TOO_DEEP)
        except (TypeError, ValueError):
            pass
    try:
        return sendable(_repr_text(value, limit))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a broken __repr__ must not break the widget
        return _("<{type} whose repr raised {error}>").format(type=type(value).__name__, error=type(exc).__name__)


def json_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and dicts nest in ``value`` (a scalar is 0); iterative, stops past ``limit``."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            level += 1
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((child, level) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _path(parts: tuple[Any, ...]) -> str:
    return "".join(f"[{shorten(json.dumps(p, ensure_ascii=False), 40)}]" for p in parts)


def json_problem(value: Any, name: str | None = None) -> str:
    """Why ``value`` is not plain JSON, as one phrase; ``""`` when it is.

    Plain JSON is what a model can write in a tool call: dicts with text keys, lists, text, finite
    numbers (``int``, ``float``), ``True``/``False``, ``None``, nested at most :data:`MAX_DEPTH`
    levels; exactly what ``json.dumps(value, allow_nan=False)`` writes and ``json.loads`` reads
    back unchanged. Iterative (a deep value cannot overflow the stack).

    Args:
        value: the value to check (e.g. edited tool-call arguments).
        name: how the value is called in the phrase, e.g. ``"args"`` (default: "the value", translated).

    Returns:
        e.g. ``'args["x"] is a function, not a JSON value'``, ``'args["amount"] is NaN: JSON has
        no NaN or Infinity'``, or ``""``.
    """
    name = _("the value") if name is None else name
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        item, where = stack.pop()
        at = name + _path(where)
        if len(where) > MAX_DEPTH:
            return _("{name} nests deeper than {depth} levels").format(name=name, depth=MAX_DEPTH)
        if item is None or isinstance(item, (str, bool)):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return _("{at} is {value}: JSON has no NaN or Infinity").format(at=at, value=json.dumps(item))
            continue
        if isinstance(item, int):
            try:
                str(item)
            except ValueError:
                return _("{at} is an int with too many digits to write").format(at=at)
            continue
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    return _("{at} has the key {key} ({type}): JSON keys are text").format(
                        at=at, key=value_text(key, limit=40), type=type(key).__name__)
                stack.append((child, (*where, key)))
            continue
        if isinstance(item, list):
            stack.extend((child, (*where, index)) for index, child in enumerate(item))
            continue
        if callable(item):
            return _("{at} is a function, not a JSON value").format(at=at)
        return _("{at} is a {type}, not a JSON value").format(at=at, type=type(item).__name__)
    return ""


class JsonInputError(ValueError):
    """Typed text that is not usable JSON. ``str(error)`` completes "the text ...", e.g. "is empty".

    Attributes:
        reason: what is wrong, for code to test (the text is translated): ``"empty"``, ``"invalid"``
            (not JSON) or ``"too_deep"`` (nested deeper than :data:`MAX_DEPTH` levels).
    """

    def __init__(self, message: str, reason: Literal["empty", "invalid", "too_deep"] = "invalid"):
        super().__init__(message)
        self.reason = reason


def parse_json(text: str) -> Any:
    """Parse typed JSON text, refusing what the widgets cannot handle.

    Args:
        text: what the learner typed.

    Returns:
        the parsed value (any JSON value; callers check its type).

    Raises:
        JsonInputError: the text is empty ("is empty"), not JSON ("is not valid JSON (<reason>)"),
            or nests deeper than :data:`MAX_DEPTH` levels ("nests deeper than 100 levels"); the
            message in the edition's language, the kind in ``reason``.
    """
    if not text.strip():
        raise JsonInputError(_("is empty"), "empty")
    too_deep = _("nests deeper than {depth} levels").format(depth=MAX_DEPTH)
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonInputError(too_deep, "too_deep") from None
    except ValueError as exc:
        raise JsonInputError(_("is not valid JSON ({error})").format(error=exc), "invalid") from None
    if json_depth(value) > MAX_DEPTH:
        raise JsonInputError(too_deep, "too_deep")
    return value


#: The most characters a name or order id takes in one line (a 200,000-character order id is cut).
ABOUT_LIMIT = 200


def about(value: Any) -> str:
    """A name or order id for one line: as it is when it is printable text, else as JSON; cut to :data:`ABOUT_LIMIT`."""
    if isinstance(value, str) and value.isprintable():
        return shorten(value, ABOUT_LIMIT)
    return visible(json_text(value, limit=ABOUT_LIMIT))


def visible(text: str) -> str:
    """``text`` with every invisible format character written as an escape (``\\u202e``).

    Bidi controls (``U+202E`` turns ``"\u202e4201A"`` into what reads as ``A1024``), zero-width
    characters and other Unicode "format" characters (category ``Cf``) are shown as ``\\uXXXX``,
    so a reviewer reads the id the tool will get. Line breaks and tabs stay.
    """
    if text.isascii():
        return text
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) == "Cf" else ch for ch in text)
