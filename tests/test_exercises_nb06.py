"""Exercise 06.1 beyond the contract (tests/test_exercise_contract.py): routing, pairing and end-to-end feedback."""

from __future__ import annotations

from helpers.exercises import nb06
from tests.named_cases import named_cases_only
from tests.solutions import nb06 as sol


def test_specific_feedback():
    text = nb06.MARK_SUBMITTED.check(sol.wrong_state_only).text()
    assert "tool_call_id=runtime.tool_call_id" in text
    text = nb06.MARK_SUBMITTED.check(sol.wrong_returns_text).text()
    assert "refund_stage is 'quoted'" in text
    text = nb06.MARK_SUBMITTED.check(sol.wrong_hard_coded_id).text()
    assert "never a hard-coded id" in text
    text = nb06.MARK_SUBMITTED.check(sol.wrong_vague_message).text()
    assert "include the request id" in text


def test_routing_and_ending_feedback():
    result = named_cases_only(nb06.MARK_SUBMITTED).check(sol.wrong_goto_end)
    assert [r.name for r in result.failed] == ["the Command does not route (no goto): the model speaks next"], result.text()
    assert "goto='__end__'" in result.text() and "goto adds a target" in result.text()
    result = nb06.MARK_SUBMITTED.check(sol.wrong_return_direct)
    assert [r.name for r in result.failed] == [
        "end to end in create_agent: stage submitted, the model gets the last word"], result.text()
    assert "do not mark this tool return_direct=True" in result.text()


def test_duplicate_message_is_a_failure_with_a_hint_not_a_crash():
    result = nb06.MARK_SUBMITTED.check(sol.wrong_two_messages)
    assert not result.passed
    assert all(r.status != "error" for r in result.results), result.text()
    assert "expected one ToolMessage for the call, found 2" in result.text()
    assert "[duplicate_tool_message]" in result.text() and "exactly one ToolMessage" in result.text()




def test_the_call_id_from_the_state_answers_another_call():
    """Issue 27: reading the id from the state's last AIMessage passed every named case (each call is alone in its
    reply); with a lookup first in the reply, its ToolMessage answers the lookup and ToolNode rejects it."""
    spec = ("RF-7", "not_started", (("lookup_order", "toolu_9"), ("mark_refund_submitted", "call_0")))
    assert nb06.reply_outcome(nb06.mark_refund_submitted, spec) == {
        "refund_stage": "submitted", "answers": [[("success", False)], [("success", True)]], "goto": None}
    assert nb06.reply_outcome(sol.wrong_id_from_the_state, spec) == {
        "ToolNode": "rejected the Command: its update has no ToolMessage answering its own call"}
    assert nb06.MARK_SUBMITTED.generated[0].describe(spec) == (
        "refund_stage is 'not_started'; the model calls, in one reply: lookup_order(id='toolu_9'), "
        "mark_refund_submitted(id='call_0'), with request_id='RF-7'")
