"""Verifiers of notebook 01's self-check questions (``helpers/selfcheck/nb01.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import json

import pytest

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import (
    cells,
    context_namespace,
    run_snippet,
    source,
)


def verify_what_the_model_receives(q):
    from langchain.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langchain_openai import ChatOpenAI

    @tool
    def lookup_order(order_id: str) -> dict:
        """Look up one order of the current customer by its id (e.g. A1024)."""
        return {"order_id": order_id}

    sent = ChatOpenAI(model="gpt-4o-mini", api_key="not-used").bind_tools([lookup_order]).kwargs["tools"]
    assert sent == [convert_to_openai_tool(lookup_order)]
    function = sent[0]["function"]
    assert set(function) == {"name", "description", "parameters"}
    assert function["description"] == lookup_order.description and list(function["parameters"]["properties"]) == ["order_id"]
    assert "dict" not in json.dumps(function) and "return" not in json.dumps(function)
    return pick(q, "JSON Schema")


def verify_signature_out_of_step(q):
    from langchain.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import BaseModel, Field

    class QuoteArgs(BaseModel):
        order_id: str = Field(description="Order id, e.g. A1024")
        amount: float = Field(description="Amount to quote", gt=0)

    @tool(args_schema=QuoteArgs)  # defining it raises nothing
    def quote_refund(order_id: str, refund_amount: float) -> str:
        """Quote a refund for one order of the current customer."""
        return f"{order_id}: {refund_amount:.2f}"

    assert list(convert_to_openai_tool(quote_refund)["function"]["parameters"]["properties"]) == ["order_id", "amount"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'amount'"):
        quote_refund.invoke({"order_id": "A1024", "amount": 20})
    return pick(q, "At every call")


def verify_snapshot_blind_spot(q):
    from typing import Literal

    from langchain.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import Field, create_model

    ns = context_namespace("01")
    # the notebook's own comparer (section 6's cell: SNAPSHOT of request_refund, breaking_changes)
    cell = next(c for c in cells("01") if "def breaking_changes" in source(c))
    run_snippet(source(cell), ns, "notebook 01 breaking_changes")
    breaking_changes, snapshot = ns["breaking_changes"], ns["SNAPSHOT"]
    reasons = Literal["damaged", "not_as_described", "changed_mind", "other"]

    def schema(**changed_fields) -> dict:
        fields = {"order_id": (str, Field(description="Order id", pattern=r"^[A-Z]\d{4}$")),
                  "amount": (float, Field(description="Amount to refund, in the order currency", gt=0)),
                  "reason": (reasons, Field(description="Why the customer wants a refund"))}
        fields.update(changed_fields)
        args = create_model("Args", **{name: spec for name, spec in fields.items() if spec is not None})

        @tool("request_refund", args_schema=args)
        def changed(**kwargs) -> str:
            """Create a refund REQUEST for one order of the current customer. It does not send money."""
            return ""

        return convert_to_openai_tool(changed)

    changes = {
        "cents": schema(amount=(float, Field(description="Amount to refund, in cents", gt=0))),
        "renamed refund_amount": schema(amount=None, refund_amount=(float, Field(description="Amount", gt=0))),
        "currency": schema(currency=(str, Field(description="ISO currency code"))),
        "maximum of 1000": schema(amount=(float, Field(description="Amount to refund", gt=0, le=1000))),
    }
    unreported = [name for name, new in changes.items() if not breaking_changes(snapshot, new)]
    assert unreported == ["cents"], unreported
    return pick(q, "cents")
