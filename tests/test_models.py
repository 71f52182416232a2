"""The model factory: offline by default, a real model only when configured, keys never shown."""

from __future__ import annotations

import json

import pytest
from langchain.tools import tool

from helpers import ModelConfigError, ScriptedChatModel, describe_model, live_model
from helpers.model.factory import read_model_config, real_model_configured
from tests.loopback_openai import loopback_openai  # noqa: F401 - a pytest fixture

KEY = "sk-test-0123456789abcdefghij"


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order."""
    return order_id


def test_default_is_the_scripted_model():
    model = live_model(["hi"], env={})
    assert isinstance(model, ScriptedChatModel)
    assert model.invoke("x").content == "hi"
    assert describe_model(model) == "scripted model (1 step, offline)"


def test_default_reads_os_environ(monkeypatch):
    assert isinstance(live_model(["hi"]), ScriptedChatModel)
    monkeypatch.setenv("COURSE_MODEL", "gpt-4o-mini")
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY is missing"):
        live_model(["hi"])


def test_a_key_alone_does_not_opt_in():
    assert not real_model_configured({"OPENAI_API_KEY": KEY})
    assert isinstance(live_model(["hi"], env={"OPENAI_API_KEY": KEY}), ScriptedChatModel)


def test_model_without_key_names_the_missing_variable():
    with pytest.raises(ModelConfigError) as caught:
        live_model(env={"COURSE_MODEL": "qwen-plus"})
    assert "OPENAI_API_KEY" in str(caught.value)
    assert "qwen-plus" not in str(caught.value), "an error never echoes a configured value"


def test_base_url_without_model_names_the_missing_variable():
    with pytest.raises(ModelConfigError) as caught:
        live_model(env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": KEY})
    assert "COURSE_MODEL is missing" in str(caught.value)
    assert KEY not in str(caught.value)


def test_blank_values_count_as_unset():
    assert isinstance(live_model(["x"], env={"COURSE_MODEL": "  ", "OPENAI_BASE_URL": ""}), ScriptedChatModel)


def test_full_configuration_returns_chat_openai_without_showing_the_key():
    from langchain_openai import ChatOpenAI

    model = live_model(["ignored"], env={"COURSE_MODEL": "qwen-plus", "COURSE_MODEL_API_KEY": KEY,
                                         "OPENAI_BASE_URL": "https://example.invalid/compatible-mode/v1"})
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "qwen-plus"
    assert model.openai_api_base == "https://example.invalid/compatible-mode/v1"
    for text in (repr(model), str(model), describe_model(model), json.dumps(model.model_dump(), default=str)):
        assert KEY not in text
    assert describe_model(model) == "ChatOpenAI qwen-plus via a custom OPENAI_BASE_URL"
    assert model.requests == [] and model.steps_left is None


# -- configuration: DashScope, timeout, retries, bad values --------------------------------

DASHSCOPE = "https://dashscope.aliyuncs.com/compatible-mode/v1"
DASHSCOPE_INTL = "https://dashscope-intl.aliyuncs.com/compatible-mode/v1"
DASHSCOPE_KEY = "sk-dashscope-9876543210fedcba"


@pytest.mark.parametrize("base_url", [DASHSCOPE, DASHSCOPE_INTL])
def test_dashscope_key_is_used_with_a_dashscope_base_url(base_url):
    config = read_model_config({"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": base_url, "DASHSCOPE_API_KEY": DASHSCOPE_KEY})
    assert (config.model, config.api_key, config.key_variable, config.endpoint) == (
        "qwen-plus", DASHSCOPE_KEY, "DASHSCOPE_API_KEY", "dashscope")
    model = live_model(env={"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": base_url, "DASHSCOPE_API_KEY": DASHSCOPE_KEY})
    assert model.openai_api_key.get_secret_value() == DASHSCOPE_KEY
    assert describe_model(model) == "ChatOpenAI qwen-plus via DashScope"
    assert DASHSCOPE_KEY not in repr(config) and DASHSCOPE_KEY not in repr(model)


def test_on_dashscope_the_dashscope_key_wins_over_an_openai_key():
    config = read_model_config({"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": DASHSCOPE,
                                "DASHSCOPE_API_KEY": DASHSCOPE_KEY, "OPENAI_API_KEY": KEY})
    assert config.api_key == DASHSCOPE_KEY, "an OpenAI key must not be sent to DashScope"


def test_on_dashscope_an_openai_api_key_alone_is_never_sent():
    """Issue 21: a configured OpenAI key goes to no other host than OpenAI's (it used to go to DashScope)."""
    with pytest.raises(ModelConfigError) as caught:
        read_model_config({"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": DASHSCOPE, "OPENAI_API_KEY": KEY})
    assert str(caught.value).startswith("COURSE_MODEL is set but DASHSCOPE_API_KEY is missing: set DASHSCOPE_API_KEY "
                                        "to your DashScope key (OPENAI_API_KEY is set, but it is sent only to "
                                        "OpenAI's endpoint, never to another host)")
    config = read_model_config({"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": DASHSCOPE, "OPENAI_API_KEY": KEY,
                                "COURSE_MODEL_API_KEY": DASHSCOPE_KEY})
    assert (config.api_key, config.key_variable) == (DASHSCOPE_KEY, "COURSE_MODEL_API_KEY")


