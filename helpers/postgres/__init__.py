"""PostgreSQL for notebook 18: a server of the course's own, and the database the notebook runs on.

* :mod:`helpers.postgres.server`: :class:`LocalPostgres`, a PostgreSQL server in a private folder with a
  Unix socket and no TCP port, started in about a second and stopped with its owner (also when the
  owner is killed); :func:`sweep` removes what a killed one left behind.
"""

from __future__ import annotations

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

__all__ = ["DATABASE", "Installation", "LocalPostgres", "PostgresUnavailable", "base_folder", "find_installation",
           "server_user", "sweep"]
