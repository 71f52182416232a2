"""The stream stepper (notebook 13): the engine headless, then the view's plain methods (no browser)."""

from __future__ import annotations

import pytest
from langchain.tools import tool

from helpers import invalid_tool_call, reply, scripted_model, tool_call
from helpers.model.script import streamed
from helpers.widgets.engines.stream_stepper import StreamStepperEngine


@tool
def refund(order_id: str, amount: float) -> str:
    """Send a refund."""
    return "ok"


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return "ok"


def _streams():
    one = streamed([tool_call("refund", {"order_id": "A1024", "amount": 49.5})],
                   [(0, '{"order_'), (0, 'id": "A1024", '), (0, '"amount": 49'), (0, ".5}")])
    cut = streamed(reply("", invalid_tool_call("refund", '{"order_id": "A1024", "amount": 49')), finish_reason="length")
    two = streamed([tool_call("lookup_order", {"order_id": "A1024"}), tool_call("lookup_order", {"order_id": "A1025"})],
                   [(0, '{"order_id"'), (1, '{"order_id"'), (0, ': "A1024"}'), (1, ': "A1025"}')])
    return {name: list(scripted_model([step]).bind_tools([refund, lookup_order]).stream("x"))
            for name, step in (("one refund", one), ("cut off", cut), ("two calls", two))}


def test_each_position_is_what_the_chunks_add_up_to():
    engine = StreamStepperEngine(_streams())
    at = engine.position()
    assert (at.received, at.total, at.verdict, at.merged) == (0, 5, "nothing_yet", None)
    at = engine.next_chunk()
    assert at.verdict == "in_flight" and at.naive_runs == [{"name": "refund", "args": {}, "id": "call_1",
                                                             "type": "tool_call"}]
    assert at.guarded_runs == []
    at = engine.cut_at(3)
    assert at.merged.tool_call_chunks[0]["args"] == '{"order_id": "A1024", "amount": 49'
    assert at.naive_runs[0]["args"] == {"order_id": "A1024", "amount": 49} and at.guarded_runs == []
    assert at.last.tool_call_chunks[0]["args"] == '"amount": 49'
    assert "Trusting tool_calls runs refund(order_id='A1024', amount=49); the guard runs nothing" in at.headline
    at = engine.next_chunk()
    at = engine.next_chunk()
    assert (at.received, at.verdict, at.finish_reason) == (5, "finished", "tool_calls")
    assert at.guarded_runs[0]["args"] == {"order_id": "A1024", "amount": 49.5}
    assert engine.next_chunk().received == 5, "the end of the stream stays the end"


def test_a_cut_reply_is_a_valid_call_that_only_the_guard_refuses():
    engine = StreamStepperEngine(_streams())
    at = engine.choose("cut off")
    at = engine.cut_at(at.total)
    assert at.verdict == "cut_off" and at.finish_reason == "length"
    assert at.naive_runs[0]["args"] == {"order_id": "A1024", "amount": 49} and at.guarded_runs == []
    assert at.merged.invalid_tool_calls == []
    assert "cut off (finish_reason 'length')" in at.headline


def test_a_later_piece_alone_is_an_invalid_call_and_interleaved_calls_merge_by_index():
    engine = StreamStepperEngine(_streams())
    engine.choose("two calls")
    at = engine.cut_at(3)
    assert at.last.invalid_tool_calls and at.last.invalid_tool_calls[0]["name"] is None
    assert [c["args"] for c in at.naive_runs] == [{"order_id": "A1024"}, {}]
    at = engine.cut_at(at.total)
    assert [c["args"] for c in at.guarded_runs] == [{"order_id": "A1024"}, {"order_id": "A1025"}]
    assert engine.back().received == at.total - 1
    assert engine.reset().stream == "one refund"


@pytest.mark.parametrize(("make", "message"), [
    (lambda e: e.choose("nope"), "no stream named 'nope'; the streams are 'one refund', 'cut off', 'two calls'"),
    (lambda e: e.cut_at(6), "received must be an int from 0 to 5"),
    (lambda e: e.cut_at(-1), "received must be an int from 0 to 5"),
    (lambda e: e.cut_at(True), "received must be an int from 0 to 5"),
])
def test_bad_input_gets_a_message_and_changes_nothing(make, message):
    engine = StreamStepperEngine(_streams())
    engine.cut_at(2)
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make(engine)
    assert (engine.stream, engine.received) == ("one refund", 2)


@pytest.mark.parametrize(("streams", "error", "message"), [
    ({}, ValueError, "give at least one stream"),
    ({"empty": []}, ValueError, "stream 'empty' has no chunks"),
    ({"text": ["hi"]}, TypeError, "stream 'text': item 1 is a str, not an AIMessageChunk"),
])
def test_bad_streams_are_refused(streams, error, message):
    with pytest.raises(error, match=message):
        StreamStepperEngine(streams)


