"""The scripted chat model: replies, ids, recorded requests, provider rules, streaming."""

from __future__ import annotations

import asyncio
import datetime
import re
import threading

import pytest
from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage

from helpers import (
    InterleavedConversationsError,
    ProviderRule,
    ProviderRuleError,
    ScriptError,
    ScriptedChatModel,
    ScriptExhaustedError,
    invalid_tool_call,
    live_model,
    reply,
    scripted_model,
    tool_call,
)
from helpers.model.rules import OPENAI_ERRORS, check_history


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id}: delivered"


@tool
def lookup_refund_policy(product_type: str) -> str:
    """Look up a refund policy."""
    return f"{product_type}: 30 days"


def ask(text: str = "where is A1024?") -> dict:
    return {"messages": [{"role": "user", "content": text}]}


# -- replies and ids ---------------------------------------------------------------------


def test_text_steps_play_in_order():
    model = ScriptedChatModel(script=["one", "two"])
    assert model.invoke("a").content == "one"
    assert model.invoke("b").content == "two"
    assert model.steps_left == 0


def test_tool_call_ids_are_deterministic_and_sequential():
    model = ScriptedChatModel(script=[
        [tool_call("lookup_order", {"order_id": "A1"}), tool_call("lookup_order", {"order_id": "A2"})],
        [tool_call("lookup_order", {"order_id": "A3"}, id="fixed")],
        [tool_call("lookup_order", {"order_id": "A4"})],
    ]).bind_tools([lookup_order])
    first = model.invoke("x")
    assert [c["id"] for c in first.tool_calls] == ["call_1", "call_2"]
    history = [HumanMessage("x"), first] + [ToolMessage("ok", tool_call_id=c["id"]) for c in first.tool_calls]
    second = model.invoke(history)
    assert [c["id"] for c in second.tool_calls] == ["fixed"]
    third = model.invoke(history + [second, ToolMessage("ok", tool_call_id="fixed")])
    assert [c["id"] for c in third.tool_calls] == ["call_3"]
    assert (first.id, second.id, third.id) == ("ai-1", "ai-2", "ai-3")


def test_two_runs_of_the_same_script_give_identical_messages():
    def run():
        model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "done"])
        result = create_agent(model, [lookup_order]).invoke(ask())
        return [(type(m).__name__, m.content, getattr(m, "tool_calls", None), getattr(m, "tool_call_id", None))
                for m in result["messages"]]

    assert run() == run()


def test_callable_step_sees_messages_and_bound_tools():
    seen = {}

    def decide(request):
        seen["names"] = request.tool_names
        seen["last"] = request.last_message.content
        return [tool_call("lookup_refund_policy", {"product_type": "electronics"})]

    model = ScriptedChatModel(script=[decide, "ok"])
    result = create_agent(model, [lookup_order, lookup_refund_policy]).invoke(ask("policy?"))
    assert seen == {"names": ["lookup_order", "lookup_refund_policy"], "last": "policy?"}
    assert result["messages"][2].content == "electronics: 30 days"


# -- the script is checked when the model is built ----------------------------------------


def test_bad_step_type_is_a_clear_error_when_the_model_is_built():
    with pytest.raises(ScriptError, match="^script step 1 is an int 42; expected a str, an AIMessage") as caught:
        ScriptedChatModel(script=[42])
    assert caught.value.step == 1


@pytest.mark.parametrize("build", [
    lambda: ScriptedChatModel(script="Done."),
    lambda: scripted_model("Done."),
    lambda: live_model("Done.", env={}),
    lambda: live_model("Done.", env={}),
])
def test_a_bare_string_script_is_refused_not_played_one_character_at_a_time(build):
    with pytest.raises(ScriptError, match=r"the script is a str \('Done\.'\), not a list of steps; write \['Done\.'\]"):
        build()


@pytest.mark.parametrize("script, expected", [
    (AIMessage("hi"), "the script is one AIMessage, not a list of steps"),
    (lambda request: "hi", "the script is a callable, not a list of steps"),
    ({"name": "lookup_order"}, "the script is one dict"),
    (42, "the script is an int; give a list of steps"),
])
def test_a_script_that_is_not_a_list_is_refused(script, expected):
    with pytest.raises(ScriptError, match=re.escape(expected)):
        ScriptedChatModel(script=script)


