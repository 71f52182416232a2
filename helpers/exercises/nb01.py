"""Exercises of notebook 01 (function to tool)."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ValidationError

from ..i18n import _
from .core import Case, Exercise
from .results import shown

__all__ = ["REFUND_TOOL"]

_VALID = {"order_id": "A1024", "amount": 49.5, "reason": "The left ear cup crackles."}
_NEGATION = r"(?:not|never|no|doesn't|does not|don't|won't|will not|without|cannot|can't|nor)"
_MONEY = r"(?:money|funds|payment|payout|pay|pays|paying|transfer|transfers|refund the customer)"


def _tool(answer: Any) -> BaseTool:
    made = answer if isinstance(answer, BaseTool) else answer()
    assert isinstance(made, BaseTool), (
        _("make_request_refund_tool() returned a {type}; return the object @tool builds (a BaseTool)").format(
            type=type(made).__name__)
    )
    return made


def _params(answer: Any) -> dict[str, Any]:
    return convert_to_openai_tool(_tool(answer))["function"]["parameters"]


def _rejects(answer: Any, args: dict[str, Any], what: str) -> None:
    made = _tool(answer)
    try:
        made.invoke(args)
    except ValidationError:
        return
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(
            _("{what} reached your function, which raised {type}; put the constraint in the argument schema "
              "(Field(...)) so the tool rejects it before your function runs").format(
                  what=what, type=type(exc).__name__)
        ) from None
    raise AssertionError(_("the tool accepted {what}; add a constraint to the argument schema").format(what=what))


def _is_tool(answer: Any) -> None:
    made = _tool(answer)
    assert made.name == "request_refund", _("the tool is named {name}; name it 'request_refund'").format(
        name=shown(made.name))


def _has_args(answer: Any) -> None:
    params = _params(answer)
    missing = [a for a in ("order_id", "amount", "reason") if a not in params.get("properties", {})]
    assert not missing, _("the schema has no argument(s) {missing}").format(missing=missing)
    required = set(params.get("required", []))
    assert {"order_id", "amount", "reason"} <= required, _("order_id, amount and reason must all be required (no defaults)")


def _described(answer: Any) -> None:
    props = _params(answer)["properties"]
    bare = sorted(name for name, spec in props.items() if not spec.get("description"))
    assert not bare, (
        _("argument(s) {bare} have no description in the schema; use parse_docstring=True, Annotated[..., "
          "'text'] or Field(description=...)").format(bare=shown(bare))
    )


def _constraints_visible(answer: Any) -> None:
    props = _params(answer)["properties"]
    assert "pattern" in props["order_id"], _("order_id has no pattern in the schema the model sees")
    amount = props["amount"]
    assert amount.get("exclusiveMinimum") == 0 or (amount.get("minimum") or 0) > 0, (
        _("amount has no lower bound above 0 in the schema (Field(gt=0))")
    )
    assert amount.get("maximum") == 5000 or amount.get("exclusiveMaximum") == 5000.01, (
        _("amount has no upper bound of 5000 in the schema (Field(le=5000))")
    )
    assert props["reason"].get("maxLength") == 200, _("reason has no maxLength of 200 in the schema (Field(max_length=200))")


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;:])\s+|\n+", text.lower()) if s.strip()]


def _description_contract(answer: Any) -> None:
    text = _tool(answer).description
    assert "Args:" not in text, _("the description still contains the Args: block; parse it with parse_docstring=True")
    sentences = _sentences(text)
    assert any("request" in s for s in sentences), _("say that the tool creates a refund *request*")
    denies = [s for s in sentences if re.search(_MONEY, s) and re.search(rf"\b{_NEGATION}\b", s)]
    claims = [s for s in sentences if re.search(_MONEY, s) and not re.search(rf"\b{_NEGATION}\b", s)]
    assert not claims, _("this sentence promises that money moves: {sentence}").format(
        sentence=shown(claims[0].strip()))
    assert denies, _("say that the tool does not send money (e.g. 'It does not send money.')")


def _valid_call(answer: Any) -> None:
    result = _tool(answer).invoke(dict(_VALID))
    assert isinstance(result, str) and result.strip(), _("a valid call should return a short confirmation string, got {result}").format(
        result=shown(result))
    at_limit = _tool(answer).invoke({**_VALID, "amount": 5000})
    assert isinstance(at_limit, str), _("an amount of exactly 5000 is allowed")


REFUND_TOOL = Exercise(
    "01.1",
    "a refund-request tool with a safe schema",
    [
        Case("it is a tool named request_refund", _is_tool),
        Case("arguments order_id, amount and reason, all required", _has_args),
        Case("every argument is described", _described),
        Case("the constraints are in the schema the model sees", _constraints_visible),
        Case("the description is a contract: a request, no money sent", _description_contract),
        Case("valid calls (including amount 5000) return a confirmation", _valid_call),
        Case("amount 0 is rejected", lambda f: _rejects(f, {**_VALID, "amount": 0}, "amount=0")),
        Case("amount 5000.5 is rejected", lambda f: _rejects(f, {**_VALID, "amount": 5000.5}, "amount=5000.5")),
        Case("a malformed order id is rejected", lambda f: _rejects(f, {**_VALID, "order_id": "order 1024"}, "order_id='order 1024'")),
        Case("a 201-character reason is rejected", lambda f: _rejects(f, {**_VALID, "reason": "x" * 201}, _("a 201-character reason"))),
    ],
    probe=lambda answer: _tool(answer),
)
