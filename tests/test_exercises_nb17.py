"""Exercise 17.1's generated runs play the agent's tools node without the agent
(``helpers.exercises.nb17._play``); here each played outcome is proven equal to real ``create_agent`` runs
(langchain 1.5.2, a scripted model making the spec's calls, a new agent with a new guard for each session on
one checkpointer thread), for the reference and for guards that are wrong in each way the generated check
exists to catch."""

from __future__ import annotations

import itertools

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from helpers.exercises import nb17
from helpers.model import ScriptedChatModel
from tests.solutions import nb17 as sol


def _real_run(answer, spec: tuple) -> tuple:
    """``nb17._play``'s outcome, from real agent runs."""
    writes, reads, _note, sessions = spec
    tools, ran = nb17._run_tools(spec)
    saver, numbers = InMemorySaver(), itertools.count(1)
    for session in sessions:
        guard = answer(set(writes), {name for name, untrusted in reads if untrusted})
        steps = [[{"name": nb17._tool_name(spec, kind, k),
                   "args": {"order_id": f"A{1000 + (n := next(numbers))}", **({"amount": 1000.0} if kind == "write"
                                                                            else {})},
                   "id": f"call_{n}", "type": "tool_call"} for k in ks] for kind, ks in session]
        agent = create_agent(ScriptedChatModel(script=[*steps, "Done."], strict_tool_names=False), tools,
                             middleware=[guard], checkpointer=saver)
        out = agent.invoke({"messages": [HumanMessage("Where is my order?")]}, {"configurable": {"thread_id": "t"}})
    answers = {m.tool_call_id: m for m in out["messages"] if isinstance(m, ToolMessage)}
    return tuple((call["name"], call["args"]["order_id"] in ran,
                  answers[call["id"]].status if call["id"] in answers else "no ToolMessage")
                 for m in out["messages"] if isinstance(m, AIMessage) for call in m.tool_calls)


GUARDS = {"reference": nb17.make_guard,
          **{label: sol.GUARD_WRITES.wrong[label].answer for label in (
              "any tool result taints", "only the previous turn", "taint kept in the middleware object",
              "filter in wrap_model_call only", "hard-coded tool names")}}
SPECS = [
    (("refund",), (("lookup_order", True), ("read_ticket", False)), 0,
     ((("read", (0,)), ("read", (1,)), ("write", (0,))),)),
    (("issue_credit", "refund"), (("order_status", False),), 1, ((("write", (0, 1)), ("read", (0,)), ("write", (1,))),)),
    (("refund",), (("lookup_order", True),), 2, ((("read", (0,)),), (("write", (0,)), ("read", (0, 0))))),
    (("cancel_order",), (("read_ticket", True), ("lookup_order", False)), 0,
     ((("read", (1,)), ("write", (0,))), (("read", (0,)),), (("write", (0,)),))),
]


@pytest.mark.parametrize("label", GUARDS)
def test_a_played_run_equals_real_agent_runs(label):
    guard = GUARDS[label]
    for spec in SPECS:
        assert nb17._play(guard, spec) == _real_run(guard, spec), spec
