"""The loopback provider and ``response_format`` (issue 19, notebook 15's live track).

A model asked for a JSON schema answers with JSON that fits it, also right after a tool result
(``create_agent(..., response_format=ProviderStrategy(...))`` parses that answer as its structured
response, langchain 1.5.2); ``honours_response_format = False`` plays a provider that ignores the
option, and notebook 15's live cell still runs to its end against it, saying so.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import jsonschema
import pytest
from langchain.agents import create_agent
from langchain.agents.structured_output import ProviderStrategy, StructuredOutputValidationError
from langchain_core.tools import tool
from pydantic import BaseModel, Field

from helpers.model.loopback_openai import LOOPBACK_KEY, LoopbackOpenAI, plan_reply, structured_content

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "15_structured_output_and_tools.ipynb"


class RefundDecision(BaseModel):
    """The refund desk's decision on one order."""

    order_id: str
    approve: bool
    amount: float = Field(ge=0)
    note: str | None = None


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    return f"Order {order_id}: delivered damaged."


def _schema_body(last: dict) -> dict:
    schema = RefundDecision.model_json_schema()
    return {
        "model": "loopback-model",
        "tools": [{"type": "function", "function": {"name": "lookup_order", "parameters": {
            "type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "RefundDecision", "schema": schema}},
        "messages": [
            {"role": "user", "content": "Decide on the refund for order A1024."},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
                "name": "lookup_order", "arguments": '{"order_id": "A1024"}'}}]},
            last,
        ],
    }


def test_the_answer_after_a_tool_result_fits_the_response_schema():
    body = _schema_body({"role": "tool", "tool_call_id": "call_1", "content": "delivered damaged"})
    message, finish = plan_reply(body, "call_x")
    assert finish == "stop" and "tool_calls" not in message
    jsonschema.validate(json.loads(message["content"]), RefundDecision.model_json_schema())


def test_structured_content_is_none_without_a_schema():
    assert structured_content({"messages": []}) is None
    assert structured_content({"response_format": {"type": "text"}}) is None
    assert json.loads(structured_content({"response_format": {"type": "json_object"}})) == {"answer": "ok"}


def _agent(server: LoopbackOpenAI):
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="gpt-4.1", base_url=server.base_url, api_key=LOOPBACK_KEY, max_retries=0)
    return create_agent(model, tools=[lookup_order], response_format=ProviderStrategy(RefundDecision))


def test_a_provider_strategy_agent_gets_its_structured_response():
    with LoopbackOpenAI() as server:
        result = _agent(server).invoke({"messages": [{"role": "user", "content": "Refund order A1024?"}]})
        bodies = server.bodies
    assert isinstance(result["structured_response"], RefundDecision)
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]
    assert all("response_format" in body for body in bodies) and len(bodies) == 2


def test_a_provider_that_ignores_response_format_answers_in_text():
    with LoopbackOpenAI() as server:
        server.honours_response_format = False
        with pytest.raises(StructuredOutputValidationError):
            _agent(server).invoke({"messages": [{"role": "user", "content": "Refund order A1024?"}]})
        assert "response_format" in server.bodies[-1]  # sent, and ignored


def _run_cells(markers: tuple[str, ...], namespace: dict) -> str:
    """Execute notebook 15's code cells that contain one of ``markers``, in order; return what they printed."""
    cells = [cell for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
             if cell["cell_type"] == "code" and any(marker in "".join(cell["source"]) for marker in markers)]
    assert len(cells) == len(markers), f"notebook 15: expected one cell per marker of {markers}"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for cell in cells:
            exec(compile("".join(cell["source"]), "notebook 15", "exec"), namespace)  # noqa: S102 - the course's own cells
    return printed.getvalue()


def test_notebook_14s_live_cell_runs_to_its_end_when_the_provider_ignores_response_format(monkeypatch):
    from helpers.model.live import is_live, live_verdict

    with LoopbackOpenAI() as server:
        server.honours_response_format = False
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        namespace: dict = {"__name__": "notebook_14"}
        printed = _run_cells(("class RefundDecision", "def act_on", "live_verdict("), namespace)
        bodies = server.bodies
    assert is_live(namespace["model"])
    assert any(body.get("response_format") for body in bodies)  # sent, and ignored
    assert "no structured response: your provider answered in prose, not in the schema" in printed
    assert "the application: no decision: send the case to a person" in printed
    verdict = live_verdict(namespace["result"], namespace["model"], expect_tools=["lookup_order"])
    assert verdict.live and verdict.as_expected
