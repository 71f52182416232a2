"""Reading a file that a setting, a learner or a data folder names, without ever waiting on it.

``open(path).read()`` on a FIFO waits until some other process writes to it, and on a device such
as ``/dev/zero`` it never ends. The course reads several such names (``COURSE_PROGRESS_FILE``, the
workspace's notebooks and manifest, ``data/*.json``), so they are read here: the path is checked
with ``os.stat`` before it is opened, opened non-blocking, and checked again with ``os.fstat`` (in
case it was swapped in between). Anything but a regular file is refused with
:class:`NotARegularFile`, whose ``kind`` says what it is (``"a folder"``, ``"a FIFO"``, ...).
A symlink is followed (its target is what counts).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["NotARegularFile", "kind_of", "read_regular", "special_kind"]

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class NotARegularFile(Exception):
    """The path is not a regular file. ``kind``: ``"a folder"``, ``"a FIFO"``, ``"a device"``,
    ``"a socket"`` or ``"not a regular file"``; ``str()`` is ``"<name> is <kind>"``."""

    def __init__(self, path: Path | str, kind: str):
        self.kind = kind
        super().__init__(f"{Path(path).name} is {kind}")


def kind_of(mode: int) -> str:
    """What an ``st_mode`` that is not a regular file's is, as a message says it (``"a FIFO"``)."""
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def special_kind(path: Path | str) -> str | None:
    """``kind_of`` the thing at ``path`` (a symlink is followed) when it exists and is not a
    regular file, else ``None`` (a regular file, nothing there, or a path that cannot be checked).
    Never raises and never opens it."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(mode) else kind_of(mode)


def read_regular(path: Path | str, *, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``, never waiting on a FIFO or reading a device.

    Args:
        path: the file (a symlink is followed).
        limit: read at most ``limit + 1`` bytes, so that a caller can tell "more than ``limit``"
            without reading a huge file whole; ``None`` reads everything.

    Raises:
        NotARegularFile: a folder, FIFO, device or socket (checked before and after opening).
        OSError: the file cannot be read (missing, permission denied, ...).
        ValueError: the path holds a NUL byte.
    """
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotARegularFile(path, kind_of(mode))
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(path, kind_of(mode))
        chunks, size = [], 0
        while limit is None or size <= limit:
            chunk = os.read(handle, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(handle)
    return b"".join(chunks)
