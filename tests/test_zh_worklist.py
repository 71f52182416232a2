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
from tooling.translation.source import cell_hash, english_notebooks, format_blocks, parse_blocks, read_blocks, translation_path
from tooling.translation.worklist import english_history, format_item, kept_items, unrecorded_keeps, worklist

NOTEBOOKS = english_notebooks()

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


# -- "the English changed, the Chinese still holds": a decision the marker records ------------------

CHINESE_FIRST = "# 03 · 配对\n\n一个工具调用由一条 ToolMessage 回答。"


@pytest.fixture
def kept(history):
    """``history`` with the translation committed as translated from the first English, then the
    notebook's cell-000 changed (in ``history``) and the block's hash moved to it, the Chinese left as is."""
    root, notebook, translation = history
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "translated")
    translation.write_text(translation.read_text(encoding="utf-8").replace(cell_hash(FIRST), cell_hash(CHANGED)),
                           encoding="utf-8")
    return root, notebook, translation


def test_a_hash_moved_without_a_change_to_the_chinese_is_named_with_the_marker_that_records_it(kept):
    root, notebook, translation = kept
    (problem,) = unrecorded_keeps(translation, root=root)
    record = f"<!-- cell cell-000 en-sha256 {cell_hash(CHANGED)} checked {cell_hash(FIRST)} -->"
    assert problem.startswith(f"03_toolmessage_pairing: cell-000: en-sha256 moved from {cell_hash(FIRST)} to "
                              f"{cell_hash(CHANGED)} but the Chinese did not change")
    assert problem.endswith(f"record it: {record}")
    text = translation.read_text(encoding="utf-8")
    translation.write_text(text.replace(f"<!-- cell cell-000 en-sha256 {cell_hash(CHANGED)} -->", record),
                           encoding="utf-8")
    assert unrecorded_keeps(translation, root=root) == [], "recorded: the decision is visible, the check passes"
    (item,) = kept_items(notebook, translation, root=root)
    assert (item.kind, item.english_then, item.english_now, item.chinese_now) == ("checked", FIRST, CHANGED, CHINESE_FIRST)
    shown = format_item(item)
    assert shown.startswith("## 03_toolmessage_pairing: cell-000 (kept: the English changed, the Chinese was checked")
    assert f"marker: {record}" in shown and "+A tool call is answered by exactly one ToolMessage" in shown
    # Committed, the decision stays valid; translating the Chinese later drops 'checked'.
    _git(root, "commit", "-qam", "kept")
    assert unrecorded_keeps(translation, root=root) == []
    translation.write_text(translation.read_text(encoding="utf-8").replace(record, record.replace(
        f" checked {cell_hash(FIRST)}", "")).replace("一条 ToolMessage 回答", "恰好一条 ToolMessage 回答"), encoding="utf-8")
    assert unrecorded_keeps(translation, root=root) == [] and kept_items(notebook, translation, root=root) == []


def test_a_checked_that_names_another_english_or_one_the_chinese_was_written_for_is_named(kept):
    root, _notebook_path, translation = kept
    text = translation.read_text(encoding="utf-8")
    wrong = text.replace(f"en-sha256 {cell_hash(CHANGED)} -->", f"en-sha256 {cell_hash(CHANGED)} checked {'a' * 12} -->")
    translation.write_text(wrong, encoding="utf-8")
    (problem,) = unrecorded_keeps(translation, root=root)
    assert f"moved from {cell_hash(FIRST)}" in problem, "the English the Chinese was really written for"
    needless = text.replace(f"en-sha256 {cell_hash(KEPT)} -->", f"en-sha256 {cell_hash(KEPT)} checked {'b' * 12} -->")
    translation.write_text(needless, encoding="utf-8")
    assert any(p.startswith("03_toolmessage_pairing: cell-001: 'checked bbbbbbbbbbbb', but the Chinese was written for")
               for p in unrecorded_keeps(translation, root=root))


def test_without_history_there_is_nothing_to_say_and_the_marker_is_read_everywhere(tmp_path, history):
    translation = tmp_path / "05_x.md"
    translation.write_text(f"<!-- cell cell-000 en-sha256 {cell_hash(CHANGED)} checked {cell_hash(FIRST)} -->\n中文\n",
                           encoding="utf-8")
    assert unrecorded_keeps(translation, root=tmp_path) == []
    (block,) = read_blocks(translation)[0].values()
    assert (block.en_hash, block.checked, block.marker()) == (
        cell_hash(CHANGED), cell_hash(FIRST), f"<!-- cell cell-000 en-sha256 {cell_hash(CHANGED)} checked {cell_hash(FIRST)} -->")
    assert parse_blocks(f"<!-- cell c en-sha256 {'c' * 12} checked {'c' * 12} -->\nx\n")[1] == [
        f"c: 'checked {'c' * 12}' names the English the marker already stands for; drop it"]
    # a stale block that was checked before: its worklist diff starts from the English the Chinese was written for
    root, notebook, old = history
    old.write_text(f"<!-- cell cell-000 en-sha256 {'d' * 12} checked {cell_hash(FIRST)} -->\n{CHINESE_FIRST}\n\n"
                   f"<!-- cell cell-001 en-sha256 {cell_hash(KEPT)} -->\n运行下一个单元格。\n", encoding="utf-8")
    changed, _new = worklist(notebook, old, root=root)
    assert (changed.recorded_hash, changed.english_then) == (cell_hash(FIRST), FIRST)
    assert (f"or, if the Chinese still holds: <!-- cell cell-000 en-sha256 {cell_hash(CHANGED)} checked "
            f"{cell_hash(FIRST)} -->") in format_item(changed)


def test_the_commands_show_and_check_the_decisions(capsys):
    assert main(["worklist", "--checked"]) == 0
    assert capsys.readouterr().out.endswith("cells kept after their English changed (checked) in "
                                            f"{len({i.notebook for n in NOTEBOOKS for i in kept_items(n, translation_path(n))})} "
                                            "notebooks\n")
