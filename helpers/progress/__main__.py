"""``python -m helpers.progress [--markdown]`` (``make progress``): :func:`helpers.progress.report.main`."""

from __future__ import annotations

from .report import main

if __name__ == "__main__":
    raise SystemExit(main())
