"""Verifiers for the self-check questions of notebooks 09, 10 and 11 (``helpers/selfcheck/nbNN.py``).

``tests/test_selfcheck_questions.py`` runs them with the verifiers of the other notebooks: each
rebuilds the situation its question describes with real ``create_agent`` / ``create_deep_agent``
runs on the scripted model (the model's moves are the fixture), asserts what happens, where it is
cheap also that a tempting wrong choice really is wrong, and returns the choice that is true, which
must be the question's ``answer``. A failure means the pins moved or the question is wrong: fix the
question, not the verifier. (Kept in a module of their own, registered into ``VERIFIERS`` there.)
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from deepagents import create_deep_agent
from langchain.agents import create_agent
from langchain.agents.middleware import (HumanInTheLoopMiddleware, TodoListMiddleware, ToolErrorMiddleware,
                                         ToolRetryMiddleware)
from langchain.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain.tools import ToolRuntime, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command

from helpers import scripted_model, tool_call
from helpers.bug_answer import answer_bugs
from helpers.domain import DomainError, RefundService, refund_key
from helpers.error_contract import CONTRACT, ErrorView, ToolRefusal, error_mapping, read_error
from helpers.exercises import nb10
from tests.solutions import nb10 as nb10_solutions

from tests.selfcheck_registry import pick, verifies


# -- fixtures shared by 09 and 10 ---------------------------------------------------------------


@dataclass(frozen=True)
class Customer:
    """The signed-in customer and the refund service of one run (the context of notebooks 09/10)."""

    user_id: str
    refunds: RefundService


@tool
def submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[Customer]) -> str:
    """Create a refund request for one of the signed-in customer's orders."""
    ctx = runtime.context
    request = ctx.refunds.submit(order_id, amount, user_id=ctx.user_id, idempotency_key=refund_key(order_id, amount))
    return f"refund request {request.request_id} registered for {order_id} ({request.amount:.2f})"


def submit(order_id: str, amount: float) -> dict:
    return tool_call("submit_refund_request", {"order_id": order_id, "amount": amount})


def gated_agent(script, tools=(submit_refund_request,), *, middleware=()):
    return create_agent(scripted_model(script), list(tools), context_schema=Customer, checkpointer=InMemorySaver(),
                        middleware=[HumanInTheLoopMiddleware(interrupt_on={"submit_refund_request": True}),
                                    *middleware])


ASK = {"messages": [HumanMessage("Please refund A1024.")]}


# -- notebook 09 ---------------------------------------------------------------------------------


@verifies("09", "who-answers-a-bad-argument")
def _09_who_answers_a_bad_argument(q):
    seen = []

    def on_error(exc, request):
        seen.append(exc)
        return "mapped" if isinstance(exc, DomainError) else None

    agent = create_agent(scripted_model([[tool_call("submit_refund_request", {"order_id": "A1024"})], "ok"]),
                         [submit_refund_request], context_schema=Customer, middleware=[ToolErrorMiddleware(on_error)])
    answer = agent.invoke(ASK, context=Customer("user-42", RefundService()))["messages"][2]
    assert answer.status == "error" and answer.content.startswith("Error invoking tool 'submit_refund_request'")
    assert "amount: Field required" in answer.content and seen == []
    return pick(q, "ToolNode, before the tool runs")


@verifies("09", "default-retry-on-a-refusal")
def _09_default_retry_on_a_refusal(q):
    def attempts(**retry):
        service = RefundService()
        agent = create_agent(scripted_model([[submit("B2048", 159.0)], "ok"]), [submit_refund_request],
                             context_schema=Customer,
                             middleware=[error_mapping(CONTRACT),      # reports what the retries pass on
                                         ToolRetryMiddleware(max_retries=2, initial_delay=0, jitter=False, **retry)])
        agent.invoke(ASK, context=Customer("user-42", service))
        return service.submit_attempts

    assert attempts(retry_on=lambda exc: isinstance(exc, DomainError) and exc.retryable) == 1   # not "1" by default
    return pick(q, str(attempts()))


