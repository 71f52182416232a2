"""The real model's client, checked after it is built: it talks to the configured endpoint only,
with the configured key only, and carries no header from the environment (issue 27).

``ChatOpenAI`` (langchain-openai 1.7.4) and the ``openai.OpenAI`` client under it (openai 3.57)
read more of the environment than the course's variables (:mod:`helpers.model.sdk_environment`
lists each one and where): a base URL from ``OPENAI_API_BASE``, ``LANGSMITH_GATEWAY`` or
``OPENAI_BASE_URL`` when none is passed, a ``langsmith_gateway(...)`` block that replaces even an
explicit one, organization and project ids, extra headers from ``OPENAI_CUSTOM_HEADERS``, proxies.
The course passes the base URL and the key explicitly, and then, rather than trusting that, reads
what the built clients (the sync and the async one) will really use:

* ``client.base_url`` must be the configured URL (``OPENAI_BASE_URL``, or OpenAI's);
* ``client.api_key`` must be the configured key;
* ``client.default_headers`` (every request's headers, openai/_client.py:559) must hold no header
  from ``OPENAI_CUSTOM_HEADERS`` (an ``Authorization`` there would replace the key);
* ``OpenAI-Organization`` / ``OpenAI-Project`` go to OpenAI's endpoint only: on a client for any
  other endpoint ``client.organization`` and ``client.project`` are cleared (the SDK reads them
  for each request);
* a key (not the keyless placeholder) to a plain ``http://`` URL must not go through a proxy
  (``HTTP_PROXY``, ``ALL_PROXY``, ``OPENAI_PROXY``), which would read it: httpx2's
  ``Client._transport_for_url`` names the transport a request to the URL uses.

Anything else stops the build with :class:`~helpers.model.config.ModelConfigError` naming the
variable, never a value.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..i18n import _
from .config import NO_KEY, ModelConfigError

__all__ = ["check_clients", "proxy_through"]

_BASE_URL_VARIABLES = ("OPENAI_API_BASE", "LANGSMITH_GATEWAY", "OPENAI_BASE_URL")
_PROXY_VARIABLES = ("OPENAI_PROXY", "ALL_PROXY", "HTTP_PROXY", "all_proxy", "http_proxy")


def _same_url(first: Any, second: Any) -> bool:
    import httpx2

    def normal(url: Any) -> Any:
        url = httpx2.URL(str(url))
        return url.copy_with(raw_path=url.raw_path.rstrip(b"/") + b"/")

    return normal(first) == normal(second)


def _gateway_block_active() -> bool:
    """True inside langchain-core's ``langsmith_gateway(...)`` block (langchain_core/utils/_gateway.py:112)."""
    try:
        from langchain_core.utils._gateway import _langsmith_gateway_active
    except ImportError:  # moved in another release: the URL check below still refuses
        return False
    return _langsmith_gateway_active()


def _who_changed_it(env: Mapping[str, str]) -> str:
    names = [name for name in _BASE_URL_VARIABLES if env.get(name, "").strip()]
    if _gateway_block_active():
        names.append(_("a langsmith_gateway(...) block around the cell"))
    return ", ".join(names) if names else _("a setting outside the course's variables")


def proxy_through(client: Any, url: str) -> bool:
    """True when httpx2 would send a request to ``url`` through a proxy (HTTP or SOCKS).

    Reads the transport ``client._transport_for_url`` picks (httpx2 2.16, ``_client.py:726``) and
    whether its connection pool is a proxy (httpcore2's ``HTTPProxy`` / ``SOCKSProxy``, which keep
    the proxy's address in ``_proxy_url``).
    """
    import httpx2

    transport = client._transport_for_url(httpx2.URL(url))
    return getattr(getattr(transport, "_pool", None), "_proxy_url", None) is not None


def _custom_headers(env: Mapping[str, str]) -> list[str]:
    """The header names ``OPENAI_CUSTOM_HEADERS`` holds, parsed as openai 3.57 does (lib/_client_auth.py:240)."""
    names = []
    for line in env.get("OPENAI_CUSTOM_HEADERS", "").split("\n"):
        colon = line.find(":")
        if colon >= 0 and line[:colon].strip():
            names.append(line[:colon].strip())
    return names


def check_clients(chat: Any, *, url: str, api_key: str, openai_endpoint: bool,
                  env: Mapping[str, str] | None = None) -> None:
    """Check (and, for the ids, fix) the OpenAI clients of a freshly built ``ChatOpenAI``.

    Args:
        chat: the ``ChatOpenAI``; its ``root_client`` and ``root_async_client`` are checked.
        url: the configured endpoint (``OPENAI_BASE_URL``, or OpenAI's).
        api_key: the configured key (or :data:`~helpers.model.config.NO_KEY`).
        openai_endpoint: whether ``url`` is OpenAI's endpoint (organization and project ids are kept).
        env: the process environment the SDK read (default ``os.environ``), to name the culprit.

    Raises:
        ModelConfigError: a client would talk to another URL, with another key, with a header from
            ``OPENAI_CUSTOM_HEADERS``, or send a key over plain http through a proxy. The message
            names the variable, never a value.
    """
    env = os.environ if env is None else env
    clients = [client for client in (chat.root_client, chat.root_async_client) if client is not None]
    if not clients:
        raise ModelConfigError(_("the OpenAI client was not built: the course cannot check where it would send requests"))
    for client in clients:
        if not _same_url(client.base_url, url):
            raise ModelConfigError(
                _("the OpenAI client would send requests to another address than the configured one (OPENAI_BASE_URL, "
                  "or OpenAI's when it is unset): {who} changed it. The course sends a key only "
                  "to the endpoint it checked: unset that variable, or leave the cell's langsmith_gateway block").format(
                    who=_who_changed_it(env))
            )
        if client.api_key != api_key:
            raise ModelConfigError(
                _("the OpenAI client would send another key than the configured one (a langsmith_gateway block "
                  "or LANGSMITH_GATEWAY_API_KEY replaced it): build the course's model outside that block")
            )
        headers = {name.lower() for name in client.default_headers}
        extra = [name for name in _custom_headers(env) if name.lower() in headers]
        if extra:
            raise ModelConfigError(
                _("OPENAI_CUSTOM_HEADERS is set: the OpenAI SDK would add its headers ({headers}) to every "
                  "request, and a header may hold a key meant for another service (an Authorization header replaces "
                  "the course's key). The course sends no header from the environment: unset OPENAI_CUSTOM_HEADERS "
                  "for the course, e.g. env -u OPENAI_CUSTOM_HEADERS make lab").format(headers=", ".join(extra))
            )
        if not openai_endpoint:
            client.organization = None  # OpenAI-Organization / OpenAI-Project: OpenAI's ids, for OpenAI only
            client.project = None
        if url.lower().startswith("http://") and api_key != NO_KEY and proxy_through(client._client, url):
            where = [name for name in _PROXY_VARIABLES if env.get(name, "").strip()] or [_("the system's proxy settings")]
            raise ModelConfigError(
                _("OPENAI_BASE_URL is an http:// address, and the HTTP client would send the request through the "
                  "proxy in {where}: the proxy would read the key. Use https://, or put the endpoint's "
                  "host in NO_PROXY").format(where=", ".join(where))
            )
