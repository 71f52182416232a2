"""Self-check questions for notebook 11 · capstone: the refund agent.

Each right answer is run on the pins by ``tests/test_selfcheck_questions.py``.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="resume-without-context",
        prompt=N_("Turn 2 paused before `submit_refund_request`. The reviewer's app resumes with "
                  "`agent.invoke(Command(resume={\"decisions\": [{\"type\": \"approve\"}]}), config)`, without "
                  "`context=`. What happens?"),
        choices=(N_("The refund is submitted: the checkpoint restored turn 2's context"),
                 N_("The tool runs with runtime.context None and raises; the thread still waits before tools"),
                 N_("LangGraph refuses the resume before anything runs")),
        answer=N_("The tool runs with runtime.context None and raises; the thread still waits before tools"),
        explanation=N_("The context is not saved in the checkpoint: pass it on every invoke, resumes included, or "
                       "continue with invoke(None, config, context=...)."),
        section=N_("section 4, One conversation, one thread; notebook 10, Pitfalls, The context is not saved in the checkpoint"),
        why_not={N_("The refund is submitted: the checkpoint restored turn 2's context"):
                     N_("The checkpoint holds the state (messages, refund_stage, quote), not the run's context.")},
    ),
    Question(
        id="lost-reply-approvals",
        prompt=N_("Turn 2 with `simulate_outage(after_commit=True)`: the first submit commits and its reply is lost; "
                  "the policy submits the same order and amount again, and the reviewer approves every pause. At the "
                  "end, how many refund requests exist, and how many approvals were asked for?"),
        choices=(N_("1 request, 1 approval"), N_("2 requests, 2 approvals"), N_("1 request, 2 approvals")),
        answer=N_("1 request, 2 approvals"),
        explanation=N_("The retry is a new tool call, so the gate pauses for it too; the service finds the same "
                       "refund_key and returns the request it already has."),
        section=N_("section 5, The same run after a lost reply"),
        why_not={N_("1 request, 1 approval"): N_("The gate pauses for every gated call, and the retry is a new call."),
                 N_("2 requests, 2 approvals"): N_("That is what a key from the tool call id would give (pitfall 2).")},
    ),
    Question(
        id="guard-raises-valueerror",
        prompt=N_("In exercise 11.1 your guard raises `ValueError(\"not confirmed\")` instead of "
                  "`ConfirmationRequired`. The careless model submits before the customer's yes. What does the "
                  "model get, with build_agent's middleware?"),
        choices=(N_("An error ToolMessage with the code confirmation_required"),
                 N_("An error ToolMessage with the text not confirmed"),
                 N_("An error ToolMessage with the code internal_error: to the agent, a ValueError is a bug")),
        answer=N_("An error ToolMessage with the code internal_error: to the agent, a ValueError is a bug"),
        explanation=N_("error_mapping answers refusals only (a DomainError or a ToolRefusal); the ValueError goes on to "
                       "answer_bugs, which answers it as a bug and logs it, so the customer is never asked to confirm."),
        section=N_("section 8, Exercise 11.1: the missing guard"),
        why_not={N_("An error ToolMessage with the code confirmation_required"):
                     N_("Only a ToolRefusal with that code is mapped to it; error_mapping lets a ValueError through."),
                 N_("An error ToolMessage with the text not confirmed"):
                     N_("Neither middleware shows an exception's own message to the model.")},
    ),
    Question(
        id="what-makes-row-3-pass",
        prompt=N_("With the careless policy, row 3 (\"no write before the customer's yes\") fails although the reviewer "
                  "approved a correct-looking call. Which change makes the row pass whatever the model does?"),
        choices=(N_("A stricter system prompt: never submit before the customer says yes"),
                 N_("Allowing only approve and reject in HumanInTheLoopMiddleware"),
                 N_("A guard in the submit tool that refuses unless the customer wrote after the quote")),
        answer=N_("A guard in the submit tool that refuses unless the customer wrote after the quote"),
        explanation=N_("A prompt is a request to the model and the reviewer sees only the call, so only a check in "
                       "code knows whether the customer confirmed."),
        section=N_("section 7, A careless model, caught by the table"),
        why_not={N_("Allowing only approve and reject in HumanInTheLoopMiddleware"):
                     N_("The agent already allows only those; approval is not confirmation.")},
    ),
)
