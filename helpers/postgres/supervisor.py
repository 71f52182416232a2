"""The process that owns one course PostgreSQL server: it starts it, watches its owner, stops it, cleans up.

Run by :class:`helpers.postgres.server.LocalPostgres` as ``python -P supervisor.py '<json job>'``
(standard library only, so it starts in a few milliseconds and needs nothing of the course). The job
names the instance folder, the folder of PostgreSQL's programs (``initdb``, ``postgres``) and, when
the owner is root, the user the server runs as (PostgreSQL 15's ``initdb`` and ``postgres`` refuse
to run as root and have no option to allow it, so a root owner runs them as the Debian package's
``postgres`` user, or the user ``COURSE_POSTGRES_USER`` names).

What it does, in order:

1. **Detaches**: it forks and the first process exits, so the supervisor is no longer a child of its
   owner (the exercise checks stop processes a learner's answer left behind among the kernel's
   children; the course's own server must not look like one). It keeps the two pipes it was given:
   stdin, which its owner holds open for as long as it wants the server, and stdout.
2. ``initdb`` into ``<folder>/data`` (superuser ``course``, ``trust`` authentication: only the Unix
   socket in the private folder is reachable, ``--no-sync``: the data is thrown away anyway).
3. Starts ``postgres`` as its own child with no TCP port (``listen_addresses=''``), its Unix socket
   in the instance folder (``-k``), durability settings off (``fsync``, ``synchronous_commit``,
   ``full_page_writes``: a lesson's data is disposable), and, on Linux, a parent-death signal
   (``prctl(PR_SET_PDEATHSIG, SIGQUIT)``): if the supervisor is killed, the server stops at once.
4. Waits until ``postmaster.pid`` says ``ready`` and prints one JSON line on stdout: ``{"ready": true,
   "pid": <supervisor pid>, "postmaster": <server pid>}`` (or ``{"ready": false, "error": "..."}``).
5. Waits for stdin to reach end-of-file: its owner closed it (:meth:`LocalPostgres.stop`) or ended,
   however it ended (a kernel that was killed closes its pipes too). A SIGTERM or SIGINT to the
   supervisor counts the same. A server that dies on its own is noticed within a second.
6. Stops the server with a *fast* shutdown (SIGINT: open sessions are disconnected), then SIGQUIT and
   SIGKILL if it is still there after 10 s and 5 s, and removes the instance folder.

``supervisor.pid`` in the instance folder holds the supervisor's pid: a folder whose supervisor is
gone is an orphan, which :func:`helpers.postgres.server.sweep` removes (after stopping a server still
running there).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time

#: The superuser ``initdb`` creates; clients connect as it (``trust``, Unix socket only).
SUPERUSER = "course"
#: The port number only names the socket file (``.s.PGSQL.5432``); no TCP port is opened.
PORT = 5432
#: Seconds a fast shutdown may take before SIGQUIT, and SIGQUIT before SIGKILL.
FAST_SHUTDOWN_S, QUIT_S = 10.0, 5.0
#: Lines of the server's log quoted when it fails to start.
LOG_TAIL = 6


def _libc():
    """The C library, for ``prctl`` (Linux only; loaded here: the demoted child may not read Python's files)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _demote(user: str | None):
    """``(user, group, preexec_fn)`` for :class:`subprocess.Popen`: run as ``user`` (when root) and die with us."""
    libc = _libc()

    def die_with_parent() -> None:  # runs in the child after the user change (CPython runs preexec_fn last)
        if libc is not None:
            libc.prctl(1, signal.SIGQUIT)  # PR_SET_PDEATHSIG

    if user is None:
        return {"preexec_fn": die_with_parent}
    import pwd

    entry = pwd.getpwnam(user)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": [], "preexec_fn": die_with_parent,
            "env": {**os.environ, "HOME": entry.pw_dir, "USER": user, "LOGNAME": user}}


