"""Exercise 10.1 beyond the registry's contract: the generated pauses are the middleware's own, and the
reference's verdict is what langchain 1.5.2's HumanInTheLoopMiddleware does with the decisions."""

import copy

import pytest
from langgraph.types import Command

from helpers.exercises import nb10
from helpers.i18n import use
from helpers.model import tool_call
from tests.solutions import nb10 as sol

_REFUND, _CREDIT = "submit_refund_request", "issue_store_credit"


def _paused_like(spec):
    """A real agent paused before the spec's calls, with the spec's gates."""
    calls, refund_gate, credit_gate, _count = spec
    made = [tool_call(name, dict(nb10._ARGS[name][which]), f"call_{n}") for n, (name, which, _k, _t) in
            enumerate(calls, 1)]
    return nb10._paused(made, list(refund_gate), list(credit_gate))


SPECS = [
    # safe: one per call, each allowed by its own call's config, edits keep their tool
    (((_REFUND, 0, "edit", _REFUND), (_CREDIT, 1, "reject", _CREDIT)), nb10._REFUND_GATES[0], ("approve", "reject"),
     "one per call"),
    (((_CREDIT, 2, "respond", _CREDIT), (_REFUND, 1, "approve", _CREDIT)), nb10._REFUND_GATES[2],
     ("approve", "reject", "respond"), "one per call"),
    # refused: the middleware raises
    (((_CREDIT, 0, "edit", _CREDIT), (_REFUND, 0, "edit", _REFUND)), nb10._REFUND_GATES[0], ("approve", "reject"),
     "one per call"),
    (((_REFUND, 0, "Approve", _REFUND),), nb10._REFUND_GATES[0], ("approve", "reject"), "one per call"),
    (((_REFUND, 0, "approve", _REFUND),), nb10._REFUND_GATES[0], ("approve", "reject"), "one more"),
    (((_REFUND, 0, "approve", _REFUND), (_REFUND, 1, "approve", _REFUND)), nb10._REFUND_GATES[0],
     ("approve", "reject"), "one missing"),
]


@pytest.mark.parametrize("spec", SPECS, ids=range(len(SPECS)))
def test_the_reference_says_safe_exactly_when_the_middleware_takes_the_decisions(spec):
    agent, config, value = _paused_like(spec)
    request, decisions = nb10.generated_request(spec)
    assert value == request, "the generated interrupt value is the middleware's own"
    verdict = nb10.decisions_outcome(nb10.check_decisions, spec)
    try:
        out = agent.invoke(Command(resume={"decisions": copy.deepcopy(decisions)}), config, version="v2")
    except ValueError:
        assert verdict == "refused"
    else:
        assert verdict == "safe" and not out.interrupts


def test_an_edit_that_names_another_gated_tool_runs_it_unreviewed():
    """Issue 27's catch for 'an edit may name any tool of the pause': the middleware runs the credit the edit
    names, and the refund call is gone; the reference refuses it, the wrong answer calls it safe."""
    spec = (((_REFUND, 0, "edit", _CREDIT), (_CREDIT, 1, "approve", _CREDIT)), nb10._REFUND_GATES[0],
            ("approve", "reject"), "one per call")
    agent, config, _value = _paused_like(spec)
    _request, decisions = nb10.generated_request(spec)
    out = agent.invoke(Command(resume={"decisions": decisions}), config, version="v2")
    ran = [m.name for m in out.value["messages"] if m.type == "tool"]
    assert ran == [_CREDIT, _CREDIT]
    assert nb10.decisions_outcome(nb10.check_decisions, spec) == "refused"
    assert nb10.decisions_outcome(sol.wrong_edit_names_any_gated_tool, spec) == "safe"


def test_a_generated_pause_is_described_in_the_learners_words():
    spec = (((_REFUND, 0, "aprove", _REFUND),), nb10._REFUND_GATES[1], ("approve", "reject"), "one per call")
    text = nb10.CHECK_DECISIONS.generated[0].describe(spec)
    assert text == ("1 gated call(s) in call order: submit_refund_request (allows approve, edit, reject); "
                    "the decisions: [{'type': 'aprove'}]")
    with use("zh-CN"):
        assert "submit_refund_request" in nb10.CHECK_DECISIONS.generated[0].describe(spec)
