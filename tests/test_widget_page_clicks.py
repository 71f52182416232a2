"""Clicks that carry what the page showed: 02's and 07's playgrounds, headless (the page part's messages).

In JupyterLab, ipywidgets 8 sends a field's new value and a button's click as messages of two
different widget models, and holds a model's next update back while its previous one is handled:
under ``make test`` a click on "Send tool call" reached the kernel before the arguments just typed,
and 02 sent the old ones, a tool call the learner was not shown. Now the click comes through the
widget's page part (``helpers/widgets/page_clicks.js``) with the render the page had drawn and what
its fields held. These tests send the page part's messages the way the page does, with the fields'
own models still holding the old text (the race), and the late field updates after them; the
browser tests (``test_lab_browser.py``, ``_07.py``) type and click at once, for real.
"""

from __future__ import annotations

import pytest
from langchain.tools import tool

from helpers.selfcheck import Question
from helpers.widgets import (
    PlaygroundOutcome,
    ReducerPlayground,
    SelfCheck,
    TurnOutcome,
    YouAreTheModel,
)
from helpers.widgets.page_clicks import PageClick, page_click

RUNS: list[str] = []


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order by id."""
    RUNS.append(order_id)
    return f"{order_id}: delivered"


@tool
def quote_refund(order_id: str, amount: float) -> str:
    """Quote a refund."""
    RUNS.append(f"quote {order_id} {amount}")
    return f"{order_id}: {amount}"


@pytest.fixture
def model():
    RUNS.clear()
    return YouAreTheModel([lookup_order, quote_refund])


def _send(widget, *, render: int | None = None, clicks: int = 1, **fields) -> dict:
    """The message the page part sends for a click on Send (render: the one the page has drawn)."""
    return {"event": "action", "action": "send", "render": widget.clicks.render if render is None else render,
            "clicks": clicks, "fields": fields}


def _run(widget, *, render: int | None = None, **fields) -> dict:
    return {"event": "action", "action": "run", "render": widget.clicks.render if render is None else render,
            "clicks": 1, "fields": fields}


# -- 02: "you are the model" ----------------------------------------------------------------------------


def test_a_click_sends_the_arguments_it_carries_when_the_field_update_comes_late(model):
    """The race seen under make test: the field's model still holds the old text when the click arrives."""
    model.arguments.value = '{"order_id": "A1000"}'  # what the kernel had before the learner typed again
    typed = '{"order_id": "A1024"}'
    turn = model.on_page_message(_send(model, tool=0, args=typed))
    assert turn.outcome == TurnOutcome.RAN and turn.arguments == typed
    assert turn.ai_message.tool_calls[0]["args"] == {"order_id": "A1024"} and RUNS == ["A1024"]
    assert model.arguments.value == typed and model.engine.arguments == typed
    model.arguments.value = typed  # the field's own update, arriving after the click: nothing more is sent
    assert RUNS == ["A1024"] and len(model.turns) == 1
    assert "lookup_order({&quot;order_id&quot;: &quot;A1024&quot;})" in model.reply_view.value


def test_the_old_path_would_have_sent_the_old_arguments(model):
    """What the bare button did: it read the kernel's copy of the field, which the click had overtaken."""
    model.arguments.value = '{"order_id": "A1000"}'
    model.send_button.click()  # ipywidgets' own click, from code: acts on what the kernel holds
    assert RUNS == ["A1000"]


def test_a_click_carries_the_tool_the_page_showed_and_keeps_the_typed_arguments(model):
    """The tool picked in the page reaches the kernel after the click: the call is for the picked tool,
    with the text the page showed (not reset to the skeleton), and the late pick changes nothing."""
    typed = '{"order_id": "A1024", "amount": 12.5}'
    turn = model.on_page_message(_send(model, tool=1, args=typed))
    assert turn.tool == "quote_refund" and RUNS == ["quote A1024 12.5"]
    assert model.tool_picker.value == "quote_refund" and model.arguments.value == typed
    model.tool_picker.value = "quote_refund"  # the page's pick, late
    assert model.arguments.value == typed and len(model.turns) == 1


