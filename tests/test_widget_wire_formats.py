"""Notebook 14's wire-format view, driven headless: the engine's plain methods and the view's controls.

The bodies come from the integrations' own code (langchain-openai 1.7.4, langchain-anthropic 1.7.10,
offline); the asserts name the facts the notebook teaches: the error flag survives only to Anthropic,
a dropped answer is built without error by every integration, ``tool_choice`` and
``parallel_tool_calls`` as each one sends them, a value an integration refuses.
"""

from __future__ import annotations

import functools

import pytest
from langchain.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain.tools import tool

from helpers import tool_call
from helpers.widgets.engines.wire_formats import FORMATS, WireFormatsEngine, default_clients

#: ``make check NB=14`` (``pytest --notebook 14``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("14")


@tool
def lookup_order(order_id: str) -> str:
    """Look up one order by id."""
    return order_id


PREFIX = [SystemMessage("Be brief."), HumanMessage("Where are A1024 and A1099?")]
AI = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "A1024"}, id="call_1"),
                               tool_call("lookup_order", {"order_id": "A1099"}, id="call_2")])


def answers():
    return [ToolMessage('{"status": "delivered"}', tool_call_id="call_1", name="lookup_order"),
            ToolMessage("Error order_not_found: no A1099", tool_call_id="call_2", name="lookup_order",
                        status="error")]


@functools.lru_cache(maxsize=1)
def clients():
    return default_clients()


def engine() -> WireFormatsEngine:
    return WireFormatsEngine(PREFIX, AI, answers(), [lookup_order], clients=clients())


def by_name(views):
    return {view.name: view for view in views}


def test_it_opens_on_the_conversation_and_only_anthropic_carries_the_error():
    views = by_name(engine().bodies())
    assert list(views) == list(FORMATS)
    assert views["chat.completions"].answers == (("call_1", None), ("call_2", None))
    assert views["Responses API"].answers == (("call_1", None), ("call_2", None))
    assert views["Anthropic"].answers == (("call_1", False), ("call_2", True))
    assert all(view.unanswered == () and view.options == {} and view.error == "" for view in views.values())
    assert views["Anthropic"].items()[0] == '"system": "Be brief."'
    assert all("tools" not in view.body for view in views.values())


def test_marking_an_answer_as_an_error_or_success_changes_only_anthropic_s_flag():
    subject = engine()
    subject.set_answer("call_1", "error")
    subject.set_answer("call_2", "answered")
    views = by_name(subject.bodies())
    assert views["Anthropic"].answers == (("call_1", True), ("call_2", False))
    assert views["chat.completions"].answers == (("call_1", None), ("call_2", None))


def test_a_dropped_answer_is_built_by_every_integration_and_shown_as_unanswered():
    subject = engine()
    subject.set_answer("call_1", "dropped")
    views = subject.bodies()
    assert [view.unanswered for view in views] == [("call_1",)] * 3
    assert [view.error for view in views] == [""] * 3
    assert [m.type for m in subject.messages()] == ["system", "human", "ai", "tool"]


def test_forcing_a_tool_and_forbidding_parallel_calls_as_each_integration_sends_them():
    subject = engine()
    subject.force_tool("required")
    subject.set_parallel(False)
    views = by_name(subject.bodies())
    assert views["chat.completions"].options == {"tool_choice": "required", "parallel_tool_calls": False}
    assert views["Responses API"].options == {"tool_choice": "required", "parallel_tool_calls": False}
    assert views["Anthropic"].options == {
        "tool_choice": {"type": "tool", "name": "required", "disable_parallel_tool_use": True}}
    subject.force_tool("lookup_order")
    assert by_name(subject.bodies())["Responses API"].options["tool_choice"] == {"type": "function",
                                                                                  "name": "lookup_order"}


def test_an_integration_that_refuses_the_options_is_shown_with_its_error():
    class Refusing:
        def bind_tools(self, tools, **options):
            raise ValueError("Unrecognized 'tool_choice'")

    subject = WireFormatsEngine(PREFIX, AI, answers(), [lookup_order],
                                clients={**clients(), "Anthropic": Refusing()})
    views = by_name(subject.bodies())
    assert views["Anthropic"].body is None and views["Anthropic"].items() == []
    assert views["Anthropic"].error == "ValueError: Unrecognized 'tool_choice'"
    assert views["chat.completions"].body is not None


def test_reset_goes_back_to_how_it_opened():
    subject = engine()
    subject.set_answer("call_2", "dropped")
    subject.force_tool("any")
    subject.set_parallel(False)
    subject.reset()
    assert subject.states == {"call_1": "answered", "call_2": "error"}
    assert subject.options() == {}


