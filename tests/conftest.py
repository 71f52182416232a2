"""Shared test set-up: tests run offline whatever the developer's environment says."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _offline_env(monkeypatch):
    """Remove real-model configuration so every test sees the offline default."""
    for name in ("COURSE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
