"""The real-model configuration, read from the environment and checked: :func:`read_model_config`
(``COURSE_MODEL``, the endpoint, which key goes where, the timeout and retries) into a
:class:`ModelConfig`, or :class:`ModelConfigError` naming the variable to fix.

One floor of :mod:`helpers.model.factory` (whose docstring has the table of variables, and which
re-exports these names); it imports neither LangChain nor the real model.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from ..i18n import N_, _
from .address import InvalidEndpoint, client_host, is_private_endpoint
from .redact import (
    KEY_PREFIX,
    MODEL_NAME,
    UUID_PATTERN,
    looks_like_model_name,
)

#: Seconds one request may take unless ``COURSE_MODEL_TIMEOUT`` says otherwise: with one retry, an
#: endpoint that never answers stops a cell after about a minute (two requests of 30 s).
DEFAULT_TIMEOUT = 30.0
#: Retries after a failed request unless ``COURSE_MODEL_MAX_RETRIES`` says otherwise.
DEFAULT_MAX_RETRIES = 1

_DASHSCOPE_HOST = re.compile(r"^dashscope(-[a-z0-9]+)?\.aliyuncs\.com$")
_NOT_SHOWN = N_("(its value is not shown, in case it holds a key)")


Endpoint = Literal["openai", "dashscope", "custom"]
#: Where a key may come from.
KeyVariable = Literal["OPENAI_API_KEY", "DASHSCOPE_API_KEY", "COURSE_MODEL_API_KEY"]
#: What a keyless request to a loopback or private endpoint carries as its key (vLLM's convention).
NO_KEY = "EMPTY"
_OPENAI_HOST = "api.openai.com"
#: OpenAI's endpoint: the base URL the course passes when ``OPENAI_BASE_URL`` is unset or blank. It
#: is always passed explicitly: with ``base_url=None`` langchain-openai 1.7.4 and openai 3.57 would
#: take one from ``OPENAI_API_BASE``, ``LANGSMITH_GATEWAY`` or ``OPENAI_BASE_URL`` themselves
#: (:mod:`helpers.model.client_check`), and an empty ``OPENAI_BASE_URL`` gave "Connection error.".
OPENAI_URL = "https://api.openai.com/v1"


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

    @property
    def url(self) -> str:
        """The endpoint the requests go to: ``base_url``, or :data:`OPENAI_URL` when it is ``None``."""
        return self.base_url or OPENAI_URL


def _endpoint(base_url: str | None) -> Endpoint:
    """Whose endpoint ``base_url`` is, judged by the host the HTTP client connects to
    (:func:`~helpers.model.address.client_host`; a URL it refuses is ``"custom"``)."""
    if not base_url:
        return "openai"
    try:
        host = client_host(base_url).name
        scheme = urlsplit(base_url).scheme.lower()
    except (InvalidEndpoint, ValueError):
        return "custom"
    if host == _OPENAI_HOST and scheme == "https":
        return "openai"
    return "dashscope" if _DASHSCOPE_HOST.match(host) else "custom"


def _value(env: Mapping[str, str], name: str) -> str:
    value = env.get(name)
    if value is not None and not isinstance(value, str):
        raise ModelConfigError(_("{name} must be text, got {type} {not_shown}").format(
            name=name, type=type(value).__name__, not_shown=_(_NOT_SHOWN)))
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
        _("{variable} {problem}: it looks like an API key (its value is not shown). Put the key in "
          "OPENAI_API_KEY, DASHSCOPE_API_KEY or COURSE_MODEL_API_KEY and {belongs}, in {variable}").format(
            variable=variable, problem=_(problem), belongs=_(belongs))
    )


def _check_model_name(name: str, secrets: Sequence[str]) -> None:
    if looks_like_model_name(name, secrets):
        return
    if MODEL_NAME.match(name) or KEY_PREFIX.search(name) or len(name) > 81:
        raise _key_in("COURSE_MODEL", N_("does not look like a model name"), N_("the model name, e.g. qwen-plus or gpt-4o-mini"))
    raise ModelConfigError(
        _("COURSE_MODEL is not a model name {not_shown}: use letters, digits and . _ : / @ - only, "
          "e.g. qwen-plus or gpt-4o-mini").format(not_shown=_(_NOT_SHOWN))
    )


def _check_base_url(url: str, secrets: Sequence[str]) -> None:
    if url in secrets or KEY_PREFIX.match(url) or UUID_PATTERN.match(url) or re.match(r"[A-Za-z0-9]{24,}", url):
        raise _key_in("OPENAI_BASE_URL", N_("is not an http(s) URL"),
                      N_("the endpoint, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1"))
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host or re.search(r"\s", url):
        raise ModelConfigError(
            _("OPENAI_BASE_URL is not an http(s) URL {not_shown}: set it to the endpoint's address, e.g. "
              "https://dashscope.aliyuncs.com/compatible-mode/v1, or unset it to use OpenAI").format(not_shown=_(_NOT_SHOWN))
        )
    if parts.username or parts.password or any(s and s in url for s in secrets):
        raise ModelConfigError(
            _("OPENAI_BASE_URL holds a user name, password or key (its value is not shown): put the key in "
              "OPENAI_API_KEY, DASHSCOPE_API_KEY or COURSE_MODEL_API_KEY and only the address in OPENAI_BASE_URL")
        )
    for mark, part in (("?", N_("a query string")), ("#", N_("a fragment"))):
        if mark in url:
            raise ModelConfigError(
                _("OPENAI_BASE_URL has {part} (its value is not shown): remove everything from the '{mark}' on; "
                  "keys do not belong in the URL: put the key in OPENAI_API_KEY, DASHSCOPE_API_KEY or COURSE_MODEL_API_KEY and only "
                  "the address in OPENAI_BASE_URL, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1").format(part=_(part), mark=mark)
            )
    if parts.path.rstrip("/").endswith("/chat/completions"):
        raise ModelConfigError(
            _("OPENAI_BASE_URL ends with /chat/completions: give the base address only (e.g. .../compatible-mode/v1); "
              "the client adds /chat/completions itself")
        )
    try:
        port = parts.port
    except ValueError:  # "Port could not be cast to integer value", "Port out of range 0-65535"
        port = 0
    if port is not None and not 1 <= port <= 65535:
        raise ModelConfigError(
            _("OPENAI_BASE_URL has a port that is not a number from 1 to 65535 {not_shown}: write it as in "
              "http://localhost:11434/v1, or leave the port out").format(not_shown=_(_NOT_SHOWN))
        )
    try:
        host = client_host(url)
    except InvalidEndpoint:
        raise ModelConfigError(
            _("OPENAI_BASE_URL has a host name the HTTP client refuses {not_shown}: write the host in plain "
              "letters, digits, dots and hyphens, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1").format(
                not_shown=_(_NOT_SHOWN))
        ) from None
    if parts.scheme == "http" and not host.private:
        raise ModelConfigError(
            _("OPENAI_BASE_URL is an http:// address on a public host {not_shown}: a key sent there travels "
              "unencrypted, readable by every proxy and network on the way. Keys go over https only, except "
              "to a loopback or private address (Ollama or vLLM on your machine or network): use https://").format(
                not_shown=_(_NOT_SHOWN))
        )


def _clean_key(name: str, raw: str | None) -> str:
    """The key stripped of surrounding whitespace; refuse one that still has spaces or odd characters."""
    key = (raw or "").strip()
    if not key:
        return ""
    if re.search(r"\s", key):
        raise ModelConfigError(
            _("{name} has a space or a line break inside it (its value is not shown): paste the key alone, "
              "without a 'Bearer ' prefix, quotes or a second key").format(name=name)
        )
    if not key.isascii() or not key.isprintable() or key[0] in "\"'" or key[-1] in "\"'":
        raise ModelConfigError(
            _("{name} contains quotes or characters that are not plain ASCII (its value is not shown), often "
              "curly quotes or an invisible character picked up while copying: paste the key again").format(name=name)
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
        kind = _("a whole number") if integer else _("a number of seconds")
        raise ModelConfigError(_("{name} must be {kind} from {low} to {high} {not_shown}; unset it for {default}").format(
            name=name, kind=kind, low=f"{low:g}", high=f"{high:g}", not_shown=_(_NOT_SHOWN), default=f"{default:g}"))
    return value


def _key_variable(endpoint: Endpoint, private: bool, keys: Mapping[KeyVariable, str]) -> KeyVariable | None:
    """Which configured key is sent (see "Which key goes where" in the module docstring), ``None`` for
    no key (a loopback or private endpoint); raises :class:`ModelConfigError` when a required one is missing."""
    if keys["COURSE_MODEL_API_KEY"]:
        return "COURSE_MODEL_API_KEY"
    if endpoint == "openai":
        if keys["OPENAI_API_KEY"]:
            return "OPENAI_API_KEY"
        missing = _("OPENAI_API_KEY is missing: set OPENAI_API_KEY to your OpenAI key")
        if keys["DASHSCOPE_API_KEY"]:
            missing += _(" (DASHSCOPE_API_KEY is set, but it is sent only to DashScope: for DashScope also set "
                         "OPENAI_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1, international: "
                         "https://dashscope-intl.aliyuncs.com/compatible-mode/v1)")
    elif endpoint == "dashscope":
        if keys["DASHSCOPE_API_KEY"]:
            return "DASHSCOPE_API_KEY"
        missing = _("DASHSCOPE_API_KEY is missing: set DASHSCOPE_API_KEY to your DashScope key")
        if keys["OPENAI_API_KEY"]:
            missing += _(" (OPENAI_API_KEY is set, but it is sent only to OpenAI's endpoint, never to another host)")
    elif private:
        return None
    else:
        missing = _("OPENAI_BASE_URL is a public endpoint that is neither OpenAI's nor DashScope's, and "
                    "COURSE_MODEL_API_KEY is missing: set COURSE_MODEL_API_KEY to that endpoint's key")
        if keys["OPENAI_API_KEY"] or keys["DASHSCOPE_API_KEY"]:
            missing += _(" (OPENAI_API_KEY and DASHSCOPE_API_KEY are sent only to their own provider, never to another host)")
    raise ModelConfigError(_("COURSE_MODEL is set but {missing}, or unset COURSE_MODEL to stay on the offline scripted "
                             "model").format(missing=missing))


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
            _("OPENAI_BASE_URL is set but COURSE_MODEL is missing: set COURSE_MODEL to the model name "
              "(e.g. qwen-plus), or unset OPENAI_BASE_URL to stay on the offline scripted model")
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
