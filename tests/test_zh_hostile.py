"""The Chinese edition's machinery against hostile input a learner or a maintainer can produce: odd
marker files, a missing or corrupt compiled catalog, odd arguments to ``_()``, translation files
saved by other editors (BOM, CRLF, not UTF-8) and command-line paths that are not notebooks. Each
must give English or a clear message, never a traceback or a hung kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_zh_edition import TERMS, _notebook, _translation

from helpers import i18n
from helpers.i18n import _, use
from tooling.translation.__main__ import main
from tooling.translation.check import translation_problems
from tooling.translation.next_cell import chinese_next
from tooling.translation.readme import chinese_map
from tooling.translation.source import Block, cell_hash, markdown_cells, parse_blocks

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fresh_catalogs():
    """Forget the cached catalogs before and after the test (it points them elsewhere)."""
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


@pytest.mark.parametrize("content", ["directory", "empty", "binary", "loop", "huge", "unreadable"])
def test_an_odd_marker_reads_as_english(tmp_path, content):
    marker = tmp_path / i18n.MARKER
    if content == "directory":
        marker.mkdir()
    elif content == "loop":
        marker.symlink_to(marker)
    elif content == "huge":
        marker.write_text("zh-CN" + " " * 100_000 + "x")
    else:
        marker.write_bytes({"empty": b"", "binary": b"\xff\xfe\x00zh", "unreadable": b"zh-CN"}[content])
        if content == "unreadable":
            marker.chmod(0)
    assert i18n.edition_of(tmp_path) == "en" or (content == "unreadable" and os.geteuid() == 0)


def test_a_fifo_marker_is_not_opened_so_the_kernel_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / i18n.MARKER)
    holder = os.open(tmp_path / i18n.MARKER, os.O_RDWR)  # a writer that never closes: reading would block
    try:
        code = f"from helpers.i18n import edition_of; print(edition_of({str(tmp_path)!r}))"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        os.close(holder)
    assert done.stdout.strip() == "en", done.stderr


def test_a_deleted_current_directory_reads_as_english(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    i18n.write_marker(gone, "zh-CN")
    monkeypatch.chdir(gone)
    (gone / i18n.MARKER).unlink()
    gone.rmdir()
    assert i18n.current_edition() == "en" and _("Check") == "Check"


REAL_MO = (i18n.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "course.mo").read_bytes()


@pytest.mark.parametrize("mo", [None, b"not a catalog", REAL_MO[:200]], ids=["missing", "garbage", "truncated"])
def test_a_missing_or_corrupt_catalog_warns_once_and_answers_in_english(tmp_path, monkeypatch, fresh_catalogs, mo):
    if mo is not None:
        (tmp_path / "zh_CN" / "LC_MESSAGES").mkdir(parents=True)
        (tmp_path / "zh_CN" / "LC_MESSAGES" / "course.mo").write_bytes(mo)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with use("zh-CN"):
        with pytest.warns(RuntimeWarning, match="make catalogs"):
            assert _("Check") == "Check"
        assert i18n.ngettext("a process", "{count} processes", 2) == "{count} processes"


@pytest.mark.parametrize("value", [None, 3, ["Check"]])
def test_a_non_string_comes_back_unchanged_in_both_editions(value):
    for edition in ("en", "zh-CN"):
        with use(edition):
            assert _(value) == value  # type: ignore[arg-type]


def test_a_bom_and_crlf_translation_file_keeps_every_marker(tmp_path):
    english = _notebook(tmp_path / "en")
    lf = _translation(tmp_path / "tr", english).read_text(encoding="utf-8")
    expected = parse_blocks(lf)
    assert expected[0] and not expected[1]
    assert parse_blocks("\ufeff" + lf.replace("\n", "\r\n")) == expected
    assert parse_blocks(lf.replace("\n", "\r")) == expected


def test_duplicated_unknown_and_leading_text_are_each_named(tmp_path):
    english = _notebook(tmp_path / "en")
    source = dict(markdown_cells(english))["cell-001"]
    path = _translation(tmp_path / "tr", english)
    path.write_text("stray\n" + path.read_text(encoding="utf-8")
                    + f"\n<!-- cell cell-001 en-sha256 {cell_hash(source)} -->\n再一次\n"
                    + "\n<!-- cell cell-999 en-sha256 000000000000 -->\n多余\n", encoding="utf-8")
    problems = "\n".join(translation_problems(english, path, TERMS))
    for part in ("text before the first", "cell-001: translated twice", "cell-999: translation of a cell"):
        assert part in problems


def test_a_translation_file_that_is_not_utf8_is_one_clear_problem(tmp_path):
    english = _notebook(tmp_path / "en")
    path = _translation(tmp_path / "tr", english)
    path.write_bytes(path.read_bytes() + b"\n\xff\xfe broken\n")
    assert translation_problems(english, path, TERMS) == [
        f"01_x: 01_x.md is not UTF-8 text (byte {len(path.read_bytes()) - 10}: b'\\xff\\xfe b'); save it as UTF-8"]


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("name, says", [("nope.ipynb", "no such notebook"), ("README.md", "not a notebook"),
                                        ("translations/zh/notebooks/01_function_to_tool.md", "not a notebook"),
                                        ("notebooks/zh/01_function_to_tool.ipynb", "a built Chinese notebook")])
def test_a_path_that_is_not_a_notebook_is_refused_with_exit_status_1(command, name, says, capsys):
    assert main([command, str(ROOT / name)]) == 1
    out = capsys.readouterr()
    assert f"{ROOT / name}: {says}" in out.err and "Traceback" not in out.err + out.out


def test_a_non_utf8_translation_leaves_the_next_cell_and_readme_in_english_not_a_traceback(tmp_path):
    for name in ("02_x.md", "00_start_here.md"):
        (tmp_path / name).write_bytes(b"<!-- cell cell-001 en-sha256 000000000000 -->\n# 02 \xb7 \xff\n")
    assert chinese_next("[Next: 02 · Two](02_x.ipynb)", tmp_path) == "[下一篇：02 · Two](02_x.ipynb)"
    assert chinese_map(tmp_path) is None


@pytest.mark.parametrize("value, refused", [("fr", True), ("zh-Hans", True), (" ZH ", False), ("zh_CN", False),
                                            ("", False)])
def test_progress_refuses_a_course_lang_that_names_no_edition_as_the_workspace_command_does(
        value, refused, monkeypatch, capsys):
    monkeypatch.setenv("COURSE_LANG", value)
    from helpers.progress import report as progress
    from helpers.workspace import commands as workspace
    monkeypatch.setattr(progress, "_main", lambda args: 0)  # the table itself is not what is tested
    monkeypatch.setattr(workspace, "_main", lambda argv: 0)
    expected = f"error: COURSE_LANG={value!r} names no edition of the course" if refused else ""
    for command in (progress.main, workspace.main):
        assert command([]) == (1 if refused else 0)
        assert capsys.readouterr().err.startswith(expected)


def test_spaces_after_a_marker_keep_it_and_a_line_that_only_looks_like_one_is_named():
    good = "<!-- cell cell-001 en-sha256 0123456789ab -->"
    assert parse_blocks(good + " \t\n# 标题\n") == ({"cell-001": Block("cell-001", "0123456789ab", "# 标题")}, [])
    blocks, problems = parse_blocks(f"{good}\n正文\n<!-- cell cell-002 -->\n更多\n"
                                    "<!-- cell cell-003 en-sha256 0123456789AB -->\n")
    assert blocks["cell-001"].text == "正文\n<!-- cell cell-002 -->\n更多\n<!-- cell cell-003 en-sha256 0123456789AB -->"
    assert [p.split(":")[0] for p in problems] == ["line 3", "line 5"]
    assert all("not a well-formed marker" in p for p in problems)
