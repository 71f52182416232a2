"""The loopback OpenAI-compatible server for tests: :mod:`helpers.model.loopback_openai`, plus pytest fixtures.

The server moved to ``helpers`` so that notebook 03 can start one; this module keeps the names
the tests import (``from tests.loopback_openai import LoopbackOpenAI, loopback_openai``) and the
command ``python -m tests.loopback_openai --port 8765``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from helpers.model.loopback_openai import (
    LOOPBACK_KEY,
    LOOPBACK_MODEL,
    Behaviour,
    LoopbackOpenAI,
    OpenAIError,
    RecordedHTTPRequest,
    find_request_error,
    main,
    plan_reply,
)

__all__ = ["LOOPBACK_KEY", "LOOPBACK_MODEL", "Behaviour", "LoopbackOpenAI", "OpenAIError", "RecordedHTTPRequest",
           "find_request_error", "loopback_openai", "loopback_openai_text", "main", "plan_reply"]


@pytest.fixture
def loopback_openai() -> Iterator[LoopbackOpenAI]:
    """A started :class:`LoopbackOpenAI` on 127.0.0.1 (a free port), stopped after the test.

    Import it into a test module (``from tests.loopback_openai import loopback_openai``) and use
    ``loopback_openai.base_url`` / ``loopback_openai.env()`` / ``loopback_openai.bodies``.
    """
    with LoopbackOpenAI() as server:
        yield server


@pytest.fixture
def loopback_openai_text() -> Iterator[LoopbackOpenAI]:
    """Like :func:`loopback_openai`, but the model never calls a tool (``behaviour="answers_in_text"``)."""
    with LoopbackOpenAI(behaviour="answers_in_text") as server:
        yield server


if __name__ == "__main__":
    raise SystemExit(main())
