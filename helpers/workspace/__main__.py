"""``python -m helpers.workspace status | sync | reset NB | path`` (``make lab``, ``make status``,
``make reset``): :func:`helpers.workspace.commands.main`."""

from __future__ import annotations

from .commands import main

if __name__ == "__main__":
    raise SystemExit(main())
