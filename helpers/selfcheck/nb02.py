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
        id="answer-by-id",
        prompt=('Your application ran the call `{"name": "lookup_order", "args": {"order_id": "A1024"}, '
                '"id": "call_7", "type": "tool_call"}`. What must its result carry so that the model can tell '
                'which request it answers?'),
        choices=('tool_call_id="call_7" on the ToolMessage',
                 'name="lookup_order" on the ToolMessage',
                 "the same args, repeated in the content",
                 "nothing: results are matched by their position in the history"),
        answer='tool_call_id="call_7" on the ToolMessage',
        explanation="A ToolMessage answers the call whose id it quotes in tool_call_id; tool.invoke(call) fills "
                    "it in for you.",
        section="section 3 and section 6, the loop by hand",
        why_not={'name="lookup_order" on the ToolMessage':
                     "Two calls in one reply can name the same tool; only the id tells them apart.",
                 "nothing: results are matched by their position in the history":
                     "Parallel results may come back in any order; the id, not the position, pairs them."},
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
        section="section 6 and pitfall 3, A loop without a turn limit",
        why_not={"After the 3rd tool run, with an AI message saying the limit was reached":
                     "That is exit_behavior='end' (ModelCallLimitMiddleware's default, not this one's).",
                 "With ToolCallLimitExceededError at the 4th call": "That needs exit_behavior='error'.",
                 "It never ends": "create_agent's recursion_limit (9999 steps) still stops it, after about "
                                  "5000 model calls."},
    ),
)
