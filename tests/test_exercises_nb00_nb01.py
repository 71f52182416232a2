"""Exercises 00.1 and 01.1 beyond the contract (tests/test_exercise_contract.py): the feedback names the problem."""

from __future__ import annotations

from helpers.exercises import nb00, nb01
from tests.solutions import nb00 as sol00
from tests.solutions import nb01 as sol01

WRONG01 = {name: wrong.answer for name, wrong in sol01.REFUND_TOOL.wrong.items()}


def test_00_crash_is_reported_as_error_feedback():
    result = nb00.TOOL_CALL_IDS.check(sol00.TOOL_CALL_IDS.crashing["attribute access"])
    assert any(r.status == "error" and "AttributeError" in r.feedback for r in result.results)


def test_01_feedback_names_the_problem():
    result = nb01.REFUND_TOOL.check(WRONG01["amount 0 allowed"])
    assert [r.name for r in result.failed] == ["the constraints are in the schema the model sees", "amount 0 is rejected",
                                               "agrees with the reference on generated calls"]
    assert "amount=0" in result.failed[-1].feedback, result.text()
    result = nb01.REFUND_TOOL.check(WRONG01["validation inside the function body"])
    assert any("reached your function" in r.feedback for r in result.failed)
    result = nb01.REFUND_TOOL.check(WRONG01["Args block left in the description"])
    assert any("Args:" in r.feedback for r in result.failed)


def test_01_accepts_the_tool_itself_instead_of_the_factory():
    assert nb01.REFUND_TOOL.check(sol01.with_args_schema()).passed


def test_00_an_answer_that_mutates_its_input_cannot_spoil_later_checks():
    nb00.TOOL_CALL_IDS.check(lambda m: [m.tool_calls.pop(0)["id"] for _ in list(m.tool_calls)])
    assert nb00.TOOL_CALL_IDS.check(sol00.tool_call_ids).passed