def test_a_tuple_script_works_like_a_list():
    assert ScriptedChatModel(script=("one", "two")).invoke("x").content == "one"


def test_tool_call_with_a_json_string_says_to_pass_the_dict():
    with pytest.raises(ScriptError) as caught:
        tool_call("lookup_order", '{"order_id": "A1024"}')
    text = str(caught.value)
    assert "the arguments are a str" in text and "pass the dict itself: {'order_id': 'A1024'}" in text
    assert "invalid_tool_call('lookup_order', raw)" in text


def test_tool_call_with_a_list_is_an_error_not_a_scrambled_dict():
    with pytest.raises(ScriptError, match=r"the arguments are a list \['A1'\]; give a dict of parameter name -> value"):
        tool_call("lookup_order", ["A1"])


def test_tool_call_with_a_date_names_the_argument_and_the_fix():
    with pytest.raises(ScriptError, match=r"argument 'since' is a date, which JSON cannot carry.*'2026-11-10'"):
        tool_call("search_orders", {"since": datetime.date(2026, 11, 10)})
    with pytest.raises(ScriptError, match=r"argument 'filters\.since\[0\]' is a date"):
        tool_call("search_orders", {"filters": {"since": [datetime.date(2026, 11, 10)]}})


@pytest.mark.parametrize("name, call_id, expected", [
    ("", None, "the tool name must be a non-empty str"),
    (None, None, "the tool name must be a non-empty str"),
    ("lookup_order", 7, "the id must be a non-empty str or None"),
])
def test_tool_call_name_and_id_are_checked(name, call_id, expected):
    with pytest.raises(ScriptError, match=expected):
        tool_call(name, {}, id=call_id)


def test_invalid_tool_call_wants_the_raw_text():
    with pytest.raises(ScriptError, match="raw_args is the argument text"):
        invalid_tool_call("lookup_order", {"order_id": "A1"})


def test_tool_call_arguments_are_stored_as_they_come_back_from_json():
    call = tool_call("lookup_order", {"order_ids": ("A1", "A2"), "amount": 499.0})
    assert call["args"] == {"order_ids": ["A1", "A2"], "amount": 499.0}


@pytest.mark.parametrize("step, expected", [
    (["lookup_order"], "script step 2: entry 1 is a str 'lookup_order'; build tool calls with tool_call(name, {...})"),
    ([], "script step 2 is an empty list"),
    (tool_call("lookup_order", {}), "script step 2 is a single dict; a step with tool calls is a list of them"),
    ([{"name": "lookup_order", "args": "A1"}], "script step 2: tool_call('lookup_order', ...): the arguments are a str"),
    ([{"type": "function", "name": "x"}], "script step 2: entry 1 has type 'function'"),
    (AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"since": datetime.date(2026, 1, 1)}, "id": "c1"}]),
     "script step 2: tool_call('lookup_order', ...): argument 'since' is a date"),
    (None, "script step 2 is a NoneType None"),
])
def test_a_malformed_step_is_reported_at_build_time_with_its_number(step, expected):
    with pytest.raises(ScriptError) as caught:
        ScriptedChatModel(script=["fine", step])
    assert str(caught.value).startswith(expected)
    assert caught.value.step == 2


def test_a_callable_step_that_returns_garbage_is_named_with_its_step_number():
    def pick(request):
        return 42

    model = ScriptedChatModel(script=["fine", pick])
    model.invoke("a")
    with pytest.raises(ScriptError, match=r"^script step 2: \(the callable pick\) is an int 42"):
        model.invoke("b")


@pytest.mark.parametrize("mode", ["invoke", "stream"])
def test_invoke_and_stream_agree_on_an_argument_json_cannot_carry(mode):
    """A callable step builds its reply when played: a date fails the same way both ways."""
    model = ScriptedChatModel(script=[lambda request: AIMessage("", tool_calls=[
        {"name": "lookup_order", "args": {"since": datetime.date(2026, 11, 10)}, "id": None}])]).bind_tools([lookup_order])
    with pytest.raises(ScriptError, match="argument 'since' is a date, which JSON cannot carry"):
        model.invoke("x") if mode == "invoke" else list(model.stream("x"))


