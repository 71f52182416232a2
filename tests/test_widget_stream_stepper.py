"""The stream stepper (notebook 13): the engine headless, then the view's plain methods (no browser)."""

from __future__ import annotations

import pytest
from langchain.tools import tool

from helpers import invalid_tool_call, reply, scripted_model, tool_call
from helpers.model.script import streamed
from helpers.widgets.engines.stream_stepper import StreamStepperEngine

#: ``make check NB=13`` (``pytest --notebook 13``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("13")


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
    assert (at.received, at.total, at.verdict, at.merged) == (0, 8, "nothing_yet", None)
    at = engine.next_chunk()  # the empty opening chunk (OpenAI's role delta)
    assert at.verdict == "in_flight" and at.naive_runs == [] and at.signal is None
    at = engine.next_chunk()  # the call's head: name and id, no arguments yet
    assert at.verdict == "in_flight" and at.naive_runs == [{"name": "refund", "args": {}, "id": "call_1",
                                                             "type": "tool_call"}]
    assert at.guarded_runs == []
    at = engine.cut_at(5)
    assert at.merged.tool_call_chunks[0]["args"] == '{"order_id": "A1024", "amount": 49'
    assert at.naive_runs[0]["args"] == {"order_id": "A1024", "amount": 49} and at.guarded_runs == []
    assert at.last.tool_call_chunks[0]["args"] == '"amount": 49'
    assert "Trusting tool_calls runs refund(order_id='A1024', amount=49); the guard runs nothing" in at.headline
    at = engine.next_chunk()
    assert at.verdict == "in_flight" and at.naive_runs[0]["args"] == {"order_id": "A1024", "amount": 49.5}
    at = engine.next_chunk()  # finish_reason arrives one chunk before the last (empty) chunk
    assert (at.received, at.verdict, at.finish_reason, at.signal) == (7, "finished", "tool_calls",
                                                                      ("finish_reason", "tool_calls"))
    assert at.guarded_runs[0]["args"] == {"order_id": "A1024", "amount": 49.5}
    at = engine.next_chunk()
    assert (at.received, at.verdict, at.last.chunk_position) == (8, "finished", "last")
    assert engine.next_chunk().received == 8, "the end of the stream stays the end"


def test_a_cut_reply_is_a_valid_call_that_only_the_guard_refuses():
    engine = StreamStepperEngine(_streams())
    at = engine.choose("cut off")
    at = engine.cut_at(at.total)
    assert at.verdict == "cut_off" and at.finish_reason == "length"
    assert at.naive_runs[0]["args"] == {"order_id": "A1024", "amount": 49} and at.guarded_runs == []
    assert at.merged.invalid_tool_calls == []
    assert "did not end normally (finish_reason='length')" in at.headline


def test_a_later_piece_alone_is_an_invalid_call_and_interleaved_calls_merge_by_index():
    engine = StreamStepperEngine(_streams())
    engine.choose("two calls")
    at = engine.cut_at(6)  # opener, head 0, piece 0, head 1, piece 1, then this later piece of call 0
    assert at.last.invalid_tool_calls and at.last.invalid_tool_calls[0]["name"] is None
    assert [c["args"] for c in at.naive_runs] == [{"order_id": "A1024"}, {}]
    at = engine.cut_at(at.total)
    assert [c["args"] for c in at.guarded_runs] == [{"order_id": "A1024"}, {"order_id": "A1025"}]
    assert engine.back().received == at.total - 1
    assert engine.reset().stream == "one refund"


