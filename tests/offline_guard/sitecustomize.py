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

PostgreSQL's client library (libpq, C code under psycopg) opens its sockets without Python's ``socket``
module, so the audit hook never sees them. psycopg 3.3 resolves a host *name* in Python (the lookup is
watched as above), but passes an IP address straight to libpq. The guard therefore also wraps
``psycopg.Connection.connect`` and ``psycopg.AsyncConnection.connect`` (psycopg's public entry points, and
the ``psycopg.connect`` alias; ``psycopg_pool`` and LangGraph's savers connect through them) when ``psycopg`` is imported (a
``sys.meta_path`` finder): a ``host`` or ``hostaddr`` (in the connection string, the keyword arguments
or ``PGHOST`` / ``PGHOSTADDR``) that is neither a Unix socket folder nor loopback is a
``psycopg.connect`` attempt, recorded and refused with ``psycopg.OperationalError``.

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


def _postgres_targets(conninfo: object, kwargs: dict) -> list[str]:
    """The ``host`` / ``hostaddr`` entries a psycopg ``connect`` would use that are not local: a Unix socket
    folder (``/...``, ``@...``) and loopback are local; an empty host is libpq's default socket."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        params = conninfo_to_dict(conninfo if isinstance(conninfo, str) else "")
    except Exception:  # noqa: BLE001 - a malformed string: psycopg itself will say so
        params = {}
    found = []
    for key, variable in (("host", "PGHOST"), ("hostaddr", "PGHOSTADDR")):
        value = kwargs.get(key, params.get(key, os.environ.get(variable, "")))
        for entry in str(value or "").split(","):
            entry = entry.strip()
            if entry and not entry.startswith(("/", "@")) and _classify(entry) != "loopback":
                found.append(entry)
    return found


def _guard_psycopg(module, log: str) -> None:
    """Wrap ``Connection.connect`` and ``AsyncConnection.connect`` of the just-imported ``psycopg`` ``module``."""

    def refuse(conninfo: object, kwargs: dict) -> None:
        for target in _postgres_targets(conninfo, kwargs):
            _record(log, {"event": "psycopg.connect", "target": target})
            raise module.OperationalError(
                f"offline guard: connection to {target} refused (the course runs offline; only loopback and "
                "Unix sockets are allowed)")

    sync_connect = module.Connection.connect.__func__
    async_connect = module.AsyncConnection.connect.__func__

    def connect(cls, conninfo="", **kwargs):
        refuse(conninfo, kwargs)
        return sync_connect(cls, conninfo, **kwargs)

    async def aconnect(cls, conninfo="", **kwargs):
        refuse(conninfo, kwargs)
        return await async_connect(cls, conninfo, **kwargs)

    module.Connection.connect = classmethod(connect)
    module.AsyncConnection.connect = classmethod(aconnect)
    module.connect = module.Connection.connect  # psycopg/__init__.py: connect = Connection.connect


class _PsycopgFinder:
    """A ``sys.meta_path`` finder that lets the other finders load ``psycopg``, then guards it."""

    def __init__(self, log: str) -> None:
        self.log = log

    def find_spec(self, name, path=None, target=None):
        if name != "psycopg":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                break
        else:
            return None
        loader, log = spec.loader, self.log
        load = loader.exec_module

        def exec_module(module) -> None:
            load(module)
            _guard_psycopg(module, log)

        loader.exec_module = exec_module
        return spec


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
    sys.meta_path.insert(0, _PsycopgFinder(os.environ[_LOG_VARIABLE]))
_load_next_sitecustomize()
