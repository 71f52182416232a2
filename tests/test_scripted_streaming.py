"""``streamed(...)`` steps of the scripted model: written-out chunks, interleaved calls, ``finish_reason``."""

import pytest
from langchain.agents import create_agent
from langchain.tools import tool

from helpers import ScriptError, invalid_tool_call, reply, scripted_model, tool_call
from helpers.model.script import streamed

CUT = '{"order_id": "A1024", "amount": 49'


def _refund_tool(ran):
    @tool
    def refund(order_id: str, amount: float) -> str:
        """Refund an amount on an order."""
        ran.append((order_id, amount))
        return f"refunded {amount} on {order_id}"

    return refund


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id}: shipped"


def _merged(chunks):
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def _two_calls():
    return streamed(
        reply("On it.", tool_call("lookup_order", {"order_id": "A1024"}), tool_call("lookup_order", {"order_id": "B2048"})),
        ["On ", (0, '{"order_id"'), (1, '{"order_id"'), "it.", (0, ': "A1024"}'), (1, ': "B2048"}')],
    )


def test_pieces_are_the_chunks_in_order_and_merge_into_what_invoke_returns():
    chunks = list(scripted_model([_two_calls()]).bind_tools([lookup_order]).stream("x"))
    seen = [(c.content, [(t["name"], t["args"], t["index"]) for t in c.tool_call_chunks]) for c in chunks]
    # as ChatOpenAI streams: an empty opening chunk, each call's head (name, id, args "") before its first piece,
    # a chunk with finish_reason, then the empty last chunk (tests/test_provider_streams.py compares with it)
    assert seen == [
        ("", []), ("On ", []), ("", [("lookup_order", "", 0)]), ("", [(None, '{"order_id"', 0)]),
        ("", [("lookup_order", "", 1)]), ("", [(None, '{"order_id"', 1)]),
        ("it.", []), ("", [(None, ': "A1024"}', 0)]), ("", [(None, ': "B2048"}', 1)]), ("", []), ("", []),
    ]
    assert chunks[-2].response_metadata["finish_reason"] == "tool_calls" and chunks[-2].chunk_position is None
    assert chunks[-1].chunk_position == "last" and chunks[-1].response_metadata == {}
    invoked = scripted_model([_two_calls()]).bind_tools([lookup_order]).invoke("x")
    merged = _merged(chunks)
    assert merged.content == invoked.content == "On it."
    assert merged.tool_calls == invoked.tool_calls
    assert [c["args"]["order_id"] for c in merged.tool_calls] == ["A1024", "B2048"]


def test_a_cut_reply_is_invalid_when_invoked_and_a_valid_call_when_streamed():
    step = streamed(reply("", invalid_tool_call("refund", CUT)), finish_reason="length")
    invoked = scripted_model([step]).bind_tools([_refund_tool([])]).invoke("x")
    assert invoked.tool_calls == [] and invoked.invalid_tool_calls[0]["args"] == CUT
    assert invoked.response_metadata["finish_reason"] == "length"
    merged = _merged(list(scripted_model([step]).bind_tools([_refund_tool([])]).stream("x")))
    assert merged.invalid_tool_calls == []
    assert merged.tool_calls[0]["args"] == {"order_id": "A1024", "amount": 49}
    assert merged.response_metadata["finish_reason"] == "length"


def test_under_create_agent_the_cut_refund_runs_only_in_messages_mode():
    step = streamed(reply("", invalid_tool_call("refund", CUT)), finish_reason="length")
    ask = {"messages": [{"role": "user", "content": "refund A1024"}]}
    ran = []
    create_agent(scripted_model([step]), tools=[_refund_tool(ran)]).invoke(ask)
    assert ran == []
    list(create_agent(scripted_model([step, "Done."]), tools=[_refund_tool(ran)]).stream(ask, stream_mode="messages"))
    assert ran == [("A1024", 49.0)]


def test_a_callable_step_may_return_a_streamed_step():
    step = streamed([tool_call("lookup_order", {"order_id": "A1024"})], [(0, '{"order_id": '), (0, '"A1024"}')])
    chunks = list(scripted_model([lambda request: step]).bind_tools([lookup_order]).stream("x"))
    assert [c.tool_call_chunks[0]["args"] for c in chunks if c.tool_call_chunks] == ["", '{"order_id": ', '"A1024"}']


def test_finish_reason_alone_keeps_the_default_split():
    chunks = list(scripted_model([streamed("Done.", finish_reason="length")]).stream("x"))
    assert _merged(chunks).content == "Done." and chunks[-2].response_metadata["finish_reason"] == "length"
    assert _merged(chunks).response_metadata["finish_reason"] == "length"


@pytest.mark.parametrize(("make", "message"), [
    (lambda: streamed("Done.", ["Don"]), "join to 'Don', not the reply's text 'Done.'"),
    (lambda: streamed([tool_call("a", {"x": 1})], [(1, "{}")]), "is for tool call index 1, but the reply has 1 call"),
    (lambda: streamed([tool_call("a", {"x": 1})], [(0, '{"x": 2}')]), "not the JSON of its arguments"),
    (lambda: streamed([tool_call("a", {"x": 1})], ["", ]), "tool call 0 ('a') has no piece"),
    (lambda: streamed([invalid_tool_call("a", '{"x')], [(0, '{"y')]), "not its raw arguments"),
    (lambda: streamed("Done.", [["Done."]]), "a piece is a str (reply text) or (index, text)"),
    (lambda: streamed("Done.", "Done."), "give a list of pieces"),
    (lambda: streamed("Done.", finish_reason="cut"), "expected one of stop, tool_calls, length, content_filter"),
    (lambda: streamed(streamed("Done.")), "not a StreamedStep"),
])
def test_a_malformed_streamed_step_is_refused_with_a_message_that_says_what_to_fix(make, message):
    with pytest.raises(ScriptError, match=None) as error:
        make()
    assert message in str(error.value)
