"""Column-aligned printouts fit one output line in JupyterLab at 1280 px (issue 17, "Pages that fit").

A learner reads the course in JupyterLab in a 1280 px wide window with the file browser open (its
default layout). A printed line longer than the output area wraps, and a row of aligned columns
that wraps loses its alignment: the rest of the row starts again at the left edge.

The budget, :data:`helpers.display.text.OUTPUT_WIDTH` = 107 monospace columns, was measured once
(2026-12-02) in headless Chromium (Playwright, Debian chromium 156) on JupyterLab 4.6.6 started on
127.0.0.1 as ``tests/test_lab_browser.py`` starts it: a 1280 x 800 viewport, ``/lab?reset`` (the
file browser open, 250 px), notebook 03 opened with its committed outputs, not run. In the first
stream output's ``<pre>`` (13 px, ``menlo, consolas, "DejaVu Sans Mono", monospace``; DejaVu Sans
Mono rendered, whose advance Menlo shares) the page measured: the ``<pre>`` is 840.2 px wide, a
character 7.83 px (a 400-character span), so 107.3 characters; then lines of k characters were
written into the ``<pre>`` (``white-space: pre-wrap``, ``word-break: break-all``) and the height
read: 107 stay on one line, 108 wrap, with or without spaces in the line. CJK characters count 2
columns here (:func:`helpers.display.text.text_width`): headless Chromium had no CJK font, so
their width was not measured; a CJK font's glyphs are about twice as wide as Latin monospace.

What is checked: every line of a committed output a learner sees as text (stream output, and
``text/plain`` when no richer mimetype that JupyterLab would render instead is present) in
every notebook (00-17) of both editions (``notebooks/zh`` too). A line is **column-aligned** when, after its indentation, two pieces of
text are separated by a run of two or more spaces (``edit('abc')  -> refused  The amount ...``,
``plain run:            {...}``): that is how the course pads columns (``f"{x:<12}"``,
:func:`helpers.display.fit_row`). Indentation inside a string (after an escaped ``\\n`` in JSON or a
repr) is not a gap. Lines without such a gap (a library's error message, a repr, long JSON) may
wrap harmlessly: wrapping them loses no alignment, and the lessons show them as they are.

A column-aligned row is made to fit with :func:`helpers.display.fit_row`: its last column wraps
under itself. There are no exceptions: every notebook is checked.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers.display.text import OUTPUT_WIDTH, fit_row, text_width

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: The Chinese edition's notebooks (``make zh``; issue 22): the same code, so the same cell ids and rows.
ZH_NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
#: Mimetypes JupyterLab renders in place of ``text/plain`` when an output has them.
_RICHER = ("text/html", "text/markdown", "text/latex", "image/png", "image/jpeg", "image/svg+xml",
           "application/vnd.jupyter.widget-view+json")
_GAP = re.compile(r"\S {2,}\S")
_ESCAPED_INDENT = re.compile(r"\\n +")

def is_column_aligned(line: str) -> bool:
    """True when ``line`` has two pieces of text separated by 2+ spaces (not counting indentation,
    nor indentation after an escaped ``\\n`` inside a JSON string or repr)."""
    return bool(_GAP.search(_ESCAPED_INDENT.sub(r"\\n", line.strip())))


def shown_text(output: dict) -> str:
    """The text JupyterLab shows for one output: a stream's text, or ``text/plain`` when nothing
    richer is there; ``""`` for anything else (errors, Markdown, HTML, widgets, images)."""
    if output.get("output_type") == "stream":
        return "".join(output.get("text", ""))
    data = output.get("data", {})
    if "text/plain" in data and not any(kind in data for kind in _RICHER):
        return "".join(data["text/plain"])
    return ""


def wide_aligned_rows(notebook: Path) -> list[tuple[str, int, str]]:
    """``(cell id, width, line)`` for every committed column-aligned line wider than the budget."""
    found = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        for output in cell.get("outputs", []):
            for line in shown_text(output).split("\n"):
                if text_width(line) > OUTPUT_WIDTH and is_column_aligned(line):
                    found.append((cell.get("id", "?"), text_width(line), line))
    return found


@pytest.mark.parametrize("notebook", NOTEBOOKS + ZH_NOTEBOOKS,
                         ids=lambda path: ("zh/" if path.parent.name == "zh" else "") + path.stem[:2])
def test_column_aligned_output_fits_1280px(notebook):
    """No committed column-aligned output line is wider than OUTPUT_WIDTH (107) columns."""
    wide = [f"{notebook.name} {cell_id}: {width} columns > {OUTPUT_WIDTH}: {line[:80]}..."
            for cell_id, width, line in wide_aligned_rows(notebook)]
    assert not wide, ("column-aligned lines that wrap in JupyterLab at 1280 px (print them with "
                      "helpers.fit_row):\n" + "\n".join(wide))


def test_the_collection_sees_the_notebooks_and_their_rows():
    """The scan is not empty by accident: 18 notebooks, and 08's approval rows are found as aligned."""
    assert len(NOTEBOOKS) >= 18
    lines = [line for cell in json.loads((ROOT / "notebooks" / "08_interrupt_and_resume.ipynb").read_text())["cells"]
             if cell.get("id") == "cell-089" for out in cell.get("outputs", []) for line in shown_text(out).split("\n")]
    assert sum(is_column_aligned(line) for line in lines) >= 5


