"""The widgets' shared pieces: text and JSON, amounts, outcomes, the ToolNode graph, engines without ipywidgets."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from langchain.tools import tool
from langchain_core.messages import AIMessage, HumanMessage

from helpers.widgets.amounts import AmountError, parse_amount
from helpers.widgets.graphs import tool_node_graph
from helpers.widgets.outcomes import Answer, PanelOutcome, PlaygroundOutcome, TurnOutcome
from helpers.widgets.style import badge, box
from helpers.widgets.text import (
    MAX_DEPTH,
    JsonInputError,
    error_text,
    html_text,
    json_depth,
    json_text,
    parse_json,
    sendable,
    value_text,
)

ROOT = Path(__file__).resolve().parent.parent


# -- text ----------------------------------------------------------------------------------------


def test_sendable_and_html_text_escape_lone_surrogates():
    assert sendable("a\ud800b") == "a\\ud800b"
    assert sendable("ok é") == "ok é"
    assert html_text("<b>\udc00</b>") == "&lt;b&gt;\\udc00&lt;/b&gt;"
    html_text(42).encode("utf-8")


def test_json_text_hides_ids_and_addresses_and_never_raises():
    class Receipt:
        pass

    text = json_text({"messages": [HumanMessage("hi", id="secret-uuid"), AIMessage("yo")], "r": Receipt(),
                      "s": {2, 1}, "t": (1, 2)})
    assert "secret-uuid" not in text and " at 0x" not in text
    assert text.startswith('{"messages": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "yo"}], "r": "<')
    assert text.endswith('.Receipt object>", "s": [1, 2], "t": [1, 2]}')
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert json_text(deep) == "<a value nested too deeply to show>"

    class Broken:
        def __str__(self):
            raise SystemExit("no")

        def __repr__(self):
            raise SystemExit("no")

    assert json_text(Broken()) == "<Broken that cannot be shown>"
    assert value_text(Broken()) == "<Broken whose repr raised SystemExit>"
    assert value_text({1}) == "{1}" and value_text([1, "é"]) == '[1, "é"]'


def test_error_text_survives_a_broken_str():
    class Weird(Exception):
        def __str__(self):
            raise SystemExit("no")

    assert error_text(ValueError("bad /home/someone/secret/file.py")) == "ValueError: bad file.py"
    assert error_text(Weird()) == "Weird: <its message could not be turned into text>"


@pytest.mark.parametrize(("text", "problem"), [
    ("", "is empty"), ("  \n", "is empty"), ("{'a': 1}", "is not valid JSON (Expecting property name"),
    ("[" * 101 + "]" * 101, f"nests deeper than {MAX_DEPTH} levels"),
    ("[" * 100_000 + "]" * 100_000, f"nests deeper than {MAX_DEPTH} levels"),
])
def test_parse_json_refusals(text, problem):
    with pytest.raises(JsonInputError) as caught:
        parse_json(text)
    assert str(caught.value).startswith(problem)


def test_parse_json_accepts_up_to_the_limit_and_depth_is_iterative():
    assert json_depth(parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH)) == MAX_DEPTH
    assert parse_json('{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}
    assert json_depth(3) == 0 and json_depth({"a": {"b": []}}) == 3


# -- amounts -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "amount"), [
    ("120", 120.0), (" 120.50 ", 120.5), ("0.01", 0.01), ("+5", 5.0), (".5", 0.5), ("120.", 120.0),
    (120, 120.0), (0.1 + 0.2, 0.3), (Decimal("450.50"), 450.5), (Fraction(239, 2), 119.5), ("120.50000000001", 120.5),
])
def test_parse_amount_accepts(value, amount):
    assert parse_amount(value) == amount


@pytest.mark.parametrize(("value", "message"), [
    ("1_20", "The amount '1_20' is not a number: write digits"),
    ("１２０", "The amount '１２０' is not a number (type the digits 0-9): write digits"),
    ("١٢٠", "The amount '١٢٠' is not a number (type the digits 0-9): write digits"),
    ("1e2", "The amount '1e2' is not a number"),
    ("120,50", "(use a decimal point)"),
    ("abc", "is not a number"), ("", "is not a number"), ("0x10", "is not a number"),
    (True, "The amount True is not a number."), (None, "The amount None is not a number."),
    ("nan", "is not a finite number"), ("-inf", "is not a finite number"), (float("nan"), "is not a finite number"),
    (10**400, "is too large: an amount is at most 999,999,999,999.99."),
    ("9" * 400, "is too large: an amount is at most 999,999,999,999.99."),
    ("12345678901234567.89", "is too large"), ("9007199254740993", "is too large"),
    ("\u200b120", "The amount '\\u200b120' is not a number: write digits"),
    ("-5", "must be more than 0, got -5.0"), ("0", "must be more than 0, got 0.0"),
    ("120.555", "has more than 2 decimals"), (1e-320, "rounds to 0.00"),
])
def test_parse_amount_refuses(value, message):
    """Each refusal is an AmountError with a clear sentence (values past 60 characters are shortened)."""
    with pytest.raises(AmountError, match=None) as caught:
        parse_amount(value)
    assert message in str(caught.value)


# -- outcomes and style --------------------------------------------------------------------------


@pytest.mark.parametrize("enum", [TurnOutcome, PlaygroundOutcome, PanelOutcome, Answer])
def test_every_outcome_has_a_word_and_a_tone(enum):
    for member in enum:
        assert member.word and member.word == member.word.upper()
        assert member.tone in ("ok", "warn", "bad", "info")
        assert member == member.value and f"{member}" == member.value


def test_badges_and_boxes_carry_the_word_and_the_tone():
    assert "data-verdict='RAN'" in badge("RAN", "ok") and ">RAN</span>" in badge("RAN", "ok")
    html = box("x", "bad", data={"outcome": "tool_raised"})
    assert "data-tone='bad'" in html and "data-outcome='tool_raised'" in html and "border-left" in html


# -- the one-node ToolNode graph -----------------------------------------------------------------


def test_tool_node_graph_answers_each_call_by_id():
    @tool
    def double(x: int) -> int:
        """Double."""
        return 2 * x

    graph = tool_node_graph([double])
    out = graph.invoke({"messages": [AIMessage("", tool_calls=[{"name": "double", "args": {"x": 2}, "id": "c1",
                                                                "type": "tool_call"}])]})
    assert [(m.tool_call_id, m.content) for m in out["messages"][1:]] == [("c1", "4")]
    assert list(graph.nodes) == ["__start__", "tools"]


# -- engines without ipywidgets ------------------------------------------------------------------


def test_the_engines_and_shared_pieces_never_import_ipywidgets():
    code = ("import sys; import helpers.widgets.engines, helpers.widgets.text, helpers.widgets.amounts, "
            "helpers.widgets.outcomes, helpers.widgets.graphs, helpers.widgets.style, helpers.selfcheck; "
            "from helpers.widgets import YouAreTheModelEngine, ApprovalEngine; "
            "print('ipywidgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_a_huge_amount_text_is_shortened_in_the_message():
    with pytest.raises(AmountError) as caught:
        parse_amount("1" * 100_000)
    assert len(str(caught.value)) < 200 and "more characters)" in str(caught.value)


def test_the_largest_amount_is_taken_with_its_cents():
    assert parse_amount("999999999999.99") == 999_999_999_999.99


def test_an_int_past_pythons_digit_limit_is_too_large_not_a_crash():
    with pytest.raises(AmountError, match="^The amount <a int> is too large"):
        parse_amount(10**5000)