@pytest.mark.parametrize("change", ["pick", "choose", "set_arguments", "reset"])
def test_a_click_made_before_the_kernel_changed_the_fields_sends_nothing_and_says_so(model, change):
    drawn = model.clicks.render
    if change == "pick":
        model.tool_picker.value = "quote_refund"  # the arguments become its skeleton, which the page had not drawn
    elif change == "choose":
        model.choose("quote_refund")
    elif change == "set_arguments":
        model.set_arguments('{"order_id": "B7"}')
    else:
        model.reset()
    assert model.clicks.render == drawn + 1
    shown = model.arguments.value
    assert model.on_page_message(_send(model, render=drawn, tool=0, args='{"order_id": "A1024"}')) is None
    assert RUNS == [] and model.turns == [] and model.arguments.value == shown
    assert "course-click-note" in model.click_note.value and "nothing was sent" in model.click_note.value
    assert "No tool call sent yet" in model.reply_view.value
    # A click on what the page shows now is sent, and the note goes.
    turn = model.on_page_message(_send(model, tool=0, args='{"order_id": "A1024"}'))
    assert turn.outcome == TurnOutcome.RAN and RUNS == ["A1024"] and model.click_note.value == ""


def test_typing_and_sending_keep_the_render_so_a_fast_second_click_is_still_sent(model):
    drawn = model.clicks.render
    model.arguments.value = '{"order_id": "A1"}'  # typing in the page: the page already shows it
    model.on_page_message(_send(model, tool=0, args='{"order_id": "A1"}'))
    assert model.clicks.render == drawn
    model.on_page_message(_send(model, render=drawn, clicks=2, tool=0, args='{"order_id": "A1"}'))
    assert [t.call_id for t in model.turns] == ["call_1", "call_2"] and RUNS == ["A1", "A1"]


def test_a_field_the_page_did_not_find_is_read_from_the_view(model):
    model.set_arguments('{"order_id": "A7"}')
    turn = model.on_page_message(_send(model, tool=None, args=None))
    assert turn.tool == "lookup_order" and RUNS == ["A7"]
    # out of range, not text: not the page part's shapes, so not the view's own either (test below)
    assert model.on_page_message(_send(model, tool=5, args=7)) is None and RUNS == ["A7"]


def test_a_bare_click_from_the_page_sends_nothing(model):
    """Without the page part nothing says what the page showed: refused, with a note."""
    model.send_button._handle_button_msg(model.send_button, {"event": "click"}, [])
    assert RUNS == [] and model.turns == []
    assert "That click did not say what the page showed" in model.click_note.value


@pytest.mark.parametrize("content", [None, "send", [], {"event": "click"}, {"event": "action"},
                                     {"event": "decide", "action": "send", "render": 0},
                                     {"event": "action", "action": "run", "render": 0},
                                     {"event": "action", "action": "send", "render": "0"},
                                     {"event": "action", "action": "send", "render": False},
                                     {"event": "action", "action": "send", "render": 0.0}])
def test_a_message_that_is_not_a_click_on_send_is_ignored(model, content):
    assert model.on_page_message(content) is None
    assert model.turns == [] and model.click_note.value == ""


# -- 07: the reducer playground -------------------------------------------------------------------------


def test_a_run_uses_the_writes_and_the_reducer_the_click_carries():
    """Both boxes and the picker still hold the old values in the kernel when the click arrives."""
    playground = ReducerPlayground()
    names = playground.reducer_names
    result = playground.on_page_message(_run(playground, reducer=names.index("operator.add"),
                                             a='["A1024"]', b='["A1030"]'))
    assert result.outcome == PlaygroundOutcome.DIFFER and result.reducer == "operator.add"
    assert [run.value for run in result.runs] == [["A1024", "A1030"], ["A1030", "A1024"]]
    assert playground.write_a.value == '["A1024"]' and playground.reducer_picker.value == "operator.add"
    # The boxes' and the picker's own updates arrive late: nothing changed since the run, nothing runs again.
    playground.reducer_picker.value = "operator.add"
    playground.write_a.value, playground.write_b.value = '["A1024"]', '["A1030"]'
    assert len(playground.results) == 1 and playground.stale_view.value == ""


@pytest.mark.parametrize("change", ["reset", "set_write", "choose_reducer"])
def test_a_run_clicked_before_the_kernel_changed_the_inputs_runs_nothing(change):
    playground = ReducerPlayground()
    drawn = playground.clicks.render
    if change == "reset":
        playground.reset()
    elif change == "set_write":
        playground.set_write("a", '["B1"]')
    else:
        playground.choose_reducer("operator.add")
    writes = dict(playground.engine.writes)
    assert playground.on_page_message(_run(playground, render=drawn, reducer=0, a="[1]", b="[2]")) is None
    assert playground.results == [] and playground.engine.writes == writes
    assert "course-click-note" in playground.click_note.value and "nothing was sent" in playground.click_note.value
    assert playground.on_page_message(_run(playground, reducer=1, a="[1]", b="[2]")).outcome == "differ"
    assert playground.click_note.value == ""


