"""Exercise 12.1 beyond the registry's contract: which cases each wrong answer fails, feedback texts, start_thread."""

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from helpers import scripted_model, tool_call
from helpers.exercises import nb12
from tests.solutions import nb12 as sol


CASES = [case.name for case in nb12.POLICY_APPROVAL.cases]
PAUSE, APPROVE, REJECT, EDIT, READ, DRAFT, SPELLING, LOOKALIKE = CASES


def test_wrong_answers_fail_the_expected_cases():
    failed = {name: {r.name for r in nb12.POLICY_APPROVAL.check(wrong.answer).failed}
              for name, wrong in sol.POLICY_APPROVAL.wrong.items()}
    assert failed["no gate"] == {PAUSE, APPROVE, REJECT, EDIT, SPELLING}
    assert failed["every write"] == {EDIT, DRAFT, SPELLING, LOOKALIKE}
    assert failed["write_file only"] == {EDIT, SPELLING}
    assert failed["reads too"] == {READ}
    assert failed["returns nothing"] == set(CASES)
    assert failed["no checkpointer"] == {APPROVE, REJECT}
    assert failed["subscripts the request"] == {PAUSE, APPROVE, REJECT, EDIT, DRAFT, SPELLING, LOOKALIKE}
    assert failed["raw path prefix"] == {SPELLING}
    assert failed["normpath without a leading slash"] == {SPELLING}
    assert failed["mentions policies"] == {LOOKALIKE}


def test_a_raw_startswith_predicate_fails_and_is_told_to_normalise():
    """Issue 16 (high): `file_path.startswith("/policies/")` passed, yet `policies/returns.md`,
    `/./policies/returns.md` and `//policies/returns.md` were written with no approval."""
    result = nb12.POLICY_APPROVAL.check(sol.wrong_raw_prefix)
    assert not result.passed
    (spelling,) = result.failed
    assert spelling.name == SPELLING and spelling.status == "fail"
    assert spelling.feedback.startswith(
        "write_file with file_path 'policies/returns.md' ran without a pause and wrote ['/policies/returns.md']")
    assert "deepagents.backends.utils.validate_path" in spelling.feedback


@pytest.mark.parametrize("spelling", nb12.POLICY_SPELLINGS)
def test_each_spelling_is_written_unseen_without_normalising_and_paused_by_the_reference(spelling):
    """The premise of the spelling case, per spelling: the raw-prefix gate writes it with no pause,
    and both references (the normalising predicate and deepagents' permission rule) pause it."""
    call = tool_call("write_file", {"file_path": spelling, "content": "x"})
    _, _, out = nb12.start_thread(sol.wrong_raw_prefix, call, "raw")
    assert not out.interrupts and set(out.value["files"]) - {nb12.POLICY_FILE}
    for reference in sol.POLICY_APPROVAL.solutions.values():
        _, _, out = nb12.start_thread(reference, call, "ref")
        assert out.interrupts and set(out.value["files"]) == {nb12.POLICY_FILE}


@pytest.mark.parametrize("path", nb12.LOOKALIKES)
def test_lookalikes_run_at_once_under_both_references(path):
    call = tool_call("write_file", {"file_path": path, "content": "x"})
    for reference in sol.POLICY_APPROVAL.solutions.values():
        _, _, out = nb12.start_thread(reference, call, "ref")
        assert not out.interrupts and out.value["files"][path]["content"] == "x"


def test_failure_messages_teach():
    text = nb12.POLICY_APPROVAL.check(sol.wrong_every_write).text()
    assert "gate by path, not every call of the tool" in text
    assert "edit_file changes a policy as much as write_file does" in text
    text = nb12.POLICY_APPROVAL.check(sol.wrong_no_checkpointer).text()
    assert "pass checkpointer=checkpointer to create_deep_agent" in text
    text = nb12.POLICY_APPROVAL.check(sol.wrong_returns_nothing).text()
    assert "got NoneType" in text
    text = nb12.POLICY_APPROVAL.check(sol.wrong_subscripts_the_request).text()
    assert "'ToolCallRequest' object is not subscriptable" in text and "request.tool_call['args']" in text


def test_crash_feedback_names_the_cause_without_unrelated_hints():
    text = nb12.POLICY_APPROVAL.check(sol.crashing_approve_only).text()
    assert "Decision type 'reject' is not allowed" in text
    text = nb12.POLICY_APPROVAL.check(sol.crashing_bad_argument).text()
    assert "unexpected keyword argument 'interupt_on'" in text
    assert "(hint:" not in text


def test_none_is_not_solved():
    """The notebook's stub is checked by tests/test_exercise_contract.py; an answer left as None is not solved either."""
    assert not nb12.POLICY_APPROVAL.check(None).solved


def test_start_thread_pauses_a_gated_write_and_keeps_the_policy_file():
    agent, config, out = nb12.start_thread(
        sol.with_when_predicate, tool_call("write_file", {"file_path": "/policies/x.md", "content": "x"}), "t")
    (pending,) = out.interrupts
    assert pending.value["action_requests"][0]["name"] == "write_file"
    assert pending.value["review_configs"][0]["allowed_decisions"] == ["approve", "reject"]
    assert {p: d["content"] for p, d in out.value["files"].items()} == {nb12.POLICY_FILE: nb12.CURRENT_POLICY}
    done = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config, version="v2")
    assert done.interrupts == ()
    assert done.value["files"]["/policies/x.md"]["content"] == "x"
    assert done.value["messages"][-1].content == "Done."


def test_permissions_solution_offers_all_four_decisions():
    """deepagents 0.7.32 builds the interrupt_on entries of an interrupt-mode rule with every decision."""
    agent = sol.with_permissions(scripted_model([[tool_call("edit_file", {
        "file_path": "/policies/a.md", "old_string": "a", "new_string": "b"})], "ok"]), InMemorySaver())
    out = agent.invoke({"messages": [{"role": "user", "content": "edit"}]}, {"configurable": {"thread_id": "p"}},
                       version="v2")
    assert out.interrupts[0].value["review_configs"] == [
        {"action_name": "edit_file", "allowed_decisions": ["approve", "edit", "reject", "respond"]}]
