"""The model factory: environment -> model. Offline by default; a real model only when configured.

Environment variables (a real model is opt-in; values are never printed):

=============================  ======================================================================
``COURSE_MODEL``               the model name, e.g. ``gpt-4o-mini`` or ``qwen-plus``. Setting it opts in.
``OPENAI_API_KEY``             your OpenAI key: sent only to OpenAI's endpoint (``OPENAI_BASE_URL``
                               unset, or ``https://api.openai.com/...``), and required there.
``OPENAI_BASE_URL``            optional: any OpenAI-compatible endpoint (an ``http(s)://`` URL ending
                               before ``/chat/completions``). Setting it without ``COURSE_MODEL`` is an
                               error.
``DASHSCOPE_API_KEY``          the key for DashScope (host ``dashscope.aliyuncs.com``,
                               ``dashscope-intl.aliyuncs.com`` or another
                               ``dashscope-<region>.aliyuncs.com``): sent only there, required there.
``COURSE_MODEL_API_KEY``       the key for the endpoint in ``OPENAI_BASE_URL``, whichever it is (a
                               gateway, DeepSeek, a class server that wants one); it wins over the two
                               above. Required for a public endpoint that is neither OpenAI's nor
                               DashScope's; an endpoint on a loopback or private address needs none.
``COURSE_MODEL_TIMEOUT``       seconds one request may take in all, default ``30`` (1-600).
``COURSE_MODEL_MAX_RETRIES``   retries after a failed request, default ``1`` (0-5).
=============================  ======================================================================

**Which key goes where.** A key variable named after a provider is sent only to that provider:
``OPENAI_API_KEY`` (often a key set for other work) never leaves for another host, DashScope's
key never leaves for another host, so pointing ``OPENAI_BASE_URL`` at a class server, a proxy or a
typo cannot leak them. ``COURSE_MODEL_API_KEY`` is the one key meant for the endpoint the learner
configured, and is sent there. An endpoint on a loopback or private address (:func:`is_private_endpoint`:
``localhost``, ``127.x``, ``10.x``, ``172.16-31.x``, ``192.168.x``, ``::1``, ``fc00::/7``, a one-word host
name such as ``ollama`` or ``vllm``, a name ending in ``.local`` or ``.internal``) needs no key: the
request carries the placeholder ``EMPTY`` (vLLM's convention; the OpenAI SDK refuses an empty key).
The host is judged as the HTTP client will connect to it (:mod:`helpers.model.address`: httpx2's
own host, and the address a number such as ``134744072``, ``0x7f.1`` or ``::ffff:8.8.8.8`` stands
for), never by looking a name up (a network access), so a public name that happens to resolve to a
private address still needs ``COURSE_MODEL_API_KEY``.

**Keys go over https only**, except to a loopback or private address: an ``http://``
``OPENAI_BASE_URL`` on a public host is refused, and so is a key over plain ``http://`` that the
HTTP client would send through a proxy (``HTTP_PROXY``, ``ALL_PROXY``, ``OPENAI_PROXY``).

**Only the configured endpoint.** The base URL and the key are always passed to ``ChatOpenAI``
explicitly (OpenAI's ``https://api.openai.com/v1`` when ``OPENAI_BASE_URL`` is unset or blank), so
``OPENAI_API_BASE``, ``LANGSMITH_GATEWAY`` and the SDKs' other variables
(:mod:`helpers.model.sdk_environment`) cannot send the key elsewhere; once built, the model's clients
are checked (:mod:`helpers.model.client_check`): another URL or key (a ``langsmith_gateway`` block),
headers from ``OPENAI_CUSTOM_HEADERS`` are refused, and OpenAI's organization and project ids
(``OPENAI_ORG_ID``, ``OPENAI_PROJECT_ID``) go to OpenAI's endpoint only.

``OPENAI_API_KEY`` (or any key) alone does not opt in: many machines have a key set for other work,
and the course must stay offline unless asked.

DashScope / Qwen, the exact recipe (mainland China endpoint; international accounts use
``https://dashscope-intl.aliyuncs.com/compatible-mode/v1``)::

    export COURSE_MODEL=qwen-plus
    export OPENAI_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1
    export DASHSCOPE_API_KEY=sk-...        # your DashScope key
    make lab

OpenAI::

    export COURSE_MODEL=gpt-4o-mini
    export OPENAI_API_KEY=sk-...
    make lab

Ollama on this machine (no key), and vLLM on a class server in the local network (no key)::

    export COURSE_MODEL=qwen2.5:7b
    export OPENAI_BASE_URL=http://localhost:11434/v1

    export COURSE_MODEL=Qwen/Qwen2.5-7B-Instruct
    export OPENAI_BASE_URL=http://192.168.1.20:8000/v1

Bad configuration stops with :class:`ModelConfigError` naming the variable and never showing its
value: a half-configured environment names the missing variable; ``OPENAI_BASE_URL`` that is not
an ``http(s)`` URL (a key pasted into it, say), or that has a user name, a password, a query string
(``?api-key=...``) or a fragment, is refused (keys do not belong in the URL), and so is one whose
port is not a number from 1 to 65535 or whose host the HTTP client refuses; ``COURSE_MODEL`` that
does not look like a model name (see :func:`looks_like_model_name`: a Volcengine Ark key, which is
UUID-shaped, or any long random string) is refused; keys are stripped of surrounding spaces and
line breaks and refused when a space, line break or non-ASCII character remains inside.

Where a model is described (:func:`describe_model`, ``live_verdict``, ``repr(model)``), its name is
shown only when it looks like a model name, and its base URL never with a user name, password,
query or fragment (:func:`redact_url`).

The real model is ``ChatOpenAI(model=..., api_key=..., base_url=..., temperature=0,
timeout=COURSE_MODEL_TIMEOUT, max_retries=COURSE_MODEL_MAX_RETRIES)`` (langchain-openai 1.7.4,
the chat.completions API), a subclass that records its requests
(:func:`~helpers.model.real.real_chat_model`). ``COURSE_MODEL_TIMEOUT`` is an overall deadline per
request (:mod:`helpers.model.deadline`), not only per read, so an endpoint that sends one byte a
second is stopped too; errors and replies reach the cell with every configured key replaced
(:func:`~helpers.model.redact.hide_secrets`), and a reply that is not an OpenAI reply is named as
such (:class:`~helpers.model.real.NotAnOpenAIReplyError`), without the base URL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel

from ..i18n import _, ngettext
from .config import (  # re-exported: the factory's names, importable from here as before
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    NO_KEY,  # noqa: F401
    Endpoint,  # noqa: F401
    KeyVariable,  # noqa: F401
    ModelConfig,
    ModelConfigError,
    _endpoint,
    is_private_endpoint,
    read_model_config,
    real_model_configured,
)
from .real import real_chat_model
from .redact import (
    HIDDEN_NAME,
    looks_like_model_name,
    redact_url,
)
from .scripted import ScriptedChatModel

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "ModelConfig",
    "ModelConfigError",
    "describe_model",
    "is_private_endpoint",
    "looks_like_model_name",
    "model_from_env",
    "read_model_config",
    "real_model_configured",
    "redact_url",
]


def model_from_env(offline_script: Sequence[Any] = (), *, env: Mapping[str, str] | None = None,
                   **scripted_kwargs: Any) -> BaseChatModel:
    """The configured real model, or offline ``ScriptedChatModel(script=offline_script)``.

    Args:
        offline_script: the steps the scripted stand-in plays when no real model is configured
            (ignored by a real model).
        env: a mapping to read instead of ``os.environ`` (for tests).
        **scripted_kwargs: extra arguments for :class:`~helpers.model.scripted.ScriptedChatModel`.

    Returns:
        a ``ScriptedChatModel``, or a recording ``ChatOpenAI`` built from :func:`read_model_config`.

    Raises:
        ModelConfigError: the environment configures a real model wrongly or only partly.
        ScriptError: the offline script is malformed (checked also when a real model is configured,
            so a notebook's script stays valid either way).
    """
    config = read_model_config(env)
    offline = ScriptedChatModel(script=offline_script, **scripted_kwargs)
    if config is None:
        return offline
    return real_chat_model(model=config.model, api_key=config.api_key, base_url=config.base_url,
                           timeout=config.timeout, max_retries=config.max_retries,
                           secrets={value: variable for variable, value in config.secrets})


def describe_model(model: Any) -> str:
    """A one-line, secret-free description of a chat model (or of the model inside a ``bind_tools`` binding).

    Returns:
        in the notebook's edition (:mod:`helpers.i18n`), e.g. ``scripted model (3 steps, offline)``, ``ChatOpenAI gpt-4o-mini``,
        ``ChatOpenAI qwen-plus via DashScope`` or ``ChatOpenAI qwen-plus via a custom OPENAI_BASE_URL``
        (the URL itself is never shown; a name that does not pass :func:`looks_like_model_name`
        is shown as ``(a name that looks like a key, not shown)``).
    """
    model = getattr(model, "bound", model)
    if isinstance(model, ScriptedChatModel):
        steps = len(model.script)
        return ngettext("scripted model ({steps} step, offline)", "scripted model ({steps} steps, offline)",
                        steps).format(steps=steps)
    name = getattr(model, "model_name", None) or getattr(model, "model", None)
    name = "?" if name is None else name if looks_like_model_name(name) else HIDDEN_NAME
    base_url = getattr(model, "openai_api_base", None)
    base_url = base_url if isinstance(base_url, str) else None
    endpoint = {"openai": "", "dashscope": _(" via DashScope"), "custom": _(" via a custom OPENAI_BASE_URL")}[
        _endpoint(base_url)]
    library_class = next((c for c in type(model).__mro__ if c.__module__.startswith("langchain")), type(model))
    return f"{library_class.__name__} {name}{endpoint}"