def test_invoke_and_stream_give_the_same_tool_calls():
    def script():
        return [lambda request: [{"name": "lookup_order", "args": {"order_ids": ("A1", "A2"), "n": 1}, "type": "tool_call"}]]

    invoked = ScriptedChatModel(script=script()).bind_tools([lookup_order]).invoke("x")
    assembled = None
    for chunk in ScriptedChatModel(script=script()).bind_tools([lookup_order]).stream("x"):
        assembled = chunk if assembled is None else assembled + chunk
    assert invoked.tool_calls == assembled.tool_calls == [
        {"name": "lookup_order", "args": {"order_ids": ["A1", "A2"], "n": 1}, "id": "call_1", "type": "tool_call"}]


# -- recorded requests: what the model sees ---------------------------------------------


def test_requests_record_messages_and_openai_tool_schemas():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "done"])
    create_agent(model, [lookup_order]).invoke(ask())
    assert len(model.requests) == 2
    first, second = model.requests
    assert first.tools == [{
        "type": "function",
        "function": {
            "name": "lookup_order",
            "description": "Look up an order.",
            "parameters": {"properties": {"order_id": {"type": "string"}}, "required": ["order_id"], "type": "object"},
        },
    }]
    assert [type(m).__name__ for m in second.messages] == ["HumanMessage", "AIMessage", "ToolMessage"]
    payload = second.payload()
    assert payload["messages"][1]["tool_calls"][0]["function"] == {"name": "lookup_order", "arguments": '{"order_id": "A1024"}'}
    assert payload["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "order A1024: delivered"}
    assert model.last_request is second


def test_recorded_messages_are_copies():
    model = ScriptedChatModel(script=["ok"])
    message = HumanMessage("original")
    model.invoke([message])
    message.content = "changed later"
    assert model.last_request.messages[0].content == "original"


def test_last_request_before_any_request():
    with pytest.raises(LookupError, match="has not received a request"):
        ScriptedChatModel(script=["x"]).last_request


# -- provider rules, one test per violation ---------------------------------------------


def _call_message(*ids: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1"}, "id": i, "type": "tool_call"} for i in ids])


def test_rule_unanswered_tool_call_before_next_user_message():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_9"), HumanMessage("never mind")]
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke(history)
    assert caught.value.rule == "unanswered_tool_call"
    assert caught.value.tool_call_id == "call_9"
    assert str(caught.value).startswith("[unanswered_tool_call] tool call 'call_9' (lookup_order)")


def test_rule_unanswered_tool_call_at_end_of_history():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1", "call_2"), ToolMessage("ok", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"\[unanswered_tool_call\] tool call 'call_2'"):
        model.invoke(history)


def test_rule_orphan_tool_message():
    model = ScriptedChatModel(script=["never"])
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke([HumanMessage("a"), ToolMessage("result", tool_call_id="call_404")])
    assert caught.value.rule == "orphan_tool_message"
    assert "call_404" in str(caught.value)


def test_rule_duplicate_tool_message():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1"), ToolMessage("x", tool_call_id="call_1"),
               ToolMessage("y", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"^\[duplicate_tool_message\] tool call 'call_1'"):
        model.invoke(history)


def test_rule_tool_not_bound():
    model = ScriptedChatModel(script=[[tool_call("delete_everything", {})]]).bind_tools([lookup_order])
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke("x")
    assert caught.value.rule == "tool_not_bound"
    assert "delete_everything" in str(caught.value) and "call_1" in str(caught.value)
    assert "lookup_order" in str(caught.value)


def test_rule_tool_not_bound_when_nothing_is_bound():
    with pytest.raises(ProviderRuleError, match="bound tools are: none"):
        ScriptedChatModel(script=[[tool_call("lookup_order", {})]]).invoke("x")


def test_unbound_tool_allowed_when_strict_tool_names_is_off():
    model = ScriptedChatModel(script=[[tool_call("nope", {})], "sorry"], strict_tool_names=False)
    result = create_agent(model, [lookup_order]).invoke(ask())
    tool_message = result["messages"][2]
    assert tool_message.status == "error" and tool_message.tool_call_id == "call_1"
    assert "nope is not a valid tool" in tool_message.content


def test_answered_history_passes_the_rules():
    model = ScriptedChatModel(script=["fine"]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1", "call_2"),
               ToolMessage("2", tool_call_id="call_2"), ToolMessage("1", tool_call_id="call_1")]
    assert model.invoke(history).content == "fine"


def test_rule_violation_does_not_consume_a_step():
    model = ScriptedChatModel(script=["fine"])
    with pytest.raises(ProviderRuleError):
        model.invoke([ToolMessage("x", tool_call_id="call_1")])
    assert model.steps_left == 1
    assert model.invoke("ok").content == "fine"


def test_rule_names_are_an_enum_that_compares_with_the_plain_name():
    assert ProviderRule.UNANSWERED_TOOL_CALL == "unanswered_tool_call"
    assert {rule.value for rule in ProviderRule} >= {
        "unanswered_tool_call", "orphan_tool_message", "duplicate_tool_message", "duplicate_tool_call_id",
        "tool_call_without_id", "empty_messages", "invalid_tool_name", "tool_not_bound"}
    assert set(OPENAI_ERRORS) == set(ProviderRule) - {ProviderRule.TOOL_NOT_BOUND}


def test_rule_a_reply_whose_two_calls_share_one_id_is_refused_when_played():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1"}, id="same"),
                                       tool_call("lookup_order", {"order_id": "A2"}, id="same")]]).bind_tools([lookup_order])
    with pytest.raises(ProviderRuleError) as caught:
        model.invoke("x")
    assert caught.value.rule == ProviderRule.DUPLICATE_TOOL_CALL_ID and caught.value.tool_call_id == "same"
    assert "reply 1 calls 'lookup_order' with id 'same', which another call of the same reply already has" in str(caught.value)


