"""Self-check questions for notebook 05 · return values and ToolOutputMixin."""

from __future__ import annotations

from ..i18n import N_
from .format import Question

#: The names the questions' ``code`` uses, defined as notebook 05 defines them (setup, sections 1,
#: 2, 3 and 6). ``tests/test_selfcheck_questions.py`` runs each snippet after this and compares what
#: it prints with the answer.
CODE_CONTEXT = '''
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from helpers.domain import RefundService, refund_key


class RefundState(MessagesState):
    """Messages plus one custom field that a Command can update."""
    refund_stage: str


def ai_calls(*calls) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": n, "args": a, "id": i, "type": "tool_call"} for n, a, i in calls])


def runtime_for(tool_call_id: str, state=None) -> ToolRuntime:
    return ToolRuntime(state=state or {"messages": []}, context=None, config={}, stream_writer=lambda event: None,
                       tool_call_id=tool_call_id, store=None)


def full_call(tool_obj, args, call_id="call_9"):
    return {"type": "tool_call", "id": call_id, "name": tool_obj.name, "args": args}


REFUNDS = RefundService()


@tool
def quote_refund(order_id: str) -> dict:
    """How much of an order can be refunded today (demo: always acts as user-42)."""
    quote = REFUNDS.quote(order_id, user_id="user-42")
    return {"order_id": quote.order_id, "refundable": quote.refundable_amount, "needs_approval": quote.needs_approval}


@tool
def advance_refund(stage: str, runtime: ToolRuntime) -> Command:
    """Move the refund to the next stage."""
    return Command(update={
        "refund_stage": stage,
        "messages": [ToolMessage(f"refund stage is now {stage}", tool_call_id=runtime.tool_call_id)],
    })


SERVICE = RefundService()
STORE = InMemoryStore()


@tool
def submit_refund(order_id: str, amount: float) -> dict:
    """Submit a refund request for an order (demo: always acts as user-42)."""
    request = SERVICE.submit(order_id, amount, user_id="user-42", idempotency_key=refund_key(order_id, amount))
    return {"request_id": request.request_id, "stage": "submitted"}


one_call = StateGraph(RefundState)
one_call.add_node("tools", ToolNode([submit_refund]))
one_call.add_edge(START, "tools")
one_call.add_edge("tools", END)
one_call = one_call.compile(store=STORE)

TOOLS = {"advance_refund": advance_refund}


def run_node(node):
    graph = StateGraph(RefundState)
    graph.add_node("tools", node)
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    state = {"messages": [HumanMessage("Go ahead with A1024."),
                          ai_calls(("advance_refund", {"stage": "submitted"}, "call_1"))],
             "refund_stage": "quoted"}
    return state, graph.compile().invoke(state)


def naive_tools_node(state):
    """Anti-pattern: every result becomes text."""
    messages = []
    for call in state["messages"][-1].tool_calls:
        result = TOOLS[call["name"]].invoke({**call["args"], "runtime": runtime_for(call["id"], state)})
        messages.append(ToolMessage(str(result), tool_call_id=call["id"]))
    return {"messages": messages}
'''

