"""Self-check questions for notebook 13 (streaming tool calls).

The two "predict the output" questions run after :data:`CODE_CONTEXT` (the imports of sections 1-2) and
must print their answer; the others are proven by the verifiers in ``tests/selfcheck_verifiers/nb13.py``,
which run the agent of section 2 with the scripted model, and the real ``ChatAnthropic`` on its stand-in.
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
        prompt=N_('In `stream_mode="messages"` a consumer receives this chunk of a reply on its own: a later piece '
                  "of a call's arguments. What does it hold?"),
        code='''delta = AIMessageChunk(content="", tool_call_chunks=[
    tool_call_chunk(name=None, args=' "A1024"}', id=None, index=0)])
print(len(delta.tool_calls), len(delta.invalid_tool_calls), [c["name"] for c in delta.invalid_tool_calls])''',
        choices=("0 1 [None]", "1 0 []", "0 0 []", "1 1 ['lookup_order']"),
        answer="0 1 [None]",
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
        id="anthropic-cut-signal",
        prompt=N_("A streamed ChatAnthropic reply was cut at the token limit inside the refund's arguments; the "
                  "merged message holds a valid refund. What does a guard that refuses the calls only when "
                  "`finish_reason == 'length'` do with it?"),
        choices=(N_("runs the refund: the message has `stop_reason='max_tokens'` and no `finish_reason`"),
                 N_("refuses the refund: ChatAnthropic reports `finish_reason='length'` too"),
                 N_("nothing to refuse: ChatAnthropic makes the cut call an invalid call"),
                 N_("refuses the refund: a message without `finish_reason` counts as cut")),
        answer=N_("runs the refund: the message has `stop_reason='max_tokens'` and no `finish_reason`"),
        explanation=N_("Each integration has its own stop signal (finish_reason, status, stop_reason); a deny-list "
                       "of one integration's values lets the others' cut replies run. Allow the good values of "
                       "each instead."),
        section=N_("section 3, Every integration says it differently"),
        why_not={N_("nothing to refuse: ChatAnthropic makes the cut call an invalid call"):
                 N_("Streamed, every integration's chunks go through parse_partial_json: the cut arguments are a "
                    "valid call.")},
    ),
)
