"""Re-executing a notebook that nothing changed changes no byte (issue 28), in both editions.

``python -m tooling.notebooks`` (and ``make zh``, which uses it) writes what strict nbval compares
and nothing that differs run to run: no widget state, no timing, and a widget's view with an empty
model id (the id is a random comm id, :func:`tooling.notebook_files._forget_widget_model`). Here
one notebook of each edition, each with widgets (02: the "play the model" widget and the
self-check; the Chinese 00: its self-check), is executed again into a scratch file and compared
byte for byte with the committed file, which the runner wrote in an earlier run: so a second run
leaves ``git status`` clean. The runner's normalising itself is tested on a made-up notebook.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import nbformat
import pytest

from tooling.notebook_files import WIDGET_VIEW, _normalise
from tooling.notebooks import NOTEBOOK_DIR, execute_notebook

#: One notebook per edition, each showing widgets (a random model id each, before issue 28).
AGAIN = ("02_tool_calls_are_requests.ipynb", "zh/00_start_here.ipynb")


def _first_difference(committed: str, now: str) -> str:
    """A unified diff of the two files' text (``-`` committed, ``+`` this run), at most 40 lines."""
    lines = list(difflib.unified_diff(committed.splitlines(), now.splitlines(), "committed", "executed again",
                                      lineterm="", n=2))
    return "\n".join(lines[:40]) + ("\n..." if len(lines) > 40 else "")


@pytest.mark.parametrize("name", AGAIN)
def test_executing_a_notebook_again_gives_the_committed_bytes(name, tmp_path):
    committed = NOTEBOOK_DIR / name
    if not committed.is_file():
        pytest.skip(f"{name} is not built in this checkout")
    scratch = tmp_path / Path(name).name
    # In its own folder (the kernel's working directory, as for `make notebooks`), written elsewhere.
    execute_notebook(committed, output=scratch)
    before, after = committed.read_text(encoding="utf-8"), scratch.read_text(encoding="utf-8")
    assert after == before, (
        f"executing {name} again changed it (a stale commit shows here too, and fails strict nbval):\n"
        + _first_difference(before, after))


def test_the_runner_stores_a_widget_view_without_its_model_id_and_keeps_the_rest():
    view = {"model_id": "3ec7d2dd2a854886a43ac36ef97dae35", "version_major": 2, "version_minor": 0}
    static = {"output_type": "display_data", "metadata": {},
              "data": {"text/html": "<div class='course-static'>Q1</div>", "text/plain": "Q1"}}
    widget = {"output_type": "display_data", "metadata": {},
              "data": {WIDGET_VIEW: dict(view), "text/plain": "Check yourself: run this cell to answer them"}}
    cell = nbformat.v4.new_code_cell("self_check('03')", id="cell-007", outputs=[static, widget])
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    _normalise(nb)
    assert "widgets" not in nb.metadata
    stored = nb.cells[0].outputs
    assert stored[0] == static, "the static rendering stays as it was"
    assert stored[1]["data"][WIDGET_VIEW] == {**view, "model_id": ""}
    assert stored[1]["data"]["text/plain"] == "Check yourself: run this cell to answer them"
