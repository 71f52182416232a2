"""The drift report's logic, on a recorded notebook pair (no registry, no kernel).

``tests/drift_fixtures/pinned.ipynb`` is a notebook as committed; ``drifted.ipynb`` is the same
notebook as if executed on newer releases. The pair holds each case the comparison must get right:
a changed stream (cell-003), a widget whose model id changed (cell-004: nbval ignores it), a cell
that now raises (cell-005), one print split into two stream chunks (cell-006: same text), a changed
image (cell-007: nbval ignores images), a cell missing from the executed copy (cell-008), and an
expected error whose traceback changed (cell-009: the traceback is not compared). Execution counts
and cell metadata differ on every code cell and must not count. The package side is tested with a
scripted ``pip``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import nbformat
import pytest

from tooling.drift import compare_notebooks, direct_pins, output_lines, render_json, render_markdown
from tooling.drift.__main__ import report
from tooling.drift.upgrade import PackageMove, Pip, plan_moves, resolve

FIXTURES = Path(__file__).resolve().parent / "drift_fixtures"
ROOT = Path(__file__).resolve().parent.parent


def _pair():
    return (nbformat.read(FIXTURES / "pinned.ipynb", as_version=4),
            nbformat.read(FIXTURES / "drifted.ipynb", as_version=4))


def test_only_the_cells_strict_nbval_would_fail_are_reported():
    pinned, drifted = _pair()
    result = compare_notebooks("pair.ipynb", pinned, drifted)
    assert result.code_cells == 8
    assert [(c.cell_id, c.kind) for c in result.changes] == [
        ("cell-003", "outputs changed"), ("cell-005", "outputs changed"), ("cell-008", "cell missing")]
    assert [c.index for c in result.changes] == [2, 4, 7]
    assert result.changes[0].first_line == "print(describe_stack())"


def test_the_diff_shows_old_and_new_output_lines():
    pinned, drifted = _pair()
    change = compare_notebooks("pair.ipynb", pinned, drifted).changes[0]
    assert change.diff[:2] == ("--- pinned", "+++ drift")
    assert "-langchain-core 1.8.3" in change.diff and "+langchain-core 1.9.0" in change.diff
    assert "-langgraph 1.2.24" in change.diff and "+langgraph 1.3.0" in change.diff
    assert " [stdout]" in change.diff


def test_a_cell_that_now_raises_is_named_with_its_error_without_colour_codes():
    pinned, drifted = _pair()
    changes = compare_notebooks("pair.ipynb", pinned, drifted).changes
    assert changes[1].new_error == "ImportError: cannot import name 'ToolOutputMixin' from 'langchain_core.tools'"
    assert changes[0].new_error == "" and changes[2].new_error == ""
    assert not any("\x1b" in line for c in changes for line in c.diff)


def test_an_expected_error_whose_traceback_changed_is_not_drift():
    pinned, drifted = _pair()
    assert output_lines(pinned.cells[-1].outputs) == ["[error] ValueError: refund above the limit"]
    assert output_lines(pinned.cells[-1].outputs) == output_lines(drifted.cells[-1].outputs)


def test_stream_chunks_are_merged_and_widget_ids_and_images_ignored():
    pinned, drifted = _pair()
    for index in (3, 5, 6):  # cell-004, cell-006, cell-007
        assert output_lines(pinned.cells[index].outputs) == output_lines(drifted.cells[index].outputs)
    assert output_lines(drifted.cells[5].outputs) == ["[stdout]", "first half, second half"]


def test_a_notebook_compared_with_itself_has_no_drift():
    pinned, _ = _pair()
    assert compare_notebooks("pair.ipynb", pinned, pinned).changes == []


def test_the_reports_name_each_notebook_and_cell_and_agree():
    pinned, drifted = _pair()
    results = [compare_notebooks("03_pair.ipynb", pinned, drifted), compare_notebooks("04_same.ipynb", pinned, pinned)]
    moves = [PackageMove("langchain-core", "1.8.3", "1.9.0", "1.9.0"),
             PackageMove("deepagents", "0.7.32", "0.8.0", "0.7.40", "0.8.0 cannot be installed beside the others: x")]
    text = render_markdown(moves, results, ["a note"])
    assert "3 code cells changed in 1 of 2 notebooks (1 now raise an error; 0 notebooks could not be executed)" in text
    assert "| langchain-core | 1.8.3 | 1.9.0 | 1.9.0 |  |" in text
    assert "| 03_pair.ipynb | 8 | 3 | 1 |" in text and "| 04_same.ipynb | 8 | 0 | 0 |" in text
    assert "### 03_pair.ipynb" in text and "### 04_same.ipynb" not in text
    assert "#### cell-005 (cell 4): `from langchain_core.tools import ToolOutputMixin`" in text
    assert "```diff\n--- pinned\n+++ drift" in text and "- a note" in text
    data = json.loads(render_json(moves, results, ["a note"]))
    assert data["summary"] == {"notebooks": 2, "notebooks_changed": 1, "notebooks_failed": 0,
                               "cells_changed": 3, "cells_with_new_errors": 1}
    assert [c["cell_id"] for c in data["notebooks"][0]["changes"]] == ["cell-003", "cell-005", "cell-008"]
    assert data["packages"][1]["installed"] == "0.7.40" and data["notes"] == ["a note"]


def test_report_writes_both_files_and_names_a_notebook_that_did_not_run(tmp_path):
    executed = tmp_path / "notebooks"
    executed.mkdir()
    (executed / "pinned.ipynb").write_text((FIXTURES / "drifted.ipynb").read_text(encoding="utf-8"), encoding="utf-8")
    (executed / "failures.json").write_text(json.dumps({"other.ipynb": "FAILED other.ipynb: kernel died"}))
    other = tmp_path / "committed" / "other.ipynb"
    other.parent.mkdir()
    other.write_text((FIXTURES / "pinned.ipynb").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "guard.jsonl").write_text('{"event": "guard.start", "target": "", "pid": 7}\n'
                                          '{"event": "socket.connect", "target": "192.0.2.1:443", "pid": 7}\n')
    results = report(tmp_path, [FIXTURES / "pinned.ipynb", other], [PackageMove("langgraph", "1.2.24", "1.3.0")])
    assert [len(r.changes) for r in results] == [3, 0] and results[1].failure == "FAILED other.ipynb: kernel died"
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["summary"]["notebooks_failed"] == 1
    assert data["notes"] == ["the offline guard refused socket.connect 192.0.2.1:443 (pid 7)"]
    assert "| other.ipynb | 8 | not executed: FAILED other.ipynb: kernel died | 0 |" in (
        tmp_path / "report.md").read_text(encoding="utf-8")


def test_the_direct_dependencies_are_the_block_of_requirements_txt():
    pins = direct_pins((ROOT / "requirements.txt").read_text(encoding="utf-8"))
    names = [p.name for p in pins]
    assert names[:3] == ["langchain", "langchain-core", "langgraph"] and "deepagents" in names
    assert "openai" not in names, "a transitive pin is not a direct dependency"
    assert all(p.version[0].isdigit() for p in pins)
    with pytest.raises(ValueError, match="no '# Direct dependencies' block"):
        direct_pins("langchain==1.0.0\n")
    with pytest.raises(ValueError, match="pins nothing"):
        direct_pins("# Direct dependencies\n\nlangchain==1.0.0\n")


class ScriptedPip:
    """Plays pip: ``index versions`` answers from ``newest``; an install that pins a name in ``broken``
    to its newest release fails with pip's conflict message."""

    def __init__(self, newest: dict[str, str], broken: set[str], together_fails: bool = False,
                 conflict: tuple[str, str] | None = None, registry_down: bool = False):
        self.newest, self.broken, self.together_fails, self.calls = newest, broken, together_fails, []
        self.conflict, self.registry_down = conflict, registry_down

    def __call__(self, command, **kwargs):
        args = command[4:]
        self.calls.append(args)
        if args[:2] == ["index", "versions"]:
            name = args[2]
            if name not in self.newest:
                return subprocess.CompletedProcess(command, 1, "", f"ERROR: No matching distribution found for {name}")
            return subprocess.CompletedProcess(command, 0, f"{name} ({self.newest[name]})\nAvailable versions: x\n", "")
        if self.registry_down:
            return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution found for langgraph")
        pinned_broken = [a for a in args if a.split("==")[0] in self.broken and "==" in a]
        if self.together_fails and all("==" in a for a in args[3:]):
            return subprocess.CompletedProcess(command, 1, "", "WARNING: Location 'file:///x' is ignored\n"
                                               "ERROR: Could not find a version that satisfies the requirement")
        if self.conflict and all(f"{name}=={self.newest[name]}" in args for name in self.conflict):
            first, second = self.conflict
            return subprocess.CompletedProcess(command, 1, "", (
                f"ERROR: Cannot install {first}=={self.newest[first]} and {second}=={self.newest[second]} because "
                "these package versions have conflicting dependencies.\n"))
        if pinned_broken:
            return subprocess.CompletedProcess(command, 1, "", (
                "Collecting x\nERROR: Ignored the following versions that require a different python version: 0.3.1 "
                "Requires-Python <3\nERROR: Cannot install deepagents==0.8.0 because these package versions have "
                "conflicting dependencies.\n\nThe conflict is caused by:\n    deepagents 0.8.0 depends on "
                "langchain-anthropic>=2.0\n\nTo fix this you could try to:\n1. loosen the range\n"))
        return subprocess.CompletedProcess(command, 0, "", "")