def test_rule_a_reply_may_not_reuse_an_id_from_the_history():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A2"}, id="call_1")]]).bind_tools([lookup_order])
    history = [HumanMessage("a"), _call_message("call_1"), ToolMessage("ok", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"^\[duplicate_tool_call_id\] reply 1 calls 'lookup_order' with id 'call_1', "
                       "which a tool call earlier in the history already has"):
        model.invoke(history)


def test_rule_a_history_with_a_repeated_call_id_is_refused():
    model = ScriptedChatModel(script=["never"]).bind_tools([lookup_order])
    one_turn = [HumanMessage("a"), _call_message("call_1", "call_1"), ToolMessage("x", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"^\[duplicate_tool_call_id\] tool call id 'call_1' is used twice \(in the same reply\)"):
        model.invoke(one_turn)
    two_turns = [HumanMessage("a"), _call_message("call_1"), ToolMessage("x", tool_call_id="call_1"),
                 _call_message("call_1"), ToolMessage("y", tool_call_id="call_1")]
    with pytest.raises(ProviderRuleError, match=r"is used twice \(in messages 2 and 4\)"):
        model.invoke(two_turns)
    assert model.bound.steps_left == 1, "a refused request uses no step"


def test_rule_empty_message_list():
    with pytest.raises(ProviderRuleError) as caught:
        ScriptedChatModel(script=["never"]).invoke([])
    assert caught.value.rule == "empty_messages"
    assert "Invalid 'messages': empty array" in OPENAI_ERRORS[caught.value.rule]


@pytest.mark.parametrize("name", ["lookup order", "lookup.order", "x" * 65, "订单"])
def test_rule_tool_names_outside_the_provider_pattern(name):
    schema = {"type": "function", "function": {"name": name, "description": "d", "parameters": {"type": "object", "properties": {}}}}
    model = ScriptedChatModel(script=["never"]).bind_tools([schema])
    with pytest.raises(ProviderRuleError, match=r"^\[invalid_tool_name\] bound tool 0 is named .*letters, digits, '_' and '-', at most 64"):
        model.invoke("x")


def test_tool_names_inside_the_pattern_pass():
    schema = {"type": "function", "function": {"name": "Lookup-Order_2", "parameters": {"type": "object", "properties": {}}}}
    assert ScriptedChatModel(script=["ok"]).bind_tools([schema, lookup_order]).invoke("x").content == "ok"


def test_rule_history_tool_call_without_an_id():
    missing = AIMessage("", tool_calls=[{"name": "lookup_order", "args": {}, "id": None, "type": "tool_call"}])
    with pytest.raises(ProviderRuleError) as caught:
        check_history([HumanMessage("a"), missing])
    assert caught.value.rule == "tool_call_without_id"
    assert "message 2 calls 'lookup_order' without an id" in str(caught.value)


def test_generated_ids_skip_ids_already_in_the_history():
    history = [HumanMessage("a"), _call_message("call_1", "call_2"), ToolMessage("x", tool_call_id="call_1"),
               ToolMessage("y", tool_call_id="call_2")]
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1"}), tool_call("lookup_order", {"order_id": "A2"}, id="call_4")]])
    reply_message = model.bind_tools([lookup_order]).invoke(history)
    assert [c["id"] for c in reply_message.tool_calls] == ["call_3", "call_4"]


# -- one model, one conversation at a time --------------------------------------------------


def test_two_conversations_sharing_one_model_are_detected():
    both_asked = threading.Barrier(2, timeout=20)

    @tool("lookup_order")
    def lookup_after_both_asked(order_id: str) -> str:
        """Look up an order (runs once both conversations have asked the model)."""
        both_asked.wait()
        return f"order {order_id}: delivered"

    # both first requests get a tool call (the barrier makes both ask before either tool returns)
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})],
                                      [tool_call("lookup_order", {"order_id": "A1030"})], "A1024 is delivered.",
                                      "A1030 is delivered."])
    agent = create_agent(model, [lookup_after_both_asked])
    with pytest.raises(InterleavedConversationsError) as caught:
        agent.batch([ask("where is A1024?"), ask("where is A1030?")], config={"max_concurrency": 2})
    text = str(caught.value)
    assert "continues the conversation of request" in text and "get each other's replies" in text
    assert "its own scripted model" in text


