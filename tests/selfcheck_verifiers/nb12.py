"""Verifiers of notebook 12's self-check questions (``helpers/selfcheck/nb12.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

from deepagents import create_deep_agent
from langchain.agents.middleware import TodoListMiddleware
from langchain.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain.tools import ToolRuntime
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command

from helpers import scripted_model, tool_call
from tests.selfcheck_verifiers import pick

PLAN = {"todos": [{"content": "Quote A1024", "status": "in_progress"}]}


def contents(files):
    return {path: entry["content"] for path, entry in (files or {}).items()}


def verify_write_todos_on_the_pins(q):
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


def verify_sub_agent_input(q):
    parent, researcher_model = researcher_and_parent()
    parent.invoke({"messages": [HumanMessage("Is A1024 refundable? The customer is angry.")]})
    received = researcher_model.requests[0].messages
    assert [(type(m), m.content) for m in received] == [(SystemMessage, "You research one order."),
                                                         (HumanMessage, "Check order A1024.")]
    return pick(q, "Its own system prompt and the task description")


def verify_stringifying_executor(q):
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


def verify_rejected_write(q):
    agent, config = paused_write()
    out = agent.invoke(Command(resume={"decisions": [{"type": "reject", "message": "Ask the refund lead first."}]}),
                       config, version="v2")
    answers = [m for m in out.value["messages"] if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in answers] == [("call_1", "error")]
    assert "Ask the refund lead first." in answers[0].content and contents(out.value.get("files")) == {}
    return pick(q, "The tool never runs")


def verify_new_message_while_paused(q):
    agent, config = paused_write("changed-subject")
    result = agent.invoke({"messages": [HumanMessage("Actually, just tell me the policy.")]}, config)
    patch = result["messages"][2]
    assert isinstance(patch, ToolMessage) and patch.tool_call_id == "call_1" and patch.status == "error"
    assert "did not complete" in patch.content and contents(result.get("files")) == {}
    assert [type(m).__name__ for m in result["messages"]] == ["HumanMessage", "AIMessage", "ToolMessage",
                                                              "HumanMessage", "AIMessage"]
    return pick(q, "PatchToolCallsMiddleware answers it")
