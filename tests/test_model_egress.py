"""Issue 27, part 3: "A key goes only where it is meant to".

Every environment variable the pinned SDKs read for a base URL, a gateway, a proxy, headers or a
key (:mod:`helpers.model.sdk_environment`) is set here, one at a time, and the test looks at what
the client really sends: to a 127.0.0.1 :class:`RecordingEndpoint` (as an endpoint or a proxy), or,
for OpenAI's own endpoint (no network in tests), through an ``httpx2.MockTransport`` that records
each request instead of sending it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx2
import pytest
from langchain_core.callbacks import BaseCallbackHandler

from helpers import ModelConfigError, live_model
from helpers.model import real
from helpers.model.sdk_environment import SDK_VARIABLES
from tests.recording_endpoint import RecordingEndpoint

KEY = "sk-test-0123456789abcdefghij"
OTHER_KEY = "sk-other-9876543210zyxwvuts"
SITE_PACKAGES = Path(httpx2.__file__).resolve().parent.parent
OPENAI_ENV = {"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY, "COURSE_MODEL_MAX_RETRIES": "0"}


def test_every_variable_is_read_where_the_table_says():
    """The table names file:line in the pinned sources; a pin that moves a line fails here."""
    for variable in SDK_VARIABLES:
        path, line = variable.source.rsplit(":", 1)
        text = (SITE_PACKAGES / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
        assert variable.text_on_line in text, f"{variable.name}: {variable.source} reads {text.strip()!r}"


class MockOpenAI:
    """Stands in for the network under the course's real model: records each request, answers "hi"."""

    def __init__(self) -> None:
        self.requests: list[httpx2.Request] = []

    def answer(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        return httpx2.Response(200, json={"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                                          "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                                                       "message": {"role": "assistant", "content": "hi"}}]})

    def clients(self, proxy=None):
        return (httpx2.Client(transport=httpx2.MockTransport(self.answer)),
                httpx2.AsyncClient(transport=httpx2.MockTransport(self.answer)))


@pytest.fixture
def mock_openai(monkeypatch) -> MockOpenAI:
    mock = MockOpenAI()
    monkeypatch.setattr(real, "deadline_clients", mock.clients)
    return mock


