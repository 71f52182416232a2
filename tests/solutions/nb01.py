"""Reference solutions and known-wrong answers for notebook 01 (exercise 01.1)."""

from typing import Annotated

from langchain.tools import tool
from pydantic import BaseModel, Field


def with_args_schema():
    class Args(BaseModel):
        order_id: str = Field(description="Order id like A1024", pattern=r"^[A-Z]\d{4}$")
        amount: float = Field(description="Amount to refund", gt=0)
        reason: str = Field(description="Why the customer wants a refund")

    @tool(args_schema=Args)
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        """Create a refund request for one order. It does not send money: a reviewer decides."""
        return f"refund request for {order_id}: {amount:.2f}"

    return request_refund


def with_annotated():
    @tool
    def request_refund(
        order_id: Annotated[str, Field(description="Order id like A1024", pattern=r"^[A-Z]\d{4}$")],
        amount: Annotated[float, Field(description="Amount to refund", gt=0)],
        reason: Annotated[str, "Why the customer wants a refund"] = "other",
    ) -> str:
        """Create a refund request. It never transfers money by itself."""
        return f"request created for {order_id}"

    return request_refund


SOLUTIONS = {"args_schema": with_args_schema, "annotated": with_annotated}


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


def _no_constraints():
    @tool(parse_docstring=True)
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        """Create a refund request. It does not send money.

        Args:
            order_id: The order id.
            amount: The amount.
            reason: The reason.
        """
        return "ok"

    return request_refund


def _promises_money():
    @tool
    def request_refund(
        order_id: Annotated[str, Field(description="Order id", pattern=r"^[A-Z]\d{4}$")],
        amount: Annotated[float, Field(description="Amount", gt=0)],
        reason: Annotated[str, "Reason"],
    ) -> str:
        """Refund the customer's money right away."""
        return "ok"

    return request_refund


def _wrong_name():
    @tool("refund")
    def request_refund(
        order_id: Annotated[str, Field(description="Order id", pattern=r"^[A-Z]\d{4}$")],
        amount: Annotated[float, Field(description="Amount", gt=0)],
        reason: Annotated[str, "Reason"],
    ) -> str:
        """Create a refund request. It does not send money."""
        return "ok"

    return request_refund


def _returns_function():
    def request_refund(order_id: str, amount: float, reason: str) -> str:
        return "ok"

    return request_refund


def _ge_zero():
    @tool
    def request_refund(
        order_id: Annotated[str, Field(description="Order id", pattern=r"^[A-Z]\d{4}$")],
        amount: Annotated[float, Field(description="Amount", ge=0)],
        reason: Annotated[str, "Reason"],
    ) -> str:
        """Create a refund request. It does not send money."""
        return "ok"

    return request_refund


WRONG = {
    "Args block left in the description": _plain_docstring,
    "no validation": _no_constraints,
    "description promises money": _promises_money,
    "wrong tool name": _wrong_name,
    "a plain function, not a tool": _returns_function,
    "amount 0 allowed": _ge_zero,
}
