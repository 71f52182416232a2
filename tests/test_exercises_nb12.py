"""Exercise 12.1 beyond the registry's contract: which cases each wrong answer fails, feedback texts, start_thread."""

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from helpers import scripted_model, tool_call
from helpers.i18n import use
from helpers.exercises import nb12
from tests.named_cases import named_cases_only
from tests.solutions import nb12 as sol


CASES = [case.name for case in nb12.POLICY_APPROVAL.cases]
PAUSE, APPROVE, REJECT, EDIT, READ, DRAFT, SPELLING, LOOKALIKE, DELETE = CASES
GENERATED = nb12.POLICY_APPROVAL.generated[0]


def test_wrong_answers_fail_the_expected_cases():
    named = named_cases_only(nb12.POLICY_APPROVAL)
    failed = {name: {r.name for r in named.evaluate(wrong.answer).failed}
              for name, wrong in sol.POLICY_APPROVAL.wrong.items()}
    assert failed["no gate"] == {PAUSE, APPROVE, REJECT, EDIT, SPELLING, DELETE}
    assert failed["every write"] == {EDIT, DRAFT, SPELLING, LOOKALIKE, DELETE}
    assert failed["write_file only"] == {EDIT, SPELLING, DELETE}
    assert failed["reads too"] == {READ}
    assert failed["returns nothing"] == set(CASES)
    assert failed["no checkpointer"] == {APPROVE, REJECT}
    assert failed["subscripts the request"] == {PAUSE, APPROVE, REJECT, EDIT, DRAFT, SPELLING, LOOKALIKE, DELETE}
    assert failed["raw path prefix"] == {SPELLING}
    assert failed["normpath without a leading slash"] == {SPELLING}
    assert failed["mentions policies"] == {LOOKALIKE}
    for only_generated in ("permission rule alone", "files directly in /policies/ only", "every edit pauses",
                           "a saver of its own"):
        assert failed[only_generated] == set(), only_generated


def test_deepagents_permission_rule_lets_delete_of_double_slash_wipe_every_file():
    """Issue 27: deepagents 0.7.32's delete gate of a FilesystemPermission rule does not read '//' as '/', and
    StateBackend.delete('//') removes every file: the rule alone passed every named case."""
    spec = (((("delete", "//"), "approve"),), False)
    alone = nb12.generated_outcome(sol.wrong_permissions_alone, spec)
    assert alone == {"paused_for": [], "changed": dict.fromkeys(sorted(nb12.START_FILES))}
    for reference in (nb12.build_policy_agent, *sol.POLICY_APPROVAL.solutions.values()):
        outcome = nb12.generated_outcome(reference, spec)
        assert outcome["paused_for"] == [("delete", "//")] and outcome["changed_at_pause"] == {}


def test_a_saver_of_its_own_is_caught_when_a_new_agent_resumes():
    spec = (((("write_file", "/policies/returns.md"), "approve"),), True)
    with pytest.raises(AssertionError, match="does not see the paused thread"):
        nb12.generated_outcome(sol.wrong_own_saver, spec)
    outcome = nb12.generated_outcome(nb12.build_policy_agent, spec)
    assert outcome == {"paused_for": [("write_file", "/policies/returns.md")], "changed_at_pause": {},
                       "changed_after": {"/policies/returns.md": "new\n"}, "paused_again": []}


def test_a_generated_run_is_described_in_the_learners_words():
    spec = (((("delete", "//"), "reject"), (("edit_file", "/drafts/refunds.md"), "approve")), True)
    text = GENERATED.describe(spec)
    assert text == ("the model calls, in one turn, delete('//'): reject, edit_file('/drafts/refunds.md'): approve "
                    "(each with the reviewer's answer if it pauses), on a thread that starts with five files "
                    "(/policies/refunds.md, /policies/archive/2024.md among them); a new agent, built by your function "
                    "on the same checkpointer, resumes the thread")
    with use("zh-CN"):
        assert GENERATED.describe(spec).endswith("由你的函数在同一个检查点保存器上构建的新 Agent 恢复该线程")


def test_a_raw_startswith_predicate_fails_and_is_told_to_normalise():
    """Issue 16 (high): `file_path.startswith("/policies/")` passed, yet `policies/returns.md`,
    `/./policies/returns.md` and `//policies/returns.md` were written with no approval."""
    result = named_cases_only(nb12.POLICY_APPROVAL).check(sol.wrong_raw_prefix)
    assert not result.passed
    (spelling,) = result.failed
    assert spelling.name == SPELLING and spelling.status == "fail"
    assert spelling.feedback.startswith(
        "write_file with file_path 'policies/returns.md' ran without a pause and wrote ['/policies/returns.md']")
    assert "deepagents.backends.utils.validate_path" in spelling.feedback


@pytest.mark.parametrize("spelling", nb12.POLICY_SPELLINGS)
def test_each_spelling_is_written_unseen_without_normalising_and_paused_by_the_reference(spelling):
    """The premise of the spelling case, per spelling: the raw-prefix gate writes it with no pause,
    and the reference and both solutions (the normalising predicate, deepagents' permission rule) pause it."""
    call = tool_call("write_file", {"file_path": spelling, "content": "x"})
    _, _, out = nb12.start_thread(sol.wrong_raw_prefix, call, "raw")
    assert not out.interrupts and set(out.value["files"]) - {nb12.POLICY_FILE}
    for reference in (nb12.build_policy_agent, *sol.POLICY_APPROVAL.solutions.values()):
        _, _, out = nb12.start_thread(reference, call, "ref")
        assert out.interrupts and set(out.value["files"]) == {nb12.POLICY_FILE}


@pytest.mark.parametrize("path", nb12.LOOKALIKES)
def test_lookalikes_run_at_once_under_both_references(path):
    call = tool_call("write_file", {"file_path": path, "content": "x"})
    for reference in (nb12.build_policy_agent, *sol.POLICY_APPROVAL.solutions.values()):
        _, _, out = nb12.start_thread(reference, call, "ref")
        assert not out.interrupts and out.value["files"][path]["content"] == "x"


def test_the_checkers_reference_and_the_when_solution_pass_the_named_cases():
    for answer in (nb12.build_policy_agent, sol.with_when_predicate):
        result = named_cases_only(nb12.POLICY_APPROVAL).evaluate(answer)
        assert result.passed, result.text()


def test_failure_messages_teach():
    text = named_cases_only(nb12.POLICY_APPROVAL).check(sol.wrong_every_write).text()
    assert "gate by path, not every call of the tool" in text
    assert "edit_file changes a policy as much as write_file does" in text
    text = named_cases_only(nb12.POLICY_APPROVAL).check(sol.wrong_no_checkpointer).text()
    assert "pass checkpointer=checkpointer to create_deep_agent" in text
    text = named_cases_only(nb12.POLICY_APPROVAL).check(sol.wrong_returns_nothing).text()
    assert "got NoneType" in text
    text = named_cases_only(nb12.POLICY_APPROVAL).check(sol.wrong_subscripts_the_request).text()
    assert "'ToolCallRequest' object is not subscriptable" in text and "request.tool_call['args']" in text


def test_crash_feedback_names_the_cause_without_unrelated_hints():
    text = named_cases_only(nb12.POLICY_APPROVAL).check(sol.crashing_approve_only).text()
    assert "Decision type 'reject' is not allowed" in text
    text = named_cases_only(nb12.POLICY_APPROVAL).check(sol.crashing_bad_argument).text()
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
