"""The SQLite fallback's connection: the few PostgreSQL features notebook 18 uses, on an embedded database.

Where no PostgreSQL server can run (a laptop without it), notebook 18 runs on a SQLite file instead
(:mod:`helpers.postgres.engine`). Its cells write PostgreSQL's SQL; :class:`FallbackConnection` runs
that SQL on SQLite 3.35 or newer (``INSERT ... ON CONFLICT DO NOTHING RETURNING`` is shared by both),
with these translations, each one what SQLite lacks:

* **placeholders**: psycopg's ``%s`` becomes SQLite's ``?`` (``%%`` is a literal ``%``);
* **advisory locks**, which PostgreSQL keeps per session and releases when the session ends:
  ``pg_try_advisory_lock(key)``, ``pg_advisory_lock(key)`` (waits, at most ``lock_timeout``),
  ``pg_advisory_unlock(key)``, ``pg_advisory_unlock_all()`` and ``pg_try_advisory_xact_lock(key)`` are
  SQL functions here, backed by one lock file per key in the database's folder and ``flock`` (a lock
  belongs to the open file, so to this connection, and ends with it or with the process, as a
  session's does). Like PostgreSQL's session locks they are re-entrant: a connection that takes a
  key twice must release it twice. A transaction-level lock outside a transaction (this connection
  is in autocommit, as the notebook's psycopg connections are) is released when the statement ends;
* ``hashtext(text)`` / ``hashtextextended(text, seed)``: PostgreSQL's functions that turn a thread id
  into a lock key; here a stable 32-bit / 64-bit hash (other numbers than PostgreSQL's, used alike);
* ``SET lock_timeout = '...'`` sets how long ``pg_advisory_lock`` waits (``0``: for ever, the default);
  a wait that runs out raises :class:`LockTimeout`, PostgreSQL's ``canceling statement due to lock timeout``.
  It also bounds SQLite's wait for the file's write lock (``busy_timeout``): a ``transaction()`` is one
  writer for the whole file here, where PostgreSQL locks rows;
* ``FOR UPDATE SKIP LOCKED`` is dropped: SQLite lets one connection write at a time, so a claim made
  with ``UPDATE ... WHERE id = (SELECT ... LIMIT 1) RETURNING ...`` is already taken by one worker only.

Rows are tuples, as psycopg's default. ``transaction()`` is a ``BEGIN IMMEDIATE`` ... ``COMMIT``
block, like psycopg's ``Connection.transaction()``.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["FallbackConnection", "LockTimeout", "connect_fallback", "stable_hash"]

_PLACEHOLDER = re.compile(r"%%|%s")
_SKIP_LOCKED = re.compile(r"\s+FOR\s+UPDATE\s+SKIP\s+LOCKED\b", re.IGNORECASE)
_SET_LOCK_TIMEOUT = re.compile(r"^\s*SET\s+lock_timeout\s*(?:=|TO)\s*'?(\d+)\s*(ms|s)?'?\s*;?\s*$", re.IGNORECASE)
#: How often a waiting ``pg_advisory_lock`` tries again (seconds).
_POLL_S = 0.005
#: Seconds SQLite waits for another connection's write lock (Python's default is 5).
_BUSY_S = 30.0


class LockTimeout(sqlite3.OperationalError):
    """``pg_advisory_lock`` waited longer than ``lock_timeout`` (PostgreSQL: ``LockNotAvailable``)."""


def stable_hash(text: str, bits: int = 64, seed: int = 0) -> int:
    """A signed ``bits``-bit hash of ``text`` that is the same in every process (what ``hashtext`` is for)."""
    digest = hashlib.blake2b(f"{seed}:{text}".encode("utf-8", "surrogatepass"), digest_size=bits // 8).digest()
    return int.from_bytes(digest, "big", signed=True)


class _AdvisoryLocks:
    """One connection's advisory locks: key -> (open lock file, how many times taken)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.held: dict[int, list] = {}
        self.timeout_ms = 0
        self.statement_keys: list[int] = []  # xact locks taken by the running statement (autocommit)
        self.timed_out = False  # set by lock(): SQLite reports a function's exception only as a generic error

    def _path(self, key: int) -> Path:
        return self.folder / f"{key & 0xFFFFFFFFFFFFFFFF:016x}.lock"

    def try_lock(self, key: int) -> bool:
        if key in self.held:
            self.held[key][1] += 1
            return True
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._path(key), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        self.held[key] = [fd, 1]
        return True

    def lock(self, key: int) -> None:
        deadline = time.monotonic() + self.timeout_ms / 1000 if self.timeout_ms else None
        while not self.try_lock(key):
            if deadline is not None and time.monotonic() >= deadline:
                self.timed_out = True
                raise LockTimeout("canceling statement due to lock timeout")
            time.sleep(_POLL_S)

    def unlock(self, key: int) -> bool:
        entry = self.held.get(key)
        if entry is None:
            return False  # PostgreSQL: false, with the warning "you don't own a lock of type ExclusiveLock"
        entry[1] -= 1
        if entry[1] == 0:
            del self.held[key]
            fcntl.flock(entry[0], fcntl.LOCK_UN)
            os.close(entry[0])
        return True

    def unlock_all(self) -> None:
        for key in list(self.held):
            self.held[key][1] = 1
            self.unlock(key)


