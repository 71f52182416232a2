"""PostgreSQL for notebook 18: a server of the course's own, the database the notebook runs on, the desk.

* :mod:`helpers.postgres.server`: :class:`LocalPostgres`, a PostgreSQL server in a private folder with a
  Unix socket and no TCP port, started in about a second and stopped with its owner (also when the
  owner is killed); :func:`sweep` (:mod:`helpers.postgres.orphans`) removes what a killed one left behind. ``python -m helpers.postgres``
  (``make postgres``) serves one from a shell.
* :mod:`helpers.postgres.engine`: :func:`course_database`, the notebook's database: the course's server,
  or an embedded SQLite fallback (:mod:`helpers.postgres.fallback`) that runs the notebook's PostgreSQL SQL.
* :mod:`helpers.postgres.ledger`, :mod:`~helpers.postgres.desk`, :mod:`~helpers.postgres.queue`,
  :mod:`~helpers.postgres.workers`: the refund desk every worker process builds, its refund ledger, the run
  queue and the worker processes (imported on their own: they load LangChain).
"""

from __future__ import annotations

from .engine import (
    CourseDatabase,
    DatabaseSpec,
    Engine,
    course_database,
    current_database,
    fallback_database,
    open_database,
    start_database,
)
from .server import (
    DATABASE,
    Installation,
    LocalPostgres,
    PostgresUnavailable,
    base_folder,
    find_installation,
    server_user,
    sweep,
)

__all__ = ["DATABASE", "CourseDatabase", "DatabaseSpec", "Engine", "Installation", "LocalPostgres",
           "PostgresUnavailable", "base_folder", "course_database", "current_database", "fallback_database",
           "find_installation", "open_database", "server_user", "start_database", "sweep"]
