"""An exclusive lock on a side file, taken with a time limit: one process at a time writes.

The progress file (:mod:`helpers.progress.store`) and the workspace (:mod:`helpers.workspace`)
are changed by read-modify-write steps that two processes may run at once (two kernels recording,
two ``make reset`` in two shells). Each step runs inside :func:`exclusive`, which holds an
exclusive lock on a side file (``fcntl.flock`` on Linux and macOS, ``msvcrt.locking`` on Windows).
A lock held by another process for longer than ``timeout`` seconds (a kernel stopped in a
debugger) raises :class:`LockTimeout` instead of waiting for ever.

Bottom floor: imports nothing of the course.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from .files import kind_of

__all__ = ["DEFAULT_TIMEOUT", "LockTimeout", "NotALockFile", "exclusive"]

#: Seconds :func:`exclusive` waits for a lock another process holds (a record takes milliseconds).
DEFAULT_TIMEOUT = 10.0
#: Seconds between two tries while the lock is held elsewhere.
_POLL = 0.05


class LockTimeout(Exception):
    """The lock was held by another process for the whole time limit; nothing was done."""


class NotALockFile(Exception):
    """The lock's place holds something that is not a regular file (``str()``: ``"<name> is a FIFO"``)."""


def _try_lock(fd: int) -> bool:
    """Take the lock without waiting: ``True`` when taken, ``False`` when another holder has it."""
    if os.name == "nt":  # pragma: no cover - the course's CI runs on Linux
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if os.name == "nt":  # pragma: no cover
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def exclusive(lock_path: Path | str, *, timeout: float | None = None) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` (created if missing, never followed if a symlink)
    for the duration of the block.

    Args:
        lock_path: the side file, e.g. ``workspace/.course-workspace.lock``.
        timeout: seconds to wait while another process holds it (default :data:`DEFAULT_TIMEOUT`).

    Raises:
        LockTimeout: another process held the lock for ``timeout`` seconds.
        NotALockFile: ``lock_path`` is a folder, a symlink (never followed), a FIFO, a device or a socket.
        OSError: the lock file cannot be created (a read-only folder, a full disk, ...).
    """
    limit = DEFAULT_TIMEOUT if timeout is None else float(timeout)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(lock_path, flags, 0o644)
    except OSError as exc:  # a folder (EISDIR) or a symlink (O_NOFOLLOW: ELOOP) where the lock belongs
        if os.path.islink(lock_path):
            raise NotALockFile(f"{Path(lock_path).name} is a symlink") from None
        if exc.errno == errno.EISDIR:
            raise NotALockFile(f"{Path(lock_path).name} is a folder") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotALockFile(f"{Path(lock_path).name} is {kind_of(mode)}")
        deadline = time.monotonic() + limit
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise LockTimeout(f"{Path(lock_path).name} is locked by another process")
            time.sleep(_POLL)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)
