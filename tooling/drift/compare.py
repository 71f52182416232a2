"""Compare a committed notebook with the same notebook executed on newer releases, and report it.

The comparison follows strict nbval 0.11 (``IPyNbFile.skip_compare``): per code cell, the outputs in
order, each by its ``output_type`` and content (stream text, every ``data`` MIME type, ``ename`` and
``evalue`` of an error); never metadata, execution counts, tracebacks, widget model ids
(``application/vnd.jupyter.widget-view+json``) or images (``image/png``, ``image/jpeg``). So a cell
reported here is a cell strict nbval would fail on the new releases, and a cell nbval accepts is never
reported. Cells are matched by id (``cell-001``, ... as ``tooling.notebooks`` writes them), so a
report names the cell a maintainer opens.

Everything here is pure (notebooks in, data out): ``tests/test_drift.py`` runs it on recorded pairs.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..notebook_files import _coalesce_streams

__all__ = ["SKIPPED_MIME", "CellChange", "NotebookDrift", "compare_notebooks", "output_lines", "render_json",
           "render_markdown"]

#: MIME types strict nbval does not compare (random widget model ids; images).
SKIPPED_MIME = frozenset({"application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg"})
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")

#: How a cell differs: its outputs changed, or the cell is gone from the executed copy.
ChangeKind = Literal["outputs changed", "cell missing"]


@dataclass(frozen=True)
class CellChange:
    """One code cell whose outputs differ on the new releases.

    Attributes:
        cell_id: the cell's id (``cell-012``).
        index: its position in ``nb.cells`` (0-based, markdown cells counted, as ``tooling.notebooks`` reports).
        first_line: the first line of its source.
        kind: see :data:`ChangeKind`.
        new_error: ``"Type: message"`` when the new run raised where the committed outputs hold no
            error (a notebook that breaks, not merely prints something else), else ``""``.
        diff: a unified diff (``--- pinned`` / ``+++ drift``) of the outputs, one string per line.
    """

    cell_id: str
    index: int
    first_line: str
    kind: ChangeKind
    new_error: str
    diff: tuple[str, ...]


@dataclass
class NotebookDrift:
    """One notebook's comparison: how many code cells it has and which of them changed.

    ``failure`` is set (one line) when the notebook could not be executed at all on the new releases;
    ``changes`` is then empty.
    """

    notebook: str
    code_cells: int
    changes: list[CellChange] = field(default_factory=list)
    failure: str = ""


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def output_lines(outputs: Sequence[Mapping[str, Any]]) -> list[str]:
    """One cell's outputs as the lines a diff shows, keeping only what strict nbval compares.

    Each output starts with a header line (``[stdout]``, ``[stderr]``, ``[text/plain]``, ``[error]
    Type: message``, ...) followed by its text; ANSI colour codes are removed; consecutive chunks of
    one stream are merged first (nbclient splits one ``print`` by timing, nbval merges them).
    """
    lines: list[str] = []
    merged = _coalesce_streams([dict(output) for output in outputs])  # copies: the notebook stays as it is
    for output in merged:
        kind = output.get("output_type")
        if kind == "stream":
            lines.append(f"[{output.get('name', 'stream')}]")
            lines.extend(_ANSI.sub("", _text(output.get("text", ""))).splitlines())
        elif kind == "error":
            lines.append(f"[error] {output.get('ename', '')}: {_ANSI.sub('', str(output.get('evalue', '')))}")
        else:
            for mime, value in sorted(output.get("data", {}).items()):
                if mime in SKIPPED_MIME:
                    continue
                lines.append(f"[{mime}]")
                body = value if isinstance(value, str | list) else json.dumps(value, sort_keys=True, indent=1)
                lines.extend(_ANSI.sub("", _text(body)).splitlines())
    return lines


def _first_error(outputs: Sequence[Mapping[str, Any]]) -> str:
    for output in outputs:
        if output.get("output_type") == "error":
            return f"{output.get('ename', '')}: {_ANSI.sub('', str(output.get('evalue', '')))}".strip()
    return ""


def compare_notebooks(name: str, committed: Mapping[str, Any], drifted: Mapping[str, Any]) -> NotebookDrift:
    """Compare the committed notebook with the copy executed on the new releases.

    Args:
        name: the notebook's file name (for the report).
        committed: the notebook as committed (an nbformat 4 notebook or its JSON as a dict).
        drifted: the same notebook executed on the new releases.

    Returns:
        a :class:`NotebookDrift` listing every code cell whose compared outputs differ, in notebook order.
    """
    executed = {cell.get("id"): cell for cell in drifted.get("cells", [])}
    result = NotebookDrift(name, 0)
    for index, cell in enumerate(committed.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        result.code_cells += 1
        cell_id = str(cell.get("id", f"index-{index}"))
        first = (_text(cell.get("source", "")).strip().splitlines() or [""])[0]
        before = output_lines(cell.get("outputs", []))
        other = executed.get(cell.get("id"))
        if other is None:
            result.changes.append(CellChange(cell_id, index, first, "cell missing", "", tuple(f"-{line}" for line in before)))
            continue
        after = output_lines(other.get("outputs", []))
        if before == after:
            continue
        diff = tuple(difflib.unified_diff(before, after, "pinned", "drift", n=2, lineterm=""))
        new_error = _first_error(other.get("outputs", [])) if not _first_error(cell.get("outputs", [])) else ""
        result.changes.append(CellChange(cell_id, index, first, "outputs changed", new_error, diff))
    return result


def render_json(packages: Sequence[Any], notebooks: Sequence[NotebookDrift], notes: Sequence[str] = ()) -> str:
    """The report as JSON: ``{"packages": [...], "notebooks": [...], "notes": [...], "summary": {...}}``.

    ``packages`` are dataclass instances (:class:`tooling.drift.upgrade.PackageMove`) or dicts.
    """
    data = {
        "summary": _summary(notebooks),
        "packages": [asdict(p) if not isinstance(p, Mapping) else dict(p) for p in packages],
        "notebooks": [asdict(nb) for nb in notebooks],
        "notes": list(notes),
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _summary(notebooks: Sequence[NotebookDrift]) -> dict[str, int]:
    return {
        "notebooks": len(notebooks),
        "notebooks_changed": sum(1 for nb in notebooks if nb.changes or nb.failure),
        "notebooks_failed": sum(1 for nb in notebooks if nb.failure),
        "cells_changed": sum(len(nb.changes) for nb in notebooks),
        "cells_with_new_errors": sum(1 for nb in notebooks for c in nb.changes if c.new_error),
    }


def _field(package: Any, name: str) -> Any:
    return package[name] if isinstance(package, Mapping) else getattr(package, name)


def render_markdown(packages: Sequence[Any], notebooks: Sequence[NotebookDrift], notes: Sequence[str] = ()) -> str:
    """The report a maintainer reads: the package moves, a table per notebook, then each changed cell's diff."""
    summary = _summary(notebooks)
    out = ["# Drift report", "",
           f"{summary['cells_changed']} code cells changed in {summary['notebooks_changed']} of "
           f"{summary['notebooks']} notebooks ({summary['cells_with_new_errors']} now raise an error; "
           f"{summary['notebooks_failed']} notebooks could not be executed).", "",
           "## Direct dependencies", "",
           "| package | pinned | newest served | installed | note |", "|---|---|---|---|---|"]
    for p in packages:
        out.append(f"| {_field(p, 'name')} | {_field(p, 'pinned')} | {_field(p, 'newest') or '?'} | "
                   f"{_field(p, 'installed') or '-'} | {_field(p, 'note')} |")
    if notes:
        out += ["", "## Notes", "", *[f"- {note}" for note in notes]]
    out += ["", "## Notebooks", "", "| notebook | code cells | changed | new errors |", "|---|---|---|---|"]
    for nb in notebooks:
        changed = f"not executed: {nb.failure}" if nb.failure else str(len(nb.changes))
        errors = sum(1 for c in nb.changes if c.new_error)
        out.append(f"| {nb.notebook} | {nb.code_cells} | {changed} | {errors} |")
    for nb in notebooks:
        if not nb.changes:
            continue
        out += ["", f"### {nb.notebook}", ""]
        for change in nb.changes:
            out.append(f"#### {change.cell_id} (cell {change.index}): `{change.first_line[:80]}`")
            if change.new_error:
                out.append(f"\nNew error: `{change.new_error[:300]}`")
            if change.kind == "cell missing":
                out.append("\nThe cell is missing from the executed copy.")
            out += ["", "```diff", *change.diff, "```", ""]
    return "\n".join(out).rstrip() + "\n"
