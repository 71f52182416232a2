"""``python -m helpers.postgres``: the course's PostgreSQL server from a shell (``make postgres``).

* ``serve`` (the default): start a server (:class:`~helpers.postgres.server.LocalPostgres`), print how to
  connect (a ``psql`` command and the libpq connection string), and keep it until Ctrl-C or end of input;
  then stop it and remove its folder. Nothing is left running after the command ends.
* ``sweep``: stop and remove what killed servers left behind (:func:`~helpers.postgres.server.sweep`).
* ``where``: print where the PostgreSQL programs are, or why there are none (exit status 1).
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence

from .server import LocalPostgres, PostgresUnavailable, base_folder, find_installation, sweep


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (1: PostgreSQL cannot run here, with the reason on stderr)."""
    parser = argparse.ArgumentParser(prog="python -m helpers.postgres", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="serve", choices=["serve", "sweep", "where"])
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.command == "sweep":
        removed = sweep()
        print(f"removed {len(removed)} orphaned server folder(s) under {base_folder()}")
        return 0
    try:
        installation = find_installation()
        if args.command == "where":
            print(f"PostgreSQL {installation.version()} in {installation.bindir}")
            return 0
        server = LocalPostgres.start(installation=installation)
    except PostgresUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        print(f"PostgreSQL is running in {server.folder} (Unix socket only, no TCP port).")
        print(f'connect with:  psql "{server.conninfo}"')
        print("press Ctrl-C (or Ctrl-D) to stop it; its folder is removed then.", flush=True)
        try:
            while sys.stdin.readline():
                pass
        except KeyboardInterrupt:
            pass
    finally:
        server.stop()
        print("stopped.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
