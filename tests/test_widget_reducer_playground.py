"""The reducer playground (notebook 07): the engine driven headless, and the view on top of it."""

from __future__ import annotations

import json
import operator

import pytest

from helpers.widgets import PlaygroundOutcome, PlaygroundResult, ReducerPlayground
from helpers.widgets.engines import ReducerPlaygroundEngine
from helpers.widgets.engines.reducer_playground import DEFAULT_A, DEFAULT_B, HISTORY_LENGTH, NO_REDUCER, merge_audit
from helpers.widgets.text import value_text

#: ``make check NB=07`` (``pytest --notebook 07``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("07")

A = json.loads(DEFAULT_A)
B = json.loads(DEFAULT_B)


@pytest.fixture
def engine():
    return ReducerPlaygroundEngine()


@pytest.fixture
def playground():
    return ReducerPlayground()


def values(result: PlaygroundResult) -> list:
    return [run.value for run in result.runs]


def test_starts_with_the_plain_key_and_the_audit_writes_of_section_4(engine):
    assert engine.reducer_names == [NO_REDUCER, "operator.add", "last_one_wins", "merge_first_seen", "merge_audit"]
    assert engine.reducer == NO_REDUCER
    assert json.loads(engine.writes["a"]) == [{"key": "refund-A1024", "event": "requested"}]
    assert len(json.loads(engine.writes["b"])) == 2
    assert "audit: Any" in engine.declaration() and "plain key" in engine.declaration()
    assert engine.results == [] and engine.history == []


def test_the_view_opens_clean_with_a_one_line_repr(playground):
    import ipywidgets

    assert isinstance(playground, ipywidgets.VBox)
    assert playground.reducer_picker.value == NO_REDUCER
    assert json.loads(playground.write_a.value) == A and json.loads(playground.write_b.value) == B
    assert "audit: Any" in playground.declaration.value
    assert "Not run yet" in playground.result_view.value and playground.history_view.value == ""
    assert playground._repr_mimebundle_()["text/plain"] == \
        "ReducerPlayground (5 reducers, key 'audit'): run this cell to open the playground"


def test_choosing_a_reducer_shows_its_annotated_declaration(engine, playground):
    engine.choose_reducer("merge_audit")
    assert engine.reducer == "merge_audit" and "audit: Annotated[Any, merge_audit]" in engine.declaration()
    playground.choose_reducer("merge_audit")
    assert playground.reducer_picker.value == "merge_audit"
    assert "audit: Annotated[Any, merge_audit]" in playground.declaration.value


def test_an_unknown_reducer_cannot_be_chosen(engine):
    with pytest.raises(ValueError, match="unknown reducer 'add_messages'; offered: no reducer"):
        engine.choose_reducer("add_messages")
    assert engine.reducer == NO_REDUCER


def test_set_write_types_into_the_boxes_and_rejects_other_nodes(engine, playground):
    engine.set_write("a", "1")
    engine.set_write("B", "2")
    assert engine.writes == {"a": "1", "b": "2"}
    with pytest.raises(ValueError, match="node must be 'a' or 'b', got 'c'"):
        engine.set_write("c", "3")
    playground.set_write("a", "1")
    assert playground.write_a.value == "1"


def test_no_reducer_fails_with_the_real_invalid_update_error_in_both_orders(playground):
    result = playground.run()
    assert result.outcome is PlaygroundOutcome.INVALID_UPDATE
    assert result.outcome == "invalid_update"
    assert [run.first for run in result.runs] == ["a", "b"]
    for run in result.runs:
        assert run.error.startswith("InvalidUpdateError: At key 'audit': Can receive only one value per step.")
        assert "INVALID_CONCURRENT_GRAPH_UPDATE" in run.error
        assert "Traceback" not in run.error and run.value is None and run.calls == []
    assert "data-outcome='invalid_update'" in playground.result_view.value
    assert "data-verdict='STEP REFUSED'" in playground.result_view.value and "data-tone='bad'" in playground.result_view.value
    assert "Can receive only one value per step" in playground.result_view.value


def test_no_reducer_fails_even_for_equal_values(engine):
    engine.set_write("a", '"same"')
    engine.set_write("b", '"same"')
    assert engine.run().outcome == "invalid_update"