def test_conversations_one_after_another_are_fine():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "first done",
                                      [tool_call("lookup_order", {"order_id": "A1030"})], "second done"])
    agent = create_agent(model, [lookup_order])
    assert agent.invoke(ask("a"))["messages"][-1].content == "first done"
    assert agent.invoke(ask("b"))["messages"][-1].content == "second done"


def test_interleaving_by_hand_is_refused_unless_allowed():
    def play(allow):
        model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1"})], "other", "back"],
                                  allow_interleaving=allow).bind_tools([lookup_order])
        first = model.invoke([HumanMessage("a")])
        model.invoke([HumanMessage("b")])
        return model.invoke([HumanMessage("a"), first, ToolMessage("ok", tool_call_id=first.tool_calls[0]["id"])])

    with pytest.raises(InterleavedConversationsError, match="request 3 continues the conversation of request 1, which was "
                       "waiting for tool results, but request 2 of another conversation"):
        play(False)
    assert play(True).content == "back"


# -- end of script ------------------------------------------------------------------------


def test_running_past_the_script_names_the_step_count():
    model = ScriptedChatModel(script=["one", "two"])
    model.invoke("a")
    model.invoke("b")
    with pytest.raises(ScriptExhaustedError, match="script has 2 steps and all were used; request 3 has no reply"):
        model.invoke("c")


def test_agent_that_loops_past_the_script_gets_the_clear_error_not_stopiteration():
    model = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1"})]])
    with pytest.raises(ScriptExhaustedError, match="script has 1 step and all were used"):
        create_agent(model, [lookup_order]).invoke(ask())


# -- streaming ---------------------------------------------------------------------------


def test_stream_messages_mode_assembles_the_same_tool_calls():
    script = [[tool_call("lookup_order", {"order_id": "A1024"}), tool_call("lookup_refund_policy", {"product_type": "electronics"})],
              "Both looked up."]
    invoked = create_agent(ScriptedChatModel(script=script), [lookup_order, lookup_refund_policy]).invoke(ask())
    streaming_model = ScriptedChatModel(script=script)
    agent = create_agent(streaming_model, [lookup_order, lookup_refund_policy])
    chunks = [c for c, _meta in agent.stream(ask(), stream_mode="messages") if isinstance(c, AIMessageChunk)]
    first_turn = [c for c in chunks if c.id == "ai-1"]
    assert len(first_turn) > 2, "tool calls should arrive in several chunks"
    assert any(c.tool_call_chunks and c.tool_call_chunks[0]["args"] and not c.tool_call_chunks[0]["name"] for c in first_turn)
    assembled = first_turn[0]
    for chunk in first_turn[1:]:
        assembled = assembled + chunk
    assert assembled.tool_calls == invoked["messages"][1].tool_calls
    text = "".join(c.content for c in chunks if c.id == "ai-2")
    assert text == "Both looked up."