def test_a_newest_release_that_cannot_be_installed_is_installed_unpinned_with_pips_reason():
    runner = ScriptedPip({"langgraph": "1.3.0", "deepagents": "0.8.0"}, broken={"deepagents"})
    pip = Pip(Path("/venv/bin/python"), run=runner)
    pins = direct_pins("# Direct dependencies\nlanggraph==1.2.24\ndeepagents==0.7.32\nnot-served==1.0\n")
    moves = plan_moves(pins, {p.name: pip.newest(p.name) for p in pins})
    assert moves[2].newest == "" and moves[2].note.startswith("the registry could not be asked: ERROR: No matching")
    wanted = resolve(moves, pip)
    assert wanted == ["langgraph==1.3.0", "deepagents", "not-served"]
    assert moves[0].note == ""
    assert moves[1].note == ("0.8.0 cannot be installed beside the others: ERROR: Cannot install deepagents==0.8.0 "
                             "because these package versions have conflicting dependencies. The conflict is caused "
                             "by: deepagents 0.8.0 depends on langchain-anthropic>=2.0")
    assert ["install", "--dry-run", "--quiet", "langgraph==1.3.0", "deepagents==0.8.0", "not-served"] in runner.calls


def test_when_the_newest_releases_resolve_together_each_is_pinned_to_it():
    runner = ScriptedPip({"langgraph": "1.3.0", "deepagents": "0.8.0"}, broken=set())
    pip = Pip(Path("/venv/bin/python"), run=runner)
    pins = direct_pins("# Direct dependencies\nlanggraph==1.2.24\ndeepagents==0.7.32\n")
    moves = plan_moves(pins, {p.name: pip.newest(p.name) for p in pins})
    assert resolve(moves, pip) == ["langgraph==1.3.0", "deepagents==0.8.0"]
    assert sum(1 for call in runner.calls if "--dry-run" in call) == 1


