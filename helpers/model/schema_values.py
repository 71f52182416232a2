"""Values that fit a JSON schema: the arguments a plausible model sends for a bound tool.

:func:`arguments_for` takes a tool's ``parameters`` schema (OpenAI function format, as
``convert_to_openai_tool`` builds it with langchain-core 1.8.3) and returns a dict that validates
against it: every required property, with a value that respects ``type``, ``enum`` / ``const``,
``minimum`` / ``maximum`` (and the exclusive forms, ``multipleOf``), ``minLength`` / ``maxLength``,
simple ``pattern`` s, ``format`` (date, date-time, email, uri, uuid), ``minItems`` / ``maxItems`` /
``uniqueItems``, ``anyOf`` / ``oneOf`` / ``allOf`` and local ``$ref`` s. Values fit the course's
data where the property name says what it is (``order_id`` -> ``"A1024"``, ``user_id`` ->
``"user-42"``, ``amount`` -> ``499.0``, ``product_type`` -> ``"electronics"``), else a
schema-derived default. Deterministic: the same schema always gives the same arguments.

Used by the loopback OpenAI server (:mod:`helpers.model.loopback_openai`) and by the generic scripted policy
of LangChain's conformance suite (``tests/test_langchain_standard.py``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["arguments_for", "string_for_pattern", "value_for"]

# property-name hints (lower-case substring -> value), most specific first
_STRING_HINTS: tuple[tuple[str, str], ...] = (
    ("order_id", "A1024"), ("user_id", "user-42"), ("customer_id", "user-42"), ("request_id", "RF-0001"),
    ("idempotency", "refund:A1024:499.00"), ("product_type", "electronics"), ("category", "electronics"),
    ("sku", "SKU-1"), ("email", "user42@example.com"), ("channel", "email"), ("status", "delivered"),
    ("reason", "damaged on arrival"), ("currency", "EUR"), ("city", "Berlin"), ("location", "Berlin"),
    ("date", "2026-11-10"), ("query", "A1024"), ("order", "A1024"), ("user", "user-42"),
    ("name", "Ada Lovelace"), ("note", "please check"), ("message", "please check"), ("text", "please check"),
    ("comment", "please check"), ("description", "a short description"), ("setup", "Why did the cat sit on the laptop?"),
    ("punchline", "To keep an eye on the mouse."),
)
_NUMBER_HINTS: tuple[tuple[str, float], ...] = (
    ("amount", 499.0), ("price", 499.0), ("total", 499.0), ("refund", 499.0), ("days", 30), ("age", 30),
    ("quantity", 1), ("count", 1), ("limit", 1), ("page", 1),
)
_FORMATS = {"date": "2026-11-10", "date-time": "2026-11-10T12:00:00Z", "time": "12:00:00", "email": "user42@example.com",
            "uri": "https://example.com/", "url": "https://example.com/", "uuid": "00000000-0000-4000-8000-000000000000",
            "hostname": "example.com", "ipv4": "127.0.0.1"}


def arguments_for(parameters: Mapping[str, Any] | None) -> dict[str, Any]:
    """Arguments (a dict) that validate against a tool's ``parameters`` schema.

    Args:
        parameters: an object schema (``{"type": "object", "properties": {...}, "required": [...]}``),
            possibly with ``$defs``; ``None`` or ``{}`` for a tool without parameters.

    Returns:
        a dict holding every required property (optional ones are left out).
    """
    if not parameters:
        return {}
    value = value_for(parameters, root=parameters)
    return value if isinstance(value, dict) else {}


def value_for(schema: Mapping[str, Any] | bool, *, name: str = "", root: Mapping[str, Any] | None = None,
              depth: int = 0) -> Any:
    """A value that validates against ``schema``.

    Args:
        schema: a JSON schema (``True`` / ``{}``: anything).
        name: the property name the value is for (picks course-like values).
        root: the document ``$ref`` s resolve against (default: ``schema``).
        depth: recursion depth (nested schemas deeper than 20 levels get ``None``).
    """
    root = schema if root is None and isinstance(schema, Mapping) else root
    if depth > 20 or schema is True or not isinstance(schema, Mapping):
        return _hint_string(name) if schema is True or not isinstance(schema, Mapping) else None
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return _pick_enum(schema["enum"], name)
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            options = [_resolve(s, root) for s in schema[key]]
            chosen = next((s for s in options if s.get("type") != "null"), options[0])
            merged = {**{k: v for k, v in schema.items() if k != key}, **chosen}
            return value_for(merged, name=name, root=root, depth=depth + 1)
    if schema.get("allOf"):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            part = _resolve(part, root)
            merged.setdefault("properties", {}).update(part.get("properties", {}))
            merged["required"] = [*merged.get("required", []), *part.get("required", [])]
            merged.update({k: v for k, v in part.items() if k not in ("properties", "required")})
        return value_for(merged, name=name, root=root, depth=depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        return {
            prop: value_for(sub, name=prop, root=root, depth=depth + 1)
            for prop, sub in schema.get("properties", {}).items()
            if prop in schema.get("required", [])
        }
    if kind == "array":
        return _array_for(schema, name, root, depth)
    if kind == "boolean":
        return schema.get("default", True) if isinstance(schema.get("default"), bool) else True
    if kind == "null":
        return None
    if kind in ("integer", "number"):
        return _number_for(schema, name, integer=kind == "integer")
    return _string_for(schema, name)


def _resolve(schema: Any, root: Mapping[str, Any] | None) -> Mapping[str, Any]:
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and root is not None and seen < 20:
        target: Any = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        schema = {**{k: v for k, v in schema.items() if k != "$ref"}, **target}
        seen += 1
    return schema if isinstance(schema, Mapping) else {}


def _pick_enum(options: list[Any], name: str) -> Any:
    hint = _hint_string(name)
    return hint if hint in options else options[0]


def _hint_string(name: str) -> str:
    lowered = name.lower()
    return next((value for key, value in _STRING_HINTS if key in lowered), "example")


def _string_for(schema: Mapping[str, Any], name: str) -> str:
    low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
    candidates = []
    if isinstance(schema.get("default"), str):
        candidates.append(schema["default"])
    if schema.get("format") in _FORMATS:
        candidates.append(_FORMATS[schema["format"]])
    candidates += [_hint_string(name), "example"]
    pattern = schema.get("pattern")
    if pattern:
        candidates.append(string_for_pattern(pattern))
    for candidate in candidates:
        fitted = candidate + "x" * max(0, low - len(candidate))
        if high is not None:
            fitted = fitted[: int(high)]
        if len(fitted) >= low and (not pattern or re.search(pattern, fitted)):
            return fitted
    return candidates[-1]


def _number_for(schema: Mapping[str, Any], name: str, *, integer: bool) -> int | float:
    lowered = name.lower()
    value: float = next((v for key, v in _NUMBER_HINTS if key in lowered), 1)
    if isinstance(schema.get("default"), (int, float)) and not isinstance(schema.get("default"), bool):
        value = schema["default"]
    nudge = 1 if integer else 0.01
    low = schema.get("minimum", -math.inf)
    if isinstance(schema.get("exclusiveMinimum"), (int, float)):
        low = max(low, schema["exclusiveMinimum"] + nudge)
    high = schema.get("maximum", math.inf)
    if isinstance(schema.get("exclusiveMaximum"), (int, float)):
        high = min(high, schema["exclusiveMaximum"] - nudge)
    value = min(max(value, low), high)
    if schema.get("multipleOf"):
        multiple = schema["multipleOf"]
        value = math.ceil(value / multiple) * multiple
        if value > high:
            value -= multiple
    if integer:
        return int(math.ceil(value) if math.ceil(value) <= high else math.floor(value))
    return float(value)


def _array_for(schema: Mapping[str, Any], name: str, root: Mapping[str, Any] | None, depth: int) -> list[Any]:
    low = int(schema.get("minItems", 0))
    high = schema.get("maxItems")
    count = max(low, 1)
    if high is not None:
        count = min(count, int(high))
    singular = name[:-1] if name.endswith("s") else name
    items = schema.get("items", {})
    if isinstance(schema.get("prefixItems"), list):
        return [value_for(s, name=singular, root=root, depth=depth + 1) for s in schema["prefixItems"]][: max(count, 1)]
    values = [value_for(items, name=singular, root=root, depth=depth + 1) for _ in range(count)]
    if schema.get("uniqueItems") and count > 1:
        resolved = _resolve(items, root)
        if resolved.get("enum"):
            values = list(resolved["enum"][:count])
        else:
            values = [v if i == 0 else _distinct(v, i) for i, v in enumerate(values)]
    return values


def _distinct(value: Any, index: int) -> Any:
    if isinstance(value, str):
        return f"{value}-{index}"
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + index
    return value


# -- a string for a simple regular expression ---------------------------------------------

try:  # Python 3.11+
    from re import _constants as _c, _parser as _sre
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _sre  # type: ignore[no-redef]


def string_for_pattern(pattern: str) -> str:
    """A short string that ``re.search(pattern, ...)`` accepts (simple patterns: literals, classes, repeats).

    Returns ``""`` when the pattern is beyond this small generator (backreferences, look-arounds).
    """
    try:
        text = _generate(_sre.parse(pattern))
    except Exception:  # noqa: BLE001 - an unparseable pattern gets the fallback
        return ""
    return text if re.search(pattern, text) else ""


def _generate(parsed: Any) -> str:
    out = []
    for op, av in parsed:
        if op is _c.LITERAL:
            out.append(chr(av))
        elif op is _c.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op is _c.ANY:
            out.append("a")
        elif op is _c.IN:
            out.append(_char_in(av))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            count = low if low > 0 else (1 if high != 0 else 0)
            out.append(_generate(sub) * count)
        elif op is _c.SUBPATTERN:
            out.append(_generate(av[-1]))
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            out.append(_generate(av))
        elif op is _c.BRANCH:
            out.append(_generate(av[1][0]))
        elif op is _c.CATEGORY:
            out.append(_category_char(av))
        elif op is _c.AT:
            continue
        else:
            raise ValueError(f"unsupported regex construct {op}")
    return "".join(out)


def _category_char(category: Any) -> str:
    return {_c.CATEGORY_DIGIT: "1", _c.CATEGORY_NOT_DIGIT: "a", _c.CATEGORY_WORD: "a", _c.CATEGORY_NOT_WORD: "-",
            _c.CATEGORY_SPACE: " ", _c.CATEGORY_NOT_SPACE: "a"}.get(category, "a")


def _char_in(items: list[tuple[Any, Any]]) -> str:
    if items and items[0][0] is _c.NEGATE:
        allowed = [(op, av) for op, av in items[1:]]
        for candidate in "a1A_-x9Z":
            if not any(_matches(candidate, op, av) for op, av in allowed):
                return candidate
        return "~"
    for op, av in items:
        if op is _c.LITERAL:
            return chr(av)
        if op is _c.RANGE:
            low, high = av
            for preferred in "A1a":
                if low <= ord(preferred) <= high:
                    return preferred
            return chr(low)
        if op is _c.CATEGORY:
            return _category_char(av)
    return "a"


def _matches(char: str, op: Any, av: Any) -> bool:
    if op is _c.LITERAL:
        return char == chr(av)
    if op is _c.RANGE:
        return av[0] <= ord(char) <= av[1]
    if op is _c.CATEGORY:
        return bool(re.match({_c.CATEGORY_DIGIT: r"\d", _c.CATEGORY_WORD: r"\w", _c.CATEGORY_SPACE: r"\s"}.get(av, r"$^"), char))
    return False