def test_picking_a_reducer_or_typing_in_the_page_keeps_the_render():
    """The page already shows a pick or a typed write: a click made just before it arrives still runs."""
    playground = ReducerPlayground()
    drawn = playground.clicks.render
    playground.reducer_picker.value = "merge_audit"
    playground.write_b.value = '[{"key": "k1", "event": "approved"}]'
    assert playground.clicks.render == drawn
    result = playground.on_page_message(_run(playground, render=drawn, reducer=4,
                                             a='[{"key": "k1", "event": "requested"}]',
                                             b='[{"key": "k1", "event": "approved"}]'))
    assert result.outcome == PlaygroundOutcome.AGREE and result.reducer == "merge_audit"


def test_invalid_json_carried_by_the_click_stays_in_the_box():
    playground = ReducerPlayground()
    result = playground.on_page_message(_run(playground, reducer=1, a="[1]", b='[{"key": k1}]'))
    assert result.outcome == PlaygroundOutcome.INVALID_JSON and "Write B" in result.message
    assert playground.write_b.value == '[{"key": k1}]'


def test_a_bare_click_on_run_runs_nothing():
    playground = ReducerPlayground()
    playground.run_button._handle_button_msg(playground.run_button, {"event": "click"}, [])
    assert playground.results == [] and "course-click-note" in playground.click_note.value


# -- the message itself ---------------------------------------------------------------------------------


def test_page_click_reads_the_shapes_the_page_part_sends():
    click = page_click({"event": "action", "action": "send", "render": 3, "clicks": 2,
                        "fields": {"args": "{}", "tool": 1, "ticks": [False, True], "gone": None}}, ("send",))
    assert click == PageClick("send", 3, 2, {"args": "{}", "tool": 1, "ticks": [False, True], "gone": None})
    assert click.text("args") == "{}" and click.text("tool") is None and click.text("gone") is None
    assert click.index("tool", 2) == 1 and click.index("tool", 1) is None and click.index("args", 5) is None
    assert click.ticks("ticks", 2) == [False, True] and click.ticks("ticks", 3) is None
    assert click.ticks("tool", 1) is None
    odd = page_click({"event": "action", "action": "send", "render": 0, "clicks": "2", "fields": []}, ("send",))
    assert odd == PageClick("send", 0, 1, {}, readable=False) and odd.unreadable() == ["fields"]
    assert page_click({"event": "action", "action": "send", "render": 0}, ("send",)).unreadable() == []
    assert click.unreadable(texts=("args", "gone", "absent"), indexes={"tool": 2}, ticks={"ticks": 2}) == []
    assert click.unreadable(texts=("tool",), indexes={"args": 2, "tool": 1}, ticks={"ticks": 3}) == \
        ["tool", "args", "tool", "ticks"]
    assert page_click({"event": "action", "action": "send", "render": True}, ("send",)) is None



# -- the self-check: a Check carries the ticks the page showed ------------------------------------------


class Recorded(list):
    """A progress recorder that keeps every first answer: (notebook, question_id, correct)."""

    def __call__(self, notebook, question_id, correct):
        self.append((notebook, question_id, correct))
        return ""


def _question(id: str) -> Question:
    return Question(id=id, prompt="What runs?", choices=("nothing", "the tool"), answer="nothing",
                    explanation="A tool call is a request.", section="section 3, Nothing has run yet")


#: The first answers the self-check of the test recorded.
RECORDED = Recorded()


@pytest.fixture
def check():
    RECORDED.clear()
    return SelfCheck("99", [_question("a"), _question("b")], recorder=RECORDED)


def _ticks(view, question_id: str, ticked: str | None) -> list[bool]:
    return [choice == ticked for choice in view.pickers[question_id].options]


def _check(view, number: int, ticks, *, render: int | None = None) -> dict:
    return {"event": "action", "action": f"check-{number}",
            "render": view.clicks.render if render is None else render, "clicks": 1,
            "fields": {f"choices-{number}": ticks}}


def test_a_check_grades_the_tick_it_carries_when_the_tick_itself_comes_late(check):
    """The learner ticked "nothing", then "the tool", and pressed Check before the second tick arrived:
    the first answer recorded is the one the page showed ticked, not the kernel's stale pick."""
    check.pickers["a"].value = "nothing"  # the first tick reached the kernel
    wrong = check.engine.choices["a"].index("the tool")
    answer = check.on_page_message(_check(check, 1, [i == wrong for i in range(2)]))
    assert answer.choice == "the tool" and answer.verdict == "wrong" and answer.first_try
    assert RECORDED == [("99", "a", False)]
    assert check.pickers["a"].value == "the tool"
    check.pickers["a"].value = "the tool"  # the late tick: nothing is checked again
    assert len(RECORDED) == 1 and "data-verdict='wrong'" in check.feedback_views["a"].value


