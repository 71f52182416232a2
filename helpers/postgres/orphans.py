"""What a killed course server leaves behind, found and removed: :func:`sweep`.

A course server's supervisor (:mod:`helpers.postgres.supervisor`) removes its instance folder when it stops.
If the supervisor itself is killed (SIGKILL), its server dies too (Linux's parent-death signal), but the folder
stays: the cluster, ``server.log``, ``supervisor.pid``, and maybe stale ``postmaster.pid`` and socket lock
files. :func:`sweep`, run by every :meth:`~helpers.postgres.server.LocalPostgres.start`, removes such orphans.
Process ids are checked against ``/proc`` where it exists, so a pid reused by another program does not keep an
orphan alive, and a zombie (ended, not yet reaped) counts as ended.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

__all__ = ["base_folder", "sweep"]

#: A folder without ``supervisor.pid`` younger than this is being set up, not an orphan (seconds).
_SETUP_GRACE_S = 120.0


def base_folder() -> Path:
    """The folder that holds this user's course servers: ``<temp folder>/course-postgres-<uid>``."""
    return Path(tempfile.gettempdir()) / f"course-postgres-{os.geteuid()}"



def _alive(pid: int) -> bool:
    """``pid`` is a running process (a zombie, ended but not yet reaped by its parent, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc (macOS): the signal test is all there is
    return state not in ("Z", "X")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _read_pid(path: Path) -> int | None:
    try:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0].strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(first) if first.isdigit() else None


def _is_supervisor(pid: int) -> bool:
    """``pid`` runs a course supervisor (where ``/proc`` cannot say, any living process counts)."""
    if not _alive(pid):
        return False
    line = _cmdline(pid)
    return not line or "supervisor.py" in line


def sweep(base: Path | None = None) -> list[str]:
    """Stop and remove the instances whose supervisor is gone (orphans), under ``base`` (default :func:`base_folder`).

    An orphan's server, if it still runs (its ``postmaster.pid`` names a living ``postgres``), gets
    SIGQUIT (an immediate shutdown), then SIGKILL after 5 s; then the folder is removed, stale pid and
    socket files included. A folder still being set up (no ``supervisor.pid`` yet, younger than two
    minutes) is left alone.

    Returns:
        the names of the folders removed. Never raises.
    """
    base = base_folder() if base is None else base
    removed = []
    try:
        folders = [p for p in base.iterdir() if p.is_dir() and p.name.startswith("pg-")]
    except OSError:
        return removed
    for folder in folders:
        pid = _read_pid(folder / "supervisor.pid")
        if pid is None:
            try:
                if time.time() - folder.stat().st_mtime < _SETUP_GRACE_S:
                    continue
            except OSError:
                continue
        elif _is_supervisor(pid):
            continue
        server = _read_pid(folder / "data" / "postmaster.pid")
        if server is not None and _alive(server) and "postgres" in (_cmdline(server) or "postgres"):
            try:
                os.kill(server, signal.SIGQUIT)
                for _ in range(500):
                    if not _alive(server):
                        break
                    time.sleep(0.01)
                else:
                    os.kill(server, signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder.name)
    return removed
