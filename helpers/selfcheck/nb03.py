"""Self-check questions for notebook 03 · ToolMessage pairing."""

from __future__ import annotations

from ..i18n import N_
from .format import Question

#: The names the questions' ``code`` uses, defined as notebook 03 defines them (setup, sections 3
#: and 6). ``tests/test_selfcheck_questions.py`` runs each snippet after this and compares what it
#: prints with the answer.
CODE_CONTEXT = '''
from langchain.agents import create_agent
from langchain.messages import AIMessage, HumanMessage, ToolMessage
from langchain.tools import tool
from langchain_core.tools import ToolException

from helpers import scripted_model, tool_call
from helpers.domain import DomainError, OrderStore, RefundService

USER = "user-42"
store = OrderStore()
refunds = RefundService(store)


@tool
def quote_refund(order_id: str) -> dict:
    """Read-only: how much of an order can be refunded today, and under which policy."""
    quote = refunds.quote(order_id, user_id=USER)
    return {"order_id": quote.order_id, "refundable_amount": quote.refundable_amount}


def execute(call, tools_by_name):
    try:
        return tools_by_name[call["name"]].invoke(call)
    except DomainError as exc:
        return ToolMessage(content=f"Error {exc.code}: {exc}", tool_call_id=call["id"], name=call["name"], status="error")


@tool
def check_stock(sku: str) -> str:
    """Is this product in stock?"""
    if sku.startswith("X-"):
        raise ToolException(f"the stock service does not know {sku}")
    raise ValueError(f"the stock service sent no data for {sku}")


trace_ids = iter(range(1, 1000))


@tool(response_format="content_and_artifact")
def search_orders(status: str) -> tuple[str, dict]:
    """Find the current customer's orders with a given status (delivered, shipped): a short summary."""
    records = [o.to_dict() for o in store.orders_for(USER) if o.status == status]
    summary = f"orders with status {status}: " + ", ".join(f"{r['order_id']} {r['product']}" for r in records)
    return summary, {"records": records, "trace_id": f"trace-{next(trace_ids):04d}", "source": "orders-db"}
'''

