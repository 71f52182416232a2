"""A PostgreSQL server of the course's own: ``initdb`` into a private folder, one Unix socket, no TCP port.

:meth:`LocalPostgres.start` starts one (about a second: ``initdb`` 0.7 s, the server 0.1 s, PostgreSQL 15
from Debian's packages on the course's 2-core machine); :meth:`LocalPostgres.stop` stops it and removes its
folder. Nothing else on the machine changes: no service, no administrator step, no port. The server is
owned by a small supervisor process (:mod:`helpers.postgres.supervisor`) that stops it when its owner
asks, and also when its owner ends in any way (a kernel that is shut down, restarted or killed): the
owner holds the supervisor's stdin open, and end-of-file is the signal. Should the supervisor itself be
killed, the server gets SIGQUIT from the kernel (Linux's parent-death signal) and :func:`sweep` removes
the folder the next time a server starts.

Where the programs are (:func:`find_installation`): ``COURSE_POSTGRES_BINDIR``, else ``pg_config
--bindir``, else Debian's and Ubuntu's ``/usr/lib/postgresql/<version>/bin`` (the newest), else
``initdb`` on ``PATH``. ``COURSE_POSTGRES=off`` says there is none (the notebooks then use their
SQLite fallback, :mod:`helpers.postgres.engine`).

Root: PostgreSQL refuses to run as root (``initdb: error: cannot be run as root``; ``postgres`` has no
option to allow it). When this process is root the server runs as the user ``COURSE_POSTGRES_USER``
names, by default ``postgres``, which Debian's ``postgresql-common`` package creates; the instance folder
is given to that user. As a normal user the server runs as you.

Folders: instances live under :func:`base_folder` (``<temp folder>/course-postgres-<uid>``), one
``pg-XXXXXXXX`` folder each: ``data/`` (the cluster), the socket ``.s.PGSQL.5432`` and its lock file,
``server.log``, ``supervisor.pid``.
"""

from __future__ import annotations

import atexit
import glob
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from . import supervisor
from .orphans import _alive, base_folder, sweep

__all__ = ["DATABASE", "Installation", "LocalPostgres", "PostgresUnavailable", "base_folder", "find_installation",
           "server_user", "sweep", "time_server"]

#: The database clients connect to (the one ``initdb`` creates).
DATABASE = "postgres"
#: Longest Unix socket path (``sun_path`` is 108 bytes on Linux, 104 on macOS, with its final NUL).
_SOCKET_PATH_MAX = 103


class PostgresUnavailable(RuntimeError):
    """No course PostgreSQL server can run here; the message says why and what to do."""


@dataclass(frozen=True)
class Installation:
    """Where PostgreSQL's server programs are: ``bindir`` holds ``initdb`` and ``postgres``."""

    bindir: Path

    def version(self) -> str:
        """``postgres --version``'s version number, e.g. ``"15.18"`` (``"unknown"`` if it does not say)."""
        try:
            out = subprocess.run([str(self.bindir / "postgres"), "--version"], capture_output=True, text=True,
                                 timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return "unknown"
        found = re.search(r"(\d+(?:\.\d+)*)", out)
        return found.group(1) if found else "unknown"


def _has_server(folder: Path) -> bool:
    return all(os.access(folder / name, os.X_OK) for name in ("initdb", "postgres"))


def find_installation(env: dict[str, str] | None = None) -> Installation:
    """The PostgreSQL server programs to use.

    Args:
        env: the environment to read (default ``os.environ``): ``COURSE_POSTGRES=off`` turns PostgreSQL
            off; ``COURSE_POSTGRES_BINDIR`` names the folder of ``initdb`` and ``postgres``.

    Returns:
        an :class:`Installation`.

    Raises:
        PostgresUnavailable: turned off, or no folder with both ``initdb`` and ``postgres`` was found
            (the message says where it looked and how to install them).
    """
    env = os.environ if env is None else env
    if env.get("COURSE_POSTGRES", "").strip().lower() in ("off", "0", "no", "false"):
        raise PostgresUnavailable(_("PostgreSQL is turned off here (COURSE_POSTGRES=off)"))
    named = env.get("COURSE_POSTGRES_BINDIR", "").strip()
    if named:
        if _has_server(Path(named)):
            return Installation(Path(named))
        raise PostgresUnavailable(_("COURSE_POSTGRES_BINDIR={folder} holds no initdb and postgres").format(
            folder=named))
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=30).stdout.strip()
            if out:
                candidates.append(Path(out))
        except (OSError, subprocess.SubprocessError):
            pass

    def version_key(path: str) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", Path(path).parent.name))

    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version_key, reverse=True)]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for folder in candidates:
        if _has_server(folder):
            return Installation(folder)
    raise PostgresUnavailable(_(
        "PostgreSQL's server programs (initdb, postgres) are not installed: on Debian or Ubuntu "
        "`sudo apt-get install postgresql`, on macOS `brew install postgresql`, or set COURSE_POSTGRES_BINDIR"))


