"""Where an endpoint really is: the host the HTTP client connects to, and whether it is on a
loopback, a private or a public address (issue 27, "A key goes only where it is meant to").

A URL's host is judged as the OpenAI SDK's HTTP client will use it, never from the text alone:

1. **The client's host.** ``httpx2.URL(url).raw_host`` (httpx2 2.16, the HTTP library of openai
   3.57) is what goes to the resolver and the socket (``httpx2/_transports/default.py:233``:
   ``host=request.url.raw_host``). httpx2 lowercases it, maps IDNA dots (``。``, ``．``, ``｡``) to
   ``.`` and encodes a Unicode name with IDNA (``xn--...``); a host it refuses (``ｌｏｃａｌｈｏｓｔ``,
   ``010.010.010.010``) or a port it refuses (``:abc``) is an :class:`InvalidEndpoint`.
2. **Its address, when it has one without a name lookup.** What ``socket.getaddrinfo`` resolves by
   itself (``AI_NUMERICHOST``): an IPv4 or IPv6 literal, and the legacy IPv4 forms ``inet_aton``
   accepts: an integer (``134744072`` is ``8.8.8.8``), two or three parts (``127.1``), octal and
   hex parts (``0x7f.1``, ``0x08080808``). An IPv4-mapped IPv6 address (``::ffff:8.8.8.8``) is
   judged by the IPv4 address inside it. ``ipaddress`` then says what the address is.
3. **A name** needs a lookup, which this module never does (a lookup is a network access). A
   trailing dot makes a name fully qualified: ``127.0.0.1.`` is *not* the address ``127.0.0.1`` but
   a DNS name (the resolver looks it up), so it is judged as a public name.

Loopback: ``127.0.0.0/8``, ``::1``, ``0.0.0.0`` (the local host, on Linux), ``localhost`` and
``*.localhost``. Private: an address ``ipaddress`` calls private or link-local (``10/8``,
``172.16/12``, ``192.168/16``, ``169.254/16``, ``fc00::/7``, ``fe80::/10``), a one-word name (``ollama``,
``vllm``: a container or a machine on the local network; not one made of digits, which is a number
the resolver did not accept), and a name ending in ``.local`` or ``.internal``. Everything else is
public, also a public name that happens to resolve to a private address.
``tests/test_model_address.py`` proves, in a child process, which address httpx2 really connects
to for each form.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

__all__ = ["Host", "HostKind", "InvalidEndpoint", "client_host", "is_private_endpoint", "literal_address"]

#: Where a host is.
HostKind = Literal["loopback", "private", "public"]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_PRIVATE_SUFFIXES = (".local", ".internal")
_NUMBER_LIKE = re.compile(r"^(?:[0-9]+|0x[0-9a-f]*)$")   # a one-word host the resolver reads as a number
_INET_ATON_TEXT = re.compile(r"^[0-9a-fx.]+$")           # what inet_aton could accept (it ignores what follows a space)


class InvalidEndpoint(ValueError):
    """The HTTP client refuses the URL (its host or its port). The message shows no part of it."""


@dataclass(frozen=True)
class Host:
    """A URL's host as the HTTP client uses it.

    Attributes:
        name: the host sent to the resolver (httpx2's ``raw_host``, ASCII, lowercase, no brackets).
        address: the address it resolves to without a lookup, or ``None`` for a name.
        kind: ``"loopback"``, ``"private"`` or ``"public"`` (see the module docstring).
    """

    name: str
    address: IPAddress | None
    kind: HostKind

    @property
    def private(self) -> bool:
        """True for a loopback or private host."""
        return self.kind != "public"


def literal_address(host: str) -> IPAddress | None:
    """The address ``host`` (as the client sends it to the resolver) stands for without a lookup.

    Args:
        host: a host name or address, without brackets (``::1``), possibly with a zone (``fe80::1%25eth0``).

    Returns:
        The address (an IPv4-mapped IPv6 address gives the IPv4 address inside it), or ``None`` when
        ``host`` is a name. Mirrors ``getaddrinfo(host, port, flags=AI_NUMERICHOST)`` on glibc, whose
        IPv4 parser is ``inet_aton`` (integer, 2 or 3 parts, octal and hex parts).
    """
    text = unquote(host).strip("[]").lower()
    try:
        address: IPAddress = ipaddress.ip_address(text)
    except ValueError:
        if not _INET_ATON_TEXT.match(text):
            return None
        try:
            address = ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped if mapped is not None else address


def _address_kind(address: IPAddress) -> HostKind:
    if address.is_loopback or address == ipaddress.IPv4Address(0):
        return "loopback"
    return "private" if address.is_private or address.is_link_local else "public"


def _name_kind(name: str) -> HostKind:
    bare = name[:-1] if name.endswith(".") else name
    if not bare or literal_address(bare) is not None:
        return "public"  # "127.0.0.1." is a DNS name: whatever the resolver answers
    if bare == "localhost" or bare.endswith(".localhost"):
        return "loopback"
    if bare.endswith(_PRIVATE_SUFFIXES):
        return "private"
    one_word = "." not in bare and ":" not in bare
    return "private" if one_word and not _NUMBER_LIKE.match(bare) else "public"


def client_host(url: str) -> Host:
    """The host of ``url`` as the OpenAI SDK's HTTP client (httpx2 2.16) connects to it, judged.

    Args:
        url: an ``http(s)://`` URL.

    Returns:
        a :class:`Host`.

    Raises:
        InvalidEndpoint: httpx2 refuses the URL (an invalid host, IDNA name or port) or it has no host.
    """
    import httpx2  # the OpenAI SDK's HTTP library; imported only when a base URL is configured

    try:
        parsed = httpx2.URL(url)
        name = parsed.raw_host.decode("ascii").lower()
    except (httpx2.InvalidURL, UnicodeError, TypeError):
        raise InvalidEndpoint("the HTTP client refuses this URL's host or port") from None
    if not name:
        raise InvalidEndpoint("the URL has no host")
    address = literal_address(name)
    kind = _address_kind(address) if address is not None else _name_kind(name)
    return Host(name=name, address=address, kind=kind)


def is_private_endpoint(base_url: str | None) -> bool:
    """True when ``base_url``'s host is on a loopback or private address, judged as the HTTP client
    connects to it (:func:`client_host`, the module docstring); no name is looked up.

    Returns ``False`` for ``None``, an empty URL and a URL the client refuses.
    """
    if not base_url:
        return False
    try:
        return client_host(base_url).private
    except InvalidEndpoint:
        return False
