"""Verifiers of notebook 08's self-check questions (``helpers/selfcheck/nb08.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

from pathlib import Path

import pytest

from tests.selfcheck_verifiers import pick


def _interrupting_agent(tools: list, script: list):
    """``create_agent`` on the scripted model (a protocol case) with an ``InMemorySaver``."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from helpers import scripted_model
    return create_agent(scripted_model(script), tools, checkpointer=InMemorySaver())


def verify_new_message_while_paused(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage
    from langchain.tools import tool
    from langgraph.types import interrupt

    from helpers import ProviderRuleError, tool_call
    submitted = []

    @tool
    def submit_refund_request(order_id: str, amount: float) -> str:
        """Submit a refund REQUEST after a human approves it."""
        decision = interrupt({"order_id": order_id, "amount": amount})
        submitted.append(decision)
        return f"submitted {order_id}"

    agent = _interrupting_agent([submit_refund_request],
                                [[tool_call("submit_refund_request", {"order_id": "A1024", "amount": 499.0})],
                                 "Your refund request was submitted."])
    config = {"configurable": {"thread_id": "support-1"}}
    out = agent.invoke({"messages": [("user", "Refund A1024, please.")]}, config, version="v2")
    assert len(out.interrupts) == 1
    with pytest.raises(ProviderRuleError):                                    # the next model request is rejected
        agent.invoke({"messages": [("user", "Also, how long does it take?")]}, config)
    messages = agent.get_state(config).values["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage, HumanMessage]  # appended, not queued
    assert not [m for m in messages if isinstance(m, ToolMessage)] and submitted == []  # the tool did not go on
    return pick(q, "appended after the unanswered call")


def verify_what_process_b_needs(q):
    import tempfile

    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command

    from helpers import durable_flow

    process_b = durable_flow.SecondProcess.start()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "checkpoints.sqlite")
        config = {"configurable": {"thread_id": "refund-A1024"}}
        with SqliteSaver.from_conn_string(db) as saver:                       # process A pauses, then exits
            graph = durable_flow.build(saver)
            out = graph.invoke({"order_id": "A1024", "amount": 499.0}, config, version="v2")
            (pending,) = out.interrupts
            saved = saver.get_tuple(config).checkpoint["channel_values"]
            assert not [v for v in saved.values() if callable(v)]             # state only, no code
            with pytest.raises(ValueError, match="thread_id"):                # an interrupt id alone finds no run
                graph.invoke(Command(resume={pending.id: "approve"}))
            assert graph.get_state({"configurable": {"thread_id": "refund-A1024-b"}}).next == ()  # nor another thread
        lines = process_b.resume(db, "refund-A1024", "approve")             # B: same file, thread and graph code
        assert "process B: a different process: True" in lines, lines
        with SqliteSaver.from_conn_string(db) as saver:
            final = durable_flow.build(saver).get_state(config)
    assert final.values["stage"] == "approved" and final.next == ()
    return pick(q, "same thread_id and the same graph code")


def verify_two_interrupts_at_once(q):
    from langchain.messages import ToolMessage
    from langchain.tools import tool
    from langgraph.types import Command, interrupt

    from helpers import tool_call

    @tool
    def ask_manager(order_id: str, amount: float) -> str:
        """Ask a manager to approve one large refund; returns the manager's decision."""
        decision = interrupt({"order_id": order_id, "amount": amount})
        return f"{order_id}: {decision['type']}"

    agent = _interrupting_agent([ask_manager], [[tool_call("ask_manager", {"order_id": "A1024", "amount": 499.0}),
                                                 tool_call("ask_manager", {"order_id": "A1029", "amount": 2899.0})],
                                                "Both refunds were reviewed."])
    config = {"configurable": {"thread_id": "two-interrupts"}}
    out = agent.invoke({"messages": [("user", "Refund A1024 and A1029")]}, config, version="v2")
    assert len(out.interrupts) == 2
    for plain in ({"type": "approve"}, [{"type": "approve"}, {"type": "approve"}]):  # one value, or a list of them
        with pytest.raises(RuntimeError, match="you must specify the interrupt id"):
            agent.invoke(Command(resume=plain), config)
    assert len(agent.get_state(config).interrupts) == 2                        # the refusal saved nothing
    out = agent.invoke(Command(resume={i.id: {"type": "approve"} for i in out.interrupts}), config, version="v2")
    answers = sorted(m.content for m in out.value["messages"] if isinstance(m, ToolMessage))
    assert out.interrupts == () and answers == ["A1024: approve", "A1029: approve"]
    return pick(q, "one entry per interrupt")
