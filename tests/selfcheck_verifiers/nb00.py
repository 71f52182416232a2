"""Verifiers of notebook 00's self-check questions (``helpers/selfcheck/nb00.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import pytest

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace, run_snippet


def verify_which_cells_change(q):
    from helpers import ScriptedChatModel, is_live, live_model, scripted_model

    env = {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": "https://dashscope.aliyuncs.com/compatible-mode/v1",
           "DASHSCOPE_API_KEY": "sk-selfcheck-0123456789abcdef"}
    assert is_live(live_model(["scripted"], env=env))
    assert isinstance(scripted_model(["scripted"]), ScriptedChatModel)  # scripted_model reads no environment
    assert not is_live(live_model(["scripted"], env={}))
    return pick(q, "Only the live cells")


def verify_what_pairs_the_answer(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError

    namespace = context_namespace("00")
    printed = run_snippet(q.code, namespace, "nb00.what-pairs-the-answer").strip()   # the snippet, as shown
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


def verify_second_request(q):
    from langchain.agents import create_agent
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    namespace = context_namespace("00")
    model = namespace["scripted_model"]([[namespace["tool_call"]("lookup_order", {"order_id": "A1024"})], "Done."])
    create_agent(model, tools=[namespace["lookup_order"]]).invoke({"messages": [{"role": "user", "content": "A1024?"}]})
    second = model.requests[1]
    assert [type(m) for m in second.messages] == [HumanMessage, AIMessage, ToolMessage]
    assert second.messages[2].tool_call_id == "call_1" and second.tool_names == ["lookup_order"]
    return pick(q, "The whole history")
