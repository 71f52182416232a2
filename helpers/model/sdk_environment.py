"""Every environment variable the pinned SDKs read that could send a request, a key or a run
somewhere the course did not choose, where each is read, and what the course does about it.

Read from the installed sources of openai 3.57.0, langchain-openai 1.7.4, langchain-core 1.8.3,
langsmith 0.15.1, httpx2 / httpcore2 2.16.2 (the HTTP library of openai 3.x), anthropic 2.14.0 and
langchain-anthropic 1.7.10 (issue 27). ``source`` is ``file:line`` under ``site-packages``;
``tests/test_model_egress.py`` reads each line and fails when a pin moves it, so this table cannot
silently go stale. The course's own variables (``COURSE_MODEL``, ``OPENAI_BASE_URL``, the three key
variables, ...) are in :mod:`helpers.model.factory`.

Data only: :mod:`helpers.model.client_check` acts on the ``endpoint``, ``proxy``, ``header`` and
``key`` rows when the real model is built, :mod:`helpers.workspace.lab_env` on the ``tracing`` rows when
``make lab`` starts JupyterLab.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SDK_VARIABLES", "SdkVariable", "VariableKind", "variables_of"]

#: What a variable decides: where requests go (``endpoint``), through which proxy (``proxy``), which
#: headers they carry (``header``), which key (``key``), whether runs are traced to a web service
#: (``tracing``), or something that sends nothing by itself (``other``).
VariableKind = Literal["endpoint", "proxy", "header", "key", "tracing", "other"]


@dataclass(frozen=True)
class SdkVariable:
    """One environment variable a pinned SDK reads.

    Attributes:
        name: the variable.
        kind: what it decides (:data:`VariableKind`).
        source: ``file:line`` under ``site-packages`` where it is read (or, for a family read by
            one call, the call).
        needle: the text on that line (default ``name``; the tests check it is there).
        reads: what the library does with it.
        course: what the course does about it.
    """

    name: str
    kind: VariableKind
    source: str
    reads: str
    course: str
    needle: str = ""

    @property
    def text_on_line(self) -> str:
        """What ``source``'s line must contain: ``needle``, or the name."""
        return self.needle or self.name


_EXPLICIT_URL = ("the course always passes base_url explicitly (OPENAI_BASE_URL, or https://api.openai.com/v1), "
                 "which wins; after building, the client's real base URL is compared with it (refused if it differs)")
_PROXY_RULE = ("kept (a learner behind a proxy needs it): an https request goes through a CONNECT tunnel the proxy "
               "cannot read; a key over plain http through a proxy is refused")
_TRACING_RULE = ("make lab starts JupyterLab without it unless COURSE_LANGSMITH_TRACING=1; the notebook runner, "
                 "make bench and the test suite never pass it on")