def test_newest_releases_that_fail_only_together_keep_the_first_pinned_and_name_the_second():
    runner = ScriptedPip({"langgraph": "1.3.0", "deepagents": "0.8.0"}, broken=set(), together_fails=True)
    pip = Pip(Path("/venv/bin/python"), run=runner)
    pins = direct_pins("# Direct dependencies\nlanggraph==1.2.24\ndeepagents==0.7.32\n")
    moves = plan_moves(pins, {p.name: pip.newest(p.name) for p in pins})
    assert resolve(moves, pip) == ["langgraph==1.3.0", "deepagents"]
    assert moves[0].note == ""
    assert moves[1].note == ("0.8.0 cannot be installed beside the others: "
                             "ERROR: Could not find a version that satisfies the requirement")
    assert sum(1 for call in runner.calls if "--dry-run" in call) == 3


def test_two_newest_releases_that_conflict_leave_only_the_second_unpinned():
    """As on 2026-12-02: each of langchain-mcp-adapters 0.3.2 and mcp 2.3.0 resolves beside the others
    unpinned, not beside each other; the packages around them keep their newest releases."""
    newest = {"langgraph": "1.3.0", "langchain-mcp-adapters": "0.3.2", "mcp": "2.3.0", "pytest": "9.3.0"}
    runner = ScriptedPip(newest, broken=set(), conflict=("langchain-mcp-adapters", "mcp"))
    pip = Pip(Path("/venv/bin/python"), run=runner)
    pins = direct_pins("# Direct dependencies\nlanggraph==1.2.24\nlangchain-mcp-adapters==0.3.2\nmcp==1.30.0\n"
                       "pytest==9.2.0\n")
    moves = plan_moves(pins, {p.name: pip.newest(p.name) for p in pins})
    assert resolve(moves, pip) == ["langgraph==1.3.0", "langchain-mcp-adapters==0.3.2", "mcp", "pytest==9.3.0"]
    assert [m.note for m in moves] == ["", "", "2.3.0 cannot be installed beside the others: ERROR: Cannot install "
                                       "langchain-mcp-adapters==0.3.2 and mcp==2.3.0 because these package versions "
                                       "have conflicting dependencies.", ""]


