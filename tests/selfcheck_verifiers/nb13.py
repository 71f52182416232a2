"""Verifiers of notebook 13's self-check questions (``helpers/selfcheck/nb13.py``): see
``tests/selfcheck_verifiers/__init__.py``. They run the notebook's own cells (its tools, the cut reply,
the agents and the guard) on the scripted model."""

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import notebook_cells_namespace


def _notebook():
    return notebook_cells_namespace("13", "def where(", "CUT = ", "def refund_agent(", "def reply_finished(",
                                    "def refuse_unfinished_calls(")


def verify_when_the_cut_refund_runs(q):
    namespace = _notebook()
    agent, ask, sent = namespace["refund_agent"], namespace["ask"], namespace["sent"]
    ran = {}
    for mode in ("invoke", "updates", "messages", "tools"):
        sent.clear()
        if mode == "invoke":
            agent().invoke(ask)
        else:
            list(agent().stream(ask, stream_mode=mode))
        ran[mode] = list(sent)
    assert ran == {"invoke": [], "updates": [], "messages": [("A1024", 49.0)], "tools": [("A1024", 49.0)]}, ran
    return pick(q, '`stream(..., stream_mode="messages")`')


def verify_where_the_guard_goes(q):
    namespace = _notebook()
    agent, ask, sent = namespace["refund_agent"], namespace["ask"], namespace["sent"]
    sent.clear()
    shown = []  # what the UI renders: it drops the chunks of a reply that ends with 'length'
    for chunk, _metadata in agent().stream(ask, stream_mode="messages"):
        if chunk.response_metadata.get("finish_reason") == "length":
            shown.clear()
        else:
            shown.append(chunk)
    assert sent == [("A1024", 49.0)], "a check in the UI does not stop the refund"
    sent.clear()
    list(agent([namespace["refuse_unfinished_calls"]]).stream(ask, stream_mode="messages"))
    assert sent == [], "the after_model middleware stops it"
    return pick(q, "after_model")


def verify_anthropic_cut_signal(q):
    from langchain_anthropic import ChatAnthropic
    from langchain_core.tools import tool

    from helpers.model.loopback_anthropic import LoopbackAnthropic

    @tool
    def refund(order_id: str, amount: float) -> str:
        """Send a refund."""
        return order_id

    with LoopbackAnthropic(plays_model=True) as stand_in:
        model = ChatAnthropic(model="claude-sonnet-4-6", api_key="placeholder", base_url=stand_in.base_url,
                              max_retries=0)
        chunks = list(model.bind_tools([refund]).stream("Refund 149.50 on order A1024.", max_tokens=9))
    merged = sum(chunks[1:], chunks[0])
    assert merged.tool_calls and merged.tool_calls[0]["args"] == {"order_id": "A1024", "amount": 149}
    assert merged.invalid_tool_calls == []
    metadata = merged.response_metadata
    assert metadata["stop_reason"] == "max_tokens" and "finish_reason" not in metadata
    refuses = metadata.get("finish_reason") == "length"
    assert not refuses, "the deny-list guard runs the refund"
    return pick(q, "stop_reason='max_tokens'")