QUESTIONS = (
    Question(
        id="wrong-id-accepted",
        prompt=N_("The model asked for `lookup_order(A1024)` as `call_1` and `lookup_order(A1030)` as `call_2`. Your "
                  "code attaches A1030's result to `call_1` and A1024's to `call_2`. What happens on the next model "
                  "turn?"),
        choices=(N_("The provider accepts it, and the model is told that A1024 is A1030's Winter jacket"),
                 N_("The provider refuses it: a result does not match its call's arguments"),
                 N_("The provider pairs the results again by the order_id inside them"),
                 N_("The provider refuses it as an orphan tool message")),
        answer=N_("The provider accepts it, and the model is told that A1024 is A1030's Winter jacket"),
        explanation=N_("tool_call_id is the only link between a result and its call, and every call is answered once, "
                       "so no provider can notice: a wrong id is a wrong fact."),
        section=N_("section 1, `tool_call_id` pairs a result with its request"),
        why_not={N_("The provider refuses it as an orphan tool message"):
                     N_("An orphan is a result whose id no call has; here both ids exist."),
                 N_("The provider pairs the results again by the order_id inside them"):
                     N_("A provider never reads the content to pair: only the id counts.")},
    ),
    Question(
        id="status-is-not-sent",
        prompt=N_("`execute` (section 3) answers the refused quote for A1025 with `status=\"error\"`. Which fields "
                  "of that tool message does an OpenAI-style model receive?"),
        code=('ai = AIMessage("", tool_calls=[tool_call("quote_refund", {"order_id": "A1025"}, id="call_2")])\n'
              'failed = execute(ai.tool_calls[0], {"quote_refund": quote_refund})   # A1025 cannot be refunded\n'
              'model = scripted_model(["A1025 cannot be refunded yet."])\n'
              'model.bind_tools([quote_refund]).invoke([HumanMessage("Refund A1025?"), ai, failed])\n'
              'sent = [m for m in model.last_request.payload()["messages"] if m["role"] == "tool"][0]\n'
              'print(failed.status, sorted(sent))'),
        choices=("error ['content', 'role', 'tool_call_id']",
                 "error ['content', 'role', 'status', 'tool_call_id']",
                 "success ['content', 'role', 'tool_call_id']"),
        answer="error ['content', 'role', 'tool_call_id']",
        explanation=N_("status is a LangChain field; the chat.completions tool message has only role, tool_call_id "
                       "and content, so the content must say that it failed and why."),
        section=N_("section 3, A failed call keeps its id: `status=\"error\"`"),
        why_not={"error ['content', 'role', 'status', 'tool_call_id']":
                     N_("The request body has no place for a status: the model knows of the failure only from the "
                        "content.")},
    ),
    Question(
        id="handle-tool-error-scope",
        prompt=N_("`check_stock` (section 3) raises a `ToolException` for skus starting with `X-` and a "
                  "`ValueError` otherwise. What does this print?"),
        code=('check_stock.handle_tool_error = True\n'
              'for sku in ("X-1", "K-7"):\n'
              '    try:\n'
              '        print(check_stock.invoke(tool_call("check_stock", {"sku": sku}, id="call_8")).status, end=" ")\n'
              '    except ValueError:\n'
              '        print("raised", end=" ")'),
        choices=("error raised", "error error", "raised raised", "success raised"),
        answer="error raised",
        explanation=N_("handle_tool_error=True turns only a ToolException into an error ToolMessage; the ValueError "
                       "leaves the tool, and its call stays unanswered."),
        section=N_("section 3, A failed call keeps its id: `status=\"error\"`"),
        why_not={"error error": N_("Catching every exception is the executor's job; the tool setting covers "
                                   "ToolException only."),
                 "raised raised": N_("With handle_tool_error=True a ToolException becomes an error result.")},
    ),
    Question(
        id="unanswered-call",
        prompt=N_("The model asked for two quotes, `call_1` and `call_2`. `call_2` timed out, so your loop sends the "
                  "history back with `call_1`'s ToolMessage only. What happens?"),
        choices=(N_("The provider refuses the request; answer call_2 with an error ToolMessage that says it did not run"),
                 N_("The provider accepts it: a call without a result counts as an empty result"),
                 N_("The provider accepts it, because call_1's result comes first")),
        answer=N_("The provider refuses the request; answer call_2 with an error ToolMessage that says it did not run"),
        explanation=N_("Every call of an AIMessage must be answered before the next model turn; an error result "
                       "answers it and tells the model the call did not run."),
        section=N_("section 4, A provider rejects an unanswered call"),
        why_not={N_("The provider accepts it: a call without a result counts as an empty result"):
                     N_("OpenAI answers HTTP 400, and the scripted model raises the same rule (unanswered_tool_call).")},
    ),
    Question(
        id="artifact-stays",
        prompt=N_("`search_orders` (section 6) returns `(summary, {\"records\": ..., \"trace_id\": ...})` with "
                  "`response_format=\"content_and_artifact\"`. What does this print?"),
        code=('model = scripted_model([[tool_call("search_orders", {"status": "shipped"})], "One order is on its way."])\n'
              'result = create_agent(model, [search_orders]).invoke({"messages": [("user", "What is shipped?")]})\n'
              'sent = [m for m in model.requests[1].payload()["messages"] if m["role"] == "tool"][0]\n'
              'print("trace_id" in sent["content"], "trace_id" in result["messages"][2].artifact)'),
        choices=("False True", "True True", "False False", "True False"),
        answer="False True",
        explanation=N_("Only content is sent to the model; the artifact stays on the ToolMessage in the graph state, "
                       "for the application to log, render or test."),
        section=N_("section 6, `content` for the model, `artifact` for the application"),
        why_not={"True True": N_("The artifact is never part of the request: only content is."),
                 "False False": N_("The artifact is not dropped: it stays on the ToolMessage in the state.")},
    ),
)
