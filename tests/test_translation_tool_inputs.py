"""The translation tools (``python -m tooling.translation``) against inputs a maintainer can give them: each
ends in one ``error:`` line and exit status 1, never a traceback, and ``rekey`` throws no translation away
(issue 27: a translation whose English changed was replaced by the English).
"""

from __future__ import annotations

import nbformat
import pytest

from tooling.translation import __main__ as cli
from tooling.translation.__main__ import main
from tooling.translation.catalog import catalog_problems
from tooling.translation.source import (
    GlossaryError,
    cell_hash,
    parse_blocks,
    read_glossary,
    rekey,
)

FIRST, SECOND, THIRD = "# 05 · Title\n\nFirst cell.", "## 1. Two calls\n\nThe second cell.", "## 2. Third\n\nThird."
CHINESE = {"cell-001": "# 05 · 标题\n\n第一个单元格。", "cell-003": "## 1. 两个调用\n\n第二个单元格。",
           "cell-004": "## 2. 第三\n\n第三个。"}


def _notebook(path, cells: dict[str, str]):
    nb = nbformat.v4.new_notebook()
    for cell_id, source in cells.items():
        cell = nbformat.v4.new_markdown_cell(source) if source is not None else nbformat.v4.new_code_cell("x = 1")
        cell["id"] = cell_id
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _translation(path, english: dict[str, str]):
    """A translation whose blocks were made from ``english`` ({cell id: English then})."""
    path.write_text("\n".join(f"<!-- cell {cid} en-sha256 {cell_hash(text)} -->\n{CHINESE[cid]}\n"
                              for cid, text in english.items()), encoding="utf-8")
    return path


def test_rekey_keeps_a_translation_whose_english_changed_and_marks_it_stale(tmp_path):
    notebook = _notebook(tmp_path / "05_x.ipynb", {"cell-001": FIRST, "cell-002": None,
                                                   "cell-003": SECOND + " Now with more."})
    old = _translation(tmp_path / "05_x.md", {"cell-001": FIRST, "cell-003": SECOND})
    done = rekey(notebook, [old], keep=old)
    blocks, problems = parse_blocks(done.text)
    assert problems == [] and done.unmatched == [] and done.stale == ["cell-003"]
    assert blocks["cell-003"].text == CHINESE["cell-003"]  # not the English placeholder
    assert blocks["cell-003"].en_hash == cell_hash(SECOND)  # stale: check names it, worklist shows the diff
    assert blocks["cell-001"].en_hash == cell_hash(FIRST)


def test_rekey_keeps_the_blocks_of_its_own_file_that_no_cell_takes(tmp_path):
    notebook = _notebook(tmp_path / "05_x.ipynb", {"cell-011": FIRST})  # ids renumbered, one cell gone
    old = _translation(tmp_path / "05_x.md", {"cell-001": FIRST, "cell-004": THIRD})
    done = rekey(notebook, [old], keep=old)
    blocks, _ = parse_blocks(done.text)
    assert blocks["cell-011"].text == CHINESE["cell-001"] and done.kept == ["cell-004"]
    assert blocks["cell-004"].text == CHINESE["cell-004"]


def test_the_rekey_command_says_what_it_kept(tmp_path, monkeypatch, capsys):
    notebook = _notebook(tmp_path / "05_x.ipynb", {"cell-001": FIRST, "cell-003": SECOND + " Changed."})
    target = _translation(tmp_path / "05_x.md", {"cell-001": FIRST, "cell-003": SECOND})
    monkeypatch.setattr(cli, "translation_path", lambda path: target)
    assert main(["rekey", str(notebook)]) == 1  # work left: the changed cell
    out = capsys.readouterr().out
    assert out.startswith(f"wrote {target}; kept the translation of cell-003 whose English changed since")
    assert CHINESE["cell-003"] in target.read_text(encoding="utf-8")


def _cases(tmp_path):
    notebook = _notebook(tmp_path / "05_x.ipynb", {"cell-001": FIRST})
    folder = tmp_path / "a_folder.md"
    folder.mkdir()
    latin = tmp_path / "latin1.md"
    latin.write_bytes(f"<!-- cell cell-001 en-sha256 {cell_hash(FIRST)} -->\n".encode() + "caf\xe9\n".encode("latin-1"))
    return notebook, folder, latin


@pytest.mark.parametrize("case", ["--from a missing file", "--from a folder", "--from a file not UTF-8",
                                  "no translation of its own", "rekey into a folder", "skeleton under a file"])
def test_a_rekey_or_skeleton_input_gets_one_error_line_and_status_1(tmp_path, monkeypatch, capsys, case):
    notebook, folder, latin = _cases(tmp_path)
    (tmp_path / "a_file").write_text("a file where a folder must be")
    target = {"rekey into a folder": folder, "skeleton under a file": tmp_path / "a_file" / "05_x.md"}.get(
        case, tmp_path / "none" / "05_x.md")
    monkeypatch.setattr(cli, "translation_path", lambda path: target)
    argv = {"--from a missing file": ["rekey", str(notebook), "--from", str(tmp_path / "gone.md")],
            "--from a folder": ["rekey", str(notebook), "--from", str(folder)],
            "--from a file not UTF-8": ["rekey", str(notebook), "--from", str(latin)],
            "no translation of its own": ["rekey", str(notebook)],
            "rekey into a folder": ["rekey", str(notebook), "--from", str(_translation(tmp_path / "t.md",
                                                                                      {"cell-001": FIRST}))],
            "skeleton under a file": ["skeleton", str(notebook)]}[case]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err + captured.out and not (tmp_path / "none").exists()


@pytest.mark.parametrize("text, says", [(None, "no glossary"), ("[[term]\nen = 'x'", "not readable TOML"),
                                        ("[[term]]\nen = 'tool call'\n", "missing 'zh'"),
                                        ("term = 3\n", "with en and zh"),
                                        ("[[term]]\nen = 'x'\nzh = 4\n", "en and zh must be text")])
def test_a_broken_glossary_is_one_error_line_from_check(tmp_path, monkeypatch, capsys, text, says):
    glossary = tmp_path / "glossary.toml"
    if text is not None:
        glossary.write_text(text, encoding="utf-8")
    with pytest.raises(GlossaryError, match=says):
        read_glossary(glossary)
    notebook = _notebook(tmp_path / "05_x.ipynb", {"cell-001": FIRST})
    monkeypatch.setattr(cli, "read_glossary", lambda: read_glossary(glossary))
    assert main(["check", str(notebook)]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"error: {glossary}: " + captured.err.split(": ", 2)[2] and captured.err.count("\n") == 1
    assert says in captured.err


def test_a_catalog_that_is_not_utf8_is_one_problem_not_a_traceback(tmp_path):
    po = tmp_path / "course.po"
    po.write_bytes(b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "x"\nmsgstr "\xff\xfe"\n')
    problems = catalog_problems(po, sources={"x"}, terms=[])
    assert len(problems) == 1 and problems[0].startswith("course.po: cannot be read as a catalog (UnicodeDecodeError")
