"""Exercise 11.1 beyond the registry's contract: which cases each wrong answer fails, feedback texts, the policy."""

import pytest
from langchain.messages import AIMessage, HumanMessage, ToolMessage

from helpers.exercises import nb11, nb11_threads
from helpers.model import RecordedRequest
from tests.named_cases import named_cases_only
from tests.solutions import nb11 as sol

CASE = sol._CASE


def test_case_names_are_the_ones_this_file_expects():
    assert [c.name for c in nb11.CONFIRMATION_GUARD.cases] == list(CASE.values())


@pytest.fixture(scope="module")
def wrong_results():
    """Each known-wrong answer checked once on the named cases (every check builds its own fresh data); the
    generated threads are the contract's (tests/test_exercise_contract.py) and the tests below."""
    named = named_cases_only(nb11.CONFIRMATION_GUARD)
    return {name: named.check(wrong.answer) for name, wrong in sol.CONFIRMATION_GUARD.wrong.items()}


def test_wrong_answers_fail_exactly_their_cases(wrong_results):
    for name, wrong in sol.CONFIRMATION_GUARD.wrong.items():
        failed = {r.name for r in wrong_results[name].failed}
        if name in ("refuses with text", "wrong name"):
            assert set(wrong.fails) <= failed, (name, failed)
        elif wrong.fails == (sol._GENERATED,):
            assert failed == set(), (name, failed)
        else:
            assert failed == set(wrong.fails), (name, failed)
    assert CASE["careful"] not in {r.name for r in wrong_results["refuses with text"].failed}


def test_feedback_says_what_to_change(wrong_results):
    text = wrong_results["refuses with text"].text()
    assert "status='success'" in text and "raise ConfirmationRequired" in text
    text = wrong_results["unguarded"].text()
    assert "yet your tool created [('RF-0001', 'A1024', 499.0)]" in text
    text = wrong_results["wrong name"].text()
    assert "keep @tool('submit_refund_request')" in text


def test_a_value_error_guard_is_told_to_raise_the_refusal(wrong_results):
    """The trap of notebook 09: a ValueError ends the run; the feedback says which exception to raise instead."""
    result = wrong_results["refuses with ValueError"]
    failed = result.failed
    assert failed and all(r.status == "fail" for r in failed)
    for r in failed:
        assert "your tool raised ValueError: the customer has not confirmed this quote" in r.feedback
        assert "ended the run" in r.feedback and "raise ConfirmationRequired" in r.feedback


def test_crashing_answer_names_its_cause():
    result = named_cases_only(nb11.CONFIRMATION_GUARD).check(sol.crashing_key_error)
    errors = [r for r in result.results if r.status == "error"]
    assert [r.name for r in errors] == [CASE["no quote"]], result.text()
    assert "KeyError: 'quote'" in errors[0].feedback


def test_not_a_tool_is_feedback_not_a_crash():
    result = nb11.CONFIRMATION_GUARD.check(lambda order_id, amount, runtime: None)
    assert result.solved and not result.passed
    assert "pass the tool itself" in result.text()


def test_each_check_starts_from_fresh_data():
    """A second check of the same answer sees no refund left over from the first (fresh services)."""
    for _ in range(2):
        result = nb11.CONFIRMATION_GUARD.check(sol.guarded_submit_refund_request)
        assert result.passed, result.text()


def _request(*messages, tools=("lookup_order", "quote_refund", "submit_refund_request")):
    schemas = [{"type": "function", "function": {"name": n, "description": "", "parameters": {}}} for n in tools]
    return RecordedRequest(index=1, messages=list(messages), tools=schemas)


QUOTE = '{"order_id": "A1024", "refundable_amount": 499.0, "policy": "Refund within 30 days."}'