@pytest.mark.parametrize(("line", "aligned"), [
    ("edit('abc')  -> refused  The amount 'abc' is not a number", True),
    ("plain run:            {'thread_id': None}", True),
    ("  assistant  tool call id=call_1: lookup_order({})", True),
    ("ValueError: Expected to have a matching ToolMessage in Command.update", False),
    ('  "description": "Look up one order.\\n\\n    Args:\\n        order_id: The id."', False),
    ("        indented library text, one space between words", False),
])
def test_what_counts_as_column_aligned(line, aligned):
    assert is_column_aligned(line) is aligned


def test_fit_row_wraps_the_last_column_under_itself_and_loses_nothing():
    message = ("The amount 'abc' is not a number: write digits with an optional decimal point, e.g. 120 or "
               "120.50. Nothing was sent.")
    prefix = f"{'edit(abc)':<12} -> {'refused':<8} "
    lines = fit_row(prefix, message).split("\n")
    assert len(lines) == 2 and all(text_width(line) <= OUTPUT_WIDTH for line in lines)
    assert lines[0].startswith(prefix) and lines[1].startswith(" " * len(prefix)) and lines[1][len(prefix)] != " "
    assert " ".join(line.strip() for line in [lines[0][len(prefix):], *lines[1:]]) == message
    assert fit_row("short:  ", "fits") == "short:  fits"


def test_fit_row_counts_cjk_as_two_columns_and_moves_text_below_a_wide_prefix():
    lines = fit_row("说明: ", "退款" * 80).split("\n")
    assert all(text_width(line) <= OUTPUT_WIDTH for line in lines) and "".join(lines).count("退款") == 80
    wide = fit_row("x" * 90, "word " * 30).split("\n")
    assert wide[0] == "x" * 90 and all(line.startswith("    w") for line in wide[1:])
    assert all(text_width(line) <= OUTPUT_WIDTH for line in wide)


def test_the_progress_table_fits(tmp_path, monkeypatch):
    """The plain-text progress table (``make progress``, the report's text form) fits the budget."""
    import helpers.progress.report as progress

    monkeypatch.setenv(progress.PROGRESS_FILE_ENV, str(tmp_path / "progress.json"))
    questions = {f"{n:02d}": ("q1", "q2", "q3", "q4", "q5") for n in range(17)}
    table = progress.progress_table(questions=questions)
    wide = [line for line in table.splitlines() if text_width(line) > OUTPUT_WIDTH]
    assert not wide, f"{len(wide)} lines over {OUTPUT_WIDTH} columns, e.g. {wide[0]!r}"
    words = table.split()
    for entry in progress.EXERCISES:  # wrapped, never cut: every word of every exercise title is there
        assert all(word in words for word in f"{entry.id} {entry.title}".split()), entry.id
