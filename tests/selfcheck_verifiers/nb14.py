"""Verifiers of notebook 14's self-check questions (``helpers/selfcheck/nb14.py``): see
``tests/selfcheck_verifiers/__init__.py``.

They build the real request bodies with the integrations' own code (``_get_request_payload``, offline,
a placeholder key) on the conversation of the notebook's setup, or send one to the loopback server."""

import pytest

from tests.selfcheck_verifiers import pick


def _conversation(answer_both: bool = True):
    from langchain.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    from helpers import tool_call

    ai = AIMessage("", tool_calls=[tool_call("lookup_order", {"order_id": "A1024"}, id="call_1"),
                                   tool_call("lookup_order", {"order_id": "A1099"}, id="call_2")])
    history = [SystemMessage("Be brief."), HumanMessage("Where are A1024 and A1099?"), ai,
               ToolMessage('{"status": "delivered"}', tool_call_id="call_1", name="lookup_order")]
    if answer_both:
        history.append(ToolMessage("Error order_not_found: order A1099 does not exist", tool_call_id="call_2",
                                   name="lookup_order", status="error"))
    return history


def _lookup_order():
    from langchain.tools import tool

    @tool
    def lookup_order(order_id: str) -> str:
        """Look up one order by id."""
        return order_id

    return lookup_order


def _clients():
    from langchain_anthropic import ChatAnthropic
    from langchain_openai import ChatOpenAI

    return {"chat": ChatOpenAI(model="gpt-4o-mini", api_key="placeholder"),
            "responses": ChatOpenAI(model="gpt-4o-mini", api_key="placeholder", use_responses_api=True),
            "anthropic": ChatAnthropic(model="claude-sonnet-4-5", api_key="placeholder")}


def _body(client, messages, **options):
    return client._get_request_payload(messages, **client.bind_tools([_lookup_order()], **options).kwargs)


def verify_which_body_marks_the_error(q):
    bodies = {name: _body(client, _conversation()) for name, client in _clients().items()}
    chat_answer = [m for m in bodies["chat"]["messages"] if m["role"] == "tool"][-1]
    assert sorted(chat_answer) == ["content", "role", "tool_call_id"]
    responses_answer = [i for i in bodies["responses"]["input"] if i.get("type") == "function_call_output"][-1]
    assert sorted(responses_answer) == ["call_id", "output", "type"]
    results = [b for m in bodies["anthropic"]["messages"] if isinstance(m["content"], list)
               for b in m["content"] if b["type"] == "tool_result"]
    assert [(b["tool_use_id"], b["is_error"]) for b in results] == [("call_1", False), ("call_2", True)]
    return pick(q, "Only Anthropic")


def verify_portable_force(q):
    clients = _clients()
    question = _conversation()[:2]
    sent = {choice: {name: _body(client, question, tool_choice=choice).get("tool_choice")
                     for name, client in clients.items()} for choice in ("any", "required", "auto")}
    assert sent["any"] == {"chat": "required", "responses": "required", "anthropic": {"type": "any"}}
    assert sent["required"]["anthropic"] == {"type": "tool", "name": "required"}  # a tool name
    assert sent["auto"]["chat"] == "auto"  # may answer in text
    with pytest.raises(ValueError, match="Unrecognized 'tool_choice' type"):
        clients["anthropic"].bind_tools([_lookup_order()], tool_choice=True)
    return pick(q, '"any"')


def verify_who_catches_a_lost_answer(q):
    import openai
    from langchain_openai import ChatOpenAI

    from helpers.model.loopback_openai import LoopbackOpenAI

    broken = _conversation(answer_both=False)
    for client in _clients().values():
        _body(client, broken)  # no builder refuses it
    with LoopbackOpenAI() as stand_in:
        client = ChatOpenAI(model="gpt-4o-mini", api_key="placeholder", base_url=stand_in.base_url, max_retries=0)
        with pytest.raises(openai.BadRequestError) as caught:
            client.bind_tools([_lookup_order()]).invoke(broken)
    assert caught.value.status_code == 400 and "call_2" in str(caught.value)
    return pick(q, "By the provider")


def verify_server_tool_owes_nothing(q):
    from langchain.messages import AIMessage, HumanMessage, ToolMessage

    from helpers import ProviderRuleError, scripted_model

    searched = AIMessage(content=[
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "policy"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        {"type": "text", "text": "30 days."}], response_metadata={"model_provider": "anthropic"})
    assert searched.tool_calls == []
    assert [b["type"] for b in searched.content_blocks][:2] == ["server_tool_call", "server_tool_result"]
    question = HumanMessage("Can I return headphones?")
    scripted_model(["ok"]).invoke([question, searched, HumanMessage("Thanks")])  # accepted as it is
    orphan = ToolMessage("searched", tool_call_id="srvtoolu_1")
    with pytest.raises(ProviderRuleError, match="orphan_tool_message"):
        scripted_model(["never used"]).invoke([question, searched, orphan])
    return pick(q, "None:")
