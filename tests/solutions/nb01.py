"""Reference solutions and known-wrong answers for notebook 01 (exercise 01.1)."""

import re
from typing import Annotated

from langchain.tools import tool
from pydantic import BaseModel, Field

from helpers.exercises.registry import AnswerSet, KnownWrong


def with_args_schema():
    class Args(BaseModel):
        order_id: str = Field(description="Order id like A1024", pattern=r"^[A-Z]\d{4}$")
        amount: float = Field(description="Amount to refund, at most 5000 per request", gt=0, le=5000)
        reason: str = Field(description="Why the customer wants a refund", max_length=200)

    @tool(args_schema=Args)
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        """Create a refund request for one order. It does not send money: a reviewer decides."""
        return f"refund request for {order_id}: {amount:.2f}"

    return request_refund


def with_annotated():
    @tool
    def request_refund(
        order_id: Annotated[str, Field(description="Order id like A1024", pattern=r"^[A-Z]\d{4}$")],
        amount: Annotated[float, Field(description="Amount to refund", gt=0, le=5000)],
        reason: Annotated[str, Field(description="Why the customer wants a refund", max_length=200)],
    ) -> str:
        """Create a refund request. This tool doesn't send money; it files the request for review."""
        return f"request created for {order_id}"

    return request_refund


def with_parse_docstring():
    @tool(parse_docstring=True)
    def request_refund(
        order_id: Annotated[str, Field(pattern=r"^[A-Z]\d{4}$")],
        amount: Annotated[float, Field(gt=0, le=5000)],
        reason: Annotated[str, Field(max_length=200)],
    ) -> str:
        """File a refund request for review, without sending any money.

        Args:
            order_id: The order id, e.g. A1024.
            amount: The amount to refund.
            reason: The customer's reason.
        """
        return "filed"

    return request_refund


SOLUTIONS = {"args_schema": with_args_schema, "annotated": with_annotated, "parse_docstring": with_parse_docstring}


def _with(description: str, *, order=r"^[A-Z]\d{4}$", amount=None, reason_max=200):
    bounds = amount or {"gt": 0, "le": 5000}

    class Args(BaseModel):
        order_id: str = Field(description="Order id", pattern=order) if order else Field(description="Order id")
        amount: float = Field(description="Amount", **bounds)
        reason: str = Field(description="Reason", max_length=reason_max) if reason_max else Field(description="Reason")

    @tool(args_schema=Args, description=description)
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        return "ok"

    return request_refund


def _plain_docstring():
    @tool
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        """Create a refund request. It does not send money.

        Args:
            order_id: The order id.
            amount: The amount.
            reason: The reason.
        """
        return "ok"

    return request_refund


def _validates_in_the_body():
    @tool
    def request_refund(order_id: Annotated[str, "Order id like A1024"], amount: Annotated[float, "Amount, must be > 0"],
                       reason: Annotated[str, "Why"]) -> str:
        """Create a refund request. It does not send money."""
        if amount <= 0 or amount > 5000 or len(reason) > 200 or not re.fullmatch(r"[A-Z]\d{4}", order_id):
            raise ValueError("bad arguments")
        return "ok"

    return request_refund


def _returns_function():
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        return "ok"

    return request_refund


def _crashing_factory():
    """A factory that crashes before it builds the tool."""
    return {}["request_refund"]


_CONTRACT = "the description is a contract: a request, no money sent"
_SCHEMA = "the constraints are in the schema the model sees"

REFUND_TOOL = AnswerSet(
    solutions=SOLUTIONS,
    wrong={
        "Args block left in the description": KnownWrong(_plain_docstring, fails=("every argument is described", _CONTRACT)),
        "validation inside the function body": KnownWrong(_validates_in_the_body, fails=(_SCHEMA, "amount 0 is rejected")),
        "description promises money": KnownWrong(lambda: _with("Refund the customer's money right away."),
                                                 fails=(_CONTRACT,)),
        "says no but pays": KnownWrong(
            lambda: _with("Create a refund request. No review: this pays out the money instantly."), fails=(_CONTRACT,)),
        "never mentions a request": KnownWrong(lambda: _with("Handle refunds. It does not send money."), fails=(_CONTRACT,)),
        "a plain function, not a tool": KnownWrong(_returns_function, fails=("it is a tool named request_refund",)),
        "amount 0 allowed": KnownWrong(
            lambda: _with("Create a refund request. It does not send money.", amount={"ge": 0, "le": 5000}),
            fails=(_SCHEMA, "amount 0 is rejected")),
        "no upper bound": KnownWrong(lambda: _with("Create a refund request. It does not send money.", amount={"gt": 0}),
                                     fails=(_SCHEMA, "amount 5000.5 is rejected")),
        "no order id pattern": KnownWrong(lambda: _with("Create a refund request. It does not send money.", order=None),
                                          fails=(_SCHEMA, "a malformed order id is rejected")),
        # issue 27: Field(pattern=...) searches, it does not match the whole id; 'order 1024', the only malformed
        # id of the named cases, has no capital letter before its digits, so this passed them all
        "pattern without ^ and $": KnownWrong(
            lambda: _with("Create a refund request. It does not send money.", order=r"[A-Z]\d{4}"),
            fails=("agrees with the reference on generated calls",), status="fail"),
        "reason unbounded": KnownWrong(lambda: _with("Create a refund request. It does not send money.", reason_max=None),
                                       fails=(_SCHEMA, "a 201-character reason is rejected")),
    },
    crashing={"factory raises KeyError": _crashing_factory},
    answer_from=lambda body: lambda: body(),
)
