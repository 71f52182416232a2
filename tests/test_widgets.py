"""The "you are the model" widget, driven headless through its plain methods and its button."""

from __future__ import annotations

import json

import pytest
from langchain.tools import tool

from helpers.widgets import YouAreTheModel

RUNS: list[str] = []


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order by id."""
    RUNS.append(order_id)
    if order_id != "A1024":
        raise LookupError(f"order {order_id} does not exist")
    return "A1024: delivered"


@tool
def quote_refund(order_id: str, amount: float) -> str:
    """Quote a refund."""
    return f"{order_id}: {amount}"


@pytest.fixture
def widget():
    RUNS.clear()
    return YouAreTheModel([lookup_order, quote_refund])


def test_starts_with_the_first_tool_and_its_argument_skeleton(widget):
    assert widget.tool_picker.options == ("lookup_order", "quote_refund")
    assert json.loads(widget.arguments.value) == {"order_id": ""}
    assert "what the model sees for <code>lookup_order</code>" in widget.schema_view.value
    assert "No tool call sent yet" in widget.reply_view.value


def test_choosing_a_tool_resets_the_skeleton_and_schema(widget):
    widget.choose("quote_refund")
    assert json.loads(widget.arguments.value) == {"order_id": "", "amount": 0}
    assert "&quot;amount&quot;" in widget.schema_view.value


def test_unbound_tool_cannot_be_chosen(widget):
    with pytest.raises(ValueError, match="'refund_everything' is not bound; bound tools: lookup_order, quote_refund"):
        widget.choose("refund_everything")


def test_a_valid_call_runs_and_is_answered_with_the_same_id(widget):
    widget.set_arguments('{"order_id": "A1024"}')
    turn = widget.send()
    assert turn.outcome == "ran"
    assert turn.ai_message.tool_calls == [{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"}]
    assert [(m.tool_call_id, m.status, m.content) for m in turn.tool_messages] == [("call_1", "success", "A1024: delivered")]
    assert RUNS == ["A1024"]
    assert "ToolMessage(tool_call_id=call_1, status=success): A1024: delivered" in widget.reply_view.value
    assert "data-outcome='ran'" in widget.reply_view.value


def test_arguments_that_are_not_json_become_an_invalid_call_and_nothing_runs(widget):
    widget.set_arguments('{"order_id": A1024}')
    turn = widget.send()
    assert turn.outcome == "invalid_json"
    assert turn.ai_message.tool_calls == []
    assert turn.ai_message.invalid_tool_calls[0]["args"] == '{"order_id": A1024}'
    assert turn.tool_messages == [] and RUNS == []


def test_a_json_array_is_not_a_valid_argument_object(widget):
    widget.set_arguments("[1, 2]")
    assert widget.send().outcome == "invalid_json"


def test_a_missing_argument_gets_an_error_tool_message_from_toolnode(widget):
    widget.choose("quote_refund")
    widget.set_arguments('{"order_id": "A1024"}')
    turn = widget.send()
    assert turn.outcome == "argument_error"
    (message,) = turn.tool_messages
    assert message.status == "error" and message.tool_call_id == "call_1"
    assert "amount: Field required" in message.content


def test_a_tool_exception_stops_the_run_and_is_shown_not_raised(widget):
    widget.set_arguments('{"order_id": "Z9999"}')
    turn = widget.send()
    assert turn.outcome == "tool_raised"
    assert turn.error == "LookupError: order Z9999 does not exist"
    assert turn.tool_messages == []
    assert "The run stopped: LookupError: order Z9999 does not exist" in widget.reply_view.value


def test_the_button_sends_and_ids_count_up(widget):
    widget.set_arguments('{"order_id": "A1024"}')
    widget.send_button.click()
    widget.send_button.click()
    assert [t.ai_message.tool_calls[0]["id"] for t in widget.turns] == ["call_1", "call_2"]


def test_handlers_print_nothing(widget, capsys):
    widget.choose("quote_refund")
    widget.set_arguments("not json")
    widget.send_button.click()
    assert capsys.readouterr().out == ""


def test_needs_tools():
    with pytest.raises(ValueError, match="at least one tool"):
        YouAreTheModel([])


def test_absurdly_deep_json_is_invalid_not_a_crash(widget):
    widget.set_arguments("[" * 100000 + "]" * 100000)
    assert widget.send().outcome == "invalid_json"


def test_a_lone_surrogate_is_escaped_before_it_reaches_the_browser():
    @tool
    def echo(text: str) -> str:
        """Echo the text."""
        return text

    widget = YouAreTheModel([echo])
    widget.set_arguments('{"text": "\\ud800"}')
    widget.send()
    widget.reply_view.value.encode("utf-8")  # would raise UnicodeEncodeError, as jupyter_client does
    assert "\\ud800" in widget.reply_view.value


def test_no_memory_address_from_a_tool_returning_an_object():
    class Receipt:
        pass

    @tool
    def make_receipt(order_id: str) -> object:
        """Make a receipt."""
        return Receipt()

    widget = YouAreTheModel([make_receipt])
    widget.set_arguments('{"order_id": "A1024"}')
    turn = widget.send()
    assert " at 0x" not in turn.summary() and " at 0x" not in widget.reply_view.value
