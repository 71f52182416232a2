"""Self-check questions for notebook 10 · human approval.

Each right answer is run on the pins by ``tests/test_selfcheck_questions.py`` with the verifiers in
``tests/selfcheck_verifiers/nb10.py``.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="two-gated-calls",
        prompt=N_("One model reply holds two gated calls, A1024 then A1030, and `HumanInTheLoopMiddleware` runs in "
                  "its default batched mode. You approve A1024 and reject A1030. What do you send?"),
        choices=(N_("Two resumes: {\"decisions\": [{\"type\": \"approve\"}]}, then one with the reject"),
                 N_("One resume keyed by call id: {\"call_1\": {\"type\": \"approve\"}, \"call_2\": {\"type\": "
                    "\"reject\"}}"),
                 N_("One resume: {\"decisions\": [{\"type\": \"approve\"}, {\"type\": \"reject\", \"message\": ...}]}")),
        answer=N_("One resume: {\"decisions\": [{\"type\": \"approve\"}, {\"type\": \"reject\", \"message\": ...}]}"),
        explanation=N_("The batched middleware pauses once per reply and needs one decision per gated call, in the "
                       "order of the calls."),
        section=N_("section 1, Two gated calls in one reply"),
        why_not={N_("Two resumes: {\"decisions\": [{\"type\": \"approve\"}]}, then one with the reject"):
                     N_("One decision for two calls raises a ValueError, and that first value is then replayed.")},
    ),
    Question(
        id="after-a-wrong-resume",
        prompt=N_("A HITL pause is answered with `Command(resume={\"type\": \"approve\"})` (no `decisions`) and "
                  "raises `KeyError: 'decisions'`. What does the correct resume, sent next on the same thread, do?"),
        choices=(N_("It raises the same KeyError: the first resume value was saved and is replayed"),
                 N_("It approves the call: the new value replaces the wrong one"),
                 N_("It starts the run again from the model")),
        answer=N_("It raises the same KeyError: the first resume value was saved and is replayed"),
        explanation=N_("LangGraph keeps the first resume value with the paused step; the thread is stuck until "
                       "update_state(..., as_node=...) moves it past that step."),
        section=N_("section 1, Wrong answers, and why they are worse than errors"),
    ),
    Question(
        id="run-limit-across-resumes",
        prompt=N_("A model resubmits the refund after every rejection. The agent has the approval gate and, after it, "
                  "`ToolCallLimitMiddleware(tool_name=\"submit_refund_request\", run_limit=2, exit_behavior=\"end\")`. "
                  "The reviewer rejects every pause. What stops the loop?"),
        choices=(N_("run_limit=2: the third call is answered by the limit"),
                 N_("Nothing: every resume is a new run, and the run count starts at zero again"),
                 N_("The gate: it refuses to pause twice for the same call")),
        answer=N_("Nothing: every resume is a new run, and the run count starts at zero again"),
        explanation=N_("The run count is not checkpointed (UntrackedValue), so each resume starts it at zero; "
                       "thread_limit counts across resumes and ends the loop."),
        section=N_("section 2, Way out 2: a rule in the system prompt, and a limit that enforces it"),
        why_not={N_("run_limit=2: the third call is answered by the limit"):
                     N_("That is thread_limit=2; run_limit counts the calls of one run, and each resume is a run.")},
    ),
)