class FallbackConnection:
    """A SQLite connection that runs the notebook's PostgreSQL SQL (see the module docstring).

    Args:
        path: the SQLite file (shared by every process of the notebook).

    Thread-safe like psycopg's connection: one statement at a time.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, timeout=_BUSY_S, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._locks = _AdvisoryLocks(Path(self.path).parent / "advisory-locks")
        self._mutex = threading.RLock()
        self._in_transaction = False
        self.autocommit = True
        for name, arity, function in (
            ("pg_try_advisory_lock", 1, self._locks.try_lock),
            ("pg_advisory_lock", 1, lambda key: self._locks.lock(key) or ""),
            ("pg_advisory_unlock", 1, self._locks.unlock),
            ("pg_advisory_unlock_all", 0, lambda: self._locks.unlock_all() or ""),
            ("pg_try_advisory_xact_lock", 1, self._xact_lock),
            ("hashtext", 1, lambda text: stable_hash(str(text), 32)),
            ("hashtextextended", 2, lambda text, seed: stable_hash(str(text), 64, int(seed))),
        ):
            self._db.create_function(name, arity, function)

    def _xact_lock(self, key: int) -> bool:
        got = self._locks.try_lock(key)
        if got:
            self._locks.statement_keys.append(key)
        return got

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._db is None

    def execute(self, query: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run one statement written for psycopg (``%s`` placeholders); return its cursor (tuple rows).

        Raises:
            LockTimeout: ``pg_advisory_lock`` waited longer than ``lock_timeout``.
            sqlite3.Error: what SQLite says about the statement.
        """
        with self._mutex:
            if self._db is None:
                raise sqlite3.ProgrammingError("the connection is closed")
            timeout = _SET_LOCK_TIMEOUT.match(query)
            if timeout:
                value, unit = int(timeout.group(1)), (timeout.group(2) or "ms").lower()
                self._locks.timeout_ms = value * (1000 if unit == "s" else 1)
                # SQLite's own lock (another connection's open write transaction) gives up after as long
                return self._db.execute(f"PRAGMA busy_timeout = {self._locks.timeout_ms or int(_BUSY_S * 1000)}")
            sql = _SKIP_LOCKED.sub("", _PLACEHOLDER.sub(lambda m: "%" if m.group() == "%%" else "?", query))
            try:
                return self._db.execute(sql, tuple(params))
            except sqlite3.OperationalError:
                if self._locks.timed_out:
                    self._locks.timed_out = False
                    raise LockTimeout("canceling statement due to lock timeout") from None
                raise
            finally:
                if not self._in_transaction:
                    while self._locks.statement_keys:
                        self._locks.unlock(self._locks.statement_keys.pop())

    @contextmanager
    def transaction(self) -> Iterator[FallbackConnection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an exception), as psycopg's ``transaction()``."""
        with self._mutex:
            self._db.execute("BEGIN IMMEDIATE")
            self._in_transaction = True
            try:
                yield self
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")
            finally:
                self._in_transaction = False
                while self._locks.statement_keys:
                    self._locks.unlock(self._locks.statement_keys.pop())

    def close(self) -> None:
        """Close the database and release every advisory lock this connection holds."""
        with self._mutex:
            if self._db is None:
                return
            self._locks.unlock_all()
            self._db.close()
            self._db = None

    def __enter__(self) -> FallbackConnection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit
            pass


def connect_fallback(path: str | os.PathLike) -> FallbackConnection:
    """A :class:`FallbackConnection` to the SQLite file ``path``."""
    return FallbackConnection(path)
