"""Self-check questions for notebook 02 · tool calls are requests, not execution."""

from __future__ import annotations

from .format import Question

QUESTIONS = (
    Question(
        id="nothing-ran-yet",
        prompt="The scripted model replies with one call to `submit_refund_request`. What does this print?",
        code=('model = scripted_model([[tool_call("submit_refund_request", {"order_id": "A1024", "amount": 499.0})]])\n'
              'reply = model.bind_tools(TOOLS).invoke("Refund A1024, please")\n'
              'print(len(reply.tool_calls), runs["submit_refund_request"], len(refunds.requests))'),
        choices=("1 0 0", "1 1 1", "1 1 0", "0 0 0"),
        answer="1 0 0",
        explanation="The reply holds one tool call, a request; no tool runs and no refund exists until the "
                    "application executes the call.",
        section="section 3, Nothing has run yet",
        why_not={"1 1 1": "A model reply never executes anything by itself.",
                 "0 0 0": "The request is there: tool_calls holds it."},
    ),
    Question(
        id="dependent-call",
        prompt=("In one reply the model asks for `quote_refund(A1030)` and `submit_refund_request(A1030, "
                "amount=180.0)`. Why is it wrong to execute both, even one after the other?"),
        choices=("The amount was written before any quote existed: the model guessed it",
                 "Two calls in one reply always run at the same time and overwrite each other",
                 "submit_refund_request raises when quote_refund has not finished",
                 "It is not wrong: running them in order fixes it"),
        answer="The amount was written before any quote existed: the model guessed it",
        explanation="A call's arguments are fixed when the reply is written; a dependent action must wait until "
                    "the result has gone back to the model.",
        section="section 4, One reply, several calls",
        why_not={"It is not wrong: running them in order fixes it":
                     "The order of execution cannot change arguments that were already written."},
    ),
    Question(
        id="invalid-json-ends-run",
        prompt=("In `create_agent`, the model's only call has the arguments `{\"order_id\": A1024}` (A1024 is not "
                "quoted). What happens next?"),
        choices=("The call lands in invalid_tool_calls, no tool runs, and the run ends with an empty answer",
                 "ToolNode answers with an error ToolMessage and the model tries again",
                 "lookup_order runs with order_id 'A1024'",
                 "invoke raises a JSONDecodeError"),
        answer="The call lands in invalid_tool_calls, no tool runs, and the run ends with an empty answer",
        explanation="create_agent routes on tool_calls only, so a reply holding only invalid calls looks like a "
                    "final answer; answer such calls yourself (an after_model hook).",
        section="section 5, invalid_tool_calls",
        why_not={"ToolNode answers with an error ToolMessage and the model tries again":
                     "That is what happens to JSON that fails the tool's schema; text that is not JSON never "
                     "reaches ToolNode."},
    ),
    Question(
        id="argument-error-result",
        prompt=("In the \"you are the model\" widget you send `submit_refund_request` with "
                "`{\"order_id\": \"A1024\"}` (no amount). What does ToolNode give back?"),
        choices=("An error ToolMessage answering call_1 that names the missing argument",
                 "Nothing: the run stops with a ValidationError",
                 "A success ToolMessage: the amount defaults to 0",
                 "An invalid tool call: nothing runs"),
        answer="An error ToolMessage answering call_1 that names the missing argument",
        explanation="ToolNode turns an argument-validation error into an error ToolMessage with the call's id, "
                    "so the model can fix its call; other exceptions stop the run.",
        section="section 7, Play the model yourself",
        why_not={"Nothing: the run stops with a ValidationError":
                     "That happens to other exceptions (try Z9999 with lookup_order); argument errors are "
                     "answered."},
    ),
    Question(
        id="tool-call-limit-continues",
        prompt=("`create_agent(model, tools, middleware=[ToolCallLimitMiddleware(run_limit=3)])`, and the model "
                "asks for one more tool call on every turn. How does the run end?"),
        choices=("With GraphRecursionError: after 3 runs the tool is blocked, but the model keeps being asked",
                 "After the 3rd tool run, with an AI message saying the limit was reached",
                 "With ToolCallLimitExceededError at the 4th call",
                 "It never ends"),
        answer="With GraphRecursionError: after 3 runs the tool is blocked, but the model keeps being asked",
        explanation="ToolCallLimitMiddleware defaults to exit_behavior='continue': it stops the tools, not the "
                    "model; exit_behavior='end' or ModelCallLimitMiddleware ends the loop.",
        section="section Pitfalls, 3. A loop without a turn limit",
        why_not={"After the 3rd tool run, with an AI message saying the limit was reached":
                     "That is exit_behavior='end' (ModelCallLimitMiddleware's default, not this one's).",
                 "With ToolCallLimitExceededError at the 4th call": "That needs exit_behavior='error'.",
                 "It never ends": "create_agent's recursion_limit (9999 steps) still stops it, after about "
                                  "5000 model calls."},
    ),
)