def _set(monkeypatch, env: dict[str, str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize("name, value", [
    ("OPENAI_API_BASE", "{url}/v1"),
    ("LANGSMITH_GATEWAY", "{url}"),
    ("LANGSMITH_GATEWAY", "true"),
    ("OPENAI_BASE_URL", ""),
])
def test_no_sdk_variable_takes_the_openai_key_to_another_host(name, value, monkeypatch, mock_openai):
    """Before: ``base_url=None`` let langchain-openai take ``OPENAI_API_BASE`` or ``LANGSMITH_GATEWAY``
    (the key went to that host), and an empty ``OPENAI_BASE_URL`` became the SDK's base URL
    ("Connection error.")."""
    with RecordingEndpoint() as other:
        _set(monkeypatch, {**OPENAI_ENV, name: value.format(url=other.url),
                           "LANGSMITH_GATEWAY_API_KEY": OTHER_KEY, "LANGSMITH_API_KEY": OTHER_KEY})
        model = live_model()
        for client in (model.root_client, model.root_async_client):
            assert str(client.base_url) == "https://api.openai.com/v1/"
        assert model.invoke("hello").content == "hi"
        asyncio.run(model.ainvoke("hello"))
    assert other.received == []
    assert [str(r.url) for r in mock_openai.requests] == ["https://api.openai.com/v1/chat/completions"] * 2
    assert {r.headers["authorization"] for r in mock_openai.requests} == {f"Bearer {KEY}"}


def test_a_langsmith_gateway_block_cannot_move_the_course_model(monkeypatch):
    """langchain-core's ``langsmith_gateway(...)`` replaces even an explicit base URL and key
    (langchain_core/utils/_gateway.py:288): the course refuses to build its model inside one."""
    from langchain_core.utils._gateway import langsmith_gateway

    with RecordingEndpoint() as endpoint, RecordingEndpoint() as gateway:
        env = {"COURSE_MODEL": "m", "OPENAI_BASE_URL": endpoint.url + "/v1", "COURSE_MODEL_API_KEY": KEY}
        with langsmith_gateway(api_key=OTHER_KEY, base_url=gateway.url), pytest.raises(ModelConfigError) as caught:
            live_model(env=env)
        assert "langsmith_gateway" in str(caught.value) and KEY not in str(caught.value)
        live_model(env=env).invoke("hello")  # outside the block: the configured endpoint, the configured key
    assert gateway.received == [] and [r.authorization for r in endpoint.received] == [f"Bearer {KEY}"]


@pytest.mark.parametrize("org_variable", ["OPENAI_ORG_ID", "OPENAI_ORGANIZATION"])
def test_openai_s_organization_and_project_ids_go_to_openai_only(org_variable, monkeypatch):
    """Before: ``OpenAI-Organization`` and ``OpenAI-Project`` went to every endpoint (a class server,
    DashScope, a gateway)."""
    _set(monkeypatch, {org_variable: "org-course-test", "OPENAI_PROJECT_ID": "proj-course-test"})
    with RecordingEndpoint() as endpoint:
        live_model(env={"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": endpoint.url + "/v1"}).invoke("hello")
    (request,) = endpoint.received
    assert "openai-organization" not in request.headers and "openai-project" not in request.headers
    mock = MockOpenAI()
    monkeypatch.setattr(real, "deadline_clients", mock.clients)
    live_model(env=OPENAI_ENV).invoke("hello")
    (request,) = mock.requests
    assert request.headers["openai-organization"] == "org-course-test"
    assert request.headers["openai-project"] == "proj-course-test"


@pytest.mark.parametrize("endpoint_kind", ["loopback", "openai"])
def test_headers_from_openai_custom_headers_are_refused_without_their_values(endpoint_kind, monkeypatch, mock_openai):
    """Before: ``OPENAI_CUSTOM_HEADERS="Authorization: Bearer <a key for other work>"`` replaced the course's
    key on every request, to whatever endpoint was configured."""
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", f"Authorization: Bearer {OTHER_KEY}\nX-Team: secret-team-id")
    env = OPENAI_ENV if endpoint_kind == "openai" else {"COURSE_MODEL": "m", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    with pytest.raises(ModelConfigError) as caught:
        live_model(env=env)
    text = str(caught.value)
    assert text.startswith("OPENAI_CUSTOM_HEADERS is set: the OpenAI SDK would add its headers (Authorization, X-Team)")
    assert OTHER_KEY not in text and "secret-team-id" not in text and KEY not in text
    assert mock_openai.requests == []


def test_an_admin_key_in_the_environment_is_never_sent(monkeypatch):
    monkeypatch.setenv("OPENAI_ADMIN_KEY", OTHER_KEY)
    with RecordingEndpoint() as endpoint:
        live_model(env={"COURSE_MODEL": "m", "OPENAI_BASE_URL": endpoint.url + "/v1"}).invoke("hello")
        live_model(env={"COURSE_MODEL": "m", "OPENAI_BASE_URL": endpoint.url + "/v1",
                        "COURSE_MODEL_API_KEY": KEY}).invoke("hello")
    assert [r.authorization for r in endpoint.received] == ["Bearer EMPTY", f"Bearer {KEY}"]


@pytest.mark.parametrize("proxy_variable", ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "OPENAI_PROXY"])
def test_a_key_over_plain_http_never_goes_through_a_proxy(proxy_variable, monkeypatch):
    """Before: with a proxy in the environment, a key for a class server on plain http went to the
    proxy in clear text (the proxy received ``Authorization: Bearer <key>``)."""
    with RecordingEndpoint() as proxy:
        monkeypatch.setenv(proxy_variable, proxy.url)
        env = {"COURSE_MODEL": "m", "OPENAI_BASE_URL": "http://10.1.2.3:8000/v1", "COURSE_MODEL_MAX_RETRIES": "0"}
        with pytest.raises(ModelConfigError) as caught:
            live_model(env={**env, "COURSE_MODEL_API_KEY": KEY})
        text = str(caught.value)
        assert text.startswith("OPENAI_BASE_URL is an http:// address, and the HTTP client would send the request "
                               f"through the proxy in {proxy_variable}")
        assert KEY not in text and proxy.url not in text
        # without a key the request may go through the proxy: it really does, and carries no key
        assert live_model(env=env).invoke("hello").content == "hi"
    (request,) = proxy.received
    assert (request.target, request.authorization) == ("http://10.1.2.3:8000/v1/chat/completions", "Bearer EMPTY")


def test_a_host_in_no_proxy_or_https_may_carry_its_key_past_a_proxy(monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    live_model(env={"COURSE_MODEL": "m", "OPENAI_BASE_URL": "https://llm.example.com/v1", "COURSE_MODEL_API_KEY": KEY})
    monkeypatch.setenv("NO_PROXY", "10.1.2.3")
    live_model(env={"COURSE_MODEL": "m", "OPENAI_BASE_URL": "http://10.1.2.3:8000/v1", "COURSE_MODEL_API_KEY": KEY})


@pytest.mark.parametrize("base_url, key", [
    ("http://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    ("http://dashscope-intl.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    ("http://api.deepseek.com/v1", "COURSE_MODEL_API_KEY"),
])
def test_a_key_goes_over_https_only_except_to_a_private_address(base_url, key):
    """Before: ``DASHSCOPE_API_KEY`` went to ``http://dashscope.aliyuncs.com`` in clear text (a proxy on
    the way received it)."""
    with pytest.raises(ModelConfigError) as caught:
        live_model(env={"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": base_url, key: KEY})
    text = str(caught.value)
    assert text.startswith("OPENAI_BASE_URL is an http:// address on a public host") and "use https://" in text
    assert KEY not in text and "dashscope" not in text and "deepseek" not in text
    live_model(env={"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": "https" + base_url[4:], key: KEY})


@pytest.mark.parametrize("base_url", ["http://127.0.0.1:abc/v1", "http://127.0.0.1:99999/v1", "http://127.0.0.1:0/v1",
                                      "http://localhost:-1/v1"])
def test_a_port_that_is_not_a_port_is_named_without_a_traceback(base_url):
    """Before: ``:abc`` passed the configuration and the model's build raised httpx2's ``InvalidURL``."""
    with pytest.raises(ModelConfigError) as caught:
        live_model(env={"COURSE_MODEL": "m", "OPENAI_BASE_URL": base_url})
    assert str(caught.value).startswith("OPENAI_BASE_URL has a port that is not a number from 1 to 65535")


class Tokens(BaseCallbackHandler):
    """What callbacks (LangGraph's ``stream_mode="messages"``, a streaming UI) receive."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def on_llm_new_token(self, token, *, chunk=None, **kwargs):
        self.seen.append(token + (chunk.message.model_dump_json() if chunk is not None else ""))

    def on_llm_end(self, response, **kwargs):
        self.seen.append(response.model_dump_json())


@pytest.mark.parametrize("how", ["invoke", "stream", "ainvoke", "astream", "graph messages"])
def test_a_key_echoed_in_a_successful_reply_is_hidden(how):
    """Before: an endpoint that quotes the request (``Your key: sk-...``) put the key into the reply, the
    streamed chunks and the callbacks; streamed, it arrives split across chunks of 5 characters."""
    tokens = Tokens()
    with RecordingEndpoint(echo_key=True) as endpoint:
        model = live_model(env={"COURSE_MODEL": "m", "OPENAI_BASE_URL": endpoint.url + "/v1",
                                "COURSE_MODEL_API_KEY": KEY})
        config = {"callbacks": [tokens]}
        if how == "invoke":
            shown = model.invoke("hello", config=config).content
        elif how == "ainvoke":
            shown = asyncio.run(model.ainvoke("hello", config=config)).content
        elif how == "stream":
            shown = "".join(chunk.content for chunk in model.stream("hello", config=config))
        elif how == "astream":
            async def collect():
                return "".join([chunk.content async for chunk in model.astream("hello", config=config)])
            shown = asyncio.run(collect())
        else:
            from langgraph.graph import MessagesState, StateGraph

            graph = StateGraph(MessagesState)
            graph.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
            graph.set_entry_point("model")
            parts = [chunk.content for chunk, _ in graph.compile().stream(
                {"messages": [("user", "hello")]}, stream_mode="messages")]
            shown = "".join(parts)
    assert endpoint.received[0].authorization == f"Bearer {KEY}", "the endpoint did get the key"
    assert shown == "Your key: (the key in COURSE_MODEL_API_KEY, not shown)."
    assert KEY not in json.dumps(tokens.seen)
    assert KEY[:10] not in shown
