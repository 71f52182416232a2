"""helpers.scripted_moves: the request-reading script steps of notebooks 09 and 10, played by the scripted model."""

from types import SimpleNamespace

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from helpers import tool_call
from helpers.scripted_moves import echo, insists_on, retries_when_told

CALL = tool_call("submit_refund_request", {"order_id": "A1024", "amount": 499.0})


def _request(*messages):
    return SimpleNamespace(messages=list(messages))


def _answer(content, status="success"):
    return ToolMessage(content, tool_call_id="call_1", status=status)


def test_echo_repeats_the_last_message():
    assert echo(_request(HumanMessage("hi"), _answer("refund RF-0001"))) == "Done: refund RF-0001"


def test_insists_asks_again_after_an_error_only():
    step = insists_on(CALL)
    assert step(_request(HumanMessage("refund please"))) == [CALL]
    assert step(_request(HumanMessage("x"), AIMessage(""), _answer("rejected", "error"))) == [CALL]
    assert step(_request(HumanMessage("x"), AIMessage(""), _answer("registered"))) == "Done: registered"


def test_retries_when_told_stops_after_at_most_retries():
    step = retries_when_told(CALL, at_most=2, give_up="gave up")
    told = [_answer("failed. Please try again.", "error")]
    assert step(_request(HumanMessage("x"))) == [CALL]
    assert step(_request(HumanMessage("x"), *told)) == [CALL]
    assert step(_request(HumanMessage("x"), *told * 2)) == [CALL]
    assert step(_request(HumanMessage("x"), *told * 3)) == "gave up"
    assert step(_request(HumanMessage("x"), _answer("outcome unknown", "error"))) == "gave up"


def test_a_step_returns_a_fresh_copy_of_the_call():
    first = insists_on(CALL)(_request(HumanMessage("x")))[0]
    first["id"] = "changed"
    assert CALL.get("id") != "changed"
