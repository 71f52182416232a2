"""Verifiers of notebook 13's self-check questions (``helpers/selfcheck/nb13.py``): see
``tests/selfcheck_verifiers/__init__.py``. They run the notebook's own cells (its tools, the cut reply,
the agents and the guard) on the scripted model."""

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import notebook_cells_namespace


def _notebook():
    return notebook_cells_namespace("13", "def where(", "CUT = ", "def refund_agent(", "def refuse_cut_off_calls(",
                                    "def export_orders(")


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
    list(agent([namespace["refuse_cut_off_calls"]]).stream(ask, stream_mode="messages"))
    assert sent == [], "the after_model middleware stops it"
    return pick(q, "after_model")


def verify_progress_mode(q):
    namespace = _notebook()
    export_agent, export_ask = namespace["export_agent"], namespace["export_ask"]
    tools = list(export_agent().stream(export_ask, stream_mode="tools"))
    assert {"event": "tool-output-delta", "tool_call_id": "call_1", "delta": "half done"} in tools
    custom = list(export_agent().stream(export_ask, stream_mode="custom"))
    assert "half done" not in repr(custom)
    return pick(q, "tool-output-delta")
