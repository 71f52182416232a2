"""The live track: every notebook runs to its end with a real model configured (issue 9).

Each notebook is executed by nbclient with the model factory pointed at the loopback
OpenAI-compatible server on 127.0.0.1 (``tests/loopback_openai.py``): protocol cases stay on the
scripted model, live cells ask the server. Asserted per notebook: no error output; the live cells
reached the server and every history they sent is one OpenAI accepts (every tool call answered by
its id, no orphan tool message: the server answers 400 otherwise); tool arguments the server made
up fit the bound schemas; and the API key appears in no output.
"""

from __future__ import annotations

import pytest

from helpers.notebooks import course_notebooks
from tests.live_notebooks import execute_notebook_live, output_text
from tests.loopback_openai import LOOPBACK_MODEL, loopback_openai  # noqa: F401 - the fixture

KEY = "sk-live-track-0123456789abcdefghij"
NOTEBOOKS = course_notebooks()


def test_every_course_notebook_is_covered():
    assert len(NOTEBOOKS) >= 12 and NOTEBOOKS[0].name.startswith("00_")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_notebook_runs_to_its_end_with_a_real_model(loopback_openai, tmp_path, path):  # noqa: F811
    errors, bodies = execute_notebook_live(path, loopback_openai, tmp_path, key=KEY, timeout=120)
    assert errors == [], f"{path.name} stopped live: {errors}"
    assert bodies, f"{path.name} has no live cell that asked the configured model"
    assert all(body["model"] == LOOPBACK_MODEL for body in bodies)
    rejected = [(r.status, r.body.get("messages", [])[-1:] if isinstance(r.body, dict) else r.body)
                for r in loopback_openai.requests if r.status != 200]
    assert rejected == [], "a live cell sent a history a provider refuses"
    assert loopback_openai.unfit_arguments == []
    assert KEY not in output_text(tmp_path / path.name), "the API key appeared in an output"
    if path.name.startswith("00_"):
        assert f"ChatOpenAI {LOOPBACK_MODEL} via a custom OPENAI_BASE_URL" in output_text(tmp_path / path.name)
