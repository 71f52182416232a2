"""State diffs: what changed between two graph states (a dict, a ``GraphOutput`` or a
``StateSnapshot``), as rows (:func:`state_diff`), a Markdown table (:func:`state_diff_markdown`) or
displayed (:func:`show_state_diff`).

One floor of :mod:`helpers.display` (which re-exports its public names).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import (
    BaseMessage,
)
from langgraph.types import GraphOutput, StateSnapshot

from .text import _a_type, _cell, _short, safe_repr, show
from ..i18n import N_, _, ngettext


def _value_text(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(m, BaseMessage) for m in value):
        return ngettext("{n} message", "{n} messages", len(value)).format(n=len(value))
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


#: The change words of :func:`state_diff`, marked for the catalog (the rows keep them in English).
_CHANGES = {"added": N_("added"), "removed": N_("removed"), "changed": N_("changed")}


def state_diff_markdown(before: Any, after: Any) -> str:
    """:func:`state_diff` as a Markdown table (``_no changes_`` if equal; cells escaped, see :func:`markdown_text`)."""
    rows = state_diff(before, after)
    if not rows:
        return _("_no changes_")
    lines = ["| " + _("key | change | before | after") + " |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(_cell(part) for part in (key, _(_CHANGES[change]), old, new)) + " |"
              for key, change, old, new in rows]
    return "\n".join(lines)


def show_state_diff(before: Any, after: Any) -> None:
    """Display :func:`state_diff_markdown`."""
    show(state_diff_markdown(before, after))
