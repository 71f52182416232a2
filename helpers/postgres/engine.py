"""The database notebook 18 runs on: the course's own PostgreSQL server, or an embedded SQLite fallback.

:func:`course_database` is the notebook's one entry point. The first call in a process starts a
:class:`~helpers.postgres.server.LocalPostgres` (stopped when the process ends); where PostgreSQL is
not installed, or cannot run, it picks the fallback instead: a SQLite file in a temporary folder
(removed when the process ends), whose connections run the notebook's PostgreSQL SQL
(:mod:`helpers.postgres.fallback`). :meth:`CourseDatabase.describe` is the notebook's first output:
which engine it runs on and, for the fallback, why and what differs.

``COURSE_POSTGRES`` chooses: unset or ``auto`` (PostgreSQL when it can run, else SQLite), ``off``
(SQLite), ``require`` (PostgreSQL or :class:`~helpers.postgres.server.PostgresUnavailable`: a
course run that must not silently fall back).

A :class:`CourseDatabase` hands out what the lessons use, each on a connection of its own:
:meth:`~CourseDatabase.connect` (autocommit, tuple rows: psycopg 3.3 or the fallback),
:meth:`~CourseDatabase.checkpointer` (``PostgresSaver`` of langgraph-checkpoint-postgres 3.2.0, or
``SqliteSaver``) and :meth:`~CourseDatabase.store` (``PostgresStore`` or ``SqliteStore``). A worker
process opens the same database with :func:`open_database` ``(db.spec)``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..i18n import N_, _
from .fallback import FallbackConnection
from .server import LocalPostgres, PostgresUnavailable, find_installation

__all__ = ["CourseDatabase", "DatabaseSpec", "Engine", "course_database", "current_database", "fallback_database",
           "open_database", "start_database"]

#: The two engines notebook 18 can run on.
Engine = Literal["postgresql", "sqlite"]

_POSTGRES_LINE = N_("engine: PostgreSQL, a server the course started for this kernel in a folder of its own "
                    "(Unix socket, no TCP port); it stops when the kernel ends")
_SQLITE_LINE = N_("engine: SQLite, the embedded fallback: {reason}")
_SQLITE_DIFFERS = N_(
    "what differs from the PostgreSQL run stored in this notebook: SqliteSaver keeps checkpoints in two "
    "tables (checkpoints, writes) instead of three (checkpoints, checkpoint_blobs, checkpoint_writes); "
    "advisory locks are the course's stand-in (a lock file per key); FOR UPDATE SKIP LOCKED is dropped "
    "(SQLite lets one connection write at a time); SqliteStore stands in for PostgresStore. The invariants "
    "are the same; some printed rows differ")


@dataclass(frozen=True)
class DatabaseSpec:
    """What another process needs to open the same database: the ``engine`` and its ``target``
    (a libpq connection string for PostgreSQL, the file's path for SQLite). Picklable."""

    engine: Engine
    target: str


class CourseDatabase:
    """One database of the course (see the module docstring).

    Args:
        spec: the engine and its target.
        reason: why this is the fallback (empty for PostgreSQL).
        owner: what to stop or remove when :meth:`close` is called (the server, or the fallback's
            folder); ``None`` for a database another process owns (:func:`open_database`).
    """

    def __init__(self, spec: DatabaseSpec, *, reason: str = "", owner: LocalPostgres | Path | None = None) -> None:
        self.spec = spec
        self.reason = reason
        self._owner = owner

    @property
    def engine(self) -> Engine:
        """``"postgresql"`` or ``"sqlite"``."""
        return self.spec.engine

    @property
    def server(self) -> LocalPostgres | None:
        """The course's server when this process started it, else ``None``."""
        return self._owner if isinstance(self._owner, LocalPostgres) else None

    def describe(self) -> str:
        """The notebook's first output: the engine, and for the fallback why and what differs (translated)."""
        if self.engine == "postgresql":
            return _(_POSTGRES_LINE)
        return _(_SQLITE_LINE).format(reason=self.reason) + "\n" + _(_SQLITE_DIFFERS)

    # -- connections --------------------------------------------------------------------------------

    def connect(self) -> Any:
        """A new connection in autocommit mode with tuple rows (``close()`` it, or use ``with``).

        Returns:
            a ``psycopg.Connection`` (PostgreSQL) or a :class:`~helpers.postgres.fallback.FallbackConnection`;
            both have ``execute(sql, params)`` with ``%s`` placeholders and ``transaction()``.
        """
        if self.engine == "postgresql":
            import psycopg

            return psycopg.connect(self.spec.target, autocommit=True)
        return FallbackConnection(self.spec.target)

    def checkpointer(self) -> Any:
        """A new checkpointer on a connection of its own; call ``setup()`` once per database.

        Returns:
            ``PostgresSaver(psycopg.connect(target, autocommit=True, prepare_threshold=0, row_factory=dict_row))``
            (what ``PostgresSaver.from_conn_string`` builds, langgraph-checkpoint-postgres 3.2.0; ``setup()``
            needs autocommit: it creates indexes ``CONCURRENTLY``), or ``SqliteSaver`` on the fallback file.
        """
        if self.engine == "postgresql":
            import psycopg
            from langgraph.checkpoint.postgres import PostgresSaver
            from psycopg.rows import dict_row

            return PostgresSaver(psycopg.connect(self.spec.target, autocommit=True, prepare_threshold=0,
                                                 row_factory=dict_row))
        from langgraph.checkpoint.sqlite import SqliteSaver

        return SqliteSaver(sqlite3.connect(self.spec.target, check_same_thread=False, timeout=30.0))

    def store(self) -> Any:
        """A new long-term store on a connection of its own; call ``setup()`` once per database.

        Returns:
            ``PostgresStore`` (langgraph-checkpoint-postgres 3.2.0) or ``SqliteStore`` (autocommit, as
            ``SqliteStore.from_conn_string`` opens it).
        """
        if self.engine == "postgresql":
            import psycopg
            from langgraph.store.postgres import PostgresStore
            from psycopg.rows import dict_row

            return PostgresStore(psycopg.connect(self.spec.target, autocommit=True, prepare_threshold=0,
                                                 row_factory=dict_row))
        from langgraph.store.sqlite import SqliteStore

        return SqliteStore(sqlite3.connect(self.spec.target, check_same_thread=False, isolation_level=None,
                                           timeout=30.0))

    def tables(self) -> list[str]:
        """The names of the tables in the database, sorted (SQLite's own ``sqlite_*`` tables left out)."""
        query = ("SELECT tablename FROM pg_tables WHERE schemaname = 'public'" if self.engine == "postgresql"
                 else "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        with self.connect() as conn:
            return sorted(row[0] for row in conn.execute(query).fetchall())

    # -- the end --------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the server this process started, or remove the fallback's folder. Idempotent."""
        owner, self._owner = self._owner, None
        if isinstance(owner, LocalPostgres):
            owner.stop()
        elif isinstance(owner, Path):
            shutil.rmtree(owner, ignore_errors=True)

    def __repr__(self) -> str:
        return f"CourseDatabase(engine={self.engine!r})"


def open_database(spec: DatabaseSpec) -> CourseDatabase:
    """The database ``spec`` names, opened by another process than the one that owns it (a worker)."""
    return CourseDatabase(spec)


def fallback_database(reason: str) -> CourseDatabase:
    """A new SQLite fallback in a temporary folder, removed at :meth:`~CourseDatabase.close` or exit."""
    folder = Path(tempfile.mkdtemp(prefix="course-sqlite-"))
    database = CourseDatabase(DatabaseSpec("sqlite", str(folder / "course.sqlite")), reason=reason, owner=folder)
    FallbackConnection(database.spec.target).close()  # creates the file, in WAL mode
    atexit.register(database.close)
    return database


def start_database(env: dict[str, str] | None = None) -> CourseDatabase:
    """A new database: a fresh course server, or the fallback (``COURSE_POSTGRES`` in ``env``, default
    ``os.environ``, chooses; see the module docstring). Closed at :meth:`~CourseDatabase.close` or exit.

    Raises:
        PostgresUnavailable: ``COURSE_POSTGRES=require`` and no server could start (the message says why).
    """
    env = os.environ if env is None else env
    choice = env.get("COURSE_POSTGRES", "auto").strip().lower()
    try:
        server = LocalPostgres.start(installation=find_installation(env))
    except PostgresUnavailable as exc:
        if choice == "require":
            raise
        return fallback_database(str(exc))
    database = CourseDatabase(DatabaseSpec("postgresql", server.conninfo), owner=server)
    atexit.register(database.close)
    return database


_CURRENT: list[CourseDatabase] = []
_LOCK = threading.Lock()


def course_database() -> CourseDatabase:
    """This process's database: :func:`start_database` on the first call, the same one after.

    Raises:
        PostgresUnavailable: ``COURSE_POSTGRES=require`` and no server could start (the message says why).
    """
    with _LOCK:
        if not _CURRENT:
            _CURRENT.append(start_database())
        return _CURRENT[0]


def current_database() -> CourseDatabase | None:
    """This process's database if :func:`course_database` made one already, else ``None`` (never starts one)."""
    with _LOCK:
        return _CURRENT[0] if _CURRENT else None
