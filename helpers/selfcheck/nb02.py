"""Self-check questions for notebook 02 · tool calls are requests, not execution."""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="nothing-ran-yet",
        prompt=N_("The scripted model replies with one call to `submit_refund_request`. What does this print?"),
        code=('model = scripted_model([[tool_call("submit_refund_request", {"order_id": "A1024", "amount": 499.0})]])\n'
              'reply = model.bind_tools(TOOLS).invoke("Refund A1024, please")\n'
              'print(len(reply.tool_calls), runs["submit_refund_request"], len(refunds.requests))'),
        choices=("1 0 0", "1 1 1", "1 1 0", "0 0 0"),
        answer="1 0 0",
        explanation=N_("The reply holds one tool call, a request; no tool runs and no refund exists until the "
                       "application executes the call."),
        section=N_("section 3, Nothing has run yet"),
        why_not={"1 1 1": N_("A model reply never executes anything by itself."),
                 "0 0 0": N_("The request is there: tool_calls holds it.")},
    ),
    Question(
        id="answer-by-id",
        prompt=N_('Your application ran the call `{"name": "lookup_order", "args": {"order_id": "A1024"}, '
                  '"id": "call_7", "type": "tool_call"}`. What must its result carry so that the model can tell '
                  'which request it answers?'),
        choices=(N_('tool_call_id="call_7" on the ToolMessage'),
                 N_('name="lookup_order" on the ToolMessage'),
                 N_("the same args, repeated in the content"),
                 N_("nothing: results are matched by their position in the history")),
        answer=N_('tool_call_id="call_7" on the ToolMessage'),
        explanation=N_("A ToolMessage answers the call whose id it quotes in tool_call_id; tool.invoke(call) fills "
                       "it in for you."),
        section=N_("section 3, Nothing has run yet; section 6, The loop by hand, then `create_agent`"),
        why_not={N_('name="lookup_order" on the ToolMessage'):
                     N_("Two calls in one reply can name the same tool; only the id tells them apart."),
                 N_("nothing: results are matched by their position in the history"):
                     N_("Parallel results may come back in any order; the id, not the position, pairs them.")},
    ),
    Question(
        id="invalid-json-ends-run",
        prompt=N_("In `create_agent`, the model's only call has the arguments `{\"order_id\": A1024}` (A1024 is not "
                  "quoted). What happens next?"),
        choices=(N_("The call lands in invalid_tool_calls, no tool runs, and the run ends with an empty answer"),
                 N_("ToolNode answers with an error ToolMessage and the model tries again"),
                 N_("lookup_order runs with order_id 'A1024'"),
                 N_("invoke raises a JSONDecodeError")),
        answer=N_("The call lands in invalid_tool_calls, no tool runs, and the run ends with an empty answer"),
        explanation=N_("create_agent routes on tool_calls only, so a reply holding only invalid calls looks like a "
                       "final answer; answer such calls yourself (an after_model hook)."),
        section=N_("section 5, `invalid_tool_calls`: arguments that are not JSON"),
        why_not={N_("ToolNode answers with an error ToolMessage and the model tries again"):
                     N_("That is what happens to JSON that fails the tool's schema; text that is not JSON never "
                        "reaches ToolNode.")},
    ),
    Question(
        id="dependent-call",
        prompt=N_("In one reply the model asks for `quote_refund(A1030)` and `submit_refund_request(A1030, "
                  "amount=180.0)`. Why is it wrong to execute both, even one after the other?"),
        choices=(N_("The amount was written before any quote existed: the model guessed it"),
                 N_("Two calls in one reply always run at the same time and overwrite each other"),
                 N_("submit_refund_request raises when quote_refund has not finished"),
                 N_("It is not wrong: running them in order fixes it")),
        answer=N_("The amount was written before any quote existed: the model guessed it"),
        explanation=N_("A call's arguments are fixed when the reply is written; a dependent action must wait until "
                       "the result has gone back to the model."),
        section=N_("section 4, One reply, several calls"),
        why_not={N_("It is not wrong: running them in order fixes it"):
                     N_("The order of execution cannot change arguments that were already written.")},
    ),
    Question(
        id="tool-call-limit-continues",
        prompt=N_("`create_agent(model, tools, middleware=[ToolCallLimitMiddleware(run_limit=3)])`, and the model "
                  "asks for one more tool call on every turn. How does the run end?"),
        choices=(N_("With GraphRecursionError: after 3 runs the tool is blocked, but the model keeps being asked"),
                 N_("After the 3rd tool run, with an AI message saying the limit was reached"),
                 N_("With ToolCallLimitExceededError at the 4th call"),
                 N_("It never ends")),
        answer=N_("With GraphRecursionError: after 3 runs the tool is blocked, but the model keeps being asked"),
        explanation=N_("ToolCallLimitMiddleware defaults to exit_behavior='continue': it stops the tools, not the "
                       "model; exit_behavior='end' or ModelCallLimitMiddleware ends the loop."),
        section=N_("section 6, The loop by hand, then `create_agent`; pitfall 3, A loop without a turn limit"),
        why_not={N_("After the 3rd tool run, with an AI message saying the limit was reached"):
                     N_("That is exit_behavior='end' (ModelCallLimitMiddleware's default, not this one's)."),
                 N_("With ToolCallLimitExceededError at the 4th call"): N_("That needs exit_behavior='error'."),
                 N_("It never ends"): N_("create_agent's recursion_limit (9999 steps) still stops it, after about "
                                     "5000 model calls.")},
    ),
)
