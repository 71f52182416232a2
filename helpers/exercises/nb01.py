"""Exercises of notebook 01 (function to tool)."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from .core import Case, Exercise

__all__ = ["REFUND_TOOL"]

_VALID = {"order_id": "A1024", "amount": 49.5, "reason": "damaged"}


def _tool(factory: Any) -> BaseTool:
    made = factory()
    assert isinstance(made, BaseTool), (
        f"make_request_refund_tool() returned a {type(made).__name__}; return the object @tool builds (a BaseTool)"
    )
    return made


def _params(factory: Any) -> dict[str, Any]:
    return convert_to_openai_tool(_tool(factory))["function"]["parameters"]


def _rejects(factory: Any, args: dict[str, Any], what: str) -> None:
    made = _tool(factory)
    try:
        made.invoke(args)
    except Exception:  # noqa: BLE001 - any validation error is a rejection
        return
    raise AssertionError(f"the tool accepted {what}; add a constraint so the tool rejects it before your function runs")


def _is_tool(factory: Any) -> None:
    made = _tool(factory)
    assert made.name == "request_refund", f"the tool is named {made.name!r}; name it 'request_refund'"


def _has_args(factory: Any) -> None:
    params = _params(factory)
    missing = [a for a in ("order_id", "amount", "reason") if a not in params.get("properties", {})]
    assert not missing, f"the schema has no argument(s) {missing}"
    required = set(params.get("required", []))
    assert {"order_id", "amount"} <= required, "order_id and amount must be required (no default)"


def _described(factory: Any) -> None:
    props = _params(factory)["properties"]
    bare = sorted(name for name, spec in props.items() if not spec.get("description"))
    assert not bare, (
        f"argument(s) {bare} have no description in the schema; use parse_docstring=True, "
        "Annotated[..., 'text'] or Field(description=...)"
    )


def _description_contract(factory: Any) -> None:
    text = _tool(factory).description
    assert "Args:" not in text, "the description still contains the Args: block; parse it with parse_docstring=True"
    lower = text.lower()
    assert "request" in lower, "say that the tool creates a refund *request*"
    assert re.search(r"\b(not|n't|never|no)\b[^.]{0,40}\b(money|pay|payment|transfer|funds)", lower), (
        "say that the tool does not send money (e.g. 'It does not send money.')"
    )


def _valid_call(factory: Any) -> None:
    result = _tool(factory).invoke(dict(_VALID))
    assert isinstance(result, str) and result.strip(), f"a valid call should return a short confirmation string, got {result!r}"


REFUND_TOOL = Exercise(
    "01.1",
    "a refund-request tool with a safe schema",
    [
        Case("it is a tool named request_refund", _is_tool),
        Case("arguments order_id, amount (required) and reason", _has_args),
        Case("every argument is described", _described),
        Case("the description is a contract: a request, no money sent", _description_contract),
        Case("a valid call returns a confirmation", _valid_call),
        Case("amount 0 is rejected", lambda f: _rejects(f, {**_VALID, "amount": 0}, "amount=0")),
        Case("a negative amount is rejected", lambda f: _rejects(f, {**_VALID, "amount": -20}, "amount=-20")),
        Case("a malformed order id is rejected", lambda f: _rejects(f, {**_VALID, "order_id": "order 1024"}, "order_id='order 1024'")),
    ],
    probe=lambda factory: factory(),
)