QUESTIONS = (
    Question(
        id="who-reads-it",
        prompt=N_("A later node routes large refunds to a reviewer, so it must know whether a quote needs approval. "
                  "What should the quoting tool return?"),
        choices=(N_("A Command that sets a state field, with the ToolMessage that answers the call"),
                 N_("A dict with needs_approval: the node can read it from the ToolMessage"),
                 N_("A sentence for the customer that mentions the approval"),
                 N_("An object of a ToolOutputMixin subclass that carries the flag")),
        answer=N_("A Command that sets a state field, with the ToolMessage that answers the call"),
        explanation=N_("When the program reads a fact it belongs in the state, and only a Command updates the state; "
                       "strings and dicts reach the model only."),
        section=N_("section 1, Which path? Ask who reads the result"),
        why_not={N_("A dict with needs_approval: the node can read it from the ToolMessage"):
                     N_("Then code parses chat text; the dict changes no state (section 2)."),
                 N_("An object of a ToolOutputMixin subclass that carries the flag"):
                     N_("ToolNode accepts only ToolMessage and Command: a home-made marker subclass is a TypeError "
                        "(section 5).")},
    ),
    Question(
        id="dict-is-not-state",
        prompt=N_("`submit_refund` (section 2) creates a refund request and returns `{\"request_id\": ..., "
                  "\"stage\": \"submitted\"}`; `one_call` is START -> ToolNode -> END, compiled with `STORE`. "
                  "What does this print?"),
        code=('after = one_call.invoke({"messages": [ai_calls(("submit_refund", {"order_id": "A1024", "amount": 499.0}, '
              '"call_1"))],\n'
              '                         "refund_stage": "quoted"})\n'
              'print(len(SERVICE.audit_log), after["refund_stage"], STORE.search(()))'),
        choices=("1 quoted []", "1 submitted []", "0 quoted []"),
        answer="1 quoted []",
        explanation=N_("The service call made the request and the dict became the model's text; only a Command "
                       "changes refund_stage, only runtime.store.put writes the store."),
        section=N_("section 2, One call, three separate facts"),
        why_not={"1 submitted []": N_("The dict's \"stage\" is text for the model; no code wrote refund_stage."),
                 "0 quoted []": N_("The side effect happened: the service call ran before the return.")},
    ),
    Question(
        id="plain-vs-toolcall",
        prompt=N_("`quote_refund` (section 1) returns a dict. What does this print?"),
        code=('plain = quote_refund.invoke({"order_id": "A1024"})\n'
              'as_call = quote_refund.invoke(full_call(quote_refund, {"order_id": "A1024"}))\n'
              'print(type(plain).__name__, type(as_call).__name__, type(as_call.content).__name__)'),
        choices=("dict ToolMessage str", "dict ToolMessage dict", "ToolMessage ToolMessage str"),
        answer="dict ToolMessage str",
        explanation=N_("Plain arguments carry no tool_call_id, so the value comes back as is; with a ToolCall, "
                       "BaseTool wraps it and the dict becomes a JSON string."),
        section=N_("section 3, What `BaseTool` does with the return value"),
        why_not={"dict ToolMessage dict": N_("The model reads text: a dict is json.dumps-ed into the content."),
                 "ToolMessage ToolMessage str": N_("Without a ToolCall there is no id to answer, so nothing is "
                                                   "wrapped.")},
    ),
    Question(
        id="lookalike-marker",
        prompt=N_("`LookAlikeMixin` has the same (empty) body as `ToolOutputMixin` but is another class. What does "
                  "this print?"),
        code=('class LookAlikeMixin:\n'
              '    """Mixin for objects that tools can return directly."""\n'
              '\n'
              'class Receipt(LookAlikeMixin):\n'
              '    pass\n'
              '\n'
              '@tool\n'
              'def make_receipt(order_id: str) -> Receipt:\n'
              '    """Create a refund receipt."""\n'
              '    return Receipt()\n'
              '\n'
              'print(type(make_receipt.invoke(full_call(make_receipt, {"order_id": "A1024"}))).__name__)'),
        choices=("ToolMessage", "Receipt", N_("nothing: it raises TypeError")),
        answer="ToolMessage",
        explanation=N_("BaseTool asks isinstance(value, ToolOutputMixin), which the class hierarchy answers, not the "
                       "class body: a look-alike is wrapped like any other value."),
        section=N_("section 4, `ToolOutputMixin`: an empty marker"),
        why_not={"Receipt": N_("Only a real subclass of ToolOutputMixin passes through unwrapped."),
                 N_("nothing: it raises TypeError"):
                     N_("That is ToolNode refusing a real marker subclass it does not know (section 5); BaseTool "
                        "just wraps.")},
    ),
    Question(
        id="naive-executor",
        prompt=N_("`naive_tools_node` (section 6) wraps every result in `ToolMessage(str(result))`; `advance_refund` "
                  "returns a `Command` that sets `refund_stage`. What does this print?"),
        code=('before, after = run_node(naive_tools_node)   # refund_stage starts as "quoted"\n'
              'print(after["refund_stage"], after["messages"][-1].content.startswith("Command("))'),
        choices=("quoted True", "submitted True", "submitted False", "quoted False"),
        answer="quoted True",
        explanation=N_("str() turns the Command into text: its state update is lost and the model reads a Python "
                       "repr; an executor must pass Commands through."),
        section=N_("section 6, A home-made executor that stringifies every result"),
        why_not={"submitted True": N_("The graph applies a Command only when the node returns it, not its text."),
                 "submitted False": N_("That is ToolNode, or the fixed node that passes Commands through.")},
    ),
)
