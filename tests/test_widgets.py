""""You are the model" (notebook 02): the engine driven headless, then the view on top of it."""

from __future__ import annotations

import json

import pytest
from langchain.tools import tool

from helpers.widgets import TurnOutcome, YouAreTheModel
from helpers.widgets.engines import YouAreTheModelEngine
from helpers.widgets.engines.you_are_the_model import HISTORY_LENGTH

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
def engine():
    RUNS.clear()
    return YouAreTheModelEngine([lookup_order, quote_refund])


@pytest.fixture
def widget():
    RUNS.clear()
    return YouAreTheModel([lookup_order, quote_refund], question="Where is A1024?")


# -- the engine -----------------------------------------------------------------------------------


def test_starts_with_the_first_tool_and_its_argument_skeleton(engine):
    assert list(engine.tools) == ["lookup_order", "quote_refund"]
    assert engine.tool == "lookup_order" and json.loads(engine.arguments) == {"order_id": ""}
    assert json.loads(engine.schema_json())["name"] == "lookup_order"
    assert engine.turns == [] and engine.history == []


def test_choosing_a_tool_resets_the_skeleton(engine):
    engine.set_arguments("typed")
    engine.choose("quote_refund")
    assert json.loads(engine.arguments) == {"order_id": "", "amount": 0}
    assert '"amount"' in engine.schema_json()


def test_unbound_tool_cannot_be_chosen(engine):
    with pytest.raises(ValueError, match="'refund_everything' is not bound; bound tools: lookup_order, quote_refund"):
        engine.choose("refund_everything")
    assert engine.tool == "lookup_order"


def test_a_valid_call_runs_and_is_answered_with_the_same_id(engine):
    engine.set_arguments('{"order_id": "A1024"}')
    turn = engine.send()
    assert turn.outcome is TurnOutcome.RAN and turn.outcome == "ran"
    assert turn.ai_message.tool_calls == [{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1",
                                           "type": "tool_call"}]
    assert [(m.tool_call_id, m.status, m.content) for m in turn.tool_messages] == [("call_1", "success", "A1024: delivered")]
    assert RUNS == ["A1024"]
    assert turn.summary() == ('AIMessage.tool_calls: lookup_order({"order_id": "A1024"}) id=call_1\n'
                              "ToolMessage(tool_call_id=call_1, status=success): A1024: delivered")


def test_arguments_that_are_not_json_become_an_invalid_call_and_nothing_runs(engine):
    engine.set_arguments('{"order_id": A1024}')
    turn = engine.send()
    assert turn.outcome == "invalid_json"
    assert turn.ai_message.tool_calls == []
    assert turn.ai_message.invalid_tool_calls[0]["args"] == '{"order_id": A1024}'
    assert turn.tool_messages == [] and RUNS == []
    assert "No tool ran" in turn.summary()


@pytest.mark.parametrize("text", ["[1, 2]", '"A1024"', "", "   "])
def test_anything_but_a_json_object_is_an_invalid_call(engine, text):
    engine.set_arguments(text)
    assert engine.send().outcome == "invalid_json"


def test_a_missing_argument_gets_an_error_tool_message_from_toolnode(engine):
    engine.choose("quote_refund")
    engine.set_arguments('{"order_id": "A1024"}')
    turn = engine.send()
    assert turn.outcome == "argument_error"
    (message,) = turn.tool_messages
    assert message.status == "error" and message.tool_call_id == "call_1"
    assert "amount: Field required" in message.content


def test_a_tool_exception_stops_the_run_and_is_returned_not_raised(engine):
    engine.set_arguments('{"order_id": "Z9999"}')
    turn = engine.send()
    assert turn.outcome == "tool_raised"
    assert turn.error == "LookupError: order Z9999 does not exist"
    assert turn.tool_messages == []
    assert turn.summary().endswith("The run stopped: LookupError: order Z9999 does not exist")


def test_absurdly_deep_json_is_refused_not_a_crash(engine):
    engine.set_arguments("[" * 100000 + "]" * 100000)
    turn = engine.send()
    assert turn.outcome == "refused" and turn.ai_message is None
    assert "nests deeper than 100 levels" in turn.error and RUNS == []


def test_ids_count_up_and_reset_starts_again_at_call_1(engine):
    engine.set_arguments('{"order_id": "A1024"}')
    engine.send()
    engine.set_arguments('{"order_id": "A1024"}')
    engine.send()
    assert [t.call_id for t in engine.turns] == ["call_1", "call_2"]
    engine.set_arguments("changed")
    engine.reset()
    assert engine.turns == [] and json.loads(engine.arguments) == {"order_id": ""}
    engine.set_arguments('{"order_id": "A1024"}')
    assert engine.send().call_id == "call_1"


def test_the_history_keeps_the_last_turns(engine):
    for number in range(HISTORY_LENGTH + 2):
        engine.set_arguments('{"order_id": "A1024"}' if number % 2 else "broken")
        engine.send()
    assert len(engine.turns) == HISTORY_LENGTH + 2
    assert [t.call_id for t in engine.history] == [f"call_{n}" for n in range(3, HISTORY_LENGTH + 3)]
    assert engine.history[-1].history_line() == "call_7 lookup_order: NOT RUN"