def server_user(env: dict[str, str] | None = None) -> str | None:
    """The user the server must run as: ``None`` (this process's own user) unless this process is root.

    Raises:
        PostgresUnavailable: root, and the user to run as (``COURSE_POSTGRES_USER``, default ``postgres``)
            does not exist, or is root itself.
    """
    if os.geteuid() != 0:
        return None
    env = os.environ if env is None else env
    name = env.get("COURSE_POSTGRES_USER", "").strip() or "postgres"
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise PostgresUnavailable(_(
            "this process is root, PostgreSQL refuses to run as root, and there is no user '{user}' to run it "
            "as: create one (Debian's postgresql package creates 'postgres') or name one in "
            "COURSE_POSTGRES_USER").format(user=name)) from None
    if entry.pw_uid == 0:
        raise PostgresUnavailable(_("COURSE_POSTGRES_USER={user} is root; PostgreSQL refuses to run as root").format(
            user=name))
    return name


def _unreachable(path: Path, user: str) -> Path | None:
    """The first folder on the way to ``path`` (itself included) that ``user`` may not enter, or ``None``."""
    import stat as st

    entry = pwd.getpwnam(user)
    groups = {entry.pw_gid, *(g.gr_gid for g in __import__("grp").getgrall() if user in g.gr_mem)}
    for folder in [*reversed(path.resolve().parents), path.resolve()]:
        try:
            info = folder.stat()
        except OSError:
            return folder
        if info.st_uid == entry.pw_uid:
            allowed = info.st_mode & st.S_IXUSR
        elif info.st_gid in groups:
            allowed = info.st_mode & st.S_IXGRP
        else:
            allowed = info.st_mode & st.S_IXOTH
        if not allowed:
            return folder
    return None