def _tail(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = [line.rstrip() for line in handle if line.strip()]
    except OSError:
        return "(no server log)"
    return " | ".join(lines[-LOG_TAIL:]) or "(the server log is empty)"


def _initdb(bindir: str, data: str, user: str | None, log: str) -> None:
    command = [os.path.join(bindir, "initdb"), "-D", data, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
               "--no-locale", "--no-sync"]
    with open(log, "ab") as out:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                              **{k: v for k, v in _demote(user).items() if k != "preexec_fn"})
    if done.returncode != 0:
        raise RuntimeError(f"initdb failed (exit status {done.returncode}): {_tail(log)}")


def _start(bindir: str, data: str, folder: str, user: str | None, log: str) -> subprocess.Popen:
    command = [os.path.join(bindir, "postgres"), "-D", data, "-k", folder, "-p", str(PORT),
               "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
               "-c", "full_page_writes=off", "-c", "shared_buffers=32MB", "-c", "max_connections=60"]
    out = open(log, "ab")  # noqa: SIM115 - the server writes to it for its whole life
    try:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                **_demote(user))
    finally:
        out.close()


def _wait_ready(server: subprocess.Popen, data: str, log: str, timeout: float) -> None:
    """Until ``postmaster.pid``'s status line says ``ready`` (what ``pg_ctl start -w`` waits for)."""
    pid_file = os.path.join(data, "postmaster.pid")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"postgres exited with status {server.returncode}: {_tail(log)}")
        try:
            with open(pid_file, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except OSError:
            lines = []
        if len(lines) >= 8 and lines[7].strip() == "ready":
            return
        time.sleep(0.01)
    raise RuntimeError(f"postgres was not ready after {timeout:.0f} s: {_tail(log)}")


def _stop(server: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGINT, FAST_SHUTDOWN_S), (signal.SIGQUIT, QUIT_S), (signal.SIGKILL, QUIT_S)):
        if server.poll() is not None:
            return
        try:
            server.send_signal(sig)
        except ProcessLookupError:
            return
        try:
            server.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _wait_for_owner(server: subprocess.Popen, stop: list[bool]) -> None:
    """Until stdin is at end-of-file (or says ``stop``), a signal asked to stop, or the server died."""
    while not stop[0] and server.poll() is None:
        try:
            readable, _, _ = select.select([sys.stdin], [], [], 1.0)
        except InterruptedError:
            continue
        if readable:
            line = sys.stdin.readline()
            if not line or line.strip() == "stop":
                return


def _say(message: dict) -> None:
    try:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()
    except OSError:  # the owner is gone already
        pass


def main(argv: list[str]) -> int:
    """Supervise one server for the job in ``argv[1]`` (JSON: ``folder``, ``bindir``, ``user``, ``timeout``)."""
    job = json.loads(argv[1])
    folder, bindir, user = job["folder"], job["bindir"], job.get("user")
    if os.fork() != 0:  # 1. detach: the owner's child exits, the supervisor lives on under init
        os._exit(0)
    stop = [False]

    def asked_to_stop(signum, frame) -> None:
        stop[0] = True

    signal.signal(signal.SIGTERM, asked_to_stop)
    signal.signal(signal.SIGINT, asked_to_stop)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    with open(os.path.join(folder, "supervisor.pid"), "w", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n")
    data, log = os.path.join(folder, "data"), os.path.join(folder, "server.log")
    server = None
    try:
        _initdb(bindir, data, user, log)
        server = _start(bindir, data, folder, user, log)
        _wait_ready(server, data, log, float(job.get("timeout", 60)))
    except Exception as exc:  # noqa: BLE001 - reported to the owner, then cleaned up
        _say({"ready": False, "error": str(exc)})
        if server is not None:
            _stop(server)
        shutil.rmtree(folder, ignore_errors=True)
        return 1
    _say({"ready": True, "pid": os.getpid(), "postmaster": server.pid})
    try:
        _wait_for_owner(server, stop)
    finally:
        _stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
