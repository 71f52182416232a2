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
The host is judged from the URL alone (no name lookup, which would be a network access), so a public
name that happens to resolve to a private address still needs ``COURSE_MODEL_API_KEY``.

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
(``?api-key=...``) or a fragment, is refused (keys do not belong in the URL); ``COURSE_MODEL`` that
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
second is stopped too; errors reach the cell with every configured key replaced
(:func:`~helpers.model.redact.hide_secrets`), and a reply that is not an OpenAI reply is named as
such (:class:`~helpers.model.real.NotAnOpenAIReplyError`), without the base URL.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from langchain_core.language_models import BaseChatModel

from .real import real_chat_model
from .redact import (
    HIDDEN_NAME,
    KEY_PREFIX,
    MODEL_NAME,
    UUID_PATTERN,
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

#: Seconds one request may take unless ``COURSE_MODEL_TIMEOUT`` says otherwise: with one retry, an
#: endpoint that never answers stops a cell after about a minute (two requests of 30 s).
DEFAULT_TIMEOUT = 30.0
#: Retries after a failed request unless ``COURSE_MODEL_MAX_RETRIES`` says otherwise.
DEFAULT_MAX_RETRIES = 1

_DASHSCOPE_HOST = re.compile(r"^dashscope(-[a-z0-9]+)?\.aliyuncs\.com$")
_NOT_SHOWN = "(its value is not shown, in case it holds a key)"


Endpoint = Literal["openai", "dashscope", "custom"]
#: Where a key may come from.
KeyVariable = Literal["OPENAI_API_KEY", "DASHSCOPE_API_KEY", "COURSE_MODEL_API_KEY"]
#: What a keyless request to a loopback or private endpoint carries as its key (vLLM's convention).
NO_KEY = "EMPTY"
_OPENAI_HOST = "api.openai.com"
_PRIVATE_SUFFIXES = (".localhost", ".local", ".internal")


class ModelConfigError(RuntimeError):
    """The environment configures a real model wrongly or only partly.

    The message names the variable to fix and never contains a variable's value (except a
    ``COURSE_MODEL`` that passed the model-name check).
    """


@dataclass(frozen=True)
class ModelConfig:
    """A complete real-model configuration read from the environment.

    Attributes:
        model: the model name (``COURSE_MODEL``).
        api_key: the key (never in ``repr``).
        key_variable: where the key came from (:data:`KeyVariable`), or ``None`` for a loopback or
            private endpoint that needs none (then ``api_key`` is :data:`NO_KEY`).
        base_url: the endpoint, or ``None`` for OpenAI's (never in ``repr``).
        timeout: seconds one request may take in all (an overall deadline, not per read).
        max_retries: retries after a failed request.
        secrets: ``(variable, value)`` of every configured key (``OPENAI_API_KEY``,
            ``DASHSCOPE_API_KEY``, ``COURSE_MODEL_API_KEY``), hidden in the errors of real-model
            calls (never in ``repr``).
    """

    model: str
    api_key: str = field(repr=False)
    key_variable: KeyVariable | None
    base_url: str | None = field(default=None, repr=False)
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    secrets: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @property
    def endpoint(self) -> Endpoint:
        """``"openai"`` (no base URL), ``"dashscope"`` (a DashScope host) or ``"custom"``."""
        return _endpoint(self.base_url)


def _endpoint(base_url: str | None) -> Endpoint:
    if not base_url:
        return "openai"
    parts = urlsplit(base_url)
    host = (parts.hostname or "").lower()
    if host == _OPENAI_HOST and parts.scheme == "https":
        return "openai"
    return "dashscope" if _DASHSCOPE_HOST.match(host) else "custom"


def is_private_endpoint(base_url: str | None) -> bool:
    """True when ``base_url``'s host is on a loopback or private address, judged from the URL alone.

    Private: ``localhost`` and ``*.localhost``; an IP address that is loopback, private or link-local
    (``127.0.0.0/8``, ``10.0.0.0/8``, ``172.16.0.0/12``, ``192.168.0.0/16``, ``169.254.0.0/16``,
    ``::1``, ``fc00::/7``, ``fe80::/10``, as Python's ``ipaddress`` classifies them); a one-word host
    name (``ollama``, ``vllm``: a container or a machine named on the local network); a name ending
    in ``.local`` (mDNS, Kubernetes' ``*.svc.cluster.local``) or ``.internal`` (reserved for private
    use). Anything else, including a public name that resolves to a private address, is public.
    No name is looked up.
    """
    if not base_url:
        return False
    try:
        host = (urlsplit(base_url).hostname or "").lower().rstrip(".")
    except ValueError:
        return False
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or host.endswith(_PRIVATE_SUFFIXES) or ("." not in host and ":" not in host)
    return address.is_loopback or address.is_private or address.is_link_local


def _value(env: Mapping[str, str], name: str) -> str:
    value = env.get(name)
    if value is not None and not isinstance(value, str):
        raise ModelConfigError(f"{name} must be text, got {type(value).__name__} {_NOT_SHOWN}")
    return (value or "").strip()


def real_model_configured(env: Mapping[str, str] | None = None) -> bool:
    """True when the environment opts in to a real model (``COURSE_MODEL`` or ``OPENAI_BASE_URL`` set).

    Args:
        env: a mapping to read instead of ``os.environ`` (for tests).
    """
    env = os.environ if env is None else env
    return bool(_value(env, "COURSE_MODEL") or _value(env, "OPENAI_BASE_URL"))


def _key_in(variable: str, problem: str, belongs: str) -> ModelConfigError:
    """The error for a key pasted into ``variable`` (the value is not shown)."""
    return ModelConfigError(
        f"{variable} {problem}: it looks like an API key (its value is not shown). Put the key in "
        f"OPENAI_API_KEY, DASHSCOPE_API_KEY or COURSE_MODEL_API_KEY and {belongs}, in {variable}"
    )


def _check_model_name(name: str, secrets: Sequence[str]) -> None:
    if looks_like_model_name(name, secrets):
        return
    if MODEL_NAME.match(name) or KEY_PREFIX.search(name) or len(name) > 81:
        raise _key_in("COURSE_MODEL", "does not look like a model name", "the model name, e.g. qwen-plus or gpt-4o-mini")
    raise ModelConfigError(
        f"COURSE_MODEL is not a model name {_NOT_SHOWN}: use letters, digits and . _ : / @ - only, "
        "e.g. qwen-plus or gpt-4o-mini"
    )


def _check_base_url(url: str, secrets: Sequence[str]) -> None:
    if url in secrets or KEY_PREFIX.match(url) or UUID_PATTERN.match(url) or re.match(r"[A-Za-z0-9]{24,}", url):
        raise _key_in("OPENAI_BASE_URL", "is not an http(s) URL",
                      "the endpoint, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1")
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host or re.search(r"\s", url):
        raise ModelConfigError(
            f"OPENAI_BASE_URL is not an http(s) URL {_NOT_SHOWN}: set it to the endpoint's address, e.g. "
            "https://dashscope.aliyuncs.com/compatible-mode/v1, or unset it to use OpenAI"
        )
    if parts.username or parts.password or any(s and s in url for s in secrets):
        raise ModelConfigError(
            "OPENAI_BASE_URL holds a user name, password or key (its value is not shown): put the key in "
            "OPENAI_API_KEY, DASHSCOPE_API_KEY or COURSE_MODEL_API_KEY and only the address in OPENAI_BASE_URL"
        )
    for mark, part in (("?", "a query string"), ("#", "a fragment")):
        if mark in url:
            raise ModelConfigError(
                f"OPENAI_BASE_URL has {part} (its value is not shown): remove everything from the '{mark}' on; "
                "keys do not belong in the URL: put the key in OPENAI_API_KEY, DASHSCOPE_API_KEY or COURSE_MODEL_API_KEY and only "
                "the address in OPENAI_BASE_URL, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1"
            )
    if parts.path.rstrip("/").endswith("/chat/completions"):
        raise ModelConfigError(
            "OPENAI_BASE_URL ends with /chat/completions: give the base address only (e.g. .../compatible-mode/v1); "
            "the client adds /chat/completions itself"
        )


def _clean_key(name: str, raw: str | None) -> str:
    """The key stripped of surrounding whitespace; refuse one that still has spaces or odd characters."""
    key = (raw or "").strip()
    if not key:
        return ""
    if re.search(r"\s", key):
        raise ModelConfigError(
            f"{name} has a space or a line break inside it (its value is not shown): paste the key alone, "
            "without a 'Bearer ' prefix, quotes or a second key"
        )
    if not key.isascii() or not key.isprintable() or key[0] in "\"'" or key[-1] in "\"'":
        raise ModelConfigError(
            f"{name} contains quotes or characters that are not plain ASCII (its value is not shown), often "
            "curly quotes or an invisible character picked up while copying: paste the key again"
        )
    return key


def _number(env: Mapping[str, str], name: str, default: float, low: float, high: float, *, integer: bool) -> float:
    raw = _value(env, name)
    if not raw:
        return default
    try:
        value = int(raw) if integer else float(raw)
    except ValueError:
        value = None
    if value is None or not (low <= value <= high):
        kind = "a whole number" if integer else "a number of seconds"
        raise ModelConfigError(f"{name} must be {kind} from {low:g} to {high:g} {_NOT_SHOWN}; unset it for {default:g}")
    return value


def _key_variable(endpoint: Endpoint, private: bool, keys: Mapping[KeyVariable, str]) -> KeyVariable | None:
    """Which configured key is sent (see "Which key goes where" in the module docstring), ``None`` for
    no key (a loopback or private endpoint); raises :class:`ModelConfigError` when a required one is missing."""
    if keys["COURSE_MODEL_API_KEY"]:
        return "COURSE_MODEL_API_KEY"
    if endpoint == "openai":
        if keys["OPENAI_API_KEY"]:
            return "OPENAI_API_KEY"
        missing = "OPENAI_API_KEY is missing: set OPENAI_API_KEY to your OpenAI key"
        if keys["DASHSCOPE_API_KEY"]:
            missing += (" (DASHSCOPE_API_KEY is set, but it is sent only to DashScope: for DashScope also set "
                        "OPENAI_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1, international: "
                        "https://dashscope-intl.aliyuncs.com/compatible-mode/v1)")
    elif endpoint == "dashscope":
        if keys["DASHSCOPE_API_KEY"]:
            return "DASHSCOPE_API_KEY"
        missing = "DASHSCOPE_API_KEY is missing: set DASHSCOPE_API_KEY to your DashScope key"
        if keys["OPENAI_API_KEY"]:
            missing += " (OPENAI_API_KEY is set, but it is sent only to OpenAI's endpoint, never to another host)"
    elif private:
        return None
    else:
        missing = ("OPENAI_BASE_URL is a public endpoint that is neither OpenAI's nor DashScope's, and "
                   "COURSE_MODEL_API_KEY is missing: set COURSE_MODEL_API_KEY to that endpoint's key")
        if keys["OPENAI_API_KEY"] or keys["DASHSCOPE_API_KEY"]:
            missing += " (OPENAI_API_KEY and DASHSCOPE_API_KEY are sent only to their own provider, never to another host)"
    raise ModelConfigError(f"COURSE_MODEL is set but {missing}, or unset COURSE_MODEL to stay on the offline scripted model")


def read_model_config(env: Mapping[str, str] | None = None) -> ModelConfig | None:
    """Read the real-model configuration from the environment.

    Args:
        env: a mapping to read instead of ``os.environ`` (for tests).

    Returns:
        ``None`` when no real model is configured (neither ``COURSE_MODEL`` nor ``OPENAI_BASE_URL``
        set; a key alone does not count), else a complete :class:`ModelConfig`.

    Raises:
        ModelConfigError: a variable is missing or malformed (see the module docstring); the
            message names it and shows no value.
    """
    env = os.environ if env is None else env
    if not real_model_configured(env):
        return None
    keys: dict[KeyVariable, str] = {variable: _clean_key(variable, env.get(variable))
                                    for variable in ("OPENAI_API_KEY", "DASHSCOPE_API_KEY", "COURSE_MODEL_API_KEY")}
    secrets = [k for k in keys.values() if k]
    name = _value(env, "COURSE_MODEL")
    base_url = _value(env, "OPENAI_BASE_URL") or None
    if name:
        _check_model_name(name, secrets)
    if base_url:
        _check_base_url(base_url, secrets)
    if not name:
        raise ModelConfigError(
            "OPENAI_BASE_URL is set but COURSE_MODEL is missing: set COURSE_MODEL to the model name "
            "(e.g. qwen-plus), or unset OPENAI_BASE_URL to stay on the offline scripted model"
        )
    key_variable = _key_variable(_endpoint(base_url), is_private_endpoint(base_url), keys)
    key = keys[key_variable] if key_variable is not None else NO_KEY
    return ModelConfig(
        model=name,
        api_key=key,
        key_variable=key_variable,
        base_url=base_url,
        timeout=_number(env, "COURSE_MODEL_TIMEOUT", DEFAULT_TIMEOUT, 1, 600, integer=False),
        max_retries=int(_number(env, "COURSE_MODEL_MAX_RETRIES", DEFAULT_MAX_RETRIES, 0, 5, integer=True)),
        secrets=tuple((variable, value) for variable, value in keys.items() if value),
    )


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
        e.g. ``scripted model (3 steps, offline)``, ``ChatOpenAI gpt-4o-mini``,
        ``ChatOpenAI qwen-plus via DashScope`` or ``ChatOpenAI qwen-plus via a custom OPENAI_BASE_URL``
        (the URL itself is never shown; a name that does not pass :func:`looks_like_model_name`
        is shown as ``(a name that looks like a key, not shown)``).
    """
    model = getattr(model, "bound", model)
    if isinstance(model, ScriptedChatModel):
        steps = len(model.script)
        return f"scripted model ({steps} step{'' if steps == 1 else 's'}, offline)"
    name = getattr(model, "model_name", None) or getattr(model, "model", None)
    name = "?" if name is None else name if looks_like_model_name(name) else HIDDEN_NAME
    base_url = getattr(model, "openai_api_base", None)
    base_url = base_url if isinstance(base_url, str) else None
    endpoint = {"openai": "", "dashscope": " via DashScope", "custom": " via a custom OPENAI_BASE_URL"}[
        _endpoint(base_url)]
    library_class = next((c for c in type(model).__mro__ if c.__module__.startswith("langchain")), type(model))
    return f"{library_class.__name__} {name}{endpoint}"
