"""Static hygiene of the committed notebooks (strict nbval re-runs them; this checks how they were stored).

Each notebook must be executed top to bottom in one run, carry no error outputs except in cells
marked to raise, contain no machine paths, memory addresses, secrets, widget state or widget model ids, start with a
``#`` title, and follow the ``NN_topic.ipynb`` naming. Both editions are checked: the English
notebooks in ``notebooks/`` and the Chinese ones the build writes to ``notebooks/zh/`` (issue 22),
discovered by :func:`edition_notebooks`, so a notebook of either edition is covered without a list. Code lines are at most :data:`MAX_CODE_LINE`
characters (what JupyterLab shows at 1280 px with the file browser open), and no output says a
verdict with an emoji alone (it shows as an empty box without an emoji font): PASS / FAIL in words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tooling.notebook_files import WIDGET_VIEW

NOTEBOOK_ROOT = Path(__file__).resolve().parent.parent / "notebooks"
#: The folders of the editions under the notebooks folder: English at the top, Chinese in ``zh/``.
EDITION_FOLDERS = ("", "zh")


def edition_notebooks(root: Path = NOTEBOOK_ROOT) -> list[Path]:
    """Every ``.ipynb`` of every edition under ``root`` (English first, then ``zh/``), each sorted."""
    return [path for folder in EDITION_FOLDERS for path in sorted((root / folder).glob("*.ipynb"))]


def _id(path: Path) -> str:
    """A notebook's test id: its path under the notebooks folder (``01_x.ipynb``, ``zh/01_x.ipynb``)."""
    return path.relative_to(NOTEBOOK_ROOT).as_posix() if path.is_relative_to(NOTEBOOK_ROOT) else path.name


NOTEBOOKS = edition_notebooks()
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
    names = [_id(p) for p in NOTEBOOKS]
    assert "00_start_here.ipynb" in names and "01_function_to_tool.ipynb" in names


def test_the_chinese_edition_is_checked_too(tmp_path):
    """On a copy: notebooks in ``notebooks/zh/`` are discovered, and each check catches a problem in
    one (a machine path in an output, cells not run in order, an emoji verdict, a missing link)."""
    root = tmp_path / "notebooks"
    (root / "zh").mkdir(parents=True)
    english = NOTEBOOK_ROOT / "01_function_to_tool.ipynb"
    for folder in (root, root / "zh"):
        (folder / english.name).write_bytes(english.read_bytes())
    found = edition_notebooks(root)
    assert found == [root / english.name, root / "zh" / english.name]
    copy = found[1]
    test_executed_top_to_bottom_in_one_run(copy)
    test_no_machine_specific_or_secret_text(copy)
    nb = _load(copy)
    code = next(c for c in nb["cells"] if c["cell_type"] == "code" and c.get("outputs"))
    code["outputs"].append({"output_type": "stream", "name": "stdout", "text": "saved to /home/ada/work \u2705\n"})
    code["execution_count"] += 100
    nb["cells"][0]["source"] = "# 01 · 标题\n\n见 [notebook 02](02_tool_calls_are_requests.ipynb)。"
    copy.write_text(json.dumps(nb), encoding="utf-8")
    for check, says in ((test_no_machine_specific_or_secret_text, "machine path in output: /home/ada/work"),
                        (test_executed_top_to_bottom_in_one_run, "are not one run from the top"),
                        (test_local_notebook_links_resolve, "link to missing notebook 02_tool_calls_are_requests"),
                        (test_verdicts_are_words_not_emoji, "say PASS / FAIL in words")):
        with pytest.raises(AssertionError, match=re.escape(says)):
            check(copy)
    widget = next(o for c in nb["cells"] for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {}))
    widget["data"][WIDGET_VIEW]["model_id"] = "cdb587d23722490dbaf1e5419181763f"
    copy.write_text(json.dumps(nb), encoding="utf-8")
    for check, says in ((test_no_widget_state_and_no_timing_metadata, "random model id 'cdb587d2"),):
        with pytest.raises(AssertionError, match=re.escape(says)):
            check(copy)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
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
    rerun = ("the build: make zh (python -m tooling.translation build)" if name.startswith("zh/") else
             f"python -m tooling.notebooks notebooks/{name} (make notebooks NB=notebooks/{name})")
    counts = [c.get("execution_count") for c in code]
    if all(count is None for count in counts) and not any(c.get("outputs") for c in code):
        return (f"{name} was committed without outputs: strict nbval passes such a notebook (it has nothing to "
                f"compare), so nothing would check it; execute it with {rerun} and commit the result")
    if counts != list(range(1, len(code) + 1)):
        return f"{name}: execution counts {counts} are not one run from the top: re-execute it with {rerun}"
    return None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_executed_top_to_bottom_in_one_run(path):
    problem = execution_problem(_load(path), _id(path))
    assert problem is None, problem


