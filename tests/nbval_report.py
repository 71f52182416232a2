"""Strict nbval's failure report, rewritten so a maintainer can act on it (issue 28).

nbval 0.11 names a failing cell "Cell 5", counting code cells only, and shows an output mismatch as
pytest's comparison ``reference_output == test_output``, in which pytest marks the committed
output ``+`` and this run's ``-``: the reverse of ``git diff``. This plugin (registered for every
pytest run in the course by the root ``conftest.py``, so ``pytest notebooks/03_x.ipynb`` gets it
too) replaces the report of a failed notebook cell with::

    cell-012, cell 12 of 40 counting every cell from 0 (nbval's "Cell 5" counts code cells only), in
    notebooks/03_x.ipynb: outputs differ in 'stdout'
      | print(result)
    Cell outputs differ in 'stdout' (- committed, + this run):
    --- committed notebooks/03_x.ipynb
    +++ this run
    @@ -1 +1 @@
    -refund: 40.00
    +refund: 45.00

The cell id is the one in the notebook's JSON (``tooling.notebooks`` keeps ``cell-NNN`` ids; a
translation is keyed by them), and the position counts every cell from 0 as ``tooling.notebooks``
and the drift report do. What is compared is what nbval compares (its ``skip_compare``, its stream
merging, its sanitising): the committed outputs are read again from the file, because nbval merges
the committed streams in place while it compares. A cell that raised, timed out or was not run
keeps nbval's message and traceback under the same heading.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections import defaultdict

import nbformat
import pytest

#: At most this many diff lines per mimetype (a runaway output stays readable).
MAX_DIFF_LINES = 60
#: Source lines shown under the heading.
SOURCE_LINES = 3
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _is_nbval_cell(item: pytest.Item) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "cell_num")  # nbval 0.11's cell item


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Replace the long report of a failed nbval cell (see the module docstring)."""
    report = yield
    if report.failed and call.excinfo is not None and _is_nbval_cell(item):
        try:
            report.longrepr = failure_report(item, call.excinfo.value)
        except Exception as exc:  # noqa: BLE001 - never lose nbval's own report
            report.longrepr = f"{report.longrepr}\n\n(the course's nbval report failed: {type(exc).__name__}: {exc})"
    return report


def failure_report(item: pytest.Item, error: BaseException) -> str:
    """The report of nbval cell ``item`` that failed with ``error`` (nbval's ``NbCellError`` or another exception)."""
    committed_nb = nbformat.read(str(item.path), as_version=4)
    index = _cell_index(committed_nb, item)
    message = str(error)
    differs = message == "Cell outputs differ" and item.test_outputs is not None
    if differs:
        committed = _coalesced(committed_nb.cells[index].get("outputs", [])) if index is not None else []
        body = output_diff(item, committed, item.test_outputs)
        what = "outputs differ in " + ", ".join(_keys(body))
    else:
        what = message if type(error).__name__ == "NbCellError" else f"{type(error).__name__}: {message}"
        traceback = getattr(error, "inner_traceback", None)
        body = ["Traceback:", _ANSI.sub("", traceback).strip("\n")] if traceback else []
    position = "?" if index is None else str(index)
    lines = [f"{item.cell.get('id', '(no id)')}, cell {position} of {len(committed_nb.cells)} counting every cell "
             f"from 0 (nbval's \"Cell {item.cell_num}\" counts code cells only), in {item.nodeid.split('::')[0]}: {what}"]
    source = item.cell.source.splitlines()
    lines += [f"  | {line}" for line in source[:SOURCE_LINES]]
    if len(source) > SOURCE_LINES:
        lines.append(f"  | ... ({len(source) - SOURCE_LINES} more lines)")
    return "\n".join(lines + body)


def _keys(body: list[str]) -> list[str]:
    """The compared keys named in :func:`output_diff`'s headings (``'stdout'``, ``'text/html'``)."""
    return [line.split("'")[1] for line in body if line.startswith("Cell outputs differ") and "'" in line] or ["?"]


def _cell_index(nb: nbformat.NotebookNode, item: pytest.Item) -> int | None:
    """The cell's position among all cells of the committed notebook: by its id, else as nbval counts code cells."""
    cell_id = item.cell.get("id")
    for index, cell in enumerate(nb.cells):
        if cell_id and cell.get("id") == cell_id:
            return index
    code = [index for index, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    return code[item.cell_num] if item.cell_num < len(code) else None


def _coalesced(outputs: list) -> list:
    from nbval.plugin import coalesce_streams

    return coalesce_streams(copy.deepcopy(outputs))


def flatten(item: pytest.Item, outputs: list) -> dict[str, list]:
    """What nbval compares of ``outputs``: ``{key: [value, ...]}``, a stream's text under its name
    (``stdout``), each mimetype of ``data`` under its own name, nbval's ``skip_compare`` left out and
    its sanitising applied (nbval 0.11 ``IPyNbCell.compare_outputs``)."""
    from nbval.plugin import transform_streams_for_comparison

    skip = item.parent.skip_compare
    flat: dict[str, list] = defaultdict(list)
    for output in transform_streams_for_comparison(outputs):
        for key, value in output.items():
            if key in skip:
                continue
            if key == "data":
                for mime, data in value.items():
                    if mime not in skip:
                        flat[mime].append(item.sanitize(data))
            else:
                flat[key].append(item.sanitize(value))
    return flat


def _text(values: list) -> list[str]:
    from nbval.plugin import _trim_base64

    lines: list[str] = []
    for number, value in enumerate(values):
        if number:
            lines.append("---- (next output of the same kind)")
        if not isinstance(value, str):
            value = json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
        lines += _trim_base64(value).splitlines()
    return lines


def output_diff(item: pytest.Item, committed: list, now: list) -> list[str]:
    """Report lines for each compared key whose values differ: a unified diff, ``-`` committed, ``+`` this run."""
    before, after = flatten(item, committed), flatten(item, now)
    where = item.path.name
    lines: list[str] = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, []), after.get(key, [])
        if old == new:
            continue
        if not old:
            lines.append(f"Cell outputs differ: this run has '{key}', the committed cell has none (+ this run):")
        elif not new:
            lines.append(f"Cell outputs differ: the committed cell has '{key}', this run has none (- committed):")
        else:
            lines.append(f"Cell outputs differ in '{key}' (- committed, + this run):")
        diff = list(difflib.unified_diff(_text(old), _text(new), f"committed {where}", "this run", lineterm=""))
        lines += diff[:MAX_DIFF_LINES]
        if len(diff) > MAX_DIFF_LINES:
            lines.append(f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)")
    return lines or ["Cell outputs differ (nbval found a difference this report cannot show: see nbval's own "
                     "message with -p no:tests.nbval_report)"]