def test_operator_add_concatenates_in_the_order_the_writes_are_applied(playground):
    playground.choose_reducer("operator.add")
    result = playground.run()
    assert result.outcome == "differ"
    assert values(result) == [A + B, B + A]
    assert result.runs[0].calls == [(A, B)] and result.runs[1].calls == [(B, A)]
    assert "the two write orders DIFFER" in playground.result_view.value


def test_operator_add_on_numbers_agrees(playground):
    playground.choose_reducer("operator.add")
    playground.set_write("a", "1")
    playground.set_write("b", "2.5")
    result = playground.run()
    assert result.outcome == "agree" and values(result) == [3.5, 3.5]
    assert "data-outcome='agree'" in playground.result_view.value


def test_last_one_wins_keeps_the_second_write(engine):
    engine.choose_reducer("last_one_wins")
    result = engine.run()
    assert result.outcome == "differ" and values(result) == [B, A]


def test_merge_first_seen_depends_on_the_order_and_merge_audit_does_not(engine):
    engine.choose_reducer("merge_first_seen")
    first_seen = engine.run()
    assert first_seen.outcome == "differ"
    assert [v[0]["event"] for v in values(first_seen)] == ["requested", "approved"]
    engine.choose_reducer("merge_audit")
    audit = engine.run()
    assert audit.outcome == "agree"
    assert values(audit) == [merge_audit(A, B)] * 2
    assert [entry["key"] for entry in audit.runs[0].value] == ["refund-A1024", "refund-A1030"]


def test_a_reducer_that_raises_is_reported_not_raised(playground):
    playground.choose_reducer("operator.add")
    playground.set_write("a", '{"A1024": 499.0}')
    playground.set_write("b", '{"A1030": 120.0}')
    result = playground.run()
    assert result.outcome == "reducer_error"
    assert [run.error for run in result.runs] == ["TypeError: unsupported operand type(s) for +: 'dict' and 'dict'"] * 2
    assert "data-outcome='reducer_error'" in playground.result_view.value
    playground.choose_reducer("merge_audit")
    playground.set_write("a", "[1]")
    playground.set_write("b", "[2]")
    assert playground.run().outcome == "reducer_error"


@pytest.mark.parametrize("box, text, expected", [
    ("a", '[{"key": refund-A1024}]', "Write A is not valid JSON (Expecting value: line 1 column 10 (char 9)): fix it"),
    ("b", "", "Write B is empty: fix it"),
    ("b", "{'key': 1}", "Write B is not valid JSON (Expecting property name enclosed in double quotes"),
])
def test_invalid_json_runs_nothing_and_keeps_the_text(playground, box, text, expected):
    playground.choose_reducer("operator.add")
    playground.run()
    before = playground.result_view.value
    playground.set_write(box, text)
    result = playground.run()
    assert result.outcome == "invalid_json" and result.runs == []
    assert result.message.startswith(expected)
    assert getattr(playground, f"write_{box}").value == text
    assert "data-outcome='invalid_json'" in playground.result_view.value and playground.result_view.value != before
    assert "Your text is still in the box" in playground.result_view.value
    assert len(playground.results) == 2
    assert result.summary().startswith("operator.add: invalid JSON, nothing ran\n  Write")


def test_a_reducer_that_modifies_its_argument_does_not_leak_between_runs():
    def append_in_place(current, update):
        current.extend(update)
        return current

    engine = ReducerPlaygroundEngine({"append_in_place": append_in_place}, key="log", a="[1]", b="[2]")
    result = engine.run()
    assert values(result) == [[1, 2], [2, 1]]
    assert result.runs[0].calls == [([1], [2])]  # recorded before the reducer changed them
    assert "log: Annotated[Any, append_in_place]" in engine.declaration()


def test_custom_reducers_and_key_and_bad_constructor_arguments():
    engine = ReducerPlaygroundEngine({"plain": None, "add": operator.add}, key="checked_orders", a='["A1024"]',
                                     b='["A1030"]')
    assert engine.run().runs[0].error.startswith("InvalidUpdateError: At key 'checked_orders'")
    engine.choose_reducer("add")
    assert values(engine.run()) == [["A1024", "A1030"], ["A1030", "A1024"]]
    with pytest.raises(ValueError, match="at least one reducer"):
        ReducerPlaygroundEngine({})
    with pytest.raises(ValueError, match="key must be a Python identifier"):
        ReducerPlayground(key="not a key")


