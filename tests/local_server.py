"""A server the tests start on 127.0.0.1 as a subprocess: a free port, the wait until it answers, the stop.

Used by the browser tests' JupyterLab (``tests/lab_server.py``) and the Binder replay's
(``tests/binder_replay.py``). Every wait has a condition and a deadline, never a fixed time alone.
"""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from pathlib import Path

__all__ = ["ServerDidNotStart", "free_port", "stop", "wait_until_answers"]


class ServerDidNotStart(RuntimeError):
    """The server exited or did not answer before its deadline; the message ends with its log's tail."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_answers(url: str, process: subprocess.Popen, log: Path, timeout_s: float, *,
                       poll_s: float = 0.3) -> None:
    """Return once a GET of ``url`` answers (any HTTP status below 400); poll every ``poll_s`` seconds.

    Raises:
        ServerDidNotStart: ``process`` exited, or ``timeout_s`` seconds passed, first; the message
        holds the last 3000 characters of ``log`` (the server's log file).
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                why = f"it exited with status {process.returncode}" if process.poll() is not None else (
                    f"it did not answer in {timeout_s:.0f} s")
                tail = log.read_text(errors="replace")[-3000:] if log.is_file() else "(no log)"
                raise ServerDidNotStart(f"the server did not start ({why}):\n{tail}") from None
            time.sleep(poll_s)


def stop(process: subprocess.Popen, timeout_s: float = 30) -> None:
    """Terminate ``process`` and wait for it; kill it if it is still there after ``timeout_s`` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout_s)