def test_when_nothing_installs_even_unpinned_no_newest_release_is_blamed():
    """A registry failure that fails every dry-run: the notes say so instead of naming each newest release."""
    runner = ScriptedPip({"langgraph": "1.3.0", "deepagents": "0.8.0"}, broken=set(), registry_down=True)
    pip = Pip(Path("/venv/bin/python"), run=runner)
    pins = direct_pins("# Direct dependencies\nlanggraph==1.2.24\ndeepagents==0.7.32\nnot-served==1.0\n")
    moves = plan_moves(pins, {p.name: pip.newest(p.name) for p in pins})
    assert resolve(moves, pip) == ["langgraph", "deepagents", "not-served"]
    reason = "pip cannot install the direct dependencies even unpinned: ERROR: No matching distribution found for langgraph"
    assert [m.note for m in moves] == [f"1.3.0 not pinned: {reason}", f"0.8.0 not pinned: {reason}",
                                       ("the registry could not be asked: ERROR: No matching distribution found for "
                                        "not-served")]
    assert ["install", "--dry-run", "--quiet", "langgraph", "deepagents", "not-served"] in runner.calls


def test_every_newest_release_broken_names_each_and_no_move_or_no_newest_raises_nothing():
    runner = ScriptedPip({"langgraph": "1.3.0", "deepagents": "0.8.0"}, broken={"langgraph", "deepagents"})
    pip = Pip(Path("/venv/bin/python"), run=runner)
    pins = direct_pins("# Direct dependencies\nlanggraph==1.2.24\ndeepagents==0.7.32\n")
    moves = plan_moves(pins, {p.name: pip.newest(p.name) for p in pins})
    assert resolve(moves, pip) == ["langgraph", "deepagents"]
    assert [m.note.split(":")[0] for m in moves] == ["1.3.0 cannot be installed beside the others",
                                                     "0.8.0 cannot be installed beside the others"]
    assert resolve([], pip) == []
    unknown = plan_moves(pins, {})
    assert resolve(unknown, pip) == ["langgraph", "deepagents"] and {m.note for m in unknown} == {"not asked"}