def test_a_notebook_without_outputs_is_named_with_the_command():
    def cell(count, outputs):
        return {"cell_type": "code", "source": "print(1)", "execution_count": count, "outputs": outputs}
    out = [{"output_type": "stream", "name": "stdout", "text": "1\n"}]
    assert execution_problem({"cells": [cell(1, out), cell(2, out)]}, "12_x.ipynb") is None
    bare = execution_problem({"cells": [cell(None, []), cell(None, [])]}, "12_x.ipynb")
    assert bare.startswith("12_x.ipynb was committed without outputs: strict nbval passes such a notebook")
    assert "python -m tooling.notebooks notebooks/12_x.ipynb" in bare
    assert "execution counts [2, 1]" in execution_problem({"cells": [cell(2, out), cell(1, out)]}, "12_x.ipynb")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_no_machine_specific_or_secret_text(path):
    for index, cell in enumerate(_load(path)["cells"]):
        for output in cell.get("outputs", []):
            text = _output_text(output)
            for label, pattern in SUSPICIOUS.items():
                match = pattern.search(text)
                assert not match, f"cell {index}: {label} in output: {match.group(0)[:80]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_no_widget_state_and_no_timing_metadata(path):
    nb = _load(path)
    assert "widgets" not in nb["metadata"], "widget state is stored: re-execute with `make notebooks`"
    for index, cell in enumerate(nb["cells"]):
        assert "execution" not in cell.get("metadata", {}), "timing metadata is stored"
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            assert not view or view.get("model_id") == "", (
                f"cell {index} ({cell.get('id')}) stores a widget's random model id {view.get('model_id')!r}, "
                "which changes on every run: re-execute with `make notebooks` (tooling.notebooks stores it empty)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_local_notebook_links_resolve(path):
    for cell in _load(path)["cells"]:
        if cell["cell_type"] == "markdown":
            for target in re.findall(r"\]\((\d\d_[a-z0-9_]+\.ipynb)\)", "".join(cell["source"])):
                assert (path.parent / target).exists(), f"link to missing notebook {target}"


@pytest.mark.parametrize("folder", EDITION_FOLDERS, ids=lambda f: f or "en")
def test_every_notebook_is_listed_in_start_here(folder):
    """Each edition's 00_start_here lists the notebooks of its own folder."""
    notebooks = [p for p in NOTEBOOKS if p.parent == NOTEBOOK_ROOT / folder]
    if folder and not notebooks:
        pytest.skip(f"notebooks/{folder}/ is not built yet (make zh)")
    start = "".join("".join(c["source"]) for c in _load(notebooks[0])["cells"])
    for path in notebooks[1:]:
        assert f"({path.name})" in start, f"{_id(path)} is not in the course map of 00_start_here"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_code_lines_fit_the_screen(path):
    long_lines = [f"cell {index}: {len(line)} characters: {line[:60]}..."
                  for index, cell in enumerate(_load(path)["cells"]) if cell["cell_type"] == "code"
                  for line in "".join(cell["source"]).splitlines() if len(line) > MAX_CODE_LINE]
    assert not long_lines, (f"{len(long_lines)} code lines over {MAX_CODE_LINE} characters "
                            "(ruff format --line-length 100, then wrap by hand):\n" + "\n".join(long_lines))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_verdicts_are_words_not_emoji(path):
    for index, cell in enumerate(_load(path)["cells"]):
        texts = ["".join(cell["source"])] if cell["cell_type"] == "code" else []
        texts += [_output_text(output) for output in cell.get("outputs", [])]
        for text in texts:
            match = VERDICT_EMOJI.search(text)
            assert not match, f"cell {index}: the emoji {match.group(0)!r}: say PASS / FAIL in words"