def test_summary_text(engine):
    engine.choose_reducer("merge_audit")
    summary = engine.run().summary()
    assert summary.splitlines()[0] == "merge_audit: the two write orders agree"
    assert summary.splitlines()[1].startswith('  A first -> audit = [{"key": "refund-A1024", "event": "approved"}')
    assert summary.splitlines()[2].startswith("  B first -> audit = ")
    engine.choose_reducer(NO_REDUCER)
    lines = engine.run().summary().splitlines()
    assert lines[0] == f"{NO_REDUCER}: LangGraph refuses the step in both orders"
    assert lines[2].startswith("    For troubleshooting")  # continuation lines are indented


def test_result_html_shows_both_orders_side_by_side_with_reducer_calls(playground):
    playground.choose_reducer("operator.add")
    playground.set_write("a", "[1]")
    playground.set_write("b", "[2]")
    playground.run()
    html = playground.result_view.value
    assert html.count("<td") == 2
    assert html.index("A first") < html.index("B first")
    assert "node_1 writes A, node_2 writes B" in html and "node_1 writes B, node_2 writes A" in html
    assert "operator.add(current=[1], update=[2])" in html and "operator.add(current=[2], update=[1])" in html
    assert "audit = [1, 2]" in html and "audit = [2, 1]" in html


def test_the_widget_controls_drive_the_same_methods_and_print_nothing(playground, capsys):
    playground.reducer_picker.value = "merge_audit"
    assert "Annotated[Any, merge_audit]" in playground.declaration.value
    playground.write_a.value = "[]"
    playground.run_button.click()
    assert playground.results[-1].outcome == "agree"
    assert playground.results[-1].runs[0].value == merge_audit([], B)
    playground.write_b.value = "not json"
    playground.run_button.click()
    assert playground.results[-1].outcome == "invalid_json"
    playground.reducer_picker.value = NO_REDUCER
    playground.write_b.value = "[]"
    playground.run_button.click()
    assert playground.results[-1].outcome == "invalid_update"
    assert capsys.readouterr() == ("", "")


def test_reset_and_history_of_the_learners_runs(engine, playground):
    for number in range(HISTORY_LENGTH + 1):
        engine.choose_reducer("operator.add" if number % 2 else "merge_audit")
        engine.run()
    assert len(engine.history) == HISTORY_LENGTH and engine.history[-1].history_line() == "operator.add: ORDERS DIFFER"
    assert engine.history[0] is engine.results[1]
    engine.set_write("a", "1")
    engine.reset()
    assert engine.results == [] and engine.reducer == NO_REDUCER and engine.writes == {"a": DEFAULT_A, "b": DEFAULT_B}
    playground.choose_reducer("operator.add")
    playground.run_button.click()
    assert "operator.add: ORDERS DIFFER" in playground.history_view.value
    playground.reset_button.click()
    assert playground.results == [] and playground.reducer_picker.value == NO_REDUCER
    assert "Not run yet" in playground.result_view.value and playground.history_view.value == ""


def test_verdicts_are_words_and_colours_and_long_values_wrap(playground):
    playground.choose_reducer("merge_audit")
    playground.run()
    html = playground.result_view.value
    assert "data-verdict='ORDERS AGREE'" in html and "data-tone='ok'" in html
    assert "white-space: pre-wrap" in html and "table-layout: fixed" in html


# -- regressions from the widget break report --------------------------------------------------------


@pytest.mark.parametrize("deep", ["[" * 600 + "]" * 600, "[" * 100_000 + "]" * 100_000, '{"k": ' * 150 + "1" + "}" * 150])
def test_deeply_nested_json_is_refused_not_raised(playground, capsys, deep):
    """Break 2: RecursionError escaped run() and the click handler."""
    playground.choose_reducer("operator.add")
    playground.set_write("a", deep)
    playground.set_write("b", "[]")
    result = playground.run()
    assert result.outcome == "invalid_json" and result.runs == []
    assert result.message == "Write A nests deeper than 100 levels: fix it and run again."
    assert playground.write_a.value == deep  # the typed text stays
    playground.run_button.click()  # the handler does not raise either
    assert playground.results[-1].outcome == "invalid_json"
    assert capsys.readouterr() == ("", "")


