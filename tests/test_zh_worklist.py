"""The translator's worklist (``python -m tooling.translation worklist``): for each stale or new cell,
the English it was translated from (found in git history), a diff to the English now, and the Chinese.

The history tests build a small git repository of their own: a notebook committed twice (a cell
changed, a cell added), then renamed, beside a translation file made from the first version.
"""

from __future__ import annotations

import subprocess

import nbformat
import pytest

from tooling.translation.__main__ import main
from tooling.translation.source import cell_hash, format_blocks
from tooling.translation.worklist import english_history, format_item, worklist

FIRST = "# 03 · Pairing\n\nA tool call is answered by one ToolMessage."
CHANGED = "# 03 · Pairing\n\nA tool call is answered by exactly one ToolMessage, matched by `tool_call_id`."
KEPT = "Run the next cell."
ADDED = "A new paragraph about `status=\"error\"`."


def _notebook(path, *markdown):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text, id=f"cell-{i:03d}")
                                         for i, text in enumerate(markdown)])
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@example.invalid", "HOME": str(root), "PATH": "/usr/bin:/bin"})


@pytest.fixture
def history(tmp_path):
    """A repository whose notebook changed cell-000 and gained cell-002 after it was translated, then was renamed."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    old = root / "notebooks" / "03_pairing.ipynb"
    _notebook(old, FIRST, KEPT)
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "first")
    _notebook(old, CHANGED, KEPT, ADDED)
    _git(root, "commit", "-qam", "second")
    new = root / "notebooks" / "03_toolmessage_pairing.ipynb"
    _git(root, "mv", str(old), str(new))
    _git(root, "commit", "-qm", "renamed")
    translation = root / "translations" / "03_toolmessage_pairing.md"
    translation.parent.mkdir(parents=True)
    translation.write_text(f"<!-- cell cell-000 en-sha256 {cell_hash(FIRST)} -->\n# 03 · 配对\n\n一个工具调用由一条 ToolMessage 回答。\n\n"
                           f"<!-- cell cell-001 en-sha256 {cell_hash(KEPT)} -->\n运行下一个单元格。\n", encoding="utf-8")
    return root, new, translation


def test_a_changed_cell_shows_the_english_it_was_translated_from_and_a_new_cell_its_english(history):
    root, notebook, translation = history
    changed, new = worklist(notebook, translation, root=root)
    assert (changed.cell_id, changed.kind, changed.english_then, changed.english_now) == ("cell-000", "changed", FIRST, CHANGED)
    assert changed.recorded_hash == cell_hash(FIRST) and changed.current_hash == cell_hash(CHANGED)
    assert changed.chinese_now.startswith("# 03 · 配对")
    assert (new.cell_id, new.kind, new.english_now, new.chinese_now) == ("cell-002", "new", ADDED, None)
    text = format_item(changed)
    assert f"marker: <!-- cell cell-000 en-sha256 {cell_hash(CHANGED)} -->" in text
    assert "-A tool call is answered by one ToolMessage." in text
    assert "+A tool call is answered by exactly one ToolMessage, matched by `tool_call_id`." in text
    assert " # 03 · Pairing" in text, "an unchanged line is context, not a change"
    assert text.endswith("Chinese now:\n# 03 · 配对\n\n一个工具调用由一条 ToolMessage 回答。")
    assert format_item(new).endswith(f"English now:\n{ADDED}")


def test_english_not_in_history_is_said_so_and_a_folder_without_git_gives_none(history, tmp_path):
    root, notebook, translation = history
    translation.write_text(translation.read_text(encoding="utf-8").replace(cell_hash(FIRST), "0" * 12),
                           encoding="utf-8")
    (item, _) = worklist(notebook, translation, root=root)
    assert item.english_then is None
    assert "English when translated: not found in git history (en-sha256 000000000000)" in format_item(item)
    assert english_history(notebook, {cell_hash(FIRST)}, root=tmp_path / "not-a-repo") == {}
    assert english_history(tmp_path / "elsewhere.ipynb", {cell_hash(FIRST)}, root=root) == {}


def test_a_fresh_translation_has_no_work_and_a_missing_one_is_all_new(tmp_path):
    notebook = tmp_path / "notebooks" / "05_x.ipynb"
    _notebook(notebook, FIRST, KEPT)
    translation = tmp_path / "05_x.md"
    translation.write_text(format_blocks([("cell-000", FIRST), ("cell-001", KEPT)]), encoding="utf-8")
    assert worklist(notebook, translation, root=tmp_path) == []
    assert [i.kind for i in worklist(notebook, tmp_path / "missing.md", root=tmp_path)] == ["new", "new"]


def test_the_command_says_there_is_nothing_to_translate_on_main(capsys):
    assert main(["worklist"]) == 0
    assert capsys.readouterr().out == "nothing to translate: every Markdown cell's block matches its English\n"


def test_a_notebook_is_named_by_its_number_or_the_start_of_its_name(capsys):
    """``make worklist NB=03``: the short names ``make reset`` takes; a name no notebook has is one error line."""
    for name in ("3", "03_toolmessage", "03_toolmessage_pairing.ipynb"):
        assert main(["worklist", name]) == 0
        assert capsys.readouterr().out.strip().endswith("every Markdown cell's block matches its English")
    assert main(["check", "03"]) == 0 and "fresh" in capsys.readouterr().out
    assert main(["worklist", "99"]) == 1
    assert capsys.readouterr().err.strip() == "error: 99: no such notebook"


def test_the_command_names_an_unreadable_translation_and_goes_on(tmp_path, monkeypatch, capsys):
    from tooling.translation import __main__ as cli

    notebook = tmp_path / "07_x.ipynb"
    _notebook(notebook, FIRST)
    broken = tmp_path / "07_x.md"
    broken.write_bytes(b"<!-- cell cell-000 en-sha256 000000000000 -->\n\xff\xfe not UTF-8\n")
    monkeypatch.setattr(cli, "translation_path", lambda path: broken)
    assert main(["worklist", str(notebook)]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: 07_x: ") and "nothing to translate" not in captured.out
    assert captured.out == "0 cells to translate in 0 notebooks; 1 translation files could not be read\n"



def _committed(root, name, *versions):
    """A new repository at ``root`` whose notebook ``name`` was committed once per version (a
    tuple of Markdown sources, or raw text), in order; returns the notebook's path."""
    root.mkdir()
    _git(root, "init", "-q")
    notebook = root / "notebooks" / name
    for i, version in enumerate(versions):
        if isinstance(version, str):
            notebook.write_text(version, encoding="utf-8")
        else:
            _notebook(notebook, *version)
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", f"version {i}")
    return notebook


