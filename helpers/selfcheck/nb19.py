"""Self-check questions for notebook 19 (Many tools, long runs).

None is a "predict the output" snippet: each right answer is proven by a verifier in
``tests/selfcheck_verifiers/nb19.py``, which runs the notebook's own cells (the desk's tools, the scripted
models) and the middleware the question asks about, on the pinned stack.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="what-the-selector-reads",
        prompt=N_("An agent with `LLMToolSelectorMiddleware` has looked an order up and is about to call its "
                  "model again. What does the selection model receive for this step?"),
        choices=(N_("Its system prompt and the last human message only"),
                 N_("The whole conversation, the tool result included"),
                 N_("Nothing: the selection made for the first step is reused"),
                 N_("The tool result only, to pick the next tool")),
        answer=N_("Its system prompt and the last human message only"),
        explanation=N_("The selection runs before every model call, from the selector's prompt and the last "
                       "HumanMessage; tool results and earlier turns are not sent."),
        section=N_("section 2a, `LLMToolSelectorMiddleware`: a model picks the tools"),
        why_not={N_("Nothing: the selection made for the first step is reused"):
                 N_("It is made again before every model call: a two-step run made two selection requests.")},
    ),
    Question(
        id="what-stays-of-a-cleared-call",
        prompt=N_("`ClearToolUsesEdit` has cleared an old `order_history` result. What does the provider receive "
                  "for that call in the next request?"),
        choices=(N_("The call with its id, answered by a tool message whose content is [cleared]"),
                 N_("Neither the call nor its result"),
                 N_("The call alone, with no answer, so the provider refuses the request"),
                 N_("The original result: the edit only changes the state")),
        answer=N_("The call with its id, answered by a tool message whose content is [cleared]"),
        explanation=N_("The edit replaces the result's content with a placeholder in the request and keeps the "
                       "tool_call_id, so the pairing holds; the state keeps the full result."),
        section=N_("section 3a, `ContextEditingMiddleware`: clear old tool results"),
        why_not={N_("The original result: the edit only changes the state"):
                 N_("The other way round: the state keeps the result, the request gets the placeholder.")},
    ),
    Question(
        id="what-stops-the-loop",
        prompt=N_("A model asks for `lookup_order` in every reply. The agent has "
                  "`ToolCallLimitMiddleware(run_limit=3)` with its default `exit_behavior`. What ends the run?"),
        choices=(N_("Only the recursion limit: calls over the limit get an error ToolMessage and the model is "
                    "asked again"),
                 N_("The limit: the run returns after the third call"),
                 N_("ToolCallLimitExceededError, raised at the fourth call"),
                 N_("The model: an error ToolMessage makes it stop calling tools")),
        answer=N_("Only the recursion limit: calls over the limit get an error ToolMessage and the model is "
                  "asked again"),
        explanation=N_("The default 'continue' blocks the extra calls and lets the loop go on; use 'end', or "
                       "ModelCallLimitMiddleware, to stop it."),
        section=N_("section 4, Stopping a run"),
        why_not={N_("ToolCallLimitExceededError, raised at the fourth call"):
                 N_("That is exit_behavior='error', and it leaves an unanswered call in the thread.")},
    ),
    Question(
        id="approval-inside-a-program",
        prompt=N_("`HumanInTheLoopMiddleware(interrupt_on={\"refund\": True})` and "
                  "`CodeInterpreterMiddleware(ptc=[\"refund\"])`. The model's one `eval` call runs a program that "
                  "calls `tools.refund(...)` twice. How many approval pauses are there?"),
        choices=(N_("None: the calls run inside eval, not through the tools node"),
                 N_("Two, one per refund call"),
                 N_("One, before the first refund call"),
                 N_("None, and the refunds are refused because they need approval")),
        answer=N_("None: the calls run inside eval, not through the tools node"),
        explanation=N_("Approval, tool-call limits and wrap_tool_call see only the eval call; expose only reads "
                       "to the program, or gate eval itself."),
        section=N_("section 5, Programmatic tool calling: one call, many tools"),
        why_not={N_("None, and the refunds are refused because they need approval"):
                 N_("They run: nothing checks them on the way, only the tool's own checks.")},
    ),
)
