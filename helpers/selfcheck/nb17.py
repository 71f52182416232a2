"""Self-check questions for notebook 17 (Untrusted results and tracing).

None is a "predict the output" snippet: each right answer is proven by a verifier in
``tests/selfcheck_verifiers/nb17.py``, which runs the notebook's own cells (the tools, the gullible
model, the middleware) on the pinned stack.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="hidden-tool-still-runs",
        prompt=N_("A `wrap_model_call` middleware removes `refund` from the tools of every model request after a "
                  "lookup. The model names `refund` in a tool call anyway. What happens to that call?"),
        choices=(N_("The tools node runs it: it holds every tool the agent was built with"),
                 N_("The agent raises: the tool is not bound to this request"),
                 N_("It is answered with an error ToolMessage saying the tool does not exist"),
                 N_("The call is dropped and the model is asked again")),
        answer=N_("The tools node runs it: it holds every tool the agent was built with"),
        explanation=N_("request.override(tools=...) changes only what is bound to the model; the ToolNode is "
                       "built from all registered tools. Block in wrap_tool_call instead."),
        section=N_("section 2d, Per-turn tool sets: hiding is not blocking"),
        why_not={N_("It is answered with an error ToolMessage saying the tool does not exist"):
                 N_("That happens for a name the agent has no tool for; refund is registered.")},
    ),
    Question(
        id="refused-call-counts",
        prompt=N_("`ToolCallLimitMiddleware(tool_name=\"refund\", run_limit=1)`. The first `refund` call is refused "
                  "by the tool's ownership check; the model then calls `refund` again for its own order. What "
                  "does the second call get?"),
        choices=(N_("An error ToolMessage: the tool call limit is exceeded"),
                 N_("It runs: only calls that succeeded count toward the limit"),
                 N_("It runs: a refusal returned by the tool resets the count"),
                 N_("The run raises ToolCallLimitExceededError")),
        answer=N_("An error ToolMessage: the tool call limit is exceeded"),
        explanation=N_("The limit counts the calls the model made (the after_model hook), refused or not; "
                       "the default exit_behavior 'continue' answers the extra call with an error ToolMessage."),
        section=N_("section 2c, A tool-call limit"),
        why_not={N_("The run raises ToolCallLimitExceededError"): N_("Only with exit_behavior='error'.")},
    ),
    Question(
        id="ownership-misses-amount",
        prompt=N_("The refund tool refuses orders that do not belong to `runtime.context.user_id`, and checks "
                  "nothing else. The note asks for 1000 to B2048 (another customer's); the model then asks for "
                  "1000 on the customer's own A1024, which cost 49. What is refunded?"),
        choices=(N_("1000 on A1024"), N_("Nothing"), N_("1000 on B2048"), N_("49 on A1024")),
        answer=N_("1000 on A1024"),
        explanation=N_("Ownership is one rule; the amount needs its own (at most what the order cost)."),
        section=N_("section 2a, Authorization from `runtime.context`"),
        why_not={N_("Nothing"): N_("The ownership check stops only the foreign order.")},
    ),
    Question(
        id="end-event-id",
        prompt=N_("A callback handler joins each tool result to the model's call. Where does `on_tool_end` carry the `tool_call_id`?"),
        choices=(N_("Only inside its output, the ToolMessage (output.tool_call_id)"),
                 N_("As the keyword argument tool_call_id, like on_tool_start"),
                 N_("As its run_id"),
                 N_("Nowhere: the end event cannot be joined to the call")),
        answer=N_("Only inside its output, the ToolMessage (output.tool_call_id)"),
        explanation=N_("on_tool_start and on_tool_error get tool_call_id as a keyword; on_tool_end gets the "
                       "ToolMessage, which carries it."),
        section=N_("section 4, Tracing every protocol step"),
        why_not={N_("As its run_id"): N_("run_id is a UUID of the callback run, not the model's call id.")},
    ),
)