def test_nesting_up_to_the_limit_still_runs(engine):
    engine.choose_reducer("operator.add")
    engine.set_write("a", "[" * 100 + "]" * 100)
    engine.set_write("b", "[]")
    assert engine.run().outcome == "agree"


def test_show_never_raises_on_a_deep_value():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert value_text(deep) == "<a value nested too deeply to show>"


@pytest.mark.parametrize(("a", "b", "outcome"), [
    ("true", "1", "differ"), ("1", "1.0", "differ"), ("0", "false", "differ"),
    ("NaN", "NaN", "agree"), ('{"x": 1, "y": 2}', '{"y": 2, "x": 1}', "agree"), ("2", "2", "agree"),
])
def test_the_verdict_compares_what_is_shown(playground, a, b, outcome):
    """Break 3: == said 'agree' for true vs 1 (shown differently) and 'differ' for NaN vs NaN."""
    playground.choose_reducer("last_one_wins")
    playground.set_write("a", a)
    playground.set_write("b", b)
    result = playground.run()
    assert result.outcome == outcome, result.summary()
    assert f"data-outcome='{outcome}'" in playground.result_view.value


def test_a_lone_surrogate_is_escaped_in_every_widget_value(playground):
    """Break 6: jupyter_client cannot send a lone surrogate; every widget value must encode as UTF-8."""
    playground.choose_reducer("operator.add")
    playground.set_write("a", '"\\ud800"')  # valid JSON for a lone surrogate
    playground.set_write("b", '"x"')
    result = playground.run()
    assert result.outcome == "differ"
    assert values(result) == ["\ud800x", "x\ud800"]  # the real values are untouched
    for widget in (playground.result_view, playground.declaration, playground.write_a, playground.write_b):
        widget.value.encode("utf-8")  # would raise UnicodeEncodeError on a surrogate
    assert "audit = &quot;\\ud800x&quot;" in playground.result_view.value
    result.summary().encode("utf-8")
    playground.set_write("a", "\udc00 raw")  # a raw surrogate typed through the method
    assert playground.write_a.value == "\\udc00 raw"


def test_memory_addresses_are_not_shown():
    """Break 7: a reducer returning a custom object showed '<Obj object at 0x...>'."""
    class Obj:
        pass

    playground = ReducerPlayground({"odd": lambda current, update: Obj()}, a="[1]", b="[2]")
    result = playground.run()
    assert "0x" not in playground.result_view.value and "0x" not in result.summary()
    assert "Obj object&gt;" in playground.result_view.value


@pytest.mark.parametrize("key", ["__start__", "__end__", "__pregel_tasks", "__root__"])
def test_reserved_keys_are_refused_clearly(key):
    """Minor: '__start__' or '__pregel_tasks' gave confusing errors from inside LangGraph."""
    with pytest.raises(ValueError, match=f"key must not start with '__'.*got '{key}'"):
        ReducerPlaygroundEngine(key=key)


def test_inputs_changed_after_a_run_are_named_until_the_next_run(playground):
    """The result on show stays next to edited inputs; the view says which inputs changed since it ran,
    through the same observers the boxes and the dropdown use in JupyterLab."""
    assert playground.stale_view.value == ""
    playground.write_b.value = '["A1030"]'                   # before any run: nothing to be stale against
    assert playground.stale_view.value == ""
    playground.run()
    assert playground.stale_view.value == ""
    playground.write_b.value = '["A1031"]'
    assert "Changed since the run below: write B." in playground.stale_view.value
    playground.reducer_picker.value = "operator.add"
    playground.write_a.value = '["A1024", "x"]'
    assert "Changed since the run below: the reducer, write A and write B." in playground.stale_view.value
    playground.write_b.value = '["A1030"]'                   # back to what ran: B no longer counts
    assert "the reducer and write A." in playground.stale_view.value
    playground.run()
    assert playground.stale_view.value == ""
    playground.write_a.value = "[]"
    playground.reset()
    assert playground.stale_view.value == ""
