"""``python -m tooling.scaffold NN "Title"`` (``make new-notebook``): :func:`tooling.scaffold.main`."""

from __future__ import annotations

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