def test_policy_waits_for_a_later_yes_and_the_careless_one_does_not():
    turn_one = [HumanMessage("Can I get a refund for A1024?"),
                AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "c1"}]),
                ToolMessage('{"order_id": "A1024", "status": "delivered"}', tool_call_id="c1", name="lookup_order"),
                AIMessage("", tool_calls=[{"name": "quote_refund", "args": {"order_id": "A1024"}, "id": "c2"}]),
                ToolMessage(QUOTE, tool_call_id="c2", name="quote_refund")]
    careful = nb11.support_policy(_request(*turn_one))
    assert isinstance(careful, str) and "Shall I submit" in careful
    careless = nb11.support_policy(_request(*turn_one), wait_for_confirmation=False)
    assert careless[0]["name"] == "submit_refund_request"
    assert careless[0]["args"] == {"order_id": "A1024", "amount": 499.0}
    turn_two = [*turn_one, AIMessage(careful), HumanMessage("Yes, please go ahead.")]
    assert nb11.support_policy(_request(*turn_two))[0]["name"] == "submit_refund_request"


def test_policy_calls_only_bound_tools():
    reply = nb11.support_policy(_request(HumanMessage("Where is A1025?"), tools=("quote_refund",)))
    assert reply == "(lookup_order: not available)"


def test_policy_asks_for_an_order_id_and_never_submits_a_bare_yes():
    reply = nb11.support_policy(_request(HumanMessage("Yes, go ahead.")))
    assert isinstance(reply, str) and "order id" in reply


@pytest.mark.parametrize("name, case", [("at least 2 customer messages", "third message"),
                                        ("a yes-word in the last message", "yes before quote")])
def test_issue_16_guards_that_let_an_unconfirmed_refund_through_fail(wrong_results, name, case):
    """Issue 16 (high): each of these guards passed every case, yet let an unconfirmed 499.00 refund through."""
    (failed,) = wrong_results[name].failed
    assert failed.name == CASE[case] and failed.status == "fail"
    assert "yet your tool created [('RF-0001', 'A1024', 499.0)]" in failed.feedback
    assert "quote['turn']" in failed.feedback


def test_the_new_cases_really_submit_an_unconfirmed_refund_without_a_guard(wrong_results):
    """The premise: with no guard, both new cases end with the 499.00 refund created by the careless model."""
    failed = {r.name: r.feedback for r in wrong_results["unguarded"].failed}
    for case in ("third message", "yes before quote"):
        assert "yet your tool created [('RF-0001', 'A1024', 499.0)]" in failed[CASE[case]]


def test_the_reference_passes_the_named_cases():
    result = named_cases_only(nb11.CONFIRMATION_GUARD).evaluate(nb11.guarded_submit_refund_request)
    assert result.passed, result.text()


def test_a_generated_thread_is_built_as_the_agent_leaves_it():
    """Two yes messages after the quote (the second one is the issue-27 catch for 'exactly one message more')."""
    spec = ((("ask A1030", "quote"),), 2, True, "as quoted")
    messages, quote, args = nb11_threads.thread_messages(spec)
    assert [type(m).__name__ for m in messages] == [
        "HumanMessage", "AIMessage", "ToolMessage", "AIMessage", "HumanMessage", "AIMessage", "HumanMessage",
        "AIMessage", "ToolMessage", "AIMessage"]
    assert quote == {"order_id": "A1030", "amount": 120.0, "turn": 1} and args == {"order_id": "A1030", "amount": 120.0}
    assert nb11_threads.thread_outcome(nb11.guarded_submit_refund_request, spec) == {
        "answered": "success", "refunds": [("A1030", 120.0)], "refund_stage": "submitted"}
    assert nb11_threads.thread_outcome(sol.wrong_next_message_only, spec)["answered"] == "error"


def test_a_second_quote_in_the_submits_turn_is_refused():
    spec = ((("ask A1030", "quote"), ("yes", "reply"), ("ask A1024", "quote")), 0, False, "as quoted")
    _messages, quote, _args = nb11_threads.thread_messages(spec)
    assert quote == {"order_id": "A1024", "amount": 499.0, "turn": 3}
    assert nb11_threads.thread_outcome(nb11.guarded_submit_refund_request, spec)["refunds"] == []
    assert nb11_threads.thread_outcome(sol.wrong_first_quote_in_the_thread, spec)["refunds"] == [("A1024", 499.0)]