def test_a_notebook_whose_path_git_would_quote_still_has_its_history_found(tmp_path):
    """git quotes a path with non-ASCII letters in ``git log`` ("\\351"); the history must still be read."""
    notebook = _committed(tmp_path / "repo", "03 pairing 配对.ipynb", (FIRST,), (CHANGED,))
    assert english_history(notebook, {cell_hash(FIRST)}, root=tmp_path / "repo") == {cell_hash(FIRST): FIRST}


@pytest.mark.parametrize("bad", ["not JSON", '{"cells": null}', '{"cells": 5}', '["cells"]',
                                 '{"cells": [{"cell_type": "markdown", "source": [1, 2]}]}',
                                 '{"cells": [{"cell_type": "markdown", "source": 7}, {"cell_type": "markdown"}]}'])
def test_a_committed_version_that_is_not_a_notebook_is_skipped(tmp_path, bad):
    notebook = _committed(tmp_path / "repo", "03_pairing.ipynb", (FIRST,), bad, (CHANGED,))
    assert english_history(notebook, {cell_hash(FIRST)}, root=tmp_path / "repo") == {cell_hash(FIRST): FIRST}


@pytest.mark.parametrize("text", [b"not JSON", b"\xff\xfe", b'{"cells": [{"cell_type": "markdown", "source": "x"}]}',
                                  b'{"cells": [{"cell_type": "markdown", "id": "a", "source": 5}]}'])
def test_a_named_notebook_that_cannot_be_read_is_one_error_line_not_a_traceback(tmp_path, capsys, text):
    notebook = tmp_path / "07_x.ipynb"
    notebook.write_bytes(text)
    assert main(["worklist", str(notebook)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"error: {notebook}: not a readable notebook")