class LocalPostgres:
    """One running course server (see the module docstring). Use :meth:`start`; stop with :meth:`stop`
    or a ``with`` block. It is also stopped when this process exits (``atexit``) or dies (the supervisor
    sees its stdin close).

    Attributes:
        folder: the instance folder (also the socket's folder).
        user: the user the server runs as (``None``: this process's user).
        supervisor_pid, postmaster_pid: the supervisor's and the server's process ids.
    """

    def __init__(self, folder: Path, user: str | None, pipe, supervisor_pid: int, postmaster_pid: int) -> None:
        self.folder = folder
        self.user = user
        self.supervisor_pid = supervisor_pid
        self.postmaster_pid = postmaster_pid
        self._pipe = pipe
        self._lock = threading.Lock()
        atexit.register(self.stop)

    @classmethod
    def start(cls, *, installation: Installation | None = None, base: Path | None = None,
              timeout: float = 60.0) -> LocalPostgres:
        """Start a fresh server (after sweeping orphans) and return when it accepts connections.

        Args:
            installation: the programs to use (default :func:`find_installation`).
            base: where instance folders go (default :func:`base_folder`).
            timeout: seconds to wait for the server to be ready.

        Returns:
            the running server.

        Raises:
            PostgresUnavailable: no installation, no user to run it as (root), a socket path that would
                be too long, or the server did not start (the message quotes its log).
        """
        installation = installation or find_installation()
        user = server_user()
        base = base_folder() if base is None else Path(base)
        sweep(base)
        base.mkdir(mode=0o755 if user else 0o700, exist_ok=True)
        blocked = _unreachable(base, user) if user else None
        if blocked is not None:
            raise PostgresUnavailable(_(
                "the server runs as {user}, who may not enter {folder}: set TMPDIR to a folder every user may "
                "enter, e.g. /tmp").format(user=user, folder=blocked))
        folder = Path(tempfile.mkdtemp(prefix="pg-", dir=base))
        if len(str(folder / f".s.PGSQL.{supervisor.PORT}")) > _SOCKET_PATH_MAX:
            shutil.rmtree(folder, ignore_errors=True)
            raise PostgresUnavailable(_("the socket path under {folder} would be longer than a Unix socket allows; "
                                        "set TMPDIR to a shorter folder").format(folder=base))
        if user:
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        job = json.dumps({"folder": str(folder), "bindir": str(installation.bindir), "user": user, "timeout": timeout})
        process = subprocess.Popen([sys.executable, "-P", supervisor.__file__, job], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                                   close_fds=True)
        process.wait()  # the first supervisor process only forks the real one and exits
        message = cls._read_ready(process.stdout, timeout + 30)
        process.stdout.close()
        if not message.get("ready"):
            process.stdin.close()
            shutil.rmtree(folder, ignore_errors=True)
            raise PostgresUnavailable(_("the course's PostgreSQL server did not start: {error}").format(
                error=message.get("error")))
        return cls(folder, user, process.stdin, int(message["pid"]), int(message["postmaster"]))

    @staticmethod
    def _read_ready(stream, timeout: float) -> dict:
        found: dict = {}

        def read() -> None:
            line = stream.readline()
            try:
                found.update(json.loads(line))
            except ValueError:
                found.update(ready=False, error=f"the supervisor said {line[:200]!r}")

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        return found or {"ready": False, "error": f"no answer from the supervisor after {timeout:.0f} s"}

    # -- what clients need ------------------------------------------------------------------------

    @property
    def conninfo(self) -> str:
        """The libpq connection string: ``host=<folder> port=5432 user=course dbname=postgres``."""
        return f"host={self.folder} port={supervisor.PORT} user={supervisor.SUPERUSER} dbname={DATABASE}"

    @property
    def running(self) -> bool:
        """True until :meth:`stop` (or the server died)."""
        return self._pipe is not None and _alive(self.postmaster_pid)

    # -- stopping ---------------------------------------------------------------------------------

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the server and remove its folder; wait at most ``timeout`` seconds. Idempotent, never raises."""
        with self._lock:
            pipe, self._pipe = self._pipe, None
        if pipe is None:
            return
        try:
            pipe.close()
        except OSError:
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.folder.exists() and _alive(self.supervisor_pid):
            time.sleep(0.02)
        atexit.unregister(self.stop)

    def __enter__(self) -> LocalPostgres:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"LocalPostgres(folder={str(self.folder)!r}, running={self.running})"


def time_server(runs: int = 3) -> dict:
    """Time ``runs`` starts and stops of a course server (what notebook 18's kernel pays once), for ``make bench``.

    Returns:
        ``{"start_s": [...], "stop_s": [...]}`` (seconds, wall time, one per run: start is
        :meth:`LocalPostgres.start` until the server accepts connections, ``initdb`` included), or
        ``{"unavailable": "<why>"}`` where no server can run. Never raises for a missing PostgreSQL.
    """
    starts, stops = [], []
    try:
        installation = find_installation()
        for _ in range(runs):
            began = time.perf_counter()
            server = LocalPostgres.start(installation=installation)
            starts.append(round(time.perf_counter() - began, 3))
            began = time.perf_counter()
            server.stop()
            stops.append(round(time.perf_counter() - began, 3))
    except PostgresUnavailable as exc:
        return {"unavailable": str(exc)}
    return {"start_s": starts, "stop_s": stops}
