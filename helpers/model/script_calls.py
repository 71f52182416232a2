"""The tool calls of a script and their checks: :func:`tool_call`, :func:`invalid_tool_call` and :class:`ScriptError`.

Tool call arguments are what a provider sends: a JSON object. :func:`tool_call` refuses a string
(``'{"a": 1}'``), a list (``["A1"]``) and values JSON cannot carry (a ``date``), and stores the
arguments as they come back from JSON. The script that uses them (steps, :func:`~helpers.model.script.reply`,
validation) is :mod:`helpers.model.script`, which re-exports these names.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["ScriptError", "invalid_tool_call", "tool_call"]


class ScriptError(ValueError):
    """A script, a step or a tool call is malformed; the message names the step and the fix.

    Attributes:
        step: the 1-based step number, or ``None`` when the problem is not in one step
            (the script itself, or a :func:`tool_call` built outside a script).
        detail: the message without the ``script step N`` prefix.
    """

    def __init__(self, message: str, step: int | None = None):
        self.step = step
        self.detail = message
        if step is not None:
            message = f"script step {step} {message}" if message.startswith("is ") else f"script step {step}: {message}"
        super().__init__(message)


def _a(value: Any) -> str:
    """``"a str"``, ``"an int"``: the article and type name of ``value``."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _short(value: Any, limit: int = 60) -> str:
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001 - a broken __repr__ must not hide the real message
        text = f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _json_arguments(name: str, args: Any) -> dict[str, Any]:
    """``args`` as a provider would deliver them: a dict that went through JSON. Raises ScriptError."""
    if args is None:
        return {}
    if isinstance(args, str):
        hint = ""
        try:
            parsed = json.loads(args)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            hint = f" (pass the dict itself: {_short(parsed)})"
        raise ScriptError(
            f"tool_call({name!r}, ...): the arguments are a str {_short(args)}; give a dict of parameter "
            f"name -> value{hint}, or use invalid_tool_call({name!r}, raw) to script arguments that are not valid JSON"
        )
    if not isinstance(args, Mapping):
        raise ScriptError(
            f"tool_call({name!r}, ...): the arguments are {_a(args)} {_short(args)}; give a dict "
            'of parameter name -> value, e.g. {"order_id": "A1024"}'
        )
    for key, value in args.items():
        if not isinstance(key, str):
            raise ScriptError(f"tool_call({name!r}, ...): argument name {_short(key)} is {_a(key)}; "
                              "JSON object keys are strings")
        _check_json_value(name, key, value)
    return json.loads(json.dumps(dict(args)))


def _check_json_value(name: str, path: str, value: Any, depth: int = 0) -> None:
    if depth > 100:
        raise ScriptError(f"tool_call({name!r}, ...): argument {path!r} is nested more than 100 levels deep")
    if value is None or isinstance(value, (str, bool)):
        return
    if isinstance(value, int):
        limit = sys.get_int_max_str_digits()
        if limit and value.bit_length() > 3 * limit:  # cheap bound first: 3 bits per digit is too few
            try:
                str(value)
            except ValueError:
                raise ScriptError(
                    f"tool_call({name!r}, ...): argument {path!r} is an int with more than {limit} digits, which "
                    "Python will not write as JSON text (sys.get_int_max_str_digits); give a smaller number, "
                    "or a string if the digits are the point"
                ) from None
        return
    if isinstance(value, float):
        return  # NaN and inf included: Python's json (and so langchain-openai) reads them from a provider
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ScriptError(f"tool_call({name!r}, ...): argument {path!r} has the key {_short(key)}; "
                                  "JSON object keys are strings")
            _check_json_value(name, f"{path}.{key}", item, depth + 1)
        return
    if isinstance(value, (list, tuple)):
        for number, item in enumerate(value):
            _check_json_value(name, f"{path}[{number}]", item, depth + 1)
        return
    hint = ""
    if hasattr(value, "isoformat"):
        hint = f" (e.g. {value.isoformat()!r})"
    raise ScriptError(
        f"tool_call({name!r}, ...): argument {path!r} is {_a(value)}, which JSON cannot carry; "
        f"a provider sends arguments as JSON text, so give a string or a number{hint}"
    )


def _check_name_and_id(builder: str, name: Any, id: Any) -> None:
    if not isinstance(name, str) or not name:
        raise ScriptError(f"{builder}(name, ...): the tool name must be a non-empty str, got {_short(name)}")
    if id is not None and (not isinstance(id, str) or not id):
        raise ScriptError(f"{builder}({name!r}, ..., id=...): the id must be a non-empty str or None "
                          f"(None: the model assigns call_<n>), got {_short(id)}")


def tool_call(name: str, args: Mapping[str, Any] | None = None, id: str | None = None) -> dict[str, Any]:
    """Build a ToolCall dict for a script step.

    Args:
        name: the tool name the model "chooses".
        args: the arguments, a dict of JSON values (``str``, numbers, ``bool``, ``None``, lists,
            dicts); ``{}`` if omitted. Stored as they come back from JSON (a tuple becomes a list).
        id: a fixed tool call id; if ``None`` the model assigns ``call_<n>``.

    Returns:
        ``{"name", "args", "id", "type": "tool_call"}``, the shape of
        ``langchain_core.messages.ToolCall``.

    Raises:
        ScriptError: ``args`` is a str (e.g. ``'{"a": 1}'``: pass the dict, or use
            :func:`invalid_tool_call` for broken JSON), a list (``["A1"]``), or holds a value JSON
            cannot carry (a ``date``); ``name`` or ``id`` is not a non-empty str.
    """
    _check_name_and_id("tool_call", name, id)
    return {"name": name, "args": _json_arguments(name, args), "id": id, "type": "tool_call"}


def invalid_tool_call(name: str, raw_args: str, id: str | None = None) -> dict[str, Any]:
    """Build a reply entry whose arguments are not valid JSON.

    Args:
        name: the tool name.
        raw_args: the raw argument string as a provider would send it, e.g. ``'{"order_id": A1}'``.
        id: a fixed id; if ``None`` the model assigns ``call_<n>``.

    Returns:
        an ``InvalidToolCall`` dict (``type == "invalid_tool_call"``); put it in
        ``AIMessage(invalid_tool_calls=[...])`` or pass it to :func:`reply`.

    Raises:
        ScriptError: ``raw_args`` is not a str (a dict belongs in :func:`tool_call`).
    """
    _check_name_and_id("invalid_tool_call", name, id)
    if not isinstance(raw_args, str):
        raise ScriptError(
            f"invalid_tool_call({name!r}, raw_args): raw_args is the argument text as the provider sent it "
            f"(a str such as '{{\"order_id\": A1}}'), got {_a(raw_args)}; valid arguments go in tool_call"
        )
    return {"name": name, "args": raw_args, "id": id, "error": None, "type": "invalid_tool_call"}