def test_a_dashscope_key_alone_stays_offline():
    assert isinstance(live_model(["hi"], env={"DASHSCOPE_API_KEY": DASHSCOPE_KEY}), ScriptedChatModel)


def test_a_dashscope_key_without_the_dashscope_url_says_what_to_add():
    with pytest.raises(ModelConfigError) as caught:
        live_model(env={"COURSE_MODEL": "qwen-plus", "DASHSCOPE_API_KEY": DASHSCOPE_KEY})
    text = str(caught.value)
    assert "OPENAI_API_KEY is missing" in text and "OPENAI_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1" in text
    assert DASHSCOPE_KEY not in text


def test_dashscope_url_without_any_key_names_dashscope_api_key():
    with pytest.raises(ModelConfigError, match=r"DASHSCOPE_API_KEY is missing: set DASHSCOPE_API_KEY"):
        live_model(env={"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": DASHSCOPE})


def test_timeout_and_retries_are_finite_by_default_and_overridable():
    model = live_model(env={"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY})
    assert (model.request_timeout, model.max_retries) == (30.0, 1)
    model = live_model(env={"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY,
                            "COURSE_MODEL_TIMEOUT": "5", "COURSE_MODEL_MAX_RETRIES": "0"})
    assert (model.request_timeout, model.max_retries) == (5.0, 0)


def test_an_endpoint_that_never_answers_stops_after_the_timeout_and_one_retry():
    """A 127.0.0.1 socket that accepts and never answers: invoke raises openai's timeout error after
    exactly two connections (the request and its one retry), instead of hanging the cell."""
    import socket
    import threading

    import openai

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not done.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        model = live_model(env={"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY,
                                "OPENAI_BASE_URL": f"http://127.0.0.1:{listener.getsockname()[1]}/v1",
                                "COURSE_MODEL_TIMEOUT": "1"})
        with pytest.raises(openai.APITimeoutError):
            model.invoke("hello")
    finally:
        done.set()
        thread.join()
        for connection in accepted:
            connection.close()
        listener.close()
    assert len(accepted) == 2


@pytest.mark.parametrize("name, value", [("COURSE_MODEL_TIMEOUT", "0"), ("COURSE_MODEL_TIMEOUT", "forever"),
                                         ("COURSE_MODEL_TIMEOUT", "nan"), ("COURSE_MODEL_MAX_RETRIES", "10"),
                                         ("COURSE_MODEL_MAX_RETRIES", "1.5")])
def test_bad_timeout_or_retries_name_the_variable(name, value):
    with pytest.raises(ModelConfigError, match=f"^{name} must be"):
        read_model_config({"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY, name: value})


@pytest.mark.parametrize("base_url", ["ftp://example.com/v1", "example.com/v1", "localhost:8000", "http://", "https:// x.com"])
def test_a_base_url_that_is_not_http_names_openai_base_url(base_url):
    with pytest.raises(ModelConfigError) as caught:
        live_model(env={"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": base_url})
    assert str(caught.value).startswith("OPENAI_BASE_URL is not an http(s) URL")
    assert base_url.strip() not in str(caught.value)


def test_a_base_url_ending_in_chat_completions_is_refused():
    with pytest.raises(ModelConfigError, match="OPENAI_BASE_URL ends with /chat/completions"):
        read_model_config({"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY,
                           "OPENAI_BASE_URL": DASHSCOPE + "/chat/completions"})


@pytest.mark.parametrize("env", [
    {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": KEY},                               # the key in the URL variable
    {"COURSE_MODEL": "qwen-plus", "OPENAI_BASE_URL": KEY, "OPENAI_API_KEY": KEY},
    {"COURSE_MODEL": KEY},                                                               # the key in the model variable
    {"COURSE_MODEL": KEY, "OPENAI_API_KEY": KEY},
    {"COURSE_MODEL": "sk-" + "a1b2" * 12, "OPENAI_API_KEY": KEY},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": f"https://user:{KEY}@example.com/v1"},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": f"https://example.com/v1/{KEY}"},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": f"{KEY}\nsk-second-key-0123456789"},  # two keys pasted
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": f"Bearer {KEY}"},
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": f"\u201c{KEY}\u201d"},               # curly quotes
    {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": KEY, "COURSE_MODEL_TIMEOUT": KEY},
])
def test_a_key_in_the_wrong_place_or_broken_is_refused_without_showing_it(env):
    with pytest.raises(ModelConfigError) as caught:
        live_model(env=env)
    text = str(caught.value)
    assert KEY not in text and "a1b2a1b2" not in text and "second-key" not in text
    assert any(name in text for name in env), "the message names the variable to fix"


def test_a_key_with_a_trailing_line_break_is_stripped():
    config = read_model_config({"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": f"  {KEY}\n"})
    assert config.api_key == KEY


@pytest.mark.parametrize("name", ["gpt-4o-mini", "qwen-plus", "Qwen/Qwen2.5-7B-Instruct", "llama3.1:8b",
                                  "ft:gpt-4o-mini-2024-07-18:org:custom:AbCdEf12", "deepseek-chat"])
def test_real_model_names_pass_the_model_name_check(name):
    assert read_model_config({"COURSE_MODEL": name, "OPENAI_API_KEY": KEY}).model == name


@pytest.mark.parametrize("name", ["gpt 4o", "qwen-plus\n", "模型"])
def test_a_model_name_with_odd_characters_is_refused_without_echo(name):
    env = {"COURSE_MODEL": name, "OPENAI_API_KEY": KEY}
    if name.strip() == "qwen-plus":
        assert read_model_config(env).model == "qwen-plus", "surrounding whitespace is stripped"
        return
    with pytest.raises(ModelConfigError, match="^COURSE_MODEL is not a model name") as caught:
        read_model_config(env)
    assert name not in str(caught.value)


# -- the real-model path against the loopback server ----------------------------------------


def test_real_model_path_against_the_loopback_server(loopback_openai):
    model = live_model(env={**loopback_openai.env(model="qwen-plus", key=KEY), "COURSE_MODEL_API_KEY": KEY})
    message = model.bind_tools([lookup_order]).invoke("where is A1024?")
    assert message.tool_calls == [{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_lb_0001",
                                   "type": "tool_call"}]
    (request,) = loopback_openai.requests
    assert request.path == "/v1/chat/completions" and request.status == 200
    assert request.body["model"] == "qwen-plus"
    assert request.body["tools"][0]["function"]["name"] == "lookup_order"
    assert request.authorization == f"Bearer {KEY}"
    recorded = model.last_request
    assert recorded.tool_names == ["lookup_order"] and recorded.messages[0].content == "where is A1024?"
    assert recorded.payload() == request.body, "the recorded body is the one sent"


def test_real_model_records_streamed_requests_too(loopback_openai):
    model = live_model(env=loopback_openai.env(key=KEY))
    text = "".join(chunk.content for chunk in model.stream("hello"))
    assert text == "Hello from the loopback model."
    assert model.last_request.streamed and loopback_openai.bodies[-1]["stream"] is True
    assert model.last_request.payload() == loopback_openai.bodies[-1]


def test_a_provider_400_reaches_the_caller_with_openai_wording(loopback_openai):
    from langchain_core.messages import AIMessage, HumanMessage

    model = live_model(env=loopback_openai.env(key=KEY))
    unanswered = AIMessage("", tool_calls=[{"name": "lookup_order", "args": {}, "id": "call_9", "type": "tool_call"}])
    with pytest.raises(Exception, match="The following tool_call_ids did not have response messages: call_9"):
        model.invoke([HumanMessage("a"), unanswered, HumanMessage("b")])


# -- hostile test 1, item 6: no configuration value that could be a secret is ever echoed ----

from langchain_core.messages import AIMessage  # noqa: E402

from helpers import live_verdict  # noqa: E402
from helpers.model.factory import looks_like_model_name  # noqa: E402

ARK_KEY = "3f2a1b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b"   # Volcengine Ark API keys are UUID-shaped
KEY_SHAPES = [
    ARK_KEY,
    ARK_KEY.replace("-", ""),                           # a UUID without dashes
    "0123456789abcdef0123456789abcdef.AbCdEfGh12345678",  # Zhipu GLM: id.secret
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",            # Hugging Face
    "AKIAIOSFODNN7EXAMPLE",                               # an AWS access key id
    "xai-AbCdEfGh1234",                                   # xAI
    "bce-v3/ALTAK-abc/def",                               # Baidu Qianfan
    "q8Zr2LmX9vKp",                                       # twelve random characters
    "3f2a1b4c",                                           # the first part of a UUID alone
    "a" * 40,                                             # a long run
]


@pytest.mark.parametrize("value", KEY_SHAPES)
def test_a_key_shaped_course_model_is_refused_and_never_echoed(value):
    assert not looks_like_model_name(value)
    for env in ({"COURSE_MODEL": value}, {"COURSE_MODEL": value, "OPENAI_API_KEY": "doubao-seed-1-6"}):
        with pytest.raises(ModelConfigError, match="^COURSE_MODEL ") as caught:
            read_model_config(env)
        assert value not in str(caught.value) and value[:8] not in str(caught.value)


@pytest.mark.parametrize("name", [
    "doubao-seed-1-6-250615", "ep-20250101123456-abcde", "claude-3-5-sonnet@20240620", "glm-4-flash",
    "meta-llama/Meta-Llama-3.1-8B-Instruct", "accounts/fireworks/models/llama-v3p1-8b-instruct",
    "phi3:3.8b-mini-128k-instruct-q4_K_M", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "moonshot-v1-8k",
    "gemini-2.0-flash-001", "gpt-4o-2024-08-06", "o1-preview", "Qwen3-30B-A3B", "mistralai/Mixtral-8x7B-Instruct-v0.1",
])
def test_more_real_model_names_pass(name):
    assert looks_like_model_name(name)
    assert read_model_config({"COURSE_MODEL": name, "OPENAI_API_KEY": KEY}).model == name


def test_a_missing_key_error_does_not_echo_the_model_value():
    with pytest.raises(ModelConfigError, match="^COURSE_MODEL is set but OPENAI_API_KEY is missing") as caught:
        read_model_config({"COURSE_MODEL": "token-hunter2"})
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize("base_url, mark", [
    ("https://proxy.example.com/v1?api-key=hunter2SECRET", "?"),
    ("https://proxy.example.com/v1?", "?"),
    ("https://proxy.example.com/v1#hunter2SECRET", "#"),
])
def test_a_base_url_with_a_query_or_fragment_is_refused_without_echo(base_url, mark):
    with pytest.raises(ModelConfigError, match=r"^OPENAI_BASE_URL has a (query string|fragment)") as caught:
        read_model_config({"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": base_url})
    text = str(caught.value)
    assert f"remove everything from the '{mark}' on" in text
    assert "hunter2" not in text and "proxy.example.com" not in text


def test_a_configuration_value_that_is_not_text_is_refused():
    with pytest.raises(ModelConfigError, match="^COURSE_MODEL must be text, got int"):
        read_model_config({"COURSE_MODEL": 5, "OPENAI_API_KEY": KEY})


def test_describe_verdict_and_repr_never_show_a_key_like_name_or_url_secrets():
    from helpers.model.real import recording_chat_openai

    model = recording_chat_openai()(
        model=ARK_KEY, api_key=KEY, base_url="https://user:hunter2@proxy.example.com/v1/0123456789abcdef0123456789abcdef?api-key=SECRETQ#frag",
        openai_proxy="http://proxyuser:proxypass@proxy.example.com:8080")
    shown = [describe_model(model), describe_model(model.bind_tools([lookup_order])), repr(model), str(model),
             repr(live_verdict(AIMessage("hi"), model, expect_tools=["lookup_order"]))]
    for text in shown:
        for secret in (ARK_KEY, ARK_KEY[:8], KEY, "hunter2", "SECRETQ", "frag", "proxypass", "proxyuser",
                       "0123456789abcdef"):
            assert secret not in text, (secret, text[:200])
    assert shown[0] == "ChatOpenAI (a name that looks like a key, not shown) via a custom OPENAI_BASE_URL"
    assert "openai_api_base='https://proxy.example.com/v1/…'" in repr(model)
    assert "openai_proxy='http://proxy.example.com:8080'" in repr(model)


def test_a_good_model_still_describes_itself_by_name():
    model = live_model(env={"COURSE_MODEL": "qwen-plus", "DASHSCOPE_API_KEY": KEY,
                            "OPENAI_BASE_URL": "https://dashscope.aliyuncs.com/compatible-mode/v1"})
    assert describe_model(model) == "ChatOpenAI qwen-plus via DashScope"
    assert "model_name='qwen-plus'" in repr(model)
    assert "openai_api_base='https://dashscope.aliyuncs.com/compatible-mode/v1'" in repr(model)


# -- hostile endpoints (issue 16, "Real model and runner"): echoed keys, slow and non-OpenAI replies -----

import asyncio  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402
from urllib.parse import quote  # noqa: E402

from helpers.model.loopback_server import POLL_INTERVAL  # noqa: E402
from helpers.model.real import NotAnOpenAIReplyError  # noqa: E402

SLASH_KEY = "bce-v3/ALTAK-0123456789abcdef/9f8e7d6c5b4a"   # a key with '/': JSON may escape it as '\/'
CHAT_REPLY = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
              "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                           "message": {"role": "assistant", "content": "a slow answer"}}]}


class HostileEndpoint:
    """A 127.0.0.1 server that answers every POST the way ``mode`` says (one mode per test).

    Modes: ``echo401`` (OpenAI's 401 shape with the Authorization header in the message, the body
    and a response header), ``echo_text`` (a 502 text page quoting the header raw, JSON-escaped and
    URL-encoded), ``html``, ``not_json``, ``cut`` (a JSON body cut off), ``other_json`` (JSON that is
    not a chat.completions reply), ``sse_html`` (an HTML page to a streamed request), ``sse_garbage``
    (``data:`` lines that are not JSON), ``drip_body`` / ``drip_headers`` (a valid reply sent one
    byte every 0.1 s: 20 s or more for the whole reply).
    """

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.connections = 0
        self.stop = threading.Event()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def _drip(self, data: bytes) -> None:
                for byte in data:
                    if endpoint.stop.wait(0.1):
                        return
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:
                        return

            def do_POST(self):  # noqa: N802
                endpoint.connections += 1
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                auth = self.headers.get("Authorization", "")
                mode = endpoint.mode
                if mode == "echo401":
                    body = {"error": {"message": f"Incorrect API key provided: {auth}", "type": "invalid_request_error",
                                      "code": "invalid_api_key", "param": None, "headers": dict(self.headers)}}
                    self._send(401, json.dumps(body).encode(), "application/json", {"X-Echo-Authorization": auth})
                elif mode == "echo_text":
                    key = auth.removeprefix("Bearer ")
                    page = f"bad gateway for {auth}; json: {json.dumps(key)}; url: {quote(key, safe='')}"
                    self._send(502, page.encode(), "text/plain")
                elif mode == "html":
                    self._send(200, b"<html><body>Welcome to nginx!</body></html>", "text/html")
                elif mode == "not_json":
                    self._send(200, b"this is not JSON", "application/json")
                elif mode == "cut":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "400")
                    self.end_headers()
                    self.wfile.write(json.dumps(CHAT_REPLY).encode()[:40])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                elif mode == "other_json":
                    self._send(200, b'{"status": "ok", "service": "a gateway"}', "application/json")
                elif mode == "sse_html":
                    self._send(200, b"<html><body>Welcome to nginx!</body></html>", "text/html")
                elif mode == "sse_garbage":
                    self._send(200, b"data: {not json\n\n", "text/event-stream")
                elif mode == "drip_body":
                    body = json.dumps(CHAT_REPLY).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.flush()
                    self._drip(body)
                elif mode == "drip_headers":
                    body = json.dumps(CHAT_REPLY).encode()
                    head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                            "X-Padding: " + "p" * 200 + "\r\n\r\n").encode()
                    self.close_connection = True
                    self._drip(head + body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": POLL_INTERVAL},
                                       daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def env(self, **extra: str) -> dict[str, str]:
        return {"COURSE_MODEL": "gpt-4o-mini", "COURSE_MODEL_API_KEY": KEY, "OPENAI_BASE_URL": self.base_url,
                "COURSE_MODEL_MAX_RETRIES": "0", **extra}

    def __enter__(self) -> HostileEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def _everything_shown(exc: BaseException) -> str:
    """All text a learner or a saved notebook could see of ``exc``: the formatted traceback with
    its chain, and the message, args, body, response and request of every chained exception."""
    parts = ["".join(traceback.format_exception(exc))]
    todo, seen = [exc], set()
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        parts += [str(current), repr(current), repr(current.args), repr(getattr(current, "__notes__", ""))]
        for name, value in vars(current).items():
            parts.append(f"{name}={value!r}")
            if hasattr(value, "headers"):
                parts.append(repr(list(value.headers.multi_items())))
            for attribute in ("content", "text"):
                try:
                    parts.append(repr(getattr(value, attribute)))
                except Exception:  # noqa: BLE001
                    pass
            request = getattr(value, "_request", None)
            if request is not None:
                parts.append(repr(list(request.headers.multi_items())))
        todo += [current.__cause__, current.__context__]
    return "\n".join(parts)


def _call(model, how: str):
    """One request by ``how``: invoke, stream, ainvoke or astream."""
    if how == "invoke":
        return model.invoke("hello")
    if how == "stream":
        return list(model.stream("hello"))
    if how == "ainvoke":
        return asyncio.run(model.ainvoke("hello"))

    async def collect():
        return [chunk async for chunk in model.astream("hello")]

    return asyncio.run(collect())


CALLS = ["invoke", "stream", "ainvoke", "astream"]


@pytest.mark.parametrize("how", CALLS)
@pytest.mark.parametrize("mode", ["echo401", "echo_text"])
def test_an_endpoint_that_echoes_the_key_never_gets_it_into_the_error(mode, how):
    """high (issue 16): a gateway answers 401 ``Incorrect API key provided: Bearer <key>``; the key
    reaches no part of the exception: message, args, chained causes, the SDK's body, response and
    request (its Authorization header too), in the raw, JSON-escaped and URL-encoded forms."""
    with HostileEndpoint(mode) as endpoint:
        model = live_model(env=endpoint.env())
        with pytest.raises(Exception) as caught:
            _call(model, how)
    shown = _everything_shown(caught.value)
    for form in (KEY, json.dumps(KEY)[1:-1], quote(KEY, safe="")):
        assert form not in shown, (form, shown[:600])
    assert "(the key in COURSE_MODEL_API_KEY, not shown)" in shown
    if mode == "echo401":
        import openai

        assert isinstance(caught.value, openai.AuthenticationError), "the error keeps its type"
        assert "Incorrect API key provided: Bearer (the key in COURSE_MODEL_API_KEY, not shown)" in str(caught.value)


@pytest.mark.parametrize("env_extra", [
    {"COURSE_MODEL_API_KEY": SLASH_KEY},                                             # '/' JSON-escaped as '\/'
    {"COURSE_MODEL_API_KEY": KEY, "DASHSCOPE_API_KEY": DASHSCOPE_KEY},               # the other configured key
])
def test_every_configured_key_is_hidden_in_every_form(env_extra):
    from helpers.model.redact import hide_secrets

    with HostileEndpoint("echo401") as endpoint:
        model = live_model(env={**endpoint.env(), **env_extra})
        with pytest.raises(Exception) as caught:
            model.invoke("hello")
    key = env_extra["COURSE_MODEL_API_KEY"]
    assert key not in _everything_shown(caught.value)
    # the other configured key is hidden too, wherever it appears
    error = RuntimeError(f"echo: {DASHSCOPE_KEY} / {json.dumps(SLASH_KEY)} / {quote(SLASH_KEY, safe='')}")
    error.__cause__ = ValueError({"nested": [DASHSCOPE_KEY.encode()]})
    hide_secrets(error, {DASHSCOPE_KEY: "DASHSCOPE_API_KEY", SLASH_KEY: "OPENAI_API_KEY"})
    shown = _everything_shown(error)
    assert DASHSCOPE_KEY not in shown and "ALTAK-0123456789abcdef" not in shown, shown
    assert str(error).count("not shown") == 3


def test_a_key_echoed_inside_an_agent_run_is_hidden_too():
    """The error leaves ``create_agent``'s graph as the model raised it: cleaned."""
    from langchain.agents import create_agent

    with HostileEndpoint("echo401") as endpoint:
        agent = create_agent(live_model(env=endpoint.env()), tools=[lookup_order])
        with pytest.raises(Exception) as caught:
            agent.invoke({"messages": [("user", "where is A1024?")]})
    assert KEY not in _everything_shown(caught.value)


@pytest.mark.parametrize("how", CALLS)
@pytest.mark.parametrize("mode", ["drip_body", "drip_headers"])
def test_an_endpoint_that_sends_one_byte_at_a_time_stops_at_the_overall_deadline(mode, how):
    """A reply that arrives a byte every 0.1 s never trips the per-read timeout (1 s); it would take
    more than 20 s. The request's overall deadline (COURSE_MODEL_TIMEOUT=1) stops it with a timeout
    error instead of waiting for the whole reply (before the fix: the slow answer, after 20 s)."""
    import openai

    with HostileEndpoint(mode) as endpoint:
        model = live_model(env=endpoint.env(COURSE_MODEL_TIMEOUT="1"))
        with pytest.raises((openai.APITimeoutError, NotAnOpenAIReplyError, Exception)) as caught:
            _call(model, how)
    names = {type(e).__name__ for e in _chain_of(caught.value)}
    assert names & {"APITimeoutError", "ReadTimeout"}, (names, caught.value)
    assert endpoint.connections == 1


def test_with_one_retry_a_slow_endpoint_is_tried_twice_then_stopped():
    """README: a slow endpoint stops a cell after about 2 x COURSE_MODEL_TIMEOUT: two requests."""
    import openai

    with HostileEndpoint("drip_body") as endpoint:
        model = live_model(env=endpoint.env(COURSE_MODEL_TIMEOUT="1", COURSE_MODEL_MAX_RETRIES="1"))
        with pytest.raises(openai.APITimeoutError):
            model.invoke("hello")
    assert endpoint.connections == 2


def _chain_of(exc):
    seen = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


@pytest.mark.parametrize("mode, how", [("html", "invoke"), ("not_json", "invoke"), ("cut", "invoke"),
                                       ("other_json", "invoke"), ("not_json", "ainvoke"), ("html", "ainvoke"),
                                       ("sse_html", "stream"), ("sse_garbage", "stream"), ("sse_garbage", "astream")])
def test_a_reply_that_is_not_an_openai_reply_says_so_without_the_url(mode, how):
    with HostileEndpoint(mode) as endpoint:
        model = live_model(env=endpoint.env())
        with pytest.raises(NotAnOpenAIReplyError) as caught:
            _call(model, how)
    text = str(caught.value)
    assert text.startswith("OPENAI_BASE_URL answered with something that is not an OpenAI reply ("), text
    shown = "".join(traceback.format_exception(caught.value))
    assert endpoint.base_url not in shown and "127.0.0.1" not in shown and KEY not in shown
    assert "nginx" not in shown, "no part of the reply is shown"


# -- issue 21, "A model for a class": a keyless local endpoint; a provider's key goes to that provider only -----

from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

from helpers.model.factory import NO_KEY, is_private_endpoint  # noqa: E402

PRIVATE_URLS = [
    "http://localhost:11434/v1", "http://127.0.0.1:8000/v1", "http://127.1.2.3/v1", "http://[::1]:8000/v1",
    "http://10.0.0.5:8000/v1", "http://172.16.0.9/v1", "http://172.31.255.1/v1", "http://192.168.1.20:8000/v1",
    "http://169.254.1.1/v1", "http://[fd00::5]:8000/v1", "http://ollama:11434/v1", "http://vllm/v1",
    "http://vllm.default.svc.cluster.local:8000/v1", "http://host.docker.internal:11434/v1",
    "http://api.localhost:8000/v1", "https://gpu-box.local/v1",
]
PUBLIC_URLS = [
    "https://api.deepseek.com/v1", "https://example.invalid/v1", "http://8.8.8.8/v1", "http://172.32.0.1/v1",
    "http://100.64.0.1/v1",                     # carrier-grade NAT: not a private range
    "http://127.0.0.1.nip.io/v1",               # a public name that resolves to loopback: judged public
    "https://localhost.example.com/v1", "https://internal.example.com/v1",
    "https://api.openai.com.evil.example/v1",   # looks like OpenAI's host, is not
    "http://api.openai.com/v1",                 # OpenAI's name over plain http: not OpenAI's endpoint
]


@pytest.mark.parametrize("base_url", PRIVATE_URLS)
def test_an_endpoint_on_a_loopback_or_private_address_needs_no_key(base_url):
    assert is_private_endpoint(base_url)
    config = read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": base_url})
    assert (config.key_variable, config.api_key) == (None, NO_KEY)
    # a learner's keys for other work are not sent there either
    config = read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": base_url,
                                "OPENAI_API_KEY": KEY, "DASHSCOPE_API_KEY": DASHSCOPE_KEY})
    assert (config.key_variable, config.api_key) == (None, NO_KEY)
    # the course's own key for that endpoint is
    config = read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": base_url, "COURSE_MODEL_API_KEY": KEY})
    assert (config.key_variable, config.api_key) == ("COURSE_MODEL_API_KEY", KEY)


@pytest.mark.parametrize("base_url", PUBLIC_URLS)
def test_a_public_endpoint_without_its_key_is_refused_and_an_openai_key_is_not_sent_there(base_url):
    assert not is_private_endpoint(base_url)
    if base_url.startswith("http://"):  # issue 27: a public host over plain http is refused, whatever the keys
        for env in ({}, {"OPENAI_API_KEY": KEY}, {"COURSE_MODEL_API_KEY": KEY}):
            with pytest.raises(ModelConfigError, match="^OPENAI_BASE_URL is an http:// address on a public host"):
                read_model_config({"COURSE_MODEL": "deepseek-chat", "OPENAI_BASE_URL": base_url, **env})
        base_url = "https" + base_url[len("http"):]
        if base_url.startswith("https://api.openai.com/"):
            return
    for env in ({}, {"OPENAI_API_KEY": KEY}, {"OPENAI_API_KEY": KEY, "DASHSCOPE_API_KEY": DASHSCOPE_KEY}):
        with pytest.raises(ModelConfigError) as caught:
            read_model_config({"COURSE_MODEL": "deepseek-chat", "OPENAI_BASE_URL": base_url, **env})
        text = str(caught.value)
        assert text.startswith("COURSE_MODEL is set but OPENAI_BASE_URL is a public endpoint that is neither OpenAI's "
                               "nor DashScope's, and COURSE_MODEL_API_KEY is missing"), text
        assert KEY not in text and base_url not in text and urlsplit(base_url).hostname not in text
        assert ("sent only to their own provider" in text) == bool(env)
    config = read_model_config({"COURSE_MODEL": "deepseek-chat", "OPENAI_BASE_URL": base_url,
                                "OPENAI_API_KEY": KEY, "COURSE_MODEL_API_KEY": DASHSCOPE_KEY})
    assert (config.key_variable, config.api_key) == ("COURSE_MODEL_API_KEY", DASHSCOPE_KEY)


def test_openai_s_own_address_gets_the_openai_key():
    config = read_model_config({"COURSE_MODEL": "gpt-4o-mini", "OPENAI_BASE_URL": "https://api.openai.com/v1",
                                "OPENAI_API_KEY": KEY})
    assert (config.key_variable, config.api_key, config.endpoint) == ("OPENAI_API_KEY", KEY, "openai")


def test_the_loopback_provider_receives_no_key_from_a_machine_that_has_one(loopback_openai):
    """Before: the learner's OPENAI_API_KEY (set for other work) was sent to whatever host OPENAI_BASE_URL named."""
    model = live_model(env={**loopback_openai.env(key=KEY), "DASHSCOPE_API_KEY": DASHSCOPE_KEY})
    assert model.invoke("hello").content == "Hello from the loopback model."
    assert [r.authorization for r in loopback_openai.requests] == [f"Bearer {NO_KEY}"]


def _readme_recipe(title: str, readme_name: str = "README.md") -> dict[str, str]:
    """The ``export NAME=VALUE`` lines of the README code block that follows the line starting with ``title``."""
    readme = (Path(__file__).resolve().parent.parent / readme_name).read_text(encoding="utf-8")
    after = readme.split("\n" + title, 1)[1]
    block = after.split("```bash\n", 1)[1].split("```", 1)[0]
    exports = {}
    for line in block.splitlines():
        if line.startswith("export "):
            name, value = line[len("export "):].split("#", 1)[0].strip().split("=", 1)
            exports[name] = value
    return exports


@pytest.mark.parametrize("title, model_name", [("Ollama,", "qwen2.5:7b"), ("vLLM,", "Qwen/Qwen2.5-7B-Instruct")])
def test_the_readme_recipes_for_a_local_model_work_against_the_loopback_provider(title, model_name, loopback_openai):
    """The README's Ollama and vLLM recipes, as written (only the address replaced by the loopback
    server's), with a learner's OPENAI_API_KEY also set: a tool call round trip, and no key sent."""
    recipe = _readme_recipe(title)
    assert set(recipe) == {"COURSE_MODEL", "OPENAI_BASE_URL"} and recipe["COURSE_MODEL"] == model_name, recipe
    assert read_model_config(recipe).key_variable is None, "the recipe as written needs no key"
    address = urlsplit(recipe["OPENAI_BASE_URL"])
    here = urlsplit(loopback_openai.base_url)
    env = {**recipe, "OPENAI_BASE_URL": address._replace(netloc=here.netloc).geturl(), "OPENAI_API_KEY": KEY}
    assert urlsplit(env["OPENAI_BASE_URL"]).path == address.path == "/v1"
    model = live_model(env=env)
    message = model.bind_tools([lookup_order]).invoke("where is A1024?")
    assert message.tool_calls[0]["name"] == "lookup_order" and message.tool_calls[0]["args"] == {"order_id": "A1024"}
    (request,) = loopback_openai.requests
    assert request.body["model"] == model_name and request.authorization == f"Bearer {NO_KEY}"
    assert describe_model(model) == f"ChatOpenAI {model_name} via a custom OPENAI_BASE_URL"


@pytest.mark.parametrize("title, chinese", [("Ollama,", "本机的 Ollama"), ("vLLM,", "vLLM，"), ("DashScope / Qwen", "DashScope / 通义千问")])
def test_the_chinese_readme_gives_the_same_recipes(title, chinese):
    """README.zh-CN's recipes set the same variables to the same values as the English ones (tested above)."""
    assert _readme_recipe(chinese, "README.zh-CN.md") == _readme_recipe(title)


# -- hostile pass on issue 16 (helper T): keys in new shapes ------------------------------------------------------

@pytest.mark.parametrize("how", ["invoke", "stream"])
def test_a_key_echoed_in_a_response_header_never_reaches_a_log_record(how, caplog):
    """A learner debugging a connection turns on DEBUG logging (``logging.basicConfig(level=DEBUG)``):
    httpcore2 then logs every response's headers, and a gateway that echoes the Authorization header
    put the key into the cell's output (before the fix: ``X-Echo-Authorization', b'Bearer sk-...``)."""
    import logging

    caplog.set_level(logging.DEBUG)
    with HostileEndpoint("echo401") as endpoint:
        model = live_model(env=endpoint.env())
        with pytest.raises(Exception):
            _call(model, how)
    assert "receive_response_headers" in caplog.text, "the transport's DEBUG records are there"
    assert KEY not in caplog.text and KEY not in "".join(str(r.msg) + repr(r.args) for r in caplog.records)
    assert "(the key in COURSE_MODEL_API_KEY, not shown)" in caplog.text


def test_hide_secrets_reaches_fields_that_are_not_args_and_every_member_of_a_group():
    """``OSError`` formats its message from ``strerror`` / ``filename``, ``SyntaxError`` from ``msg`` /
    ``text`` (C-level fields, not ``args``); an attribute may be a set; a group holds members and
    chains. Before the fix the key stayed in each of these shapes."""
    from helpers.model.redact import hide_secrets

    class Echo(Exception):
        def __init__(self) -> None:
            super().__init__("echo")
            self.seen = {f"Bearer {KEY}"}

        def __str__(self) -> str:
            return f"echo {self.seen}"

    nested = KeyError(KEY)
    member = FileNotFoundError(2, f"no proxy config for {KEY}", f"/etc/{KEY}")
    member.__cause__ = nested
    group = ExceptionGroup("two calls failed", [member, SyntaxError(f"bad {KEY}", ("cfg", 1, 1, f"k = {KEY}")),
                                                Echo()])
    try:
        raise group
    except ExceptionGroup as caught:
        hide_secrets(caught, {KEY: "OPENAI_API_KEY"})
        shown = "".join(traceback.format_exception(caught)) + _everything_shown(caught)
    assert KEY not in shown, shown
    assert str(member) == ("[Errno 2] no proxy config for (the key in OPENAI_API_KEY, not shown): "
                           "'/etc/(the key in OPENAI_API_KEY, not shown)'")


@pytest.mark.parametrize("header", [("Retry-After", "120"), ("Retry-After-Ms", "120000")])
def test_a_server_s_retry_after_never_makes_a_cell_wait_longer_than_the_deadline(header, monkeypatch):
    """A rate-limited gateway answers 429 with ``Retry-After: 120``: openai 3.57 slept 120 s before
    its retry (10 minutes with COURSE_MODEL_MAX_RETRIES=5), whatever COURSE_MODEL_TIMEOUT said. The
    wait is now cut to the request's deadline. The SDK's sleep is recorded, not slept."""
    import time

    import openai

    waits = []
    monkeypatch.setattr(time, "sleep", waits.append)
    with HostileEndpoint("echo401") as endpoint:
        def limited(handler):
            endpoint.connections += 1
            handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
            handler._send(429, b'{"error": {"message": "slow down"}}', "application/json", dict([header]))

        endpoint.server.RequestHandlerClass.do_POST = limited
        model = live_model(env=endpoint.env(COURSE_MODEL_TIMEOUT="2", COURSE_MODEL_MAX_RETRIES="1"))
        with pytest.raises(openai.RateLimitError):
            model.invoke("hello")
    assert endpoint.connections == 2, "tried, then retried once"
    assert waits and all(0 < wait <= 2 for wait in waits), waits


def test_a_key_nested_deeper_than_the_cleaner_rebuilds_is_hidden_too():
    """An endpoint that echoes the request in an error body nested 30 levels deep: the cleaner stops
    rebuilding after 20 levels and used to keep the deep part as it was, key included (in
    ``exc.body``, which ``repr`` and a debugger show)."""
    from helpers.model.redact import hide_secrets

    body: object = {"authorization": f"Bearer {KEY}"}
    for _ in range(30):
        body = {"details": [body]}
    error = RuntimeError("Error code: 400")
    error.body = body
    hide_secrets(error, {KEY: "COURSE_MODEL_API_KEY"})
    assert KEY not in _everything_shown(error)
    assert "(the key in COURSE_MODEL_API_KEY, not shown)" in repr(error.body)
