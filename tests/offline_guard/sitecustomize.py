"""The course's offline guard: refuses and records every network connection except loopback.

Python imports a module named ``sitecustomize`` at start-up (``site``, Python 3.11) from the first
``sys.path`` entry that has one. ``tests/conftest.py`` puts this folder first on ``PYTHONPATH`` and
names a log file in ``COURSE_NET_GUARD_LOG`` for the whole test session, so every Python process the
tests start inherits the guard: the kernels of strict nbval and of nbclient, and the processes those
kernels start (notebook 08 resumes a graph in a second Python process). Without the variable this
module does nothing.

The guard is an audit hook (``sys.addaudithook``, PEP 578; it cannot be removed once added). It
watches these audit events of the ``socket`` module:

* ``socket.connect`` (also ``connect_ex``) and ``socket.sendto`` on an IPv4 / IPv6 socket whose
  address is not loopback (``127.0.0.0/8``, ``::1``, ``localhost``); Unix sockets are local and pass;
* ``socket.getaddrinfo`` and ``socket.gethostbyname`` of a host name that is not ``localhost`` (a DNS
  lookup is the first packet that leaves the machine; an IP literal resolves without one, and its
  ``connect`` is checked), and ``socket.gethostbyaddr`` of anything not loopback (a reverse lookup).

Each such attempt is appended to the log as one JSON line (``event``, ``target``, ``pid``, ``argv``,
``cwd``) and then refused: ``connect`` raises ``ConnectionRefusedError``, a name lookup raises
``socket.gaierror``, both with a message that starts ``offline guard:``. At start-up the guard also
appends a ``guard.start`` line, so a test can prove the guard was active in the kernels it checks.
Only the standard library is used: this runs before anything else in every process.
"""

from __future__ import annotations

import errno
import json
import os
import sys

_LOG_VARIABLE = "COURSE_NET_GUARD_LOG"
_CONNECT_EVENTS = frozenset({"socket.connect", "socket.sendto"})
_LOOKUP_EVENTS = frozenset({"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"})
_WATCHED = _CONNECT_EVENTS | _LOOKUP_EVENTS


def _classify(host: object) -> str:
    """``"loopback"`` (an empty host, i.e. a local bind or ``AI_PASSIVE`` lookup; ``localhost``; a
    loopback IP), ``"address"`` (another IP literal) or ``"name"`` (another host name)."""
    if host is None or host in ("", b""):
        return "loopback"
    if isinstance(host, (bytes, bytearray)):
        host = bytes(host).decode("ascii", "replace")
    name = str(host).strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return "loopback"
    import ipaddress

    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return "name"
    mapped = getattr(address, "ipv4_mapped", None)
    return "loopback" if address.is_loopback or (mapped and mapped.is_loopback) else "address"


def _record(log: str, entry: dict) -> None:
    entry.update(pid=os.getpid(), argv=list(getattr(sys, "orig_argv", sys.argv))[:6])
    try:
        entry["cwd"] = os.getcwd()
    except OSError:
        entry["cwd"] = "?"
    line = (json.dumps(entry, default=str) + "\n").encode("utf-8")
    try:
        descriptor = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return  # the log's folder is gone (a process outlived its test session): still refuse, never crash
    try:
        os.write(descriptor, line)  # one write of one short line: lines of two processes do not mix
    finally:
        os.close(descriptor)


def install(log: str) -> None:
    """Add the audit hook that refuses and records non-loopback connections to ``log``."""

    def guard(event: str, args: tuple) -> None:
        if event not in _WATCHED:
            return
        if event in _CONNECT_EVENTS:
            sock, address = args[0], args[-1]
            import socket

            if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6):
                return  # Unix sockets and the like never leave the machine
            host, port = (address[0], address[1]) if isinstance(address, tuple) else (address, None)
            if _classify(host) == "loopback":
                return
            target = f"{host}:{port}"
            _record(log, {"event": event, "target": target})
            raise ConnectionRefusedError(
                errno.ECONNREFUSED,
                f"offline guard: connection to {target} refused (the course runs offline; only loopback is allowed)")
        host = args[0] if args else None
        kind = _classify(host)
        if kind == "loopback" or (kind == "address" and event != "socket.gethostbyaddr"):
            return  # an IP literal resolves without a packet (its connect is checked); a reverse lookup does not
        _record(log, {"event": event, "target": str(host)})
        import socket

        raise socket.gaierror(
            socket.EAI_NONAME,
            f"offline guard: name lookup of {host} refused (the course runs offline; only loopback is allowed)")

    sys.addaudithook(guard)
    _record(log, {"event": "guard.start", "target": ""})


def _load_next_sitecustomize() -> None:
    """Run the ``sitecustomize`` this module hides (one further along ``sys.path``), if any."""
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    path = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None or os.path.abspath(spec.origin or "") == os.path.abspath(__file__):
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


if os.environ.get(_LOG_VARIABLE):
    install(os.environ[_LOG_VARIABLE])
_load_next_sitecustomize()
