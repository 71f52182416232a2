"""Every self-check question holds on the pinned stack, and every notebook with questions shows them.

Covers each ``helpers/selfcheck/nbNN.py`` found by name (:func:`helpers.selfcheck.available_notebooks`):

* a "predict the output" question's ``code`` is run (after the module's ``CODE_CONTEXT``: the
  notebook's definitions the snippet uses) in a fresh namespace, and what it prints must be its
  ``answer`` exactly;
* a question whose truth needs more than one print (a "which of these happens" question, or a
  predict question whose answer describes a value) has a verifier below: it runs the behaviour and
  returns the choice that is true, which must be the ``answer``. A choice question without one
  fails, and so does a predict question without either: every answer is proven on the pins;
* the section a question points to exists in its notebook, and the notebook has a
  "## Check yourself" section (``self_check("NN")``, committed as its one-line text) just before
  "## Recap".

Answering through the engine with ``COURSE_PROGRESS_FILE`` set shows up in the progress table.
"""

import ast
import asyncio
import contextlib
import importlib
import inspect
import io
import json
import operator
import re
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest

from helpers.selfcheck import available_notebooks, questions_for

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SELFCHECK_DIR = ROOT / "helpers" / "selfcheck"
ALL = [(number, question) for number in available_notebooks() for question in questions_for(number)]


def _id(value: Any) -> str:
    return value if isinstance(value, str) else getattr(value, "id", str(value))


# -- running code ------------------------------------------------------------------------------


