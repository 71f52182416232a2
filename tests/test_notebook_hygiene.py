"""Static hygiene of the committed notebooks (strict nbval re-runs them; this checks how they were stored).

Each notebook must be executed top to bottom in one run, carry no error outputs except in cells
marked to raise, contain no machine paths, memory addresses, secrets or widget state, start with a
``#`` title, and follow the ``NN_topic.ipynb`` naming. Code lines are at most :data:`MAX_CODE_LINE`
characters (what JupyterLab shows at 1280 px with the file browser open), and no output says a
verdict with an emoji alone (it shows as an empty box without an emoji font): PASS / FAIL in words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
SUSPICIOUS = {
    "machine path": re.compile(r"(?<![\w:/.])/(?:root|home|tmp|var|usr|opt|private|Users)/[^\s'\"]+"),
    "windows path": re.compile(r"\b[A-Z]:\\\\"),
    "memory address": re.compile(r" at 0x[0-9a-fA-F]{4,}"),
    "API key": re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    "timestamp": re.compile(r"\b20\d\d-\d\d-\d\d[ T]\d\d:\d\d:\d\d"),
    "langchain run id": re.compile(r"lc_run--"),
    "random id (UUID)": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
}

#: The longest code line (characters): about 105 are visible at 1280 px with the file browser open.
#: Format with ``ruff format --line-length 100 notebooks/`` and wrap long strings and comments by hand.
MAX_CODE_LINE = 100
#: Emoji that outputs used as the only verdict (the learner review, notebook 10's five-gates table).
VERDICT_EMOJI = re.compile("[\u2705\u274c\u274e\u2714\u2716\u23f3\U0001f389\U0001f4a5]")


def _output_text(output: dict) -> str:
    parts = []
    text = output.get("text")
    if text:
        parts.append("".join(text) if isinstance(text, list) else text)
    for value in output.get("data", {}).values():
        parts.append(value if isinstance(value, str) else "".join(value) if isinstance(value, list) else json.dumps(value))
    if output.get("output_type") == "error":
        parts += [output.get("ename", ""), output.get("evalue", "")]
    return "\n".join(parts)


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_notebooks():
    names = [p.name for p in NOTEBOOKS]
    assert "00_start_here.ipynb" in names and "01_function_to_tool.ipynb" in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_name_and_title(path):
    assert re.fullmatch(r"\d\d_[a-z0-9]+(?:_[a-z0-9]+)*\.ipynb", path.name), "name must be NN_snake_case_topic.ipynb"
    nb = _load(path)
    first = nb["cells"][0]
    assert first["cell_type"] == "markdown"
    assert "".join(first["source"]).startswith("# "), "the first cell is a '# ' title"
    assert nb["metadata"]["kernelspec"]["name"] == "python3"


def execution_problem(nb: dict, name: str) -> str | None:
    """Why notebook ``name`` (parsed as ``nb``) was not stored as one top-to-bottom run, or None."""
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    if not code:
        return f"{name} has no code cells"
    rerun = f"python -m helpers.notebooks notebooks/{name} (make notebooks NB=notebooks/{name})"
    counts = [c.get("execution_count") for c in code]
    if all(count is None for count in counts) and not any(c.get("outputs") for c in code):
        return (f"{name} was committed without outputs: strict nbval passes such a notebook (it has nothing to "
                f"compare), so nothing would check it; execute it with {rerun} and commit the result")
    if counts != list(range(1, len(code) + 1)):
        return f"{name}: execution counts {counts} are not one run from the top: re-execute it with {rerun}"
    return None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_executed_top_to_bottom_in_one_run(path):
    problem = execution_problem(_load(path), path.name)
    assert problem is None, problem


def test_a_notebook_without_outputs_is_named_with_the_command():
    def cell(count, outputs):
        return {"cell_type": "code", "source": "print(1)", "execution_count": count, "outputs": outputs}
    out = [{"output_type": "stream", "name": "stdout", "text": "1\n"}]
    assert execution_problem({"cells": [cell(1, out), cell(2, out)]}, "12_x.ipynb") is None
    bare = execution_problem({"cells": [cell(None, []), cell(None, [])]}, "12_x.ipynb")
    assert bare.startswith("12_x.ipynb was committed without outputs: strict nbval passes such a notebook")
    assert "python -m helpers.notebooks notebooks/12_x.ipynb" in bare
    assert "execution counts [2, 1]" in execution_problem({"cells": [cell(2, out), cell(1, out)]}, "12_x.ipynb")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_error_outputs_unless_marked(path):
    for index, cell in enumerate(_load(path)["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        marked = "NBVAL_RAISES_EXCEPTION" in source or "raises-exception" in cell["metadata"].get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
        assert marked or not errors, f"cell {index} has an error output {errors[0].get('ename')}"
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                assert output["name"] != "stderr" or marked, f"cell {index} wrote to stderr: {''.join(output['text'])[:200]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_machine_specific_or_secret_text(path):
    for index, cell in enumerate(_load(path)["cells"]):
        for output in cell.get("outputs", []):
            text = _output_text(output)
            for label, pattern in SUSPICIOUS.items():
                match = pattern.search(text)
                assert not match, f"cell {index}: {label} in output: {match.group(0)[:80]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_widget_state_and_no_timing_metadata(path):
    nb = _load(path)
    assert "widgets" not in nb["metadata"], "widget state is stored: re-execute with `make notebooks`"
    for cell in nb["cells"]:
        assert "execution" not in cell.get("metadata", {}), "timing metadata is stored"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_local_notebook_links_resolve(path):
    for cell in _load(path)["cells"]:
        if cell["cell_type"] == "markdown":
            for target in re.findall(r"\]\((\d\d_[a-z0-9_]+\.ipynb)\)", "".join(cell["source"])):
                assert (path.parent / target).exists(), f"link to missing notebook {target}"


def test_every_notebook_is_listed_in_start_here():
    start = "".join("".join(c["source"]) for c in _load(NOTEBOOKS[0])["cells"])
    for path in NOTEBOOKS[1:]:
        assert f"({path.name})" in start, f"{path.name} is not in the course map of 00_start_here"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_lines_fit_the_screen(path):
    long_lines = [f"cell {index}: {len(line)} characters: {line[:60]}..."
                  for index, cell in enumerate(_load(path)["cells"]) if cell["cell_type"] == "code"
                  for line in "".join(cell["source"]).splitlines() if len(line) > MAX_CODE_LINE]
    assert not long_lines, (f"{len(long_lines)} code lines over {MAX_CODE_LINE} characters "
                            "(ruff format --line-length 100, then wrap by hand):\n" + "\n".join(long_lines))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_verdicts_are_words_not_emoji(path):
    for index, cell in enumerate(_load(path)["cells"]):
        texts = ["".join(cell["source"])] if cell["cell_type"] == "code" else []
        texts += [_output_text(output) for output in cell.get("outputs", [])]
        for text in texts:
            match = VERDICT_EMOJI.search(text)
            assert not match, f"cell {index}: the emoji {match.group(0)!r}: say PASS / FAIL in words"