@pytest.mark.parametrize(("make", "message"), [
    (lambda e: e.choose("nope"), "no stream named 'nope'; the streams are 'one refund', 'cut off', 'two calls'"),
    (lambda e: e.cut_at(9), "received must be an int from 0 to 8"),
    (lambda e: e.cut_at(-1), "received must be an int from 0 to 8"),
    (lambda e: e.cut_at(True), "received must be an int from 0 to 8"),
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
    assert view.slider.value == 2 and "2 of 8 chunks received" in view.position_view.value
    view.cut_at(4)
    assert view.chunks_view.value.count("<tr") == 5 and "course-last-chunk" in view.chunks_view.value
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
    for bad in (-1, 9, 2.0, float("nan"), 10**100, True, "2", None):
        with pytest.raises(ValueError, match="received must be an int from 0 to 8"):
            view.cut_at(bad)
        assert (view.engine.received, view.slider.value) == (2, 2)
    for _ in range(20):  # repeated clicks past either end stay at the end
        view.next_chunk()
    assert (view.engine.received, view.next_button.disabled) == (8, True)
    for _ in range(20):
        view.back()
    assert (view.engine.received, view.back_button.disabled) == (0, True)
    view.slider.value = 99  # the slider clamps to its max; the engine follows it
    assert view.engine.received == view.slider.value == 8


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


# -- every provider's stop signal; a move's cost at any length (issue 27) -------------------------------


def _sequential(chunks):
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def _long_stream(n):
    """``n`` chunks: one call's head, ``n - 2`` argument pieces of 8 characters, then the finish chunk."""
    from langchain_core.messages import AIMessageChunk

    pieces = ['{"note": "'] + ["abcdefgh"] * (n - 3)
    return ([AIMessageChunk(content="", id="ai-1", tool_call_chunks=[
                {"name": "export", "args": "", "id": "call_1", "index": 0, "type": "tool_call_chunk"}])]
            + [AIMessageChunk(content="", id="ai-1", tool_call_chunks=[
                {"name": None, "args": piece, "id": None, "index": 0, "type": "tool_call_chunk"}]) for piece in pieces]
            + [AIMessageChunk(content="", id="ai-1", response_metadata={"finish_reason": "length"})])


def _provider_streams():
    from helpers.model.provider_streams import provider_stream

    refund_args = '{"order_id": "A1024", "amount": 49'
    return {
        f"{provider} {stop}": provider_stream(provider, text="On it.", calls=[("refund", "id_1", refund_args)],
                                              stop=stop, piece=5, incomplete_reason=reason, message_id="m-1")
        for provider, stop, reason in (("chat_completions", "length", None), ("responses", "incomplete",
                                                                              "max_output_tokens"),
                                       ("anthropic", "max_tokens", None), ("anthropic", "tool_use", None),
                                       ("responses", "completed", None))
    }


def test_every_position_is_what_plus_gives_one_chunk_at_a_time():
    streams = {**_streams(), **_provider_streams(), "long": _long_stream(100)}
    engine = StreamStepperEngine(streams)
    for name, chunks in streams.items():
        engine.choose(name)
        for received in range(1, len(chunks) + 1):
            at = engine.cut_at(received)
            expected = _sequential(chunks[:received])
            assert at.merged == expected, (name, received)
            assert at.merged.tool_calls == expected.tool_calls, (name, received)


def test_each_integrations_cut_reply_is_cut_off_and_its_complete_reply_finished():
    engine = StreamStepperEngine(_provider_streams())
    verdicts = {}
    for name in engine.names:
        engine.choose(name)
        at = engine.cut_at(engine.total)
        verdicts[name] = (at.verdict, at.signal_text, [c["args"] for c in at.naive_runs], at.guarded_runs)
    cut = {"order_id": "A1024", "amount": 49}
    assert verdicts == {
        "chat_completions length": ("cut_off", "finish_reason='length'", [cut], []),
        "responses incomplete": ("cut_off", "status='incomplete'", [cut], []),
        "anthropic max_tokens": ("cut_off", "stop_reason='max_tokens'", [cut], []),
        "anthropic tool_use": ("finished", "stop_reason='tool_use'", [cut], [
            {"name": "refund", "args": cut, "id": "id_1", "type": "tool_call"}]),
        "responses completed": ("finished", "status='completed'", [cut], [
            {"name": "refund", "args": cut, "id": "id_1", "type": "tool_call"}]),
    }
    engine.choose("anthropic max_tokens")
    assert engine.cut_at(engine.total - 1).verdict == "in_flight", "Anthropic's signal comes with the last chunk"


@pytest.mark.parametrize("length", [100, 4000])
def test_a_move_merges_at_most_one_checkpoints_worth_of_chunks_at_any_length(length):
    from helpers.widgets.engines.stream_stepper import CHECKPOINT_EVERY
    from helpers.widgets.stream_stepper import StreamStepper

    view = StreamStepper({"long": _long_stream(length)})
    moves = [lambda: view.cut_at(length), view.back, view.next_chunk, lambda: view.cut_at(length // 2 + 7),
             view.back, lambda: view.cut_at(1), view.next_chunk, view.whole_stream, view.reset,
             lambda: view.cut_at(length - 1)]
    for move in moves:
        before = view.engine.chunks_merged
        move()
        assert view.engine.chunks_merged - before < CHECKPOINT_EVERY
    assert view.position().merged.tool_call_chunks[0]["args"] == _sequential(
        _long_stream(length)[:length - 1]).tool_call_chunks[0]["args"]


def test_bench_a_move_costs_about_the_same_at_any_length():
    """Figures, no timed assert (run with -s). Before issue 27 a move re-added every chunk with ``+``:
    on 2 busy cores 250 chunks took 0.25 s a move, 1,000 took 3.6 s, 2,000 took 13 s, 4,000 about 18-50 s."""
    import time

    from helpers.widgets.stream_stepper import StreamStepper

    for length in (250, 1000, 4000):
        chunks = _long_stream(length)
        start = time.perf_counter()
        view = StreamStepper({"long": chunks})
        built = time.perf_counter() - start
        times = []
        for move in (lambda: view.cut_at(length), view.back, view.next_chunk, lambda: view.cut_at(length // 2 + 7),
                     view.back):
            start = time.perf_counter()
            move()
            times.append(time.perf_counter() - start)
        print(f"stream stepper, {length:5,} chunks: built in {built:.2f} s, slowest of 5 moves {max(times):.3f} s")


def test_the_picker_is_wide_enough_for_the_longest_stream_name():
    """Issue 29: "cut off at the token limit (se" - the default 300 px dropdown cut the names."""
    from helpers.widgets.stream_stepper import StreamStepper

    names = {"cut off at the token limit (section 2)": _streams()["cut off"], "one": _streams()["one refund"]}
    view = StreamStepper(names)
    assert view.stream_picker.layout.width == f"min(100%, {len(max(names, key=len)) + 12}ch)"
    assert view.stream_picker.style.description_width == "initial"


def test_changing_a_merged_message_changes_no_later_position():
    streams = {"long": _long_stream(100)}
    engine = StreamStepperEngine(streams)
    for received in (64, 70, 100):
        at = engine.cut_at(received)
        at.merged.tool_call_chunks[0]["args"] = "broken"
        at.merged.tool_calls.clear()
    for received in (64, 70, 99, 100):
        engine.cut_at(received - 1)
        assert engine.cut_at(received).merged == _sequential(streams["long"][:received])