@verifies("09", "key-for-a-new-call")
def _09_key_for_a_new_call(q):
    def refunds(first_key, second_key):
        """The first submit commits and its reply is lost; the model's new call submits again."""
        service = RefundService()
        service.simulate_outage(after_commit=True)
        with pytest.raises(DomainError) as lost:
            service.submit("A1024", 200.0, user_id="user-42", idempotency_key=first_key)
        assert lost.value.code == "service_unavailable" and len(service.requests) == 1   # committed, reply lost
        service.submit("A1024", 200.0, user_id="user-42", idempotency_key=second_key)
        return len(service.requests)

    assert refunds("call:call_1", "call:call_2") == 2                   # a key from the tool call id
    assert refunds("attempt-1", "attempt-2") == 2                       # a fresh key per attempt
    assert refunds(refund_key("A1024", 200.0), refund_key("A1024", 200)) == 1
    return pick(q, "refund_key(order_id, amount)")


@verifies("09", "two-gated-calls")
def _09_two_gated_calls(q):
    def paused(thread):
        service = RefundService()
        agent = gated_agent([[submit("A1024", 100.0), submit("A1030", 50.0)], "Done."])
        config = {"configurable": {"thread_id": thread}}
        out = agent.invoke(ASK, config, context=Customer("user-42", service), version="v2")
        assert len(out.interrupts) == 1 and len(out.interrupts[0].value["action_requests"]) == 2
        return service, agent, config

    service, agent, config = paused("two")
    decisions = [{"type": "approve"}, {"type": "reject", "message": "photo first"}]
    out = agent.invoke(Command(resume={"decisions": decisions}), config, context=Customer("user-42", service),
                       version="v2")
    answers = {m.tool_call_id: m.status for m in out.value["messages"] if isinstance(m, ToolMessage)}
    assert out.interrupts == () and answers == {"call_1": "success", "call_2": "error"}
    assert [(r.order_id, r.amount) for r in service.requests] == [("A1024", 100.0)]

    service, agent, config = paused("one-decision")
    with pytest.raises(ValueError, match=r"Number of human decisions \(1\) does not match .* \(2\)"):
        agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config, context=Customer("user-42", service))
    return pick(q, "One resume: {\"decisions\"")


@verifies("09", "after-a-wrong-resume")
def _09_after_a_wrong_resume(q):
    service = RefundService()
    agent = gated_agent([[submit("A1024", 499.0)], "Done."])
    config = {"configurable": {"thread_id": "wrong"}}
    context = Customer("user-42", service)
    agent.invoke(ASK, config, context=context)
    for resume in ({"type": "approve"}, {"decisions": [{"type": "approve"}]}):
        with pytest.raises(KeyError, match="decisions"):
            agent.invoke(Command(resume=resume), config, context=context)
    assert service.submit_attempts == 0
    return pick(q, "the same KeyError")


# -- notebook 10 ---------------------------------------------------------------------------------


@verifies("10", "resume-without-context")
def _10_resume_without_context(q):
    service = RefundService()
    agent = gated_agent([[submit("A1024", 499.0)], "Done."])
    config = {"configurable": {"thread_id": "no-context"}}
    agent.invoke(ASK, config, context=Customer("user-42", service))
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'refunds'"):
        agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    assert agent.get_state(config).next == ("tools",) and service.submit_attempts == 0
    out = agent.invoke(None, config, context=Customer("user-42", service), version="v2")
    assert out.interrupts == () and len(service.requests) == 1
    return pick(q, "runtime.context None")