def test_bad_input_gets_a_clear_message_and_changes_nothing():
    subject = engine()
    with pytest.raises(ValueError, match=r"no tool call 'call_9'; the calls are \['call_1', 'call_2'\]"):
        subject.set_answer("call_9", "dropped")
    with pytest.raises(ValueError, match="an answer is one of"):
        subject.set_answer("call_1", "lost")
    with pytest.raises(ValueError, match="tool_choice is one of"):
        subject.force_tool("lookup_refund_policy")
    assert subject.states == {"call_1": "answered", "call_2": "error"} and subject.tool_choice is None
    with pytest.raises(ValueError, match="no tool calls"):
        WireFormatsEngine(PREFIX, AIMessage("hi"), [], [lookup_order], clients=clients())
    with pytest.raises(ValueError, match="exactly one ToolMessage per tool call"):
        WireFormatsEngine(PREFIX, AI, answers()[:1], [lookup_order], clients=clients())


def test_the_view_s_controls_call_the_engine_and_render_the_three_columns():
    from helpers.widgets.wire_formats import WireFormatsView

    view = WireFormatsView(PREFIX, AI, answers(), [lookup_order], clients=clients())
    assert view.bodies_view.value.count("class='course-body'") == 3
    assert "data-verdict='paired'" in view.bodies_view.value
    view.answer_pickers["call_2"].value = "dropped"
    assert view.engine.states["call_2"] == "dropped"
    assert view.bodies_view.value.count("data-verdict='unanswered'") == 3
    view.tool_choice_picker.value = "none"
    view.parallel_box.value = False
    assert view.engine.options() == {"tool_choice": "none", "parallel_tool_calls": False}
    assert 'tool_choice={&quot;type&quot;: &quot;tool&quot;, &quot;name&quot;: &quot;none&quot;' in \
        view.bodies_view.value
    view.reset()
    assert view.answer_pickers["call_2"].value == "error" and view.engine.tool_choice is None
    assert (view.tool_choice_picker.index, view.tool_choice_picker.label) == (0, "not given")
    assert view.parallel_box.value is True
    assert repr(view) == "WireFormatsView (2 tool calls, 3 request bodies): run this cell to open it"


# -- hostile inputs (each defect's test failed on the code before its fix) ----------------------


@pytest.mark.parametrize("allowed", ["false", "no", 0, None, float("nan")])
def test_parallel_calls_take_a_bool_not_a_truthy_value(allowed):
    subject = engine()
    subject.set_parallel(False)
    with pytest.raises(TypeError, match=r"parallel tool calls are allowed \(True\) or not \(False\), got"):
        subject.set_parallel(allowed)
    assert subject.options() == {"parallel_tool_calls": False}


def test_an_odd_call_id_or_a_huge_choice_gets_a_short_clear_message():
    subject = engine()
    with pytest.raises(ValueError, match=r"no tool call \['call_1'\]; the calls are"):
        subject.set_answer(["call_1"], "dropped")
    with pytest.raises(ValueError, match=r"tool_choice is one of .*\(cut at|more characters\)") as caught:
        subject.force_tool("x" * 100_000)
    assert len(str(caught.value)) < 500
    with pytest.raises(ValueError, match=r"got answers for \['call_1', 'call_2', 'call_1'\]"):
        WireFormatsEngine(PREFIX, AI, [*answers(), answers()[0]], [lookup_order], clients=clients())
    assert subject.states == {"call_1": "answered", "call_2": "error"} and subject.tool_choice is None


def test_the_view_is_bounded_for_a_huge_answer_and_a_huge_argument():
    from helpers.widgets.wire_formats import WireFormatsView

    ai = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "<b>" * 20_000}, id="call_1"),
                                   tool_call("lookup_order", {"order_id": "A1099"}, id="call_2")])
    huge = [ToolMessage("x" * 1_000_000, tool_call_id="call_1", name="lookup_order"), answers()[1]]
    view = WireFormatsView(PREFIX, ai, huge, [lookup_order], clients=clients())
    assert len(view.bodies_view.value) < 60_000
    assert len(view.answer_pickers["call_1"].description) < 100
    view.set_answer("call_1", "error")  # still rebuilt and still bounded
    assert len(view.bodies_view.value) < 60_000 and "PAIRED" in view.bodies_view.value


def test_the_tool_choice_picker_shows_not_given_when_nothing_is_forced():
    """ipywidgets shows an empty box for a None value: the picker was blank when it opened and after a reset."""
    from helpers.widgets.wire_formats import NOT_GIVEN, WireFormatsView

    view = WireFormatsView(PREFIX, AI, answers(), [lookup_order], clients=clients())
    assert (view.tool_choice_picker.index, view.tool_choice_picker.label) == (0, "not given")
    view.force_tool("any")
    assert view.tool_choice_picker.label == "'any'"
    view.tool_choice_picker.value = NOT_GIVEN  # the learner picks "not given" again
    assert view.engine.tool_choice is None and view.engine.options() == {}
    assert "none sent" in view.bodies_view.value


def test_the_lines_a_change_rewrites_are_not_in_small_type():
    from helpers.widgets.wire_formats import WireFormatsView

    view = WireFormatsView(PREFIX, AI, answers(), [lookup_order], clients=clients())
    view.force_tool("required")
    assert "<small>" not in view.bodies_view.value
    assert "<div class='course-options'>options: tool_choice=&quot;required&quot;" in view.bodies_view.value
