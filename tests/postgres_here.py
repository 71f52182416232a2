"""Whether PostgreSQL's server programs are here: the tests that need a server skip, saying why, where they are not
(CI installs them: ``.ci/run``)."""

from __future__ import annotations

import pytest

from helpers.postgres import PostgresUnavailable, find_installation

try:
    INSTALLATION = find_installation()
    MISSING = ""
except PostgresUnavailable as exc:
    INSTALLATION, MISSING = None, str(exc)

#: Mark a test that starts a server of its own.
needs_postgres = pytest.mark.skipif(INSTALLATION is None, reason=f"no PostgreSQL here: {MISSING}")


def require_postgres() -> None:
    """Skip the calling test or fixture, saying why, when there is no PostgreSQL here."""
    if INSTALLATION is None:
        pytest.skip(f"no PostgreSQL here: {MISSING}")
