"""Verifiers of notebook 17's self-check questions (``helpers/selfcheck/nb17.py``): see
``tests/selfcheck_verifiers/__init__.py``. Each runs the notebook's own cells (setup, tools, the
gullible model) and the behaviour the question asks about."""

from langchain.agents import create_agent
from langchain.agents.middleware import ToolCallLimitMiddleware
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage

from helpers import scripted_model, tool_call
from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import notebook_cells_namespace

_SETUP = ("import langsmith.utils", "NOTE = ", "def gullible(")


def _refund_messages(out):
    return [m for m in out["messages"] if m.type == "tool" and m.name == "refund"]


def verify_hidden_tool_still_runs(q):
    ns = notebook_cells_namespace("17", *_SETUP, "class HideWritesAfterLookup")
    model = scripted_model([ns["gullible"]] * 6, strict_tool_names=False)
    ns["run"]([ns["lookup_order"], ns["refund"]], [ns["HideWritesAfterLookup"]()], model=model)
    assert model.requests[1].tool_names == ["lookup_order"]  # refund was not offered ...
    assert ns["refunds_done"] == [("B2048", 1000.0), ("A1024", 1000.0)]  # ... and ran anyway
    return pick(q, "tools node runs it")


def verify_refused_call_counts(q):
    ns = notebook_cells_namespace("17", *_SETUP, "def refund_checked")
    out = ns["run"]([ns["lookup_order"], ns["refund_checked"]],
                    [ToolCallLimitMiddleware(tool_name="refund", run_limit=1)])
    first, second = _refund_messages(out)
    assert first.content.startswith("Refused") and first.status == "success"
    assert second.status == "error" and "limit exceeded" in second.content
    return pick(q, "limit is exceeded")


def verify_ownership_misses_amount(q):
    ns = notebook_cells_namespace("17", *_SETUP, "def refund_owned")
    ns["run"]([ns["lookup_order"], ns["refund_owned"]])
    assert ns["refunds_done"] == [("A1024", 1000.0)]
    return pick(q, "1000 on A1024")


def verify_end_event_id(q):
    ns = notebook_cells_namespace("17", *_SETUP)
    seen = {}

    class Keywords(BaseCallbackHandler):
        def on_tool_start(self, serialized, input_str, **kwargs):
            seen["start"] = kwargs.get("tool_call_id")

        def on_tool_end(self, output, **kwargs):
            seen["end"] = kwargs.get("tool_call_id")
            seen["output"] = output.tool_call_id

    model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})], "Done."])
    create_agent(model, [ns["lookup_order"]]).invoke(
        {"messages": [HumanMessage("Where is A1024?")]}, config={"callbacks": [Keywords()]})
    assert seen == {"start": "call_1", "end": None, "output": "call_1"}, seen
    return pick(q, "Only inside its output")