def test_the_old_path_would_have_graded_the_pick_the_learner_had_left(check):
    check.pickers["a"].value = "nothing"
    check.check_buttons["a"].click()  # ipywidgets' own click: acts on the kernel's (stale) pick
    assert RECORDED == [("99", "a", True)]


def test_two_ticks_shown_check_nothing_and_say_so(check):
    check.pickers["b"].value = "nothing"
    assert check.on_page_message(_check(check, 2, [True, True])) is None
    assert RECORDED == [] and "Two choices were ticked" in check.click_note.value


def test_a_check_made_before_clear_picks_checks_nothing(check):
    drawn = check.clicks.render
    check.reset()
    assert check.on_page_message(_check(check, 1, _ticks(check, "a", "nothing"), render=drawn)) is None
    assert RECORDED == [] and "nothing was sent" in check.click_note.value
    assert check.on_page_message(_check(check, 1, _ticks(check, "a", "nothing"))).verdict == "right"
    assert check.click_note.value == ""


def test_no_tick_checks_nothing_and_ticks_not_sent_use_the_picker(check):
    assert check.on_page_message(_check(check, 1, [False, False])) is None
    assert RECORDED == []
    check.pickers["b"].value = "the tool"
    assert check.on_page_message(_check(check, 2, None)).choice == "the tool"  # the page found no ticks
    assert check.on_page_message(_check(check, 3, [True, False])) is None  # no question 3: ignored
    assert RECORDED == [("99", "b", False)]


def test_a_bare_click_on_check_checks_nothing(check):
    check.pickers["a"].value = "nothing"
    check.check_buttons["a"]._handle_button_msg(check.check_buttons["a"], {"event": "click"}, [])
    assert RECORDED == [] and "did not say what the page showed" in check.click_note.value


# -- a message whose fields have another shape than the page part sends ------------------------------------------


@pytest.mark.parametrize("fields", [[1], "args", {"args": 5}, {"args": ["{}"]}, {"tool": True}, {"tool": 2},
                                    {"tool": -1}, {"tool": 1.0}, {"args": {"order_id": "A1024"}}])
def test_a_click_whose_fields_cannot_be_read_sends_nothing_and_says_so(model, fields):
    """The view's own copy of a field can be older than what the page showed (the race above): a click
    whose fields cannot be read sent that copy; now it sends nothing."""
    message = _send(model)
    message["fields"] = fields
    assert model.on_page_message(message) is None
    assert model.turns == [] and RUNS == []
    assert "could not be read" in model.click_note.value and "nothing was sent" in model.click_note.value
    assert model.on_page_message(_send(model, tool=0, args='{"order_id": "A1"}')).outcome == TurnOutcome.RAN
    assert model.click_note.value == ""


@pytest.mark.parametrize("fields", [[], {"a": 1}, {"b": None, "a": ["x"]}, {"reducer": 1.0}, {"reducer": 99}])
def test_a_run_whose_fields_cannot_be_read_runs_nothing(fields):
    playground = ReducerPlayground()
    message = _run(playground)
    message["fields"] = fields
    assert playground.on_page_message(message) is None
    assert playground.results == [] and "could not be read" in playground.click_note.value


def test_the_note_for_a_click_that_cannot_be_read_is_in_the_editions_language(model):
    from helpers.i18n import use

    with use("zh-CN"):
        zh = YouAreTheModel([lookup_order])
        zh.on_page_message(dict(_send(zh), fields={"args": 1}))
    assert "could not be read" not in zh.click_note.value and "args" in zh.click_note.value
    assert zh.turns == []


@pytest.mark.parametrize("ticks", [[True], [True, False, False], [1, 0], ["the tool"], "nothing", {"0": True}])
def test_ticks_that_cannot_be_read_check_nothing(check, ticks):
    """The picker's own value (what the kernel last heard) could be the pick the learner had left."""
    check.pickers["a"].value = "nothing"
    assert check.on_page_message(_check(check, 1, ticks)) is None
    assert RECORDED == [] and "could not be read" in check.click_note.value
    odd = _check(check, 1, [True, False])
    odd["fields"] = []
    assert check.on_page_message(odd) is None and RECORDED == []