def _run(source: str, namespace: dict, name: str) -> str:
    """Execute ``source`` in ``namespace`` (top-level ``await`` allowed); return what it printed."""
    code = compile(source, f"<{name}>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = eval(code, namespace)  # noqa: S307 - the course's own question snippets
        if inspect.iscoroutine(result):
            asyncio.run(result)
    return out.getvalue()


#: Contexts for the question modules written before ``CODE_CONTEXT`` existed (notebook 02's setup).
FALLBACK_CONTEXT = {
    "02": '''
from langchain.tools import tool
from helpers import scripted_model, tool_call
from helpers.domain import DomainError, OrderStore, RefundService

USER = "user-42"
runs = {"lookup_order": 0, "quote_refund": 0, "submit_refund_request": 0}
store = OrderStore()
refunds = RefundService(store)


@tool
def lookup_order(order_id: str) -> dict:
    """Look up one order of the current customer by id (e.g. A1024): product, status, amounts."""
    runs["lookup_order"] += 1
    return store.get_order(order_id, user_id=USER).to_dict()


@tool
def quote_refund(order_id: str) -> dict:
    """Read-only: how much of an order can be refunded today, and under which policy."""
    runs["quote_refund"] += 1
    return {"order_id": order_id}


@tool
def submit_refund_request(order_id: str, amount: float) -> dict:
    """Create a refund REQUEST (it does not send money). Quote first: amount must not exceed the quote."""
    runs["submit_refund_request"] += 1
    request = refunds.submit(order_id, amount, user_id=USER, idempotency_key=f"{order_id}:{amount}")
    return {"request_id": request.request_id, "status": request.status, "amount": request.amount}


TOOLS = [lookup_order, quote_refund, submit_refund_request]
''',
}


def context_of(number: str) -> str | None:
    """The Python source a notebook's snippets run after (``CODE_CONTEXT`` or a fallback here)."""
    module = importlib.import_module(f"helpers.selfcheck.nb{number}")
    return getattr(module, "CODE_CONTEXT", None) or FALLBACK_CONTEXT.get(number)


def context_namespace(number: str) -> dict:
    """A fresh namespace holding notebook ``number``'s snippet context."""
    namespace = {"__name__": f"selfcheck_nb{number}"}
    _run(context_of(number) or "", namespace, f"nb{number} context")
    return namespace


def notebook_path(number: str) -> Path:
    found = sorted(NOTEBOOKS.glob(f"{number}_*.ipynb"))
    assert len(found) == 1, f"expected one notebook {number}_*.ipynb, found {[p.name for p in found]}"
    return found[0]


def cells(number: str) -> list[dict]:
    return json.loads(notebook_path(number).read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def notebook_cells_namespace(number: str, *markers: str) -> dict:
    """Execute, in notebook order, the code cells of notebook ``number`` that contain one of
    ``markers`` (the notebook's own definitions); return the namespace. Output is discarded."""
    namespace = {"__name__": f"notebook_{number}"}
    chosen = [c for c in cells(number) if c["cell_type"] == "code" and any(m in source(c) for m in markers)]
    assert len(chosen) >= len(markers), f"notebook {number}: not every marker of {markers} found"
    for cell in chosen:
        _run(source(cell), namespace, f"notebook {number} cell")
    return namespace


# -- verifiers: run the behaviour, return the choice that is true ------------------------------

from tests.selfcheck_registry import VERIFIERS, pick, verifies  # noqa: E402


@verifies("00", "which-cells-change")
def _00_which_cells_change(q):
    from helpers import ScriptedChatModel, is_live, live_model, scripted_model

    env = {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": "https://dashscope.aliyuncs.com/compatible-mode/v1",
           "DASHSCOPE_API_KEY": "sk-selfcheck-0123456789abcdef"}
    assert is_live(live_model(["scripted"], env=env))
    assert isinstance(scripted_model(["scripted"]), ScriptedChatModel)  # scripted_model reads no environment
    assert not is_live(live_model(["scripted"], env={}))
    return pick(q, "Only the live cells")


@verifies("00", "what-pairs-the-answer")
def _00_what_pairs_the_answer(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError

    namespace = context_namespace("00")
    printed = _run(q.code, namespace, "nb00.what-pairs-the-answer").strip()   # the snippet, as shown
    ai, answer = namespace["run"]["messages"][1:3]
    assert isinstance(ai, AIMessage) and isinstance(answer, ToolMessage)
    assert answer.tool_call_id == ai.tool_calls[0]["id"] == "call_1"         # the trace's "answers call_1"
    assert answer.name == "lookup_order"                                     # the ToolMessage has a name ...
    assert namespace["scripted"].requests[1].payload()["messages"][-1] == {  # ... the request does not send it
        "content": answer.content, "role": "tool", "tool_call_id": "call_1"}
    scripted_model = namespace["scripted_model"]
    with pytest.raises(ProviderRuleError, match="orphan_tool_message"):     # right place, no matching id: refused
        scripted_model(["ok"]).invoke([HumanMessage("Where is A1024?"), ai,
                                       ToolMessage(answer.content, tool_call_id="call_9", name="lookup_order")])
    scripted_model(["ok"]).invoke([HumanMessage("Where is A1024?"), ai, answer])  # the id pairs it
    return printed


@verifies("00", "second-request")
def _00_second_request(q):
    from langchain.agents import create_agent
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    namespace = context_namespace("00")
    model = namespace["scripted_model"]([[namespace["tool_call"]("lookup_order", {"order_id": "A1024"})], "Done."])
    create_agent(model, tools=[namespace["lookup_order"]]).invoke({"messages": [{"role": "user", "content": "A1024?"}]})
    second = model.requests[1]
    assert [type(m) for m in second.messages] == [HumanMessage, AIMessage, ToolMessage]
    assert second.messages[2].tool_call_id == "call_1" and second.tool_names == ["lookup_order"]
    return pick(q, "The whole history")


@verifies("01", "what-the-model-receives")
def _01_what_the_model_receives(q):
    from langchain.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langchain_openai import ChatOpenAI

    @tool
    def lookup_order(order_id: str) -> dict:
        """Look up one order of the current customer by its id (e.g. A1024)."""
        return {"order_id": order_id}

    sent = ChatOpenAI(model="gpt-4o-mini", api_key="not-used").bind_tools([lookup_order]).kwargs["tools"]
    assert sent == [convert_to_openai_tool(lookup_order)]
    function = sent[0]["function"]
    assert set(function) == {"name", "description", "parameters"}
    assert function["description"] == lookup_order.description and list(function["parameters"]["properties"]) == ["order_id"]
    assert "dict" not in json.dumps(function) and "return" not in json.dumps(function)
    return pick(q, "JSON Schema")


@verifies("01", "signature-out-of-step")
def _01_signature_out_of_step(q):
    from langchain.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import BaseModel, Field

    class QuoteArgs(BaseModel):
        order_id: str = Field(description="Order id, e.g. A1024")
        amount: float = Field(description="Amount to quote", gt=0)

    @tool(args_schema=QuoteArgs)  # defining it raises nothing
    def quote_refund(order_id: str, refund_amount: float) -> str:
        """Quote a refund for one order of the current customer."""
        return f"{order_id}: {refund_amount:.2f}"

    assert list(convert_to_openai_tool(quote_refund)["function"]["parameters"]["properties"]) == ["order_id", "amount"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'amount'"):
        quote_refund.invoke({"order_id": "A1024", "amount": 20})
    return pick(q, "At every call")


@verifies("01", "snapshot-blind-spot")
def _01_snapshot_blind_spot(q):
    from typing import Literal

    from langchain.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import Field, create_model

    ns = context_namespace("01")
    # the notebook's own comparer (section 6's cell: SNAPSHOT of request_refund, breaking_changes)
    cell = next(c for c in cells("01") if "def breaking_changes" in source(c))
    _run(source(cell), ns, "notebook 01 breaking_changes")
    breaking_changes, snapshot = ns["breaking_changes"], ns["SNAPSHOT"]
    reasons = Literal["damaged", "not_as_described", "changed_mind", "other"]

    def schema(**changed_fields) -> dict:
        fields = {"order_id": (str, Field(description="Order id", pattern=r"^[A-Z]\d{4}$")),
                  "amount": (float, Field(description="Amount to refund, in the order currency", gt=0)),
                  "reason": (reasons, Field(description="Why the customer wants a refund"))}
        fields.update(changed_fields)
        args = create_model("Args", **{name: spec for name, spec in fields.items() if spec is not None})

        @tool("request_refund", args_schema=args)
        def changed(**kwargs) -> str:
            """Create a refund REQUEST for one order of the current customer. It does not send money."""
            return ""

        return convert_to_openai_tool(changed)

    changes = {
        "cents": schema(amount=(float, Field(description="Amount to refund, in cents", gt=0))),
        "renamed refund_amount": schema(amount=None, refund_amount=(float, Field(description="Amount", gt=0))),
        "currency": schema(currency=(str, Field(description="ISO currency code"))),
        "maximum of 1000": schema(amount=(float, Field(description="Amount to refund", gt=0, le=1000))),
    }
    unreported = [name for name, new in changes.items() if not breaking_changes(snapshot, new)]
    assert unreported == ["cents"], unreported
    return pick(q, "cents")


@verifies("02", "answer-by-id")
def _02_answer_by_id(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError, scripted_model, tool_call
    ns = context_namespace("02")
    call = tool_call("lookup_order", {"order_id": "A1024"}, id="call_7")
    assert ns["lookup_order"].invoke(call).tool_call_id == "call_7"
    ai = AIMessage("", tool_calls=[call, tool_call("lookup_order", {"order_id": "A1030"}, id="call_8")])
    results = [ns["lookup_order"].invoke(c) for c in ai.tool_calls]
    scripted_model(["ok"]).invoke([HumanMessage("?"), ai, *reversed(results)])  # position does not matter
    same_name_other_id = ToolMessage(results[0].content, tool_call_id="call_9", name="lookup_order")
    with pytest.raises(ProviderRuleError, match="orphan_tool_message"):  # the name does not pair it
        scripted_model(["ok"]).invoke([HumanMessage("?"), ai, *results, same_name_other_id])
    return pick(q, 'tool_call_id="call_7"')


@verifies("02", "invalid-json-ends-run")
def _02_invalid_json_ends_run(q):
    from langchain.agents import create_agent
    from langchain.messages import AIMessage

    from helpers import invalid_tool_call, reply, scripted_model
    ns = context_namespace("02")
    model = scripted_model([reply("", invalid_tool_call("lookup_order", '{"order_id": A1024}')), "never reached"])
    result = create_agent(model, ns["TOOLS"]).invoke({"messages": [("user", "Status of A1024?")]})
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and last.invalid_tool_calls and not last.tool_calls and last.text == ""
    assert ns["runs"]["lookup_order"] == 0 and len(model.requests) == 1
    return pick(q, "invalid_tool_calls")


@verifies("02", "dependent-call")
def _02_dependent_call(q):
    from helpers import scripted_model, tool_call
    ns = context_namespace("02")
    model = scripted_model([[tool_call("quote_refund", {"order_id": "A1030"}),
                             tool_call("submit_refund_request", {"order_id": "A1030", "amount": 180.0})]])
    ai = model.bind_tools(ns["TOOLS"]).invoke("Refund A1030")
    assert ai.tool_calls[1]["args"]["amount"] == 180.0  # written in the reply ...
    assert ns["runs"]["quote_refund"] == 0              # ... before any quote existed
    return pick(q, "guessed")


@verifies("02", "tool-call-limit-continues")
def _02_tool_call_limit_continues(q):
    from langchain.agents import create_agent
    from langchain.agents.middleware import ToolCallLimitMiddleware
    from langgraph.errors import GraphRecursionError

    from helpers import scripted_model, tool_call
    ns = context_namespace("02")
    never_stops = [[tool_call("lookup_order", {"order_id": "A1024"})]] * 30   # always one more call
    limit = ToolCallLimitMiddleware(run_limit=3)
    assert limit.exit_behavior == "continue"                                  # the default
    model = scripted_model(never_stops)
    agent = create_agent(model, ns["TOOLS"], middleware=[limit])
    assert agent.config["recursion_limit"] == 9999                            # what stops it at last
    with pytest.raises(GraphRecursionError):                                  # no AI message, no limit error
        agent.invoke({"messages": [("user", "status?")]}, {"recursion_limit": 20})
    assert ns["runs"]["lookup_order"] == 3 and len(model.requests) > 4        # tool blocked, model still asked
    return pick(q, "GraphRecursionError")


@verifies("03", "wrong-id-accepted")
def _03_wrong_id_accepted(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage
    from langchain.tools import tool

    from helpers import scripted_model, tool_call
    from helpers.domain import OrderStore
    store = OrderStore()

    @tool
    def lookup_order(order_id: str) -> dict:
        """Look up one order of the current customer by id (e.g. A1024): product and amount paid."""
        order = store.get_order(order_id, user_id="user-42")
        return {"order_id": order.order_id, "product": order.product, "amount": order.amount}

    ai = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "A1024"}, id="call_1"),
                                   tool_call("lookup_order", {"order_id": "A1030"}, id="call_2")])
    results = [lookup_order.invoke(call) for call in ai.tool_calls]
    swapped = [ToolMessage(results[1].content, tool_call_id="call_1", name="lookup_order"),
               ToolMessage(results[0].content, tool_call_id="call_2", name="lookup_order")]
    model = scripted_model(["Both orders found."])
    model.invoke([HumanMessage("A1024 and A1030?"), ai, *swapped])  # accepted: no error
    sent = {m["tool_call_id"]: m["content"] for m in model.last_request.payload()["messages"] if m["role"] == "tool"}
    assert "Winter jacket" in sent["call_1"]
    return pick(q, "accepts it")


@verifies("03", "unanswered-call")
def _03_unanswered_call(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError, scripted_model, tool_call
    ns = context_namespace("03")
    ai = AIMessage("", tool_calls=[tool_call("quote_refund", {"order_id": "A1024"}, id="call_1"),
                                   tool_call("quote_refund", {"order_id": "A1030"}, id="call_2")])
    history = [HumanMessage("Refunds for A1024 and A1030?"), ai, ns["quote_refund"].invoke(ai.tool_calls[0])]
    with pytest.raises(ProviderRuleError, match="unanswered_tool_call"):
        scripted_model(["never used"]).invoke(history)
    skipped = ToolMessage("Error not_executed: this call was not run (timeout).", tool_call_id="call_2",
                          name="quote_refund", status="error")
    scripted_model(["ok"]).invoke([*history, skipped])  # accepted
    return pick(q, "refuses the request")


@verifies("04", "entry-point-decides")
def _04_entry_point_decides(q):
    ns = context_namespace("04")
    body = {"user_id": "user-42", "text": "Where is my order A1024?"}   # written by user-7's client
    answer = json.loads(ns["ask_as"](body["user_id"], body["text"])[2].content)
    assert answer["user_id"] == "user-42" and "product" in answer
    return pick(q, "user-42's order")


@verifies("05", "who-reads-it")
def _05_who_reads_it(q):
    from langchain.messages import ToolMessage
    from langchain.tools import tool
    from langchain_core.messages.tool import ToolOutputMixin
    from langgraph.graph import END, START, StateGraph
    from langgraph.prebuilt import ToolNode

    ns = context_namespace("05")

    def one_node(tools):
        graph = StateGraph(ns["RefundState"])
        graph.add_node("tools", ToolNode(tools))
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        return graph.compile()

    state = {"messages": [ns["ai_calls"](("quote_refund", {"order_id": "A1024"}, "call_1"))], "refund_stage": "new"}
    assert one_node([ns["quote_refund"]]).invoke(state)["refund_stage"] == "new"  # a dict changes no state
    state = {"messages": [ns["ai_calls"](("advance_refund", {"stage": "quoted"}, "call_1"))], "refund_stage": "new"}
    after = one_node([ns["advance_refund"]]).invoke(state)  # a Command sets the field and answers the call
    assert after["refund_stage"] == "quoted" and isinstance(after["messages"][-1], ToolMessage)
    assert after["messages"][-1].tool_call_id == "call_1"

    class Flag(ToolOutputMixin):
        pass

    @tool
    def quote_flag(order_id: str) -> Flag:
        """Quote (returns a home-made marker object)."""
        return Flag()

    state = {"messages": [ns["ai_calls"](("quote_flag", {"order_id": "A1024"}, "call_1"))], "refund_stage": "new"}
    with pytest.raises(TypeError, match="returned unexpected type"):
        one_node([quote_flag]).invoke(state)
    return pick(q, "A Command")


@verifies("06", "list-answers-once")
def _06_list_answers_once(q):
    from langchain.messages import ToolMessage
    from langchain.tools import ToolRuntime, tool
    from langgraph.types import Command

    ns = context_namespace("06")

    @tool
    def stage_then_answer(order_id: str, runtime: ToolRuntime) -> list:
        """Stage first, answer second."""
        return [Command(update={"refund_stage": "confirmed"}),
                Command(update={"messages": [ToolMessage("confirmed", tool_call_id=runtime.tool_call_id)]})]

    @tool
    def answered_twice(order_id: str, runtime: ToolRuntime) -> list:
        """Both answer."""
        return [Command(update={"refund_stage": "confirmed",
                                "messages": [ToolMessage("stage set", tool_call_id=runtime.tool_call_id)]}),
                Command(update={"messages": [ToolMessage("confirmed", tool_call_id=runtime.tool_call_id)]})]

    @tool
    def stage_no_answer(order_id: str, runtime: ToolRuntime) -> list:
        """No answer."""
        return [Command(update={"refund_stage": "confirmed"})]

    accepted = []
    for list_tool in (stage_then_answer, answered_twice, stage_no_answer):
        state = {"messages": [ns["ai_calls"]((list_tool.name, {"order_id": "A1024"}, "call_1"))], "refund_stage": "quoted"}
        try:
            ns["tools_graph"]([list_tool]).invoke(state)
        except ValueError as exc:
            assert "expected exactly one terminating ToolMessage" in str(exc)
        else:
            accepted.append(list_tool.name)
    assert accepted == ["stage_then_answer"]
    return pick(q, "the call's ToolMessage in the second")


@verifies("06", "goto-adds-a-target")
def _06_goto_adds_a_target(q):
    ns = notebook_cells_namespace("06", "    ProviderRuleError,", "def tools_graph",
                                  "def escalate_refund", "def routing_graph", "def run_steps")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ns["run_steps"](ns["routing_graph"](static_edge_to_notify=True), "escalate_refund", {"reason": "above 1000"})
    assert "step 1: tools | step 2: human_review, notify_user " in out.getvalue(), out.getvalue()
    return pick(q, "in the same step")


@verifies("06", "parent-not-checked")
def _06_parent_not_checked(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage
    from langchain.tools import tool
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Command

    ns = context_namespace("06")

    @tool
    def hand_to_human(reason: str) -> Command:
        """Hand the case to the parent's human review (without answering the call)."""
        return Command(graph=Command.PARENT, goto="human_review", update={"refund_stage": "needs_review"})

    reviewed = []

    def human_review(state) -> dict:
        reviewed.append(state["refund_stage"])
        return {"messages": [AIMessage("A colleague will review your refund today.")], "refund_stage": "in_review"}

    parent = StateGraph(ns["RefundState"])
    parent.add_node("model_turn", lambda state: {"messages": [ns["ai_calls"](("hand_to_human", {"reason": "big"}, "call_1"))]})
    parent.add_node("support", ns["tools_graph"]([hand_to_human]), destinations=("human_review",))
    parent.add_node("human_review", human_review)
    parent.add_edge(START, "model_turn")
    parent.add_edge("model_turn", "support")
    parent.add_edge("support", END)
    parent.add_edge("human_review", END)
    final = parent.compile().invoke({"messages": [HumanMessage("Refund A1029.")], "refund_stage": "quoted"})
    assert reviewed == ["needs_review"] and final["refund_stage"] == "in_review"
    assert not [m for m in final["messages"] if isinstance(m, ToolMessage)]  # call_1 has no answer
    return pick(q, "goes on to human_review")


@verifies("07", "plain-key-two-writes")
def _07_plain_key_two_writes(q):
    from langgraph.errors import InvalidUpdateError
    from langgraph.graph import START, StateGraph

    class CheckState(TypedDict):
        last_checked: str

    builder = StateGraph(CheckState)
    builder.add_node("node_a", lambda state: {"last_checked": "order A1024"})
    builder.add_node("node_b", lambda state: {"last_checked": "policy electronics"})
    builder.add_edge(START, "node_a")
    builder.add_edge(START, "node_b")
    with pytest.raises(InvalidUpdateError, match="Can receive only one value per step"):
        builder.compile().invoke({"last_checked": ""})
    return pick(q, "InvalidUpdateError")


@verifies("07", "applied-in-task-order")
def _07_applied_in_task_order(q):
    from langchain.agents import AgentState, create_agent
    from langchain.messages import ToolMessage
    from langchain.tools import ToolRuntime, tool
    from langgraph.types import Command

    from helpers import scripted_model, tool_call

    class LookupState(AgentState):
        checked: Annotated[list[str], operator.add]

    finished = []

    @tool
    async def lookup(order_id: str, runtime: ToolRuntime) -> Command:
        """Look up an order (A1030 slowly)."""
        await asyncio.sleep(0.05 if order_id == "A1030" else 0.0)
        finished.append(order_id)
        return Command(update={"checked": [order_id],
                               "messages": [ToolMessage(f"{order_id}: found", tool_call_id=runtime.tool_call_id)]})

    calls = [tool_call("lookup", {"order_id": "A1030"}), tool_call("lookup", {"order_id": "A1024"})]
    agent = create_agent(scripted_model([calls, "Done."]), [lookup], state_schema=LookupState)
    result = asyncio.run(agent.ainvoke({"messages": [("user", "Check both")]}))
    # whichever finished first (``finished``), the writes are applied in the order of the calls
    return next(c for c in q.choices if c == json.dumps(result["checked"]))


@verifies("07", "replace-by-id")
def _07_replace_by_id(q):
    from langchain.messages import AIMessage, HumanMessage
    from langgraph.graph.message import add_messages

    history = [HumanMessage("hi", id="1"), AIMessage("draft", id="2")]
    merged = add_messages(history, [AIMessage("final", id="2")])
    count = {2: "two", 3: "three"}[len(merged)]
    return pick(q, f"{count} messages: " + ", ".join(m.content for m in merged))


@verifies("07", "order-independent-merge")
def _07_order_independent_merge(q):
    ns = notebook_cells_namespace("07", "import operator", "def merge_first_seen", "def merge_audit")
    a = [{"key": "refund-A1024", "event": "requested"}]
    b = [{"key": "refund-A1030", "event": "requested"}, {"key": "refund-A1024", "event": "approved"}]
    merge_audit, merge_first_seen = ns["merge_audit"], ns["merge_first_seen"]
    assert merge_audit(merge_audit([], a), b) == merge_audit(merge_audit([], b), a)           # order-independent
    assert merge_first_seen(merge_first_seen([], a), b) != merge_first_seen(merge_first_seen([], b), a)
    assert operator.add(a, a) == a + a                                                          # keeps the retry
    return pick(q, "whichever write is applied first")


@verifies("07", "exclusive-field")
def _07_exclusive_field(q):
    from langchain.messages import AIMessage, ToolMessage
    from langchain.tools import ToolRuntime, tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode
    from langgraph.types import Command

    class StageState(MessagesState):
        refund_stage: Annotated[str, lambda old, new: new]   # keeps the last value

    def stage_tool(name: str, stage: str):
        @tool(name)
        def set_stage(order_id: str, runtime: ToolRuntime) -> Command:
            """Move the refund stage."""
            return Command(update={"refund_stage": stage,
                                   "messages": [ToolMessage(stage, tool_call_id=runtime.tool_call_id)]})
        return set_stage

    graph = StateGraph(StageState)
    graph.add_node("tools", ToolNode([stage_tool("submit_refund", "submitted"), stage_tool("cancel_refund", "cancelled")]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    calls = [{"name": n, "args": {"order_id": "A1024"}, "id": f"call_{i}", "type": "tool_call"}
             for i, n in enumerate(["submit_refund", "cancel_refund"], 1)]
    out = graph.compile().invoke({"messages": [AIMessage("", tool_calls=calls)], "refund_stage": "quoted"})
    assert out["refund_stage"] == "cancelled"  # no error; the call listed last
    return pick(q, "No error")


def _interrupting_agent(tools: list, script: list):
    """``create_agent`` on the scripted model (a protocol case) with an ``InMemorySaver``."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from helpers import scripted_model
    return create_agent(scripted_model(script), tools, checkpointer=InMemorySaver())


@verifies("08", "new-message-while-paused")
def _08_new_message_while_paused(q):
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


@verifies("08", "what-process-b-needs")
def _08_what_process_b_needs(q):
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


@verifies("08", "two-interrupts-at-once")
def _08_two_interrupts_at_once(q):
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


# Notebooks 09-11: their verifiers live in a module of their own (real agent runs, longer than these).
import tests.selfcheck_verifiers_09_11  # noqa: E402,F401 - registers the 09-11 verifiers



# -- the tests ---------------------------------------------------------------------------------


def test_question_modules_are_found_by_name():
    names = sorted(p.name for p in SELFCHECK_DIR.glob("nb*.py"))
    assert names == [f"nb{n}.py" for n in available_notebooks()], "question modules are named nbNN.py (two digits)"
    for number in available_notebooks():
        notebook_path(number)
    assert {"01", "02", "03", "04", "05", "06", "07"} <= set(available_notebooks())


def test_every_verifier_belongs_to_a_question():
    known = {(number, q.id) for number, q in ALL}
    assert set(VERIFIERS) <= known, sorted(set(VERIFIERS) - known)


@pytest.mark.parametrize(("number", "question"), ALL, ids=_id)
def test_the_answer_is_true_on_the_pins(number, question):
    verifier = VERIFIERS.get((number, question.id))
    if verifier is not None:
        assert verifier(question) == question.answer
    elif question.kind == "predict":
        context = context_of(number)
        assert context is not None, (
            f"nb{number}.{question.id}: no test runs this snippet; give helpers/selfcheck/nb{number}.py a CODE_CONTEXT "
            "(the notebook's definitions it uses) or add a verifier in tests/test_selfcheck_questions.py")
        namespace = context_namespace(number)
        printed = _run(question.code, namespace, f"nb{number}.{question.id}").strip()
        assert printed == question.answer, f"nb{number}.{question.id} prints {printed!r}"
    else:
        pytest.fail(f"nb{number}.{question.id}: no verifier proves this choice question on the pins; add one "
                    "(tests/test_selfcheck_questions.py, or tests/selfcheck_verifiers_09_11.py for 09-11)")


def _headings(number: str) -> set[str]:
    """Section numbers of notebook ``number``'s ``## N.`` / ``### Na.`` headings, and ``pitfall N``."""
    found = set()
    for cell in cells(number):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        found |= {f"section {m}" for m in re.findall(r"^#{2,3} (\d+[a-z]?)\.", text, re.MULTILINE)}
        found |= {f"pitfall {m}" for m in re.findall(r"^\*\*(\d+)\. ", text, re.MULTILINE)}
    return found


@pytest.mark.parametrize(("number", "question"), ALL, ids=_id)
def test_the_sections_a_question_points_to_exist(number, question):
    named = {f"{kind} {n}" for kind, n in re.findall(r"\b(section|pitfall)s? (\d+[a-z]?)", question.section)}
    assert named, f"{question.id}: the section names no 'section N'"
    missing = named - _headings(number)
    assert not missing, f"nb{number}.{question.id} points to {sorted(missing)}, not in the notebook"


@pytest.mark.parametrize("number", available_notebooks())
def test_the_notebook_has_its_check_yourself_just_before_the_recap(number):
    nb = cells(number)
    starts = [i for i, c in enumerate(nb) if c["cell_type"] == "markdown" and source(c).startswith("## Check yourself")]
    assert len(starts) == 1, f"notebook {number}: one '## Check yourself' cell, found {len(starts)}"
    heading, widget, recap = nb[starts[0]], nb[starts[0] + 1], nb[starts[0] + 2]
    assert source(heading).strip() != "## Check yourself", "a one-line intro follows the heading"
    assert widget["cell_type"] == "code" and f'self_check("{number}")' in source(widget)
    questions = questions_for(number)
    count = len(questions)
    texts = ["".join(o.get("data", {}).get("text/plain", "")) for o in widget["outputs"]]
    assert len(texts) == 2, "two outputs: the static questions, then the widget"
    assert texts[1] == f"Check yourself (notebook {number}, {count} questions): run this cell to answer them"
    static = "".join(widget["outputs"][0]["data"]["text/html"])
    assert "course-self-check-static" in static and all(q.prompt in texts[0] for q in questions), \
        "the committed output shows every question without running (issue 17)"
    assert recap["cell_type"] == "markdown" and source(recap).startswith("## Recap")


def test_answers_given_in_the_widget_reach_the_progress_table(tmp_path, monkeypatch):
    import helpers.progress as progress
    from helpers.widgets.engines import SelfCheckEngine

    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(tmp_path / "progress.json"))
    questions = {}
    for number in available_notebooks():
        engine = SelfCheckEngine(number, questions_for(number))
        first, second = engine.questions[:2]
        engine.answer(first.id, first.answer)
        engine.answer(second.id, next(c for c in second.choices if c != second.answer))
        assert engine.record_note == ""
        questions[number] = [q.id for q in engine.questions]
    rows = {progress.notebook_key(r.notebook): r for r in progress.progress_rows(questions=questions) if r.self_check}
    for number in available_notebooks():
        assert rows[number].self_check == f"1/{len(questions[number])}"
    step = progress.next_step(questions=questions)
    assert step is not None and step.kind in {"exercise", "self-check"}