def test_stream_of_invalid_arguments_assembles_into_invalid_tool_calls():
    model = ScriptedChatModel(script=[reply("", invalid_tool_call("lookup_order", '{"order_id": A1}'))]).bind_tools([lookup_order])
    assembled = None
    for chunk in model.stream("x"):
        assembled = chunk if assembled is None else assembled + chunk
    assert assembled.tool_calls == []
    assert assembled.invalid_tool_calls[0]["args"] == '{"order_id": A1}'
    assert assembled.invalid_tool_calls[0]["id"] == "call_1"


def test_async_invoke_works():
    model = ScriptedChatModel(script=["async hello"])
    assert asyncio.run(model.ainvoke("x")).content == "async hello"


def test_a_second_model_on_the_same_thread_does_not_overwrite_earlier_replies():
    from langgraph.checkpoint.memory import InMemorySaver

    saver, cfg = InMemorySaver(), {"configurable": {"thread_id": "t1"}}
    first = ScriptedChatModel(script=[[tool_call("lookup_order", {"order_id": "A1024"})], "A1024 is delivered."])
    create_agent(first, [lookup_order], checkpointer=saver).invoke(ask(), cfg)
    second = ScriptedChatModel(script=["Anything else?"])
    result = create_agent(second, [lookup_order], checkpointer=saver).invoke(ask("Thanks"), cfg)
    assert [m.content for m in result["messages"]] == [
        "where is A1024?", "", "order A1024: delivered", "A1024 is delivered.", "Thanks", "Anything else?"]
    assert [m.id for m in result["messages"] if isinstance(m, AIMessage)] == ["ai-1", "ai-2", "ai-3"]


def test_payload_includes_invalid_tool_calls_like_chat_openai():
    model = ScriptedChatModel(script=["ok"]).bind_tools([lookup_order])
    bad = AIMessage("", invalid_tool_calls=[{"name": "lookup_order", "args": "{x", "id": "call_5", "error": None, "type": "invalid_tool_call"}])
    model.invoke([HumanMessage("a"), bad, ToolMessage("bad args", tool_call_id="call_5", status="error")])
    payload = model.bound.last_request.payload()
    assert payload["messages"][1]["tool_calls"] == [{"type": "function", "id": "call_5", "function": {"name": "lookup_order", "arguments": "{x"}}]


def test_content_blocks_stream_as_text():
    model = ScriptedChatModel(script=[AIMessage(content=[{"type": "text", "text": "Hello from blocks"}])])
    assert "".join(c.content for c in model.stream("x")) == "Hello from blocks"


def test_a_step_may_call_the_model_again_without_deadlock():
    inner = {}

    def step(request):
        inner["steps_left"] = model.steps_left
        return "fine"

    model = ScriptedChatModel(script=[step])
    assert model.invoke("x").content == "fine"
    assert inner == {"steps_left": 0}


# -- hostile test 1, item 13: huge integers, positional scripts ------------------------------


@pytest.mark.parametrize("args", [{"a": 10**5000}, {"a": [1, {"b": -(10**5000)}]}])
def test_tool_call_with_an_integer_too_long_for_json_text_is_a_script_error(args):
    with pytest.raises(ScriptError, match=r"argument 'a.*' is an int with more than \d+ digits") as caught:
        tool_call("f", args)
    assert "give a smaller number, or a string" in str(caught.value)
    assert tool_call("f", {"a": 10**400})["args"] == {"a": 10**400}, "a long but printable int is fine"


def test_a_script_given_positionally_says_to_pass_script():
    with pytest.raises(ScriptError, match=r"ScriptedChatModel takes its script as a keyword: "
                                          r"ScriptedChatModel\(script=\[\.\.\.\]\) \(or use scripted_model\(\[\.\.\.\]\)\)"):
        ScriptedChatModel(["Done."])
    with pytest.raises(ScriptError, match=r"ScriptedChatModel needs a script: ScriptedChatModel\(script=\[\.\.\.\]\)"):
        ScriptedChatModel()


def test_tool_call_arguments_whose_repr_raises_still_get_the_script_error():
    class BrokenRepr:
        def __repr__(self):
            raise RuntimeError("repr broke")

    with pytest.raises(ScriptError, match=r"the arguments are a BrokenRepr <BrokenRepr whose repr raised RuntimeError>"):
        tool_call("f", BrokenRepr())
