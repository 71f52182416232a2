"""Self-check questions for notebook 13 (streaming tool calls).

The two "predict the output" questions run after :data:`CODE_CONTEXT` (the imports of sections 1-2) and
must print their answer; the others are proven by the verifiers in ``tests/selfcheck_verifiers/nb13.py``,
which run the agent of section 2 with the scripted model.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

CODE_CONTEXT = '''
from langchain.messages import AIMessageChunk
from langchain_core.messages.tool import tool_call_chunk
'''

QUESTIONS = (
    Question(
        id="cut-arguments-merge",
        prompt=N_("A stream stops after these two chunks (the model hit its token limit). What does the merged "
                  "message say?"),
        code='''first = AIMessageChunk(content="", tool_call_chunks=[
    tool_call_chunk(name="refund", args='{"order_id": "A1024", ', id="call_1", index=0)])
second = AIMessageChunk(content="", tool_call_chunks=[
    tool_call_chunk(name=None, args='"amount": 49', id=None, index=0)])
total = first + second
print(total.tool_calls[0]["args"] if total.tool_calls else "no tool call", len(total.invalid_tool_calls))''',
        choices=("{'order_id': 'A1024', 'amount': 49} 0", "no tool call 1", "{'order_id': 'A1024'} 0",
                 "{'order_id': 'A1024', 'amount': 49} 1"),
        answer="{'order_id': 'A1024', 'amount': 49} 0",
        explanation=N_("Each AIMessageChunk re-reads its calls with parse_partial_json, which completes the cut "
                       "JSON: a valid call for 49, and no invalid call."),
        section=N_("section 2, The money bug: a reply cut off mid-arguments"),
        why_not={"no tool call 1": N_("That is what invoke gives for the same reply: strict json.loads fails. "
                                      "A stream goes through parse_partial_json instead.")},
    ),
    Question(
        id="one-delta-alone",
        prompt=N_('In `stream_mode="messages"` a consumer receives this second chunk of a reply on its own. '
                  "What does it hold?"),
        code='''delta = AIMessageChunk(content="", tool_call_chunks=[
    tool_call_chunk(name=None, args=' "A1024"}', id=None, index=0)])
print(len(delta.tool_calls), len(delta.invalid_tool_calls), delta.invalid_tool_calls[0]["name"])''',
        choices=("0 1 None", "1 0 None", "0 0 None", "1 1 lookup_order"),
        answer="0 1 None",
        explanation=N_("A later piece has no name and its text is no JSON object: alone it is an invalid call. "
                       "Add the chunks up per message id before reading calls."),
        section=N_("section 5, What a consumer of `create_agent(...).stream(...)` receives"),
    ),
    Question(
        id="when-the-cut-refund-runs",
        prompt=N_("The model's reply is cut off inside the refund's arguments (finish_reason='length'). With no "
                  "middleware, which runs of the `create_agent` agent send the refund?"),
        choices=((N_('`stream(..., stream_mode="messages")` and `stream_mode="tools"`, not `invoke` or '
                     '`stream_mode="updates"`')),
                 N_("every run: the agent always merges the reply's chunks"),
                 N_("no run: create_agent never runs a call from a reply whose finish_reason is 'length'"),
                 N_("only `invoke`: streaming modes do not run tools")),
        answer=N_('`stream(..., stream_mode="messages")` and `stream_mode="tools"`, not `invoke` or '
                  '`stream_mode="updates"`'),
        explanation=N_("Those two modes attach a streaming callback handler, so BaseChatModel._should_stream "
                       "streams the model and parse_partial_json completes the cut call; create_agent never reads "
                       "finish_reason."),
        section=N_("section 2, Under `create_agent`: the stream mode decides whether money moves"),
        why_not={N_("no run: create_agent never runs a call from a reply whose finish_reason is 'length'"):
                 N_("Nothing in create_agent reads finish_reason on these pins: that is the guard you add.")},
    ),
    Question(
        id="where-the-guard-goes",
        prompt=N_('A chat UI consumes `agent.stream(..., stream_mode="messages")`. Where does a check on '
                  "`finish_reason` stop a cut-off refund from being sent?"),
        choices=(N_("in the agent, before the tools node: e.g. an `after_model` middleware"),
                 N_("in the UI loop: skip the chunks of a reply whose last chunk says 'length'"),
                 N_("nowhere: a cut reply is always an invalid call, so it never runs")),
        answer=N_("in the agent, before the tools node: e.g. an `after_model` middleware"),
        explanation=N_("The tools node runs the merged reply whatever the consumer does with the chunks; only a "
                       "check inside the agent, before tools run, stops it."),
        section=N_("section 3, The guard: run a tool call only from a reply that finished"),
        why_not={N_("in the UI loop: skip the chunks of a reply whose last chunk says 'length'"):
                 N_("By the time the UI sees the last chunk the agent has the merged call, and it runs it anyway.")},
    ),
    Question(
        id="progress-mode",
        prompt=N_("A tool calls `runtime.emit_output_delta('half done')`. Which stream mode of the agent delivers "
                  "it?"),
        choices=(N_('`"tools"`, as a tool-output-delta event'), N_('`"custom"`, like stream_writer data'),
                 N_('`"messages"`, as an AIMessageChunk'), N_('`"updates"`, in the tools node\'s update')),
        answer=N_('`"tools"`, as a tool-output-delta event'),
        explanation=N_('emit_output_delta feeds the "tools" mode (between tool-started and tool-finished); '
                       'runtime.stream_writer feeds "custom".'),
        section=N_("section 6, A tool that streams its own progress"),
    ),
)