def test_the_view_renders_what_the_engine_says():
    from helpers.widgets import StreamStepper

    view = StreamStepper(_streams())
    assert "No chunk has arrived" in view.chunks_view.value and view.back_button.disabled
    assert "data-outcome='nothing_yet'" in view.verdict_view.value
    view.next_chunk()
    view.next_chunk()
    assert view.slider.value == 2 and "2 of 5 chunks received" in view.position_view.value
    assert view.chunks_view.value.count("<tr") == 3 and "course-last-chunk" in view.chunks_view.value
    assert "NOT FINISHED" in view.verdict_view.value
    assert "tool_calls: [(&#x27;refund&#x27;, {&#x27;order_id&#x27;: &#x27;A1024&#x27;})]" in view.merged_view.value
    assert "[(None, &#x27;id&quot;: &quot;A1024&quot;, &#x27;, None, 0)]" in view.chunks_view.value
    view.stream_picker.value = "cut off"  # what the dropdown does
    assert view.engine.stream == "cut off" and view.slider.value == 0 and view.slider.max == view.engine.total
    view.slider.value = view.engine.total  # what the slider does
    assert "data-outcome='cut_off'" in view.verdict_view.value and "CUT OFF" in view.verdict_view.value
    assert view.next_button.disabled and view.whole_button.disabled
    view.whole_button.click()
    view.reset_button.click()
    assert view.stream_picker.value == "one refund" and view.engine.received == 0
    view.next_button.click()
    assert view.engine.received == 1
    view.back_button.click()
    assert view.engine.received == 0
    assert repr(view) == "StreamStepper (3 streams): run this cell to step through a streamed reply"


# -- hostile inputs (each defect's test failed on the code before its fix) ----------------------


def test_hostile_positions_are_refused_and_change_nothing():
    from helpers.widgets.stream_stepper import StreamStepper

    view = StreamStepper(_streams())
    view.cut_at(2)
    for bad in (-1, 6, 2.0, float("nan"), 10**100, True, "2", None):
        with pytest.raises(ValueError, match="received must be an int from 0 to 5"):
            view.cut_at(bad)
        assert (view.engine.received, view.slider.value) == (2, 2)
    for _ in range(20):  # repeated clicks past either end stay at the end
        view.next_chunk()
    assert (view.engine.received, view.next_button.disabled) == (5, True)
    for _ in range(20):
        view.back()
    assert (view.engine.received, view.back_button.disabled) == (0, True)
    view.slider.value = 99  # the slider clamps to its max; the engine follows it
    assert view.engine.received == view.slider.value == 5


def test_two_names_that_are_the_same_text_are_refused_not_merged():
    chunks = _streams()["one refund"]
    with pytest.raises(ValueError, match="two streams are named '1'"):
        StreamStepperEngine({1: chunks, "1": chunks[:1]})


def test_streams_that_are_not_a_mapping_get_a_clear_message():
    with pytest.raises(TypeError, match=r"give the streams as a dict \{name: \[AIMessageChunk, \.\.\.\]\}, got a list"):
        StreamStepperEngine([("one", _streams()["one refund"])])


def test_chunks_that_cannot_be_added_up_are_refused_when_given_not_mid_step():
    from langchain_core.messages import AIMessageChunk

    chunks = [AIMessageChunk(content="a", response_metadata={"finish_reason": 1}),
              AIMessageChunk(content="b", response_metadata={"finish_reason": "stop"})]
    with pytest.raises(ValueError, match="stream 'odd': chunk 2 cannot be added to the chunks before it"):
        StreamStepperEngine({"odd": chunks})


def test_the_view_is_bounded_for_a_huge_chunk_and_a_long_stream():
    from langchain_core.messages import AIMessageChunk

    from helpers.widgets.stream_stepper import MAX_ROWS, StreamStepper

    huge = AIMessageChunk(content="x" * 1_000_000, tool_call_chunks=[
        {"name": "refund", "args": '{"note": "' + "y" * 500_000, "id": "c1", "index": 0, "type": "tool_call_chunk"}],
        response_metadata={"finish_reason": "length"})
    many = [AIMessageChunk(content="<a>") for _ in range(3000)]
    view = StreamStepper({"huge": [huge], "many": many})
    for name in ("huge", "many"):
        view.choose_stream(name)
        view.whole_stream()
        sizes = {attr: len(child.value) for attr, child in vars(view).items()
                 if attr.endswith("_view") and isinstance(getattr(child, "value", None), str)}
        assert max(sizes.values()) < 60_000, sizes
    assert view.chunks_view.value.count("<tr") == MAX_ROWS + 2  # the head, the note, the last MAX_ROWS chunks
    assert f"{3000 - MAX_ROWS:,} earlier chunks not shown" in view.chunks_view.value