@verifies("10", "lost-reply-approvals")
def _10_lost_reply_approvals(q):
    def retry_after_unknown(request):
        error = read_error(request.messages[-1])
        return [submit("A1024", 499.0)] if error and error["outcome"] == "unknown" else "Done."

    service = RefundService()
    service.simulate_outage(after_commit=True)
    agent = gated_agent([[submit("A1024", 499.0)], retry_after_unknown, retry_after_unknown],
                        middleware=[error_mapping(CONTRACT)])
    config, context = {"configurable": {"thread_id": "lost"}}, Customer("user-42", service)
    out = agent.invoke(ASK, config, context=context, version="v2")
    approvals = 0
    while out.interrupts:
        approvals += 1
        out = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config, context=context, version="v2")
    calls = [c["id"] for m in out.value["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    assert calls == ["call_1", "call_2"]
    requests = len(service.requests)
    return pick(q, f"{requests} request{'s' if requests > 1 else ''}, {approvals} approval{'s' if approvals > 1 else ''}")


class NotConfirmed(ToolRefusal):
    code = "confirmation_required"


@verifies("10", "guard-raises-valueerror")
def _10_guard_raises_valueerror(q):
    def agent_whose_guard_raises(exc: Exception):
        @tool("submit_refund_request")
        def guarded(order_id: str, amount: float) -> str:
            """Submit a refund request once the customer confirmed."""
            raise exc

        contract = CONTRACT | {"confirmation_required": ErrorView("refused", "Ask the customer first.", "Shall I?")}
        return create_agent(scripted_model([[submit("A1024", 499.0)], "ok"]), [guarded],
                            middleware=[answer_bugs(), error_mapping(contract)])   # build_agent's order

    answer = agent_whose_guard_raises(NotConfirmed("not confirmed")).invoke(ASK)["messages"][2]   # the right way
    assert answer.status == "error" and read_error(answer)["error"] == "confirmation_required"
    assert "not confirmed" not in answer.content
    answer = agent_whose_guard_raises(ValueError("not confirmed")).invoke(ASK)["messages"][2]
    assert answer.status == "error" and "not confirmed" not in answer.content
    return pick(q, f"An error ToolMessage with the code {read_error(answer)['error']}")


@verifies("10", "what-makes-row-3-pass")
def _10_what_makes_row_3_pass(q):
    """The exercise's hidden check plays the careless policy with a reviewer who approves everything."""
    same_turn = "careless model: a submit in the same turn as the quote is refused"

    def status(answer):
        return {r.name: r.status for r in nb10.CONFIRMATION_GUARD.evaluate(answer).results}[same_turn]

    assert status(nb10_solutions.guarded_submit_refund_request) == "pass"
    assert status(nb10_solutions.wrong_unguarded) == "fail"      # approve/reject only, prompt or not
    return pick(q, "A guard in the submit tool")


# -- notebook 11 ---------------------------------------------------------------------------------

PLAN = {"todos": [{"content": "Quote A1024", "status": "in_progress"}]}


def contents(files):
    return {path: entry["content"] for path, entry in (files or {}).items()}


@verifies("11", "write-todos-on-the-pins")
def _11_write_todos_on_the_pins(q):
    model = scripted_model([[tool_call("write_todos", PLAN)], "No plan."], strict_tool_names=False)
    result = create_deep_agent(model=model).invoke({"messages": [HumanMessage("Plan it.")]})
    answer = result["messages"][2]
    assert answer.status == "error" and "write_todos is not a valid tool" in answer.content and "todos" not in result
    model = scripted_model([[tool_call("write_todos", PLAN)], "Planned."])
    result = create_deep_agent(model=model, middleware=[TodoListMiddleware()]).invoke(
        {"messages": [HumanMessage("Plan it.")]})
    assert result["todos"] == PLAN["todos"]                     # the tempting choice needs the middleware
    return pick(q, "An error ToolMessage")


def researcher_and_parent():
    researcher_model = scripted_model([
        [tool_call("write_file", {"file_path": "/notes/A1024.md", "content": "A1024: refundable 499.0\n"})],
        "A1024 is refundable: 499.0.",
    ])
    researcher = {"name": "order-researcher", "description": "Looks up one order and writes a note.",
                  "system_prompt": "You research one order.", "model": researcher_model}
    parent_model = scripted_model([
        [tool_call("task", {"description": "Check order A1024.", "subagent_type": "order-researcher"})],
        "Done.",
    ])
    return create_deep_agent(model=parent_model, subagents=[researcher]), researcher_model


@verifies("11", "sub-agent-input")
def _11_sub_agent_input(q):
    parent, researcher_model = researcher_and_parent()
    parent.invoke({"messages": [HumanMessage("Is A1024 refundable? The customer is angry.")]})
    received = researcher_model.requests[0].messages
    assert [(type(m), m.content) for m in received] == [(SystemMessage, "You research one order."),
                                                         (HumanMessage, "Check order A1024.")]
    return pick(q, "Its own system prompt and the task description")


@verifies("11", "stringifying-executor")
def _11_stringifying_executor(q):
    from deepagents.middleware.filesystem import FilesystemState
    from langchain.agents.middleware.todo import PlanningState

    class HarnessState(FilesystemState, PlanningState):
        pass

    def harness_tools():
        """write_todos, task (its sub-agent's script fresh) and write_file, by name."""
        parent, _ = researcher_and_parent()
        tools = {name: parent.nodes["tools"].bound.tools_by_name[name] for name in ("task", "write_file")}
        return {"write_todos": TodoListMiddleware().tools[0], **tools}

    calls = AIMessage("", tool_calls=[
        {"name": "write_todos", "args": PLAN, "id": "call_1", "type": "tool_call"},
        {"name": "task", "args": {"description": "Check order A1024.", "subagent_type": "order-researcher"},
         "id": "call_2", "type": "tool_call"},
        {"name": "write_file", "args": {"file_path": "/quote.md", "content": "499.0\n"}, "id": "call_3",
         "type": "tool_call"},
    ])

    def stringify(state):
        """Notebook 05's anti-pattern: every result becomes text (with the runtime ToolNode would inject)."""
        answers, tools = [], harness_tools()
        for call in state["messages"][-1].tool_calls:
            tool_runtime = ToolRuntime(state=state, context=None, config={}, stream_writer=lambda event: None,
                                       tool_call_id=call["id"], store=None)
            result = tools[call["name"]].invoke({**call["args"], "runtime": tool_runtime})
            answers.append(ToolMessage(str(result), tool_call_id=call["id"]))
        return {"messages": answers}

    def run(node):
        graph = StateGraph(HarnessState)
        graph.add_node("tools", node)
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        return graph.compile().invoke({"messages": [HumanMessage("Handle A1024."), calls]})

    full = run(ToolNode(list(harness_tools().values())))                 # ToolNode keeps all three
    assert full["todos"] == PLAN["todos"] and sorted(full["files"]) == ["/notes/A1024.md", "/quote.md"]
    naive = run(stringify)
    assert "todos" not in naive and sorted(naive["files"]) == ["/quote.md"]
    return pick(q, "Only write_file's file")


def paused_write(thread="policy"):
    model = scripted_model([[tool_call("write_file", {"file_path": "/policies/refunds.md", "content": "30 days\n"})],
                            "Saved."])
    agent = create_deep_agent(model=model, interrupt_on={"write_file": True}, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    out = agent.invoke({"messages": [HumanMessage("Save the refund policy.")]}, config, version="v2")
    assert len(out.interrupts) == 1
    return agent, config


@verifies("11", "rejected-write")
def _11_rejected_write(q):
    agent, config = paused_write()
    out = agent.invoke(Command(resume={"decisions": [{"type": "reject", "message": "Ask the refund lead first."}]}),
                       config, version="v2")
    answers = [m for m in out.value["messages"] if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in answers] == [("call_1", "error")]
    assert "Ask the refund lead first." in answers[0].content and contents(out.value.get("files")) == {}
    return pick(q, "The tool never runs")


@verifies("11", "new-message-while-paused")
def _11_new_message_while_paused(q):
    agent, config = paused_write("changed-subject")
    result = agent.invoke({"messages": [HumanMessage("Actually, just tell me the policy.")]}, config)
    patch = result["messages"][2]
    assert isinstance(patch, ToolMessage) and patch.tool_call_id == "call_1" and patch.status == "error"
    assert "did not complete" in patch.content and contents(result.get("files")) == {}
    assert [type(m).__name__ for m in result["messages"]] == ["HumanMessage", "AIMessage", "ToolMessage",
                                                              "HumanMessage", "AIMessage"]
    return pick(q, "PatchToolCallsMiddleware answers it")

