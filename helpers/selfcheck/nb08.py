"""Self-check questions for notebook 08 · interrupt and resume.

The "predict the output" snippets are complete programs; ``tests/test_selfcheck_questions.py`` runs each
one and checks that it prints the right answer on the pinned versions.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

#: Each snippet imports what it uses, so the context only says so.
CODE_CONTEXT = "# notebook 08's snippets are self-contained: each builds its own graph\n"

_NOTICE_BEFORE_INTERRUPT = '''\
from typing import TypedDict
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

class State(TypedDict, total=False):
    decision: str

sent = []

def review(state: State) -> dict:
    sent.append("your refund is being reviewed")
    return {"decision": interrupt("approve?")}

builder = StateGraph(State)
builder.add_node("review", review)
builder.add_edge(START, "review")
builder.add_edge("review", END)
graph = builder.compile(checkpointer=InMemorySaver())

config = {"configurable": {"thread_id": "t1"}}
graph.invoke({}, config)
graph.invoke(Command(resume="approve"), config)
print(len(sent), graph.get_state(config).values["decision"])'''

_RESUME_ON_ANOTHER_THREAD = '''\
from typing import TypedDict
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

class State(TypedDict, total=False):
    order_id: str
    decision: str

def review(state: State) -> dict:
    return {"decision": interrupt({"order_id": state.get("order_id")})}

builder = StateGraph(State)
builder.add_node("review", review)
builder.add_edge(START, "review")
builder.add_edge("review", END)
graph = builder.compile(checkpointer=InMemorySaver())

graph.invoke({"order_id": "A1024"}, {"configurable": {"thread_id": "refund-A1024"}})
out = graph.invoke(Command(resume="approve"), {"configurable": {"thread_id": "refund-A1024-retry"}}, version="v2")
print(out.value, [i.value for i in out.interrupts])'''

QUESTIONS = (
    Question(
        id="node-runs-again",
        prompt=N_("The node sends a notice, then asks for approval. The run pauses, then it is resumed. What does this print?"),
        code=_NOTICE_BEFORE_INTERRUPT,
        choices=("2 approve", "1 approve", "1 approve?", "2 approve?"),
        answer="2 approve",
        explanation=N_("On resume the paused node runs again from its top: the notice is sent twice, and this time "
                       "interrupt() returns the resume value."),
        section=N_("section 3, On resume, the node runs again from its top"),
        why_not={"1 approve": N_("The node does not continue after the interrupt() line; it runs again from its top."),
                 "1 approve?": N_("interrupt() never returns its own payload; on resume it returns the resume value."),
                 "2 approve?": N_("interrupt() returns the resume value, not the payload it was given.")},
    ),
    Question(
        id="resume-on-another-thread",
        prompt=N_("The run paused on thread `refund-A1024`; the answer is sent to `refund-A1024-retry`. What does "
                  "this print?"),
        code=_RESUME_ON_ANOTHER_THREAD,
        choices=("{} [{'order_id': None}]",
                 "{'order_id': 'A1024', 'decision': 'approve'} []",
                 N_("a ValueError: no run is paused on that thread")),
        answer="{} [{'order_id': None}]",
        explanation=N_("A thread with no checkpoint starts a fresh run, which pauses again at the same node; the "
                       "paused run on refund-A1024 still waits."),
        section=N_("section 1, Both: pause, inspect, resume"),
        why_not={"{'order_id': 'A1024', 'decision': 'approve'} []":
                     N_("The answer only reaches the run saved on the thread it is sent to."),
                 N_("a ValueError: no run is paused on that thread"):
                     N_("LangGraph raises nothing: the resume becomes the input of a new run there.")},
    ),
    Question(
        id="new-message-while-paused",
        prompt=N_("A tool call of `create_agent` waits for approval (the run paused inside the tool). The customer "
                  "types another question, and the app sends it as new input on the same thread. What happens?"),
        choices=(N_("The message is appended after the unanswered call, and the next model request is rejected"),
                 N_("The message answers the pending interrupt and the tool continues"),
                 N_("LangGraph queues the message until the approval arrives")),
        answer=N_("The message is appended after the unanswered call, and the next model request is rejected"),
        explanation=N_("New input starts a new run on the thread; the tool call still has no ToolMessage, which "
                       "providers refuse. Resume with Command(resume=...) first."),
        section=N_("section 4, A tool that asks for approval"),
        why_not={N_("The message answers the pending interrupt and the tool continues"):
                     N_("Only Command(resume=...) answers an interrupt."),
                 N_("LangGraph queues the message until the approval arrives"):
                     N_("Nothing is queued: keep the text in your UI and send it after the resume.")},
    ),
    Question(
        id="what-process-b-needs",
        prompt=N_("Process A paused a run with `SqliteSaver` and exited. What does process B need to resume it?"),
        choices=(N_("The same SQLite file, the same thread_id and the same graph code"),
                 N_("Only the interrupt's id"),
                 N_("Process A's graph object, passed over a pipe"),
                 N_("Only the SQLite file: the graph is stored in the checkpoint")),
        answer=N_("The same SQLite file, the same thread_id and the same graph code"),
        explanation=N_("The checkpoint stores state (values, the paused node, the interrupt payload), not code: "
                       "process B builds the same graph on the same file and thread."),
        section=N_("section 5, Durable resume: pause here, resume in another process"),
        why_not={N_("Only the SQLite file: the graph is stored in the checkpoint"):
                     N_("A checkpoint holds state only; that is why both processes import the flow from one module."),
                 N_("Only the interrupt's id"): N_("An id names an interrupt; it does not hold the run.")},
    ),
    Question(
        id="two-interrupts-at-once",
        prompt=N_("One `create_agent` reply holds two tool calls, and both tools call `interrupt()`. The run pauses "
                  "with two interrupts. Which resume continues it?"),
        choices=(N_('Command(resume={interrupt.id: {"type": "approve"}, ...}), one entry per interrupt'),
                 N_('Command(resume={"type": "approve"}), which answers both'),
                 N_('Command(resume=[{"type": "approve"}, {"type": "approve"}]), in call order'),
                 N_("Two resumes one after the other, each with a plain value")),
        answer=N_('Command(resume={interrupt.id: {"type": "approve"}, ...}), one entry per interrupt'),
        explanation=N_("With several interrupts pending, LangGraph refuses a plain resume value ('you must specify "
                       "the interrupt id'); a dict keyed by the interrupt ids answers each."),
        section=N_("section 4, A tool that asks for approval; Pitfalls, Two interrupting tools in one reply"),
        why_not={N_('Command(resume={"type": "approve"}), which answers both'):
                     N_("It raises RuntimeError: with several pending interrupts, the id is required."),
                 N_("Two resumes one after the other, each with a plain value"):
                     N_("The first one is already refused: both interrupts are pending at the same time.")},
    ),
)
