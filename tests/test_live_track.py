"""The live track: every notebook runs to its end with a real model configured (issue 9).

Each notebook is executed by nbclient with the model factory pointed at the loopback
OpenAI-compatible server on 127.0.0.1 (``tests/loopback_openai.py``): protocol cases stay on the
scripted model, live cells ask the server. Asserted per notebook: no error output; the live cells
reached the server and every history they sent is one OpenAI accepts (every tool call answered by
its id, no orphan tool message: the server answers 400 otherwise); tool arguments the server made
up fit the bound schemas; and the API key appears in no output. The request bodies are checked
directly too: some live cell bound tools, and every body passes the same pairing rules OpenAI
applies (:func:`tests.loopback_openai.find_request_error`).

A second run uses a model that never calls a tool (``answers_in_text``) on four notebooks whose
live cells expect a tool call (02 tool calls, 06 Command, 11 the capstone, 12 Deep Agents; four
keep the suite short): each still runs to its end, and its live cells say that
the model answered in text instead of calling the tool.

The Chinese edition's built notebooks (``notebooks/zh/``, issue 22) run the same code cells as the
English ones byte for byte; all that differs in a kernel is the message catalog the helpers read
(``helpers.i18n``: the folder's edition marker), and every Chinese message keeps its source's
placeholders (``tests/test_zh_fresh.py``), the live cells' verdict line included
(``tests/test_display_live_i18n.py``). So a Chinese notebook runs the first test (as ``zh-NN``)
only where its live run can differ from the English one in more than the catalog's words: 00, which
prints the configured model in the edition's words, and any notebook whose code cells differ from
the English ones (none today; the selection is computed, so one that diverges is run). Running the
other 20 again cost about 185 worker-seconds of ``make test`` for nothing the English run and the
catalog checks had not proved (issue 28).
"""

from __future__ import annotations

import json

import pytest

from tooling.notebooks import NOTEBOOK_DIR, course_notebooks
from tests.live_notebooks import execute_notebook_live, output_text
from tests.loopback_openai import (  # noqa: F401 - the fixtures
    LOOPBACK_MODEL,
    find_request_error,
    loopback_openai,
    loopback_openai_text,
)

KEY = "sk-live-track-0123456789abcdefghij"
NOTEBOOKS = course_notebooks()


def _code_cells(path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def _runs_live_in_chinese(path) -> bool:
    """True for a Chinese notebook whose live run can differ from its English one beyond the catalog's
    words: 00 (the configured model, described in the edition's words), or code cells that are not the
    English notebook's (or no English notebook of that name)."""
    english = NOTEBOOK_DIR / path.name
    return path.name.startswith("00_") or not english.exists() or _code_cells(path) != _code_cells(english)


#: The Chinese edition's built notebooks (issue 22) that run live (see the module docstring).
ZH_NOTEBOOKS = [path for path in course_notebooks(NOTEBOOK_DIR / "zh") if _runs_live_in_chinese(path)]
TEXT_ONLY = [path for path in NOTEBOOKS if path.name[:2] in {"02", "06", "11", "12"}]


def test_every_course_notebook_is_covered():
    assert len(NOTEBOOKS) >= 12 and NOTEBOOKS[0].name.startswith("00_")
    assert len(TEXT_ONLY) == 4
    assert [path.name[:2] for path in ZH_NOTEBOOKS][:1] == ["00"]


def test_a_chinese_notebook_whose_code_differs_from_the_english_one_runs_live(tmp_path):
    english = NOTEBOOKS[1]
    chinese = tmp_path / english.name
    notebook = json.loads(english.read_text(encoding="utf-8"))
    assert not _runs_live_in_chinese(english), "the same code cells: the English run proves it"
    code = next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")
    code["source"] = "".join(code["source"]) + "\nprint('only in Chinese')"
    chinese.write_text(json.dumps(notebook), encoding="utf-8")
    assert _runs_live_in_chinese(chinese)
    assert _runs_live_in_chinese(tmp_path / "99_not_in_english.ipynb")


@pytest.mark.parametrize("path", NOTEBOOKS + ZH_NOTEBOOKS,
                         ids=lambda p: ("zh-" if p.parent.name == "zh" else "") + p.name[:2])
def test_notebook_runs_to_its_end_with_a_real_model(loopback_openai, tmp_path, path):  # noqa: F811
    errors, bodies = execute_notebook_live(path, loopback_openai, tmp_path, key=KEY, timeout=120)
    assert errors == [], f"{path.name} stopped live: {errors}"
    assert bodies, f"{path.name} has no live cell that asked the configured model"
    assert all(body["model"] == LOOPBACK_MODEL for body in bodies)
    rejected = [(r.status, r.body.get("messages", [])[-1:] if isinstance(r.body, dict) else r.body)
                for r in loopback_openai.requests if r.status != 200]
    assert rejected == [], "a live cell sent a history a provider refuses"
    assert loopback_openai.unfit_arguments == []
    assert any(body.get("tools") for body in bodies), f"no live cell of {path.name} bound a tool"
    refused = [(index, error.message) for index, body in enumerate(bodies)
               if (error := find_request_error(body)) is not None]
    assert refused == [], f"{path.name}: bodies a provider refuses: {refused}"
    assert KEY not in output_text(tmp_path / path.name), "the API key appeared in an output"
    if path.name.startswith("00_"):  # describe_model, in the notebook's edition
        via = "，经由自定义的 OPENAI_BASE_URL" if path.parent.name == "zh" else " via a custom OPENAI_BASE_URL"
        assert json.dumps(f"ChatOpenAI {LOOPBACK_MODEL}{via}")[1:-1] in output_text(tmp_path / path.name)


@pytest.mark.parametrize("path", TEXT_ONLY, ids=lambda p: p.name[:2])
def test_notebook_runs_to_its_end_when_the_model_answers_in_text(loopback_openai_text, tmp_path,  # noqa: F811
                                                                 path):
    errors, bodies = execute_notebook_live(path, loopback_openai_text, tmp_path, key=KEY, timeout=120)
    assert errors == [], f"{path.name} stopped when the model answered in text: {errors}"
    assert bodies, f"{path.name} has no live cell that asked the configured model"
    assert [r.status for r in loopback_openai_text.requests if r.status != 200] == []
    text = output_text(tmp_path / path.name)
    assert KEY not in text
    assert "your model answered in text instead of calling" in text, f"{path.name} never said so"