def test_a_lone_surrogate_is_escaped_in_the_arguments_and_the_summary():
    @tool
    def echo(text: str) -> str:
        """Echo the text."""
        return text

    engine = YouAreTheModelEngine([echo], question="q\udc00")
    engine.set_arguments('{"text": "\ud800"}')
    assert engine.arguments == '{"text": "\\ud800"}'
    engine.set_arguments('{"text": "\\ud800"}')  # the JSON escape itself parses to a lone surrogate
    turn = engine.send()
    turn.summary().encode("utf-8")
    engine.question.encode("utf-8")


def test_no_memory_address_from_a_tool_returning_an_object():
    class Receipt:
        pass

    @tool
    def make_receipt(order_id: str) -> object:
        """Make a receipt."""
        return Receipt()

    engine = YouAreTheModelEngine([make_receipt])
    engine.set_arguments('{"order_id": "A1024"}')
    assert " at 0x" not in engine.send().summary()


def test_an_exception_whose_str_raises_is_still_reported():
    class Weird(Exception):
        def __str__(self):
            raise SystemExit("no text")

    @tool
    def weird(order_id: str) -> str:
        """Raise a weird exception."""
        raise Weird()

    engine = YouAreTheModelEngine([weird])
    engine.set_arguments('{"order_id": "A1024"}')
    turn = engine.send()
    assert turn.outcome == "tool_raised" and turn.error.startswith("Weird: ")


def test_a_huge_tool_result_is_cut_in_the_summary():
    @tool
    def dump(order_id: str) -> str:
        """Return a lot."""
        return "x" * 1_000_000

    engine = YouAreTheModelEngine([dump])
    engine.set_arguments('{"order_id": "A1024"}')
    turn = engine.send()
    assert len(turn.tool_messages[0].content) == 1_000_000  # the real message is untouched
    assert len(turn.summary()) < 5000 and turn.summary().endswith("... (996,000 more characters)")


def test_needs_tools():
    with pytest.raises(ValueError, match="at least one tool"):
        YouAreTheModelEngine([])


# -- the view -------------------------------------------------------------------------------------


def test_the_view_is_a_vbox_that_opens_clean(widget):
    import ipywidgets

    assert isinstance(widget, ipywidgets.VBox)
    assert "<b>User:</b> Where is A1024?" in widget.children[0].value
    assert widget.tool_picker.options == ("lookup_order", "quote_refund")
    assert json.loads(widget.arguments.value) == {"order_id": ""}
    assert "what the model sees for <code>lookup_order</code>" in widget.schema_view.value
    assert "No tool call sent yet" in widget.reply_view.value and widget.history_view.value == ""
    assert widget._repr_mimebundle_()["text/plain"] == \
        "YouAreTheModel (2 tools bound): run this cell to open the playground"


def test_picking_in_the_dropdown_and_typing_go_to_the_engine(widget):
    widget.tool_picker.value = "quote_refund"
    assert widget.engine.tool == "quote_refund"
    assert json.loads(widget.arguments.value) == {"order_id": "", "amount": 0}
    assert "&quot;amount&quot;" in widget.schema_view.value
    widget.arguments.value = '{"order_id": "A1024", "amount": 5}'
    assert widget.engine.arguments == '{"order_id": "A1024", "amount": 5}'
    widget.arguments.value = '{"order_id": "\ud800"}'
    assert widget.arguments.value == '{"order_id": "\\ud800"}'  # typed surrogates are escaped at once


def test_success_and_error_turns_look_different_and_say_so_in_words(widget):
    widget.set_arguments('{"order_id": "A1024"}')
    widget.send_button.click()
    ran = widget.reply_view.value
    assert "data-verdict='RAN'" in ran and "data-tone='ok'" in ran and "data-outcome='ran'" in ran
    widget.set_arguments('{"order_id": "Z9999"}')
    widget.send_button.click()
    stopped = widget.reply_view.value
    assert "data-verdict='RUN STOPPED'" in stopped and "data-tone='bad'" in stopped
    assert "The run stopped: LookupError: order Z9999 does not exist" in stopped
    assert "white-space: pre-wrap" in stopped and "overflow-wrap" in stopped  # long output wraps
    assert "call_1 lookup_order: RAN" in widget.history_view.value
    assert "call_2 lookup_order: RUN STOPPED" in widget.history_view.value


def test_the_reset_button_clears_the_learners_turns(widget):
    widget.set_arguments('{"order_id": "A1024"}')
    widget.send_tool_call()
    widget.reset_button.click()
    assert widget.turns == [] and "No tool call sent yet" in widget.reply_view.value
    assert widget.history_view.value == ""
    assert json.loads(widget.arguments.value) == {"order_id": ""}


def test_handlers_print_nothing(widget, capsys):
    widget.choose("quote_refund")
    widget.set_arguments("not json")
    widget.send_button.click()
    widget.reset_button.click()
    assert capsys.readouterr() == ("", "")


def test_the_view_keeps_ipywidgets_own_send():
    import ipywidgets

    assert YouAreTheModel.send is ipywidgets.VBox.send  # Widget.send sends custom messages (focus, blur)


def test_two_views_share_no_state():
    first, second = YouAreTheModel([lookup_order]), YouAreTheModel([lookup_order])
    first.set_arguments('{"order_id": "A1024"}')
    first.send_tool_call()
    assert second.turns == [] and "No tool call sent yet" in second.reply_view.value
