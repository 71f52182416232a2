"""The approval panel's text rows (no ipywidgets): payloads, the final state, the amount field's text.

Used by :mod:`helpers.widgets.approval_panel`. Every value is bounded
(:func:`~helpers.widgets.text.json_text` / :func:`~helpers.widgets.text.shorten`).
"""

from __future__ import annotations

import itertools
from typing import Any

from ..i18n import _
from .text import json_text, sendable, shorten

__all__ = ["MAX_EDITABLE", "MAX_KEYS", "MAX_MESSAGES", "MAX_WHOLE", "as_float", "message_row", "payload_text", "state_rows"]

#: The most payload keys shown; the rest are counted ("... and 3 more keys").
MAX_KEYS = 20
#: Edited arguments longer than this (as JSON) are not put into the args field; edit them in code.
MAX_EDITABLE = 20_000
#: The most characters of one call's arguments the "whole arguments" part holds (a write_file of
#: 21,646 characters is shown whole; beyond this the panel says how much it cannot show, and the
MAX_WHOLE = 30_000
#: The most messages listed in the final state (the last ones); the rest are counted.
MAX_MESSAGES = 30


def message_row(number: int, message: Any) -> str:
    """One message of the state as one readable row: ``3 tool call_1 success: refund request ...``."""
    kind = getattr(message, "type", None) or (message.get("role") if isinstance(message, dict) else "?")
    content = getattr(message, "content", None) if not isinstance(message, dict) else message.get("content")
    text = content if isinstance(content, str) else json_text(content, limit=300)
    parts = [f"{number:>3} {kind}"]
    if kind == "tool":
        parts.append(f"{shorten(sendable(str(getattr(message, 'tool_call_id', ''))), 80)} "
                     f"{getattr(message, 'status', '')}")
    calls = getattr(message, "tool_calls", None) or []
    line = " ".join(parts) + ": " + shorten(" ".join(sendable(text).split()), 300)
    for call in calls:
        line += f"\n      -> {shorten(sendable(str(call.get('name'))), 80)} {json_text(call.get('args'), limit=300)}"
    return line


def state_rows(state: dict) -> list[str]:
    """The state as readable rows: one per message, one per list entry or dict key of other keys."""
    rows = []
    for key, value in state.items():
        name = shorten(sendable(str(key)), 200)
        if key == "messages" and isinstance(value, list):
            rows.append(f"  {name}: {len(value)}")
            skipped = max(0, len(value) - MAX_MESSAGES)
            if skipped:
                rows.append("    " + _("... {count} earlier messages").format(count=skipped))
            rows += [f"  {message_row(n, m)}" for n, m in enumerate(value[skipped:], skipped + 1)]
        elif isinstance(value, list) and value:
            rows.append(f"  {name}:")
            rows += [f"    - {json_text(item, limit=300)}" for item in value[:MAX_KEYS]]
            if len(value) > MAX_KEYS:
                rows.append("    " + _("... and {count} more").format(count=f"{len(value) - MAX_KEYS:,}"))
        elif isinstance(value, dict) and value:
            rows.append(f"  {name}:")
            rows += [f"    {shorten(sendable(str(k)), 200)}: {json_text(v, limit=300)}"
                     for k, v in itertools.islice(value.items(), MAX_KEYS)]
            if len(value) > MAX_KEYS:
                rows.append("    " + _("... and {count} more keys").format(count=f"{len(value) - MAX_KEYS:,}"))
        else:
            rows.append(f"  {name}: {json_text(value)}")
    return rows


def payload_text(value: Any) -> str:
    """A payload as text: one ``key: json`` line per key for a dict, else indented JSON; bounded.

    Each key and value is cut by :func:`~helpers.widgets.text.json_text` / :func:`~helpers.widgets.text.shorten`
    (a 200,000-character field shows its first 4,000), and at most :data:`MAX_KEYS` keys are listed.
    """
    if isinstance(value, dict):
        lines = [f"{shorten(sendable(str(key)), 200)}: {json_text(item)}"
                 for key, item in itertools.islice(value.items(), MAX_KEYS)]
        if len(value) > MAX_KEYS:
            lines.append(_("... and {count} more keys").format(count=f"{len(value) - MAX_KEYS:,}"))
        return "\n".join(lines)
    return json_text(value, indent=2)



def as_float(value: Any) -> Any:
    """A number that is not an int/float (``Decimal``, ``Fraction``) as a float, for the amount field's text."""
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return value
