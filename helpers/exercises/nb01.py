"""Exercises of notebook 01 (function to tool).

The generated check compares the learner's tool with :func:`make_request_refund_tool` (the reference) on
generated batches of one to three calls, as a model might send them: order ids that match the pattern,
and ids with a letter or digit too many or too few, a prefix or a space around them; amounts on both
sides of 0 and 5000 (in cents); reasons of 1 to 300 characters, non-ASCII ones too; an argument left
out. The outcome of a call is whether the tool accepted it (a confirmation string) or its schema
rejected it (a pydantic ``ValidationError``).
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st
from langchain.tools import tool
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field, ValidationError

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["CALLS", "REFUND_TOOL", "make_request_refund_tool"]

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


# -- the reference and the generated calls ------------------------------------------------------------


class RefundRequestArgs(BaseModel):
    """The reference's argument schema: the constraints the model sees and the tool enforces."""

    order_id: str = Field(description="The order id, a capital letter and four digits, like A1024",
                          pattern=r"^[A-Z]\d{4}$")
    amount: float = Field(description="The amount to refund, more than 0 and at most 5000", gt=0, le=5000)
    reason: str = Field(description="Why the customer wants a refund, at most 200 characters", max_length=200)


def make_request_refund_tool() -> BaseTool:
    """The reference: ``request_refund`` with its constraints in the argument schema."""

    @tool(args_schema=RefundRequestArgs)
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        """Create a refund request for one order. It does not send money: a reviewer decides."""
        return f"refund request for {order_id}: {amount:.2f}"

    return request_refund


#: Values a model may send, within the rules and just outside them (amounts in cents).
VALID_IDS = ("A1024", "Z0000", "B9999")
BAD_IDS = ("A10245", "A102", "AA1024", "1024", "A-1024", "xA1024", "A1024 ", " A1024")
VALID_AMOUNTS = (49.5, 0.01, 5000.0, 4999.99, 1)
BAD_AMOUNTS = (0, -0.01, -1, 5000.01, 5001, 1000000.0)
VALID_LENGTHS = (42, 1, 199, 200)
BAD_LENGTHS = (201, 300)
REASON_CHARACTERS = ("x", "é", "退")
ARGUMENTS = ("order_id", "amount", "reason")
#: What one call gets wrong, if anything: one argument just outside its rule, or one argument left out.
_WRONG_VALUES = {"order_id": BAD_IDS, "amount": BAD_AMOUNTS, "reason": BAD_LENGTHS, "left out": ARGUMENTS}
_TWIST = st.tuples(st.sampled_from(tuple(_WRONG_VALUES)), st.integers(0, 7)).map(
    lambda twist: (twist[0], _WRONG_VALUES[twist[0]][twist[1] % len(_WRONG_VALUES[twist[0]])]))
_CALL = st.tuples(st.sampled_from(VALID_IDS), st.sampled_from(VALID_AMOUNTS), st.sampled_from(VALID_LENGTHS),
                  st.sampled_from(REASON_CHARACTERS), st.one_of(st.none(), _TWIST))
#: A generated batch's spec: one to three calls ``(order_id, amount, reason length, reason character, twist)``.
CALLS = st.lists(_CALL, min_size=1, max_size=3).map(tuple)


def _arguments(call: tuple) -> dict[str, Any]:
    order_id, amount, length, character, twist = call
    kind, value = twist or (None, None)
    args = {"order_id": value if kind == "order_id" else order_id, "amount": value if kind == "amount" else amount,
            "reason": character * (value if kind == "reason" else length)}
    if kind == "left out":
        del args[value]
    return args


def _calls_outcome(answer: Any, spec: tuple) -> tuple:
    made = _tool(answer)  # the factory runs once per batch: a fresh tool
    outcomes = []
    for call in spec:
        try:
            result = made.invoke(_arguments(call))
        except ValidationError:
            outcomes.append("rejected")
            continue
        outcomes.append("accepted" if isinstance(result, str) and result.strip() else f"returned {shown(result, 60)}")
    return tuple(outcomes)


def _describe_calls(spec: tuple) -> str:
    def one(call: tuple) -> str:
        args = _arguments(call)
        shown_args = [f"{name}={args[name]!r}" for name in ("order_id", "amount") if name in args]
        if "reason" in args:
            shown_args.append(_("reason of {count} characters ({character!r} each)").format(
                count=len(args["reason"]), character=call[3]))
        return ", ".join(shown_args)

    return _("the calls {calls} (in order; an argument not listed was left out)").format(
        calls="; ".join(f"[{one(call)}]" for call in spec))


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
    generated=Generated(
        "agrees with the reference on generated calls", CALLS, _calls_outcome, make_request_refund_tool,
        _describe_calls, hint=N_("accept exactly what the exercise allows: order ids of one capital letter and "
                                 "four digits, nothing around them (anchor the pattern: ^...$), amounts above 0 up "
                                 "to 5000, reasons up to 200 characters, every argument required"),
        examples=50),  # batches of one to three calls: about 100 calls, one tool built per batch
)