SDK_VARIABLES: tuple[SdkVariable, ...] = (
    # -- where the requests go ---------------------------------------------------------------------------
    SdkVariable("OPENAI_BASE_URL", "endpoint", "openai/lib/_client_auth.py:228",
                "the client's base URL when base_url is None (an empty value gives 'Connection error.'); the "
                "async client reads it at :694", "read by the course itself (helpers.model.config); " + _EXPLICIT_URL),
    SdkVariable("OPENAI_API_BASE", "endpoint", "langchain_openai/chat_models/base.py:1428",
                "ChatOpenAI's base URL when none is passed (langchain_core/utils/_gateway.py:301)", _EXPLICIT_URL),
    SdkVariable("LANGSMITH_GATEWAY", "endpoint", "langchain_core/utils/_gateway.py:220",
                "true/1/yes or a URL: ChatOpenAI without a base URL talks to the LangSmith gateway "
                "(<gateway>/openai/v1) with the key it was given", _EXPLICIT_URL, needle="_LANGSMITH_GATEWAY_ENV"),
    SdkVariable("AZURE_OPENAI_ENDPOINT", "endpoint", "openai/__init__.py:216",
                "openai's module-level client and AzureChatOpenAI only", "not used: the course builds ChatOpenAI"),
    # -- through which proxy ------------------------------------------------------------------------------
    SdkVariable("OPENAI_PROXY", "proxy", "langchain_openai/chat_models/base.py:885",
                "ChatOpenAI's proxy for the clients it builds itself",
                "read by the course (helpers.model.real) and given to its own clients; " + _PROXY_RULE),
    SdkVariable("HTTP_PROXY", "proxy", "httpx2/_utils.py:39",
                "urllib's getproxies(): HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY (any case) become the "
                "client's proxy mounts (httpx2/_client.py:228, trust_env)", _PROXY_RULE, needle="getproxies()"),
    SdkVariable("SSL_CERT_FILE", "other", "httpcore2/_ssl.py:21",
                "which certificate authorities https trusts (SSL_CERT_DIR at :23)",
                "kept: the learner's own trust store; it sends nothing anywhere"),
    # -- which headers -------------------------------------------------------------------------------------
    SdkVariable("OPENAI_ORG_ID", "header", "openai/lib/_client_auth.py:203",
                "the OpenAI-Organization header of every request (openai/_client.py:563); langchain-openai also "
                "reads OPENAI_ORGANIZATION (langchain_openai/chat_models/base.py:1421)",
                "sent only to OpenAI's endpoint: the course clears it on a client for any other endpoint"),
    SdkVariable("OPENAI_PROJECT_ID", "header", "openai/lib/_client_auth.py:206",
                "the OpenAI-Project header of every request (openai/_client.py:564)",
                "sent only to OpenAI's endpoint, like OPENAI_ORG_ID"),
    SdkVariable("OPENAI_CUSTOM_HEADERS", "header", "openai/lib/_client_auth.py:236",
                "'Name: value' lines added to every request; an Authorization line replaces the key "
                "(lib/_client_auth.py:75)", "refused: the course sends no header from the environment"),
    # -- which key -----------------------------------------------------------------------------------------
    SdkVariable("OPENAI_API_KEY", "key", "openai/lib/_client_auth.py:179",
                "the key when api_key is None", "read by the course itself; the client always gets api_key "
                "explicitly, and the check compares the client's key with it"),
    SdkVariable("OPENAI_ADMIN_KEY", "key", "openai/lib/_client_auth.py:189",
                "an admin key, sent only when api_key is empty and an admin endpoint is called "
                "(lib/_client_auth.py:74)", "never sent: the course always passes a key and calls chat.completions"),
    SdkVariable("LANGSMITH_GATEWAY_API_KEY", "key", "langchain_core/utils/_gateway.py:313",
                "the gateway's key when LANGSMITH_GATEWAY is on and no api_key is passed (LANGSMITH_API_KEY at "
                ":318 as a fallback)", "never used: the course always passes api_key, and the check compares it",
                needle="_LANGSMITH_GATEWAY_API_KEY_ENV"),
    SdkVariable("OPENAI_WEBHOOK_SECRET", "other", "openai/lib/_client_auth.py:209",
                "verifies incoming webhooks", "nothing: it is never sent"),
    SdkVariable("OPENAI_LOG", "other", "openai/_utils/_logs.py:38",
                "logs every request at info/debug", "the course's log filter hides the keys in those records "
                "(helpers.model.redact.hide_secrets_in_logs)"),
    # -- tracing: every run sent to a web service ----------------------------------------------------------
    SdkVariable("LANGSMITH_TRACING", "tracing", "langsmith/utils.py:139",
                "'true' traces every LangChain run (inputs, outputs, tool calls) to LangSmith "
                "(langchain_core/tracers/context.py:144); read as LANGSMITH_ or LANGCHAIN_ (langsmith/utils.py:413), "
                "also TRACING_V2", _TRACING_RULE, needle='get_env_var("TRACING"'),
    SdkVariable("LANGSMITH_TRACING_V2", "tracing", "langsmith/utils.py:139", "as LANGSMITH_TRACING",
                _TRACING_RULE, needle='get_env_var("TRACING_V2"'),
    SdkVariable("LANGCHAIN_TRACING", "tracing", "langsmith/utils.py:139", "as LANGSMITH_TRACING",
                _TRACING_RULE, needle='get_env_var("TRACING"'),
    SdkVariable("LANGCHAIN_TRACING_V2", "tracing", "langsmith/utils.py:139", "as LANGSMITH_TRACING",
                _TRACING_RULE, needle='get_env_var("TRACING_V2"'),
    SdkVariable("LANGCHAIN_HANDLER", "tracing", "langchain_core/callbacks/manager.py:2480",
                "the retired v1 tracer: every run raises RuntimeError unless tracing v2 is on", _TRACING_RULE),
    SdkVariable("LANGSMITH_ENDPOINT", "tracing", "langsmith/utils.py:794",
                "where traces go (also LANGCHAIN_ENDPOINT; LANGSMITH_RUNS_ENDPOINTS at langsmith/run_trees.py:1554); "
                "only when tracing is on", "nothing is traced without the opt-in, so nothing goes there",
                needle='"ENDPOINT"'),
    SdkVariable("LANGCHAIN_BASE_URL", "tracing", "langsmith/_client.py:141",
                "the base URL of langsmith's generated API client (LANGCHAIN_CUSTOM_HEADERS at :145 adds headers)",
                "no LangSmith client is built without tracing; nothing in the course builds one"),
    SdkVariable("OTEL_EXPORTER_OTLP_ENDPOINT", "tracing", "langsmith/_internal/otel/_otel_client.py:115",
                "where traces go in OpenTelemetry mode (LANGSMITH_OTEL_ENABLED / OTEL_ENABLED, langsmith/client.py:256)",
                "only when tracing is on: nothing is traced without the opt-in"),
    # -- notebook 14's ChatAnthropic (a placeholder key, an explicit loopback base_url) ------------------
    SdkVariable("ANTHROPIC_BASE_URL", "endpoint", "anthropic/_client.py:241",
                "the Anthropic client's base URL when none is passed (langchain-anthropic also reads "
                "ANTHROPIC_API_URL, langchain_anthropic/chat_models.py:1733)",
                "notebook 14 passes base_url explicitly where it sends a request (to its loopback stand-in), "
                "and its clients carry the key 'placeholder'"),
    SdkVariable("ANTHROPIC_CUSTOM_HEADERS", "header", "anthropic/_client.py:250",
                "headers added to every Anthropic request", "only notebook 14's loopback stand-in receives them"),
    SdkVariable("ANTHROPIC_PROXY", "proxy", "langchain_anthropic/chat_models.py:1440",
                "ChatAnthropic's proxy", "only notebook 14's loopback request could use it; no key goes there"),
)


def variables_of(kind: VariableKind) -> tuple[str, ...]:
    """The names of :data:`SDK_VARIABLES` of one kind, in table order."""
    return tuple(variable.name for variable in SDK_VARIABLES if variable.kind == kind)
