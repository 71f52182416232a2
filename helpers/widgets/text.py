"""Text for widget values: escaping, JSON parsing and showing, errors as one line.

The one place where the widgets turn input text into values and values into text that can
travel to the browser. No ipywidgets import (the engines use it too).

* A widget value must be encodable as UTF-8: jupyter_client's JSON packer fails on a lone
  surrogate (``"\\ud800"`` is valid JSON, but not valid UTF-8), and the front end would never
  see the update. :func:`sendable` writes such characters as ``\\ud800`` escapes.
* Shown values never hold a memory address (``<Obj object at 0x7f...>``) or a message's random
  id: both differ in every run, and committed notebook outputs must not.
* Input JSON is refused beyond :data:`MAX_DEPTH` levels of nesting: deeper values parse, but
  then break ``json.dumps``, pydantic and the widgets' own summaries with ``RecursionError``.
"""

from __future__ import annotations

import dataclasses
import html
import json
from typing import Any

from ..display import ADDRESS_PATTERN, format_error

__all__ = ["MAX_DEPTH", "MAX_SHOWN", "JsonInputError", "error_text", "html_text", "json_depth", "json_text",
           "parse_json", "sendable", "shorten", "value_text"]

#: Input JSON nested deeper than this is refused (deeper values hit Python's recursion limit later).
MAX_DEPTH = 100

#: A shown text longer than this is cut (a tool that returns megabytes must not freeze the browser).
MAX_SHOWN = 4000

_TOO_DEEP = "<a value nested too deeply to show>"


def sendable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udXXX`` escapes, so it can be sent as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def shorten(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out, e.g. ``"... (5,000 more characters)"``."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def html_text(value: Any) -> str:
    """``str(value)`` escaped for HTML (``<``, ``&``, quotes) and made :func:`sendable`."""
    return html.escape(sendable(value if isinstance(value, str) else str(value)))


def error_text(exc: BaseException) -> str:
    """``Type: message`` (helpers.display.format_error: no machine paths, no addresses); never raises.

    An exception whose ``__str__`` itself raises is shown by its type alone.
    """
    try:
        return sendable(format_error(exc))
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a broken __str__ must not break the widget
        return f"{type(exc).__name__}: <its message could not be turned into text>"


def _plain(value: Any) -> Any:
    """``json.dumps`` fallback: what is not JSON, without random ids or memory addresses.

    A LangChain message becomes ``{"type", "content"}`` (its ``str`` holds a random UUID id);
    a dataclass its fields; a set a sorted list; a tuple a list; anything else its ``str``
    without `` at 0x...``.
    """
    from langchain_core.messages import BaseMessage

    if isinstance(value, BaseMessage):
        return {"type": value.type, "content": value.content}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, tuple):
        return list(value)
    return ADDRESS_PATTERN.sub("", str(value))


def json_text(value: Any, *, indent: int | None = None) -> str:
    """Readable JSON of any value (non-JSON parts via :func:`_plain`); never raises, always sendable."""
    try:
        text = json.dumps(value, default=_plain, ensure_ascii=False, indent=indent)
    except RecursionError:
        return _TOO_DEEP
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - e.g. a __str__ that raises inside _plain
        try:
            text = ADDRESS_PATTERN.sub("", repr(value))
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001
            return f"<{type(value).__name__} that cannot be shown>"
    return sendable(text)


def value_text(value: Any) -> str:
    """JSON text of a value, or its ``repr`` (no address) when it is not JSON; never raises.

    Unlike :func:`json_text` a non-JSON value is shown as Python shows it (``(1, 2)``,
    ``<Receipt object>``), so a learner sees that a reducer returned something JSON cannot hold.
    """
    try:
        return sendable(json.dumps(value, ensure_ascii=False))
    except RecursionError:
        return _TOO_DEEP
    except (TypeError, ValueError):
        pass
    try:
        return sendable(ADDRESS_PATTERN.sub("", repr(value)))
    except RecursionError:
        return _TOO_DEEP
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a broken __repr__ must not break the widget
        return f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"


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


class JsonInputError(ValueError):
    """Typed text that is not usable JSON. ``str(error)`` completes "the text ...", e.g. "is empty"."""


def parse_json(text: str) -> Any:
    """Parse typed JSON text, refusing what the widgets cannot handle.

    Args:
        text: what the learner typed.

    Returns:
        the parsed value (any JSON value; callers check its type).

    Raises:
        JsonInputError: the text is empty ("is empty"), not JSON ("is not valid JSON (<reason>)"),
            or nests deeper than :data:`MAX_DEPTH` levels ("nests deeper than 100 levels").
    """
    if not text.strip():
        raise JsonInputError("is empty")
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonInputError(f"nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise JsonInputError(f"is not valid JSON ({exc})") from None
    if json_depth(value) > MAX_DEPTH:
        raise JsonInputError(f"nests deeper than {MAX_DEPTH} levels")
    return value
