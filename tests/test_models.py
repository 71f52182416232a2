"""The model factory: offline by default, a real model only when configured, keys never shown."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from langchain.tools import tool

from helpers import ModelConfigError, ScriptedChatModel, chat_model, describe_model
from helpers.models import real_model_configured

KEY = "sk-test-0123456789abcdefghij"


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return order_id


def test_default_is_the_scripted_model():
    model = chat_model(["hi"], env={})
    assert isinstance(model, ScriptedChatModel)
    assert model.invoke("x").content == "hi"
    assert describe_model(model) == "scripted model (1 step, offline)"


def test_default_reads_os_environ(monkeypatch):
    assert isinstance(chat_model(["hi"]), ScriptedChatModel)
    monkeypatch.setenv("COURSE_MODEL", "gpt-4o-mini")
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY is missing"):
        chat_model(["hi"])


def test_a_key_alone_does_not_opt_in():
    assert not real_model_configured({"OPENAI_API_KEY": KEY})
    assert isinstance(chat_model(["hi"], env={"OPENAI_API_KEY": KEY}), ScriptedChatModel)


def test_model_without_key_names_the_missing_variable():
    with pytest.raises(ModelConfigError) as caught:
        chat_model(env={"COURSE_MODEL": "qwen-plus"})
    assert "OPENAI_API_KEY" in str(caught.value) and "qwen-plus" in str(caught.value)


def test_base_url_without_model_names_the_missing_variable():
    with pytest.raises(ModelConfigError) as caught:
        chat_model(env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": KEY})
    assert "COURSE_MODEL is missing" in str(caught.value)
    assert KEY not in str(caught.value)


def test_blank_values_count_as_unset():
    assert isinstance(chat_model(["x"], env={"COURSE_MODEL": "  ", "OPENAI_BASE_URL": ""}), ScriptedChatModel)


def test_full_configuration_returns_chat_openai_without_showing_the_key():
    from langchain_openai import ChatOpenAI

    model = chat_model(["ignored"], env={"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY,
                                         "OPENAI_BASE_URL": "https://example.invalid/compatible-mode/v1"})
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "qwen-plus"
    assert model.openai_api_base == "https://example.invalid/compatible-mode/v1"
    for text in (repr(model), str(model), describe_model(model), json.dumps(model.model_dump(), default=str)):
        assert KEY not in text
    assert describe_model(model) == "ChatOpenAI qwen-plus via a custom OPENAI_BASE_URL"
    assert model.requests == [] and model.steps_left is None


class _FakeOpenAI(BaseHTTPRequestHandler):
    """A chat.completions endpoint on 127.0.0.1 (the shape api-facts item 13 recorded).

    While the last message is from the user and tools are bound, it calls the first bound tool
    with ``order_id="A1024"``; otherwise (after a tool result, or with no tools) it answers in text.
    """

    seen: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeOpenAI.seen.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        tools = body.get("tools") or []
        if tools and body["messages"][-1]["role"] == "user":
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{len(_FakeOpenAI.seen)}", "type": "function",
                "function": {"name": tools[0]["function"]["name"], "arguments": '{"order_id": "A1024"}'}}]}
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": "Done, from the local test server."}, "stop"
        answer = {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": finish, "message": message}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):  # keep test output quiet
        pass


@pytest.fixture
def fake_openai_server():
    server = HTTPServer(("127.0.0.1", 0), _FakeOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _FakeOpenAI.seen = []
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_real_model_path_against_a_local_openai_compatible_server(fake_openai_server):
    model = chat_model(env={"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": fake_openai_server})
    model.max_retries = 0
    message = model.bind_tools([lookup_order]).invoke("where is A1024?")
    assert message.tool_calls == [{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"}]
    (request,) = _FakeOpenAI.seen
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "qwen-plus"
    assert request["body"]["tools"][0]["function"]["name"] == "lookup_order"
    assert request["auth"] == f"Bearer {KEY}"
    recorded = model.last_request
    assert recorded.tool_names == ["lookup_order"] and recorded.messages[0].content == "where is A1024?"


@pytest.mark.parametrize("name", ["00_start_here.ipynb", "01_function_to_tool.ipynb"])
def test_notebooks_00_and_01_run_with_a_configured_real_model(fake_openai_server, tmp_path, monkeypatch, name):
    """The opt-in path end to end: a kernel with COURSE_MODEL etc. set talks to the local server."""
    from helpers.notebooks import NOTEBOOK_DIR, execute_notebook

    monkeypatch.setenv("COURSE_MODEL", "qwen-plus")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai_server)
    nb = execute_notebook(NOTEBOOK_DIR / name, offline=False, output=tmp_path / name, allow_errors=True, timeout=120)
    errors = [(i, o.get("ename"), o.get("evalue")) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
    assert _FakeOpenAI.seen, "the notebook never called the configured model"
    text = json.dumps([c.get("outputs", []) for c in nb.cells])
    assert KEY not in text, "the API key appeared in an output"
    if name.startswith("00"):
        assert "ChatOpenAI qwen-plus via a custom OPENAI_BASE_URL" in text
