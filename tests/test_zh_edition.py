"""The Chinese edition's machinery (issue 22), on fixtures in temporary folders: the message catalog
and how the edition chooses the language, the translation format and every freshness check (each
names notebook and cell id), the build (code cells byte-identical, executed in the edition's folder
so its kernel speaks Chinese, rebuilt only when an input changed) and ``COURSE_LANG=zh`` in the
workspace command. ``tests/test_zh_fresh.py`` runs the same checks on the real course.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from helpers import i18n
from helpers.workspace import commands as ws
from helpers.workspace import place
from helpers.i18n import _, use
from tooling.notebooks import execute_notebook, kernel_env
from helpers.progress import progress_table
from helpers.progress.store import Progress, score_line
from tooling.translation.build import build, built_from, compose, recorded_hash
from tooling.translation.catalog import catalog_problems, compiled, extracted, extracted_at, po_path
from tooling.translation.check import build_problems, translation_problems
from tooling.translation.source import Term, cell_hash, format_blocks, markdown_cells, parse_blocks

ROOT = Path(__file__).resolve().parent.parent
TERMS = [Term("tool call", "工具调用", ("工具呼叫",)), Term("checkpointer", "检查点保存器", ())]
ENGLISH_MD = ["# 01 · Tools\n\nA tool call asks for `get_order` with 2 arguments; see [notebook 02](02_x.ipynb).",
              "The checkpointer keeps 3 threads."]
CHINESE_MD = ["# 01 · 工具\n\n一次工具调用请求 `get_order`，带 2 个参数；见 [notebook 02](02_x.ipynb)。",
              "检查点保存器保存 3 个线程。"]
CODE = "from helpers.progress.store import score_line\nprint(score_line(1, 2, 3))"


def _notebook(folder: Path, name: str = "01_x.ipynb", markdown=ENGLISH_MD, code: str = CODE) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(markdown[0]), nbformat.v4.new_code_cell(code),
                nbformat.v4.new_markdown_cell(markdown[1])]
    for number, cell in enumerate(nb.cells, 1):
        cell["id"] = f"cell-{number:03d}"
    nb.cells[1].metadata["tags"] = ["keep-me"]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / name)
    return folder / name


def _translation(folder: Path, english: Path, texts=CHINESE_MD, ids=("cell-001", "cell-003")) -> Path:
    sources = dict(markdown_cells(english))
    blocks = [f"<!-- cell {cid} en-sha256 {cell_hash(sources.get(cid, ''))} -->\n{text}\n" for cid, text in zip(ids, texts)]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (english.stem + ".md")
    path.write_text("\n".join(blocks), encoding="utf-8")
    return path


# -- the message catalog and the edition ------------------------------------------------------------


def test_the_folder_marker_chooses_the_language_and_the_locale_does_not(tmp_path, monkeypatch):
    zh = tmp_path / "zh"
    i18n.write_marker(zh, "zh-CN")
    monkeypatch.setenv("LANGUAGE", "zh_CN")  # what gettext's own lookup would read: never used here
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.chdir(tmp_path)
    assert i18n.current_edition() == "en" and _("Check") == "Check"
    assert score_line(1, 2, 5) == "1 of 5 right on first try, 2 answered"
    monkeypatch.chdir(zh)
    assert i18n.current_edition() == "zh-CN"
    assert _("Check") == "检查" and score_line(1, 2, 5) == "5 题中首次答对 1 题，已作答 2 题"
    with use("en"):
        assert _("Check") == "Check"
    (zh / i18n.MARKER).write_text("klingon\n")  # an unknown edition reads as English
    assert i18n.current_edition() == "en"
    with pytest.raises(ValueError, match="unknown edition"):
        with use("fr"):  # type: ignore[arg-type]
            pass


def test_english_is_every_source_string_unchanged_and_chinese_translates_them():
    strings = sorted(extracted())
    assert {"PASS", "Check", "Clear picks", "{right} of {total} right on first try, {answered} answered",
            "workspace: {folder}", "your code was still running after {seconds} s: an endless loop?"} <= set(strings)
    with use("en"):
        assert [_(s) for s in strings] == strings
    with use("zh-CN"):
        same = {s for s in strings if _(s) == s}
    # A plural's second form is looked up through its first (ngettext).
    from babel.messages.pofile import read_po
    with open(po_path(), "rb") as handle:
        catalog = list(read_po(handle))
    plurals = {m.id[1] for m in catalog if isinstance(m.id, tuple)}
    # A string the catalog keeps as it is on purpose (code, ids, JSON a choice shows) reads the same.
    kept = {m.id for m in catalog if isinstance(m.id, str) and m.string == m.id}
    assert plurals and not same - plurals - kept
    with use("zh-CN"):
        assert _("PASS") == "通过" and i18n.ngettext("a process", "{count} processes", 2) == "{count} 个进程"


def test_the_chrome_reads_in_the_edition_language():
    progress = Progress()
    english = progress_table(progress, questions={})
    with use("en"):
        assert progress_table(progress, questions={}) == english
    assert english.splitlines()[0].split() == ["notebook", "exercise", "solved", "self-check"]
    with use("zh-CN"):
        chinese = progress_table(progress, questions={})
    assert chinese.splitlines()[0].split() == ["笔记本", "练习", "已完成", "自测"]
    from wcwidth import wcswidth  # columns line up on screen: a Chinese character takes two
    head, row = chinese.splitlines()[0], chinese.splitlines()[2]
    assert wcswidth(head[:head.index("已完成")]) == wcswidth(row[:row.index(" 否 ") + 1])
    from helpers.exercises.results import CaseResult, CheckResult
    result = CheckResult("01.1", "a tool", solved=True, results=[CaseResult("one", "pass"), CaseResult("two", "fail", "no")])
    assert result.text().splitlines()[0] == "Exercise 01.1 (a tool): 1/2 checks passed"
    with use("zh-CN"):
        assert result.text().splitlines() == ["练习 01.1（a tool）：1/2 项检查通过", "  [通过] one", "  [未通过] two - no"]


def test_catalog_problems_name_each_gap(tmp_path):
    po = tmp_path / "course.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  'msgid "Check"\nmsgstr "检查"\n\n#, fuzzy\nmsgid "Clear picks"\nmsgstr "清除"\n\n'
                  'msgid "PASS"\nmsgstr ""\n', encoding="utf-8")
    problems = catalog_problems(po, sources={"Check", "Clear picks", "PASS", "FAIL"})
    assert problems == ["course.po: fuzzy (check the translation, then drop the flag): 'Clear picks'",
                        "course.po: untranslated: 'PASS'",
                        "course.po: lacks 'FAIL' (make catalogs, then translate it)",
                        "course.mo: stale or missing: not compiled from today's course.po (make catalogs)"]
    po.with_suffix(".mo").write_bytes(compiled(po))
    assert not any("course.mo" in p for p in catalog_problems(po, sources={"Check"}))
    po.write_text(po.read_text(encoding="utf-8").replace("检查", "核对"), encoding="utf-8")
    assert catalog_problems(po, sources={"Check"})[-1].startswith("course.mo: stale")


def test_a_new_untranslated_string_is_named_with_file_and_line(tmp_path):
    """The course-wide check (``tests/test_zh_fresh.py``) on a copy of a helpers tree: a new ``_()``
    string, an exercise's title and a case's name (``tooling/translation/extract.py``; the ``N_`` hint
    nested in the case is still found), a dropped placeholder and a message no code marks any more
    are each named with the source line."""
    exercises = tmp_path / "helpers" / "exercises"
    exercises.mkdir(parents=True)
    (exercises / "nb01.py").write_text(
        'from helpers.i18n import N_, _\n\nprint(_("Check"))\nprint(_("{count} new checks").format(count=2))\n'
        'EX = Exercise("01.9", "a new title", [\n    Case("a new case", print, N_("a new hint"))])\n',
        encoding="utf-8")
    sources = extracted_at(tmp_path / "helpers")
    assert sources == {"Check": ["helpers/exercises/nb01.py:3"], "{count} new checks": ["helpers/exercises/nb01.py:4"],
                       "a new title": ["helpers/exercises/nb01.py:5"], "a new case": ["helpers/exercises/nb01.py:6"],
                       "a new hint": ["helpers/exercises/nb01.py:6"]}
    po = tmp_path / "course.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  '#: helpers/exercises/nb01.py:3\nmsgid "Check"\nmsgstr "检查"\n\n'
                  '#: helpers/exercises/nb01.py:4\nmsgid "{count} new checks"\nmsgstr "新的检查"\n\n'
                  '#: helpers/exercises/nb01.py:6\nmsgid "a new hint"\nmsgstr "新的提示"\n\n'
                  '#: helpers/old.py:9\nmsgid "Gone"\nmsgstr "没了"\n', encoding="utf-8")
    po.with_suffix(".mo").write_bytes(compiled(po))
    assert catalog_problems(po, sources) == [
        ("course.po: the translation of '{count} new checks' changes its placeholders: '新的检查' "
         "(helpers/exercises/nb01.py:4)"),
        "course.po: translates 'Gone', which no code marks any more (make catalogs) (helpers/old.py:9)",
        "course.po: lacks 'a new case' (helpers/exercises/nb01.py:6) (make catalogs, then translate it)",
        "course.po: lacks 'a new title' (helpers/exercises/nb01.py:5) (make catalogs, then translate it)"]


# -- the translation format and the freshness checks ------------------------------------------------


def test_a_faithful_translation_has_no_problem_and_the_skeleton_round_trips(tmp_path):
    english = _notebook(tmp_path / "notebooks")
    assert translation_problems(english, _translation(tmp_path / "tr", english), TERMS) == []
    blocks, layout = parse_blocks(format_blocks(markdown_cells(english)))
    assert layout == [] and [b.text for b in blocks.values()] == ENGLISH_MD
    assert all(b.en_hash == cell_hash(src) for b, src in zip(blocks.values(), ENGLISH_MD))


@pytest.mark.parametrize(("texts", "expected"), [
    (["# 01 · 工具\n\n一次工具调用请求 get_order，带 2 个参数；见 [notebook 02](02_x.ipynb)。", CHINESE_MD[1]],
     "01_x: cell-001: inline-code span missing: `get_order`"),
    (["# 01 · 工具\n\n一次工具调用请求 `get_order`，带 2 个参数；见 notebook 02。", CHINESE_MD[1]],
     "01_x: cell-001: link target missing: 02_x.ipynb"),
    (["# 01 · 工具\n\n一次工具调用请求 `get_order`，带两个参数；见 [notebook 02](02_x.ipynb)。", CHINESE_MD[1]],
     "01_x: cell-001: number missing: 2"),
    ([CHINESE_MD[0].replace("工具调用", "工具呼叫"), CHINESE_MD[1]],
     "01_x: cell-001: glossary: 'tool call' reads '工具调用', not '工具呼叫'"),
    ([CHINESE_MD[0], "检查点保存 3 个线程。"], "01_x: cell-003: glossary: 'checkpointer' should read '检查点保存器'"),
    ([CHINESE_MD[0], ENGLISH_MD[1]], "01_x: cell-003: still in English (no Chinese in the translation)"),
])
def test_each_drift_in_a_cell_is_named_with_notebook_and_cell(tmp_path, texts, expected):
    english = _notebook(tmp_path / "notebooks")
    assert expected in translation_problems(english, _translation(tmp_path / "tr", english, texts), TERMS)


def test_changed_missing_and_extra_cells_are_named(tmp_path):
    english = _notebook(tmp_path / "notebooks")
    translation = _translation(tmp_path / "tr", english)
    _notebook(tmp_path / "notebooks", markdown=[ENGLISH_MD[0], "The checkpointer keeps 4 threads."])
    assert translation_problems(english, translation, TERMS) == [
        f"01_x: cell-003: the English cell changed since it was translated (en-sha256 "
        f"{cell_hash(ENGLISH_MD[1])}, now {cell_hash('The checkpointer keeps 4 threads.')})",
        "01_x: cell-003: number missing: 4"]
    english = _notebook(tmp_path / "notebooks")
    partial = _translation(tmp_path / "tr", english, CHINESE_MD, ("cell-001", "cell-009"))
    assert translation_problems(english, partial, TERMS) == [
        "01_x: cell-003: no translation", "01_x: cell-009: translation of a cell the notebook lacks"]
    assert translation_problems(english, tmp_path / "none.md", TERMS) == ["01_x: no translation file none.md"]


def test_the_built_notebook_is_checked_against_both_sources(tmp_path):
    english = _notebook(tmp_path / "notebooks")
    translation = _translation(tmp_path / "tr", english)
    built = tmp_path / "zh" / english.name
    assert build_problems(english, translation, built) == ["01_x: not built (make zh)"]
    nb = compose(english, translation)
    en = nbformat.read(english, as_version=4)
    assert [c.source for c in nb.cells] == [CHINESE_MD[0], CODE, CHINESE_MD[1]]
    assert nb.cells[1].metadata == en.cells[1].metadata and nb.cells[1].id == en.cells[1].id
    assert nb.metadata["course_edition"] == {"language": "zh-CN", "built_from": built_from(english, translation)}
    built.parent.mkdir()
    nbformat.write(nb, built)
    assert build_problems(english, translation, built) == []
    changed = json.loads(built.read_text(encoding="utf-8"))
    changed["cells"][1]["source"] = CODE + "  # edited"
    changed["cells"][2]["source"] = "旧的译文"
    built.write_text(json.dumps(changed), encoding="utf-8")
    assert build_problems(english, translation, built) == [
        "01_x: cell-002: code cell's source differs from the English",
        "01_x: cell-003: Markdown is not the translation's (not rebuilt: make zh)"]
    nbformat.write(nb, built)
    _notebook(tmp_path / "notebooks", code=CODE + "\nprint('new')")  # the English code changed
    assert build_problems(english, translation, built) == ["01_x: cell-002: code cell's source differs from the English"]
    nbformat.write(compose(english, translation), built)
    translation.write_text(translation.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # same blocks, new file
    assert build_problems(english, translation, built) == [
        "01_x: built from an older English notebook, translation or catalog (make zh)"]


def test_build_executes_in_the_edition_folder_and_skips_what_is_up_to_date(tmp_path):
    """One real kernel per run: the English notebook prints English even with a Chinese locale, the
    built one (same code) prints Chinese; a second build skips; a changed translation rebuilds."""
    english = _notebook(tmp_path / "notebooks")
    translation = _translation(tmp_path / "tr", english)
    out = tmp_path / "notebooks" / "zh"
    assert build(english, out_dir=out, translations=tmp_path / "tr", timeout=120) is True
    assert i18n.edition_of(out) == "zh-CN"
    built = nbformat.read(out / english.name, as_version=4)
    assert built.cells[1].outputs[0]["text"] == "3 题中首次答对 1 题，已作答 2 题\n"
    assert build_problems(english, translation, out / english.name) == []
    assert recorded_hash(out / english.name) == built_from(english, translation)
    ran = execute_notebook(english, output=tmp_path / "en.ipynb", env={"LANG": "zh_CN.UTF-8", "LANGUAGE": "zh_CN"})
    assert ran.cells[1].outputs[0]["text"] == "1 of 3 right on first try, 2 answered\n"
    assert build(english, out_dir=out, translations=tmp_path / "tr", timeout=120) is False
    _translation(tmp_path / "tr", english, [CHINESE_MD[0], "检查点保存器保存 3 个线程（已修订）。"])
    assert build(english, out_dir=out, translations=tmp_path / "tr", timeout=120) is True
    assert nbformat.read(out / english.name, as_version=4).cells[2].source.endswith("（已修订）。")


# -- COURSE_LANG=zh: the Chinese workspace ----------------------------------------------------------


def _chinese_command(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """``python -m helpers.workspace`` as under ``COURSE_LANG=zh``, on a course of one Chinese notebook
    (``course/zh/``) and the workspace ``workspace/zh/`` in ``tmp_path``; returns both folders."""
    course = tmp_path / "course"
    _notebook(course / "zh", "00_start_here.ipynb", CHINESE_MD)
    workspace = tmp_path / "workspace" / "zh"
    monkeypatch.setattr(ws, "EDITION", "zh-CN")
    monkeypatch.setattr(ws, "NOTEBOOK_DIR", course)
    monkeypatch.setattr(ws, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(place, "WORKSPACE_DIR", workspace)
    monkeypatch.setattr(place, "workspace_problem", lambda *a, **k: None)
    monkeypatch.setattr(ws, "workspace_problem", lambda *a, **k: None)
    return course, workspace


def test_the_chinese_workspace_is_its_own_folder_and_marked(tmp_path, monkeypatch, capsys):
    course, workspace = _chinese_command(tmp_path, monkeypatch)
    assert ws.main(["sync"]) == 0
    out = capsys.readouterr().out
    assert f"工作区：{workspace}" in out and "00_start_here.ipynb: 已复制（新增）" in out
    assert i18n.edition_of(workspace) == "zh-CN"
    assert nbformat.read(workspace / "00_start_here.ipynb", as_version=4).cells[0].source == CHINESE_MD[0]
    (course / "zh" / "00_start_here.ipynb").unlink()
    assert ws.main(["status"]) == 1
    assert "中文版尚未构建" in capsys.readouterr().err


def test_reset_and_status_refusals_read_in_chinese(tmp_path, monkeypatch, capsys):
    _, workspace = _chinese_command(tmp_path, monkeypatch)
    assert ws.main(["reset", "99"]) == 1
    assert capsys.readouterr().err == "error: '99' 没有匹配任何课程笔记本；课程笔记本有：00_start_here.ipynb\n"
    workspace.mkdir(parents=True)
    (workspace / ".course-manifest.json").write_text("{", encoding="utf-8")
    assert ws.main(["status"]) == 0
    assert "清单 .course-manifest.json 已损坏（" in capsys.readouterr().out


def test_course_lang_picks_the_workspace_folder_and_never_reaches_a_course_kernel(tmp_path):
    env = {**os.environ, "COURSE_WORKSPACE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    for value, folder in (("zh", tmp_path / "zh"), ("", tmp_path)):
        run = subprocess.run([sys.executable, "-m", "helpers.workspace", "path"], env={**env, "COURSE_LANG": value},
                             capture_output=True, text=True, timeout=120)
        assert (run.returncode, run.stdout.strip()) == (0, str(folder))
    run = subprocess.run([sys.executable, "-m", "helpers.workspace", "path"], env={**env, "COURSE_LANG": "fr"},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "COURSE_LANG='fr' names no edition" in run.stderr
    os.environ["COURSE_LANG"] = "zh"
    try:
        assert "COURSE_LANG" not in kernel_env()
    finally:
        del os.environ["COURSE_LANG"]


def test_the_catalog_files_are_where_make_catalogs_puts_them():
    assert po_path() == ROOT / "helpers" / "locale" / "zh_CN" / "LC_MESSAGES" / "course.po"
    assert po_path().with_suffix(".mo").is_file()


def test_a_recompiled_catalog_rebuilds_nothing_unless_a_message_changed(tmp_path):
    """``make catalogs`` renews the header's dates on every run; only the messages count for a rebuild."""
    english = _notebook(tmp_path / "notebooks")
    translation = _translation(tmp_path / "tr", english)
    po, mo = tmp_path / "course.po", tmp_path / "course.mo"
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n"PO-Revision-Date: {date}\\n"\n\n'
    digests, catalogs = [], []
    for date, text in (("2026-01-01 10:00+0000", "检查"), ("2026-12-02 03:06+0000", "检查"),
                       ("2026-12-02 03:06+0000", "核对")):
        po.write_text(header.format(date=date) + f'msgid "Check"\nmsgstr "{text}"\n', encoding="utf-8")
        mo.write_bytes(compiled(po))
        catalogs.append(mo.read_bytes())
        digests.append(built_from(english, translation, mo))
    assert catalogs[0] != catalogs[1], "the recompiled .mo differs in its header"
    assert digests[0] == digests[1] != digests[2]


def _recipes(readme: Path) -> list[dict[str, str]]:
    """Every model recipe of ``readme``: a ``bash`` block's ``export NAME=VALUE`` lines (comments dropped), in order,
    for the blocks that choose a model (``COURSE_MODEL``; set-up blocks such as a pip mirror are not recipes)."""
    found = []
    for block in readme.read_text(encoding="utf-8").split("```bash\n")[1:]:
        lines = [line[len("export "):].split("#", 1)[0].strip() for line in block.split("```", 1)[0].splitlines()
                 if line.startswith("export ")]
        recipe = dict(line.split("=", 1) for line in lines)
        if "COURSE_MODEL" in recipe:
            found.append(recipe)
    return found


def test_the_chinese_readme_gives_the_dashscope_recipe_first_as_the_english_one_writes_it():
    from helpers.model.config import read_model_config

    chinese, english = _recipes(ROOT / "README.zh-CN.md"), _recipes(ROOT / "README.md")
    dashscope = chinese[0]
    assert dashscope in english and dashscope["COURSE_MODEL"] == "qwen-plus"
    assert read_model_config({**dashscope, "DASHSCOPE_API_KEY": "sk-" + "0" * 32}).key_variable == "DASHSCOPE_API_KEY"
    assert all(recipe in english for recipe in chinese), "every Chinese recipe is one the English README gives"
    assert "README.zh-CN.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_rekey_moves_each_block_to_the_cell_it_translates(tmp_path):
    """After a notebook is split or its cells renumbered (the runner numbers ids by position), each
    block goes to the cell whose English it translates; a cell nothing matches keeps its English."""
    from tooling.translation.source import rekey

    english = _notebook(tmp_path / "notebooks")
    old = _translation(tmp_path / "tr", english)
    moved = _notebook(tmp_path / "split", "02_y.ipynb", markdown=[ENGLISH_MD[1], "A new cell, not translated yet."])
    done = rekey(moved, [old])
    text, unmatched = done.text, done.unmatched
    blocks, _layout = parse_blocks(text)
    assert unmatched == ["cell-003"] and blocks["cell-001"].text == CHINESE_MD[1]
    assert blocks["cell-003"].text == "A new cell, not translated yet."
    path = tmp_path / "tr2" / "02_y.md"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    assert translation_problems(moved, path, TERMS) == ["02_y: cell-003: still in English (no Chinese in the translation)"]


def test_the_chinese_readme_table_follows_the_chinese_course_map(tmp_path):
    from tooling.coursemap import END, START
    from tooling.translation.readme import readme_problems, write_readme

    translations = tmp_path / "translations"
    translations.mkdir()
    (translations / "00_start_here.md").write_text(
        "<!-- cell cell-005 en-sha256 0123456789ab -->\n## 2. 课程地图\n\n"
        f"{START} (generated) -->\n| 00 | [从这里开始](00_start_here.ipynb) |\n{END}\n", encoding="utf-8")
    readme = tmp_path / "README.zh-CN.md"
    readme.write_text(f"# 中文版\n\n{START} -->\n| old |\n{END}\n\n尾部\n", encoding="utf-8")
    assert readme_problems(readme, translations)  # stale: the old row
    assert write_readme(readme, translations) is True
    text = readme.read_text(encoding="utf-8")
    assert "[从这里开始](notebooks/zh/00_start_here.ipynb)" in text and "| old |" not in text
    assert text.startswith("# 中文版") and text.rstrip().endswith("尾部")
    assert readme_problems(readme, translations) == [] and write_readme(readme, translations) is False


def test_the_chinese_course_map_is_the_english_entries_in_chinese_with_the_rows_as_translated():
    from tooling.coursemap import END, START, CourseEntry, course_entries
    from tooling.translation.course_map import chinese_minutes, chinese_table
    from tooling.translation.source import TRANSLATIONS_DIR, read_blocks

    block = next(b for b in read_blocks(TRANSLATIONS_DIR / "00_start_here.md")[0].values() if START in b.text)
    region = block.text[block.text.index("\n", block.text.index(START)) + 1:block.text.index(END)].rstrip("\n")
    entries = course_entries()
    assert chinese_table(entries, region) == region  # today's map, as translated, from today's entries
    new = CourseEntry("99_new_topic.ipynb", "New topic", "one line, not translated yet", 20, 40)
    lines = chinese_table([*entries, new], region).splitlines()
    assert lines[-1] == "| 99 | [New topic](99_new_topic.ipynb) | one line, not translated yet | 1 小时（20 + 40） |"
    assert lines[3:-1] == region.splitlines()[3:]  # every translated row kept
    total = sum(e.minutes for e in entries) + 60
    assert f"（{total} 分钟：{sum(e.reading for e in entries) + 20} 分钟阅读正文和输出，" in lines[0]
    assert [chinese_minutes(m) for m in (45, 60, 95)] == ["45 分钟", "1 小时", "1 小时 35 分钟"]


def test_the_chinese_map_block_follows_a_change_of_the_english_map_only(tmp_path):
    from tooling.coursemap import END, START, CourseEntry, replace_region
    from tooling.translation.course_map import follow_english_map

    def start(source):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(source, id="cell-005")])
        nbformat.write(nb, tmp_path / "00_start_here.ipynb")
        return tmp_path / "00_start_here.ipynb"

    before = f"## 2. Map\n\nIntro.\n\n{START} -->\nold English table\n{END}\n"
    translation = tmp_path / "00_start_here.md"
    translation.write_text(f"<!-- cell cell-005 en-sha256 {cell_hash(before)} -->\n## 2. 地图\n\n简介。\n\n"
                           f"{START} -->\n| 00 | [从这里开始](00_start_here.ipynb) | 怎么学 | 45 分钟（20 + 25） |\n{END}\n",
                           encoding="utf-8")
    entries = [CourseEntry("00_start_here.ipynb", "Start here", "how", 20, 25),
               CourseEntry("01_next.ipynb", "Next one", "what", 10, 10)]
    after = replace_region(before, "new English table", "00")
    assert follow_english_map(start(after), before, entries, tmp_path) is True
    blocks = parse_blocks(translation.read_text(encoding="utf-8"))[0]
    assert blocks["cell-005"].en_hash == cell_hash(after)
    assert "| 00 | [从这里开始](00_start_here.ipynb) | 怎么学 | 45 分钟（20 + 25） |" in blocks["cell-005"].text
    assert "| 01 | [Next one](01_next.ipynb) | what | 20 分钟（10 + 10） |" in blocks["cell-005"].text
    assert blocks["cell-005"].text.startswith("## 2. 地图\n\n简介。")
    kept = translation.read_text(encoding="utf-8")
    # the prose changed too: a translator's work, the block is left as it is (and stays stale)
    assert follow_english_map(start(after.replace("Intro.", "New intro.")), after, entries, tmp_path) is False
    assert translation.read_text(encoding="utf-8") == kept


def test_the_next_cell_is_written_in_chinese_by_the_build_not_translated(tmp_path):
    from tooling.translation.next_cell import chinese_next
    from tooling.translation.source import format_blocks, is_next_cell

    translations = tmp_path / "t"
    translations.mkdir()
    (translations / "03_toolmessage_pairing.md").write_text(
        "<!-- cell cell-001 en-sha256 0123456789ab -->\n# 03 · ToolMessage 配对\n\n正文\n", encoding="utf-8")
    line = "[Next: 03 · ToolMessage pairing](03_toolmessage_pairing.ipynb)"
    assert is_next_cell(line) and not is_next_cell("See [03](03_toolmessage_pairing.ipynb).")
    assert chinese_next(line, translations) == "[下一篇：03 · ToolMessage 配对](03_toolmessage_pairing.ipynb)"
    assert chinese_next("[Back to 00 · Start here](00_start_here.ipynb)", translations) == \
        "[返回 00 · Start here](00_start_here.ipynb)"  # no translation of 00 here: its English title
    english = tmp_path / "03_toolmessage_pairing.ipynb"
    english.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "cell-001", "metadata": {}, "source": "# 03 · ToolMessage pairing"},
        {"cell_type": "markdown", "id": "cell-009", "metadata": {}, "source": line}]}), encoding="utf-8")
    assert "cell-009" not in format_blocks(markdown_cells(english))  # a translator never sees it
    with pytest.raises(ValueError, match="not a generated Next cell"):
        chinese_next("plain text", translations)


def test_the_catalog_is_held_to_the_glossary_too():
    """A message translated with a rendering the glossary says to avoid is named, as in a notebook."""
    from tooling.translation.catalog import catalog_problems

    strict = [Term("widget", "小组件", ("小组件",))]  # every use of the rendering now counts as avoided
    problems = catalog_problems(terms=strict)
    assert problems and all("glossary: 'widget' reads '小组件', not '小组件'" in p for p in problems)
    assert any("helpers/widgets/" in p for p in problems), "the message's source line is named"


def test_a_term_with_several_senses_is_required_only_in_the_one_it_names(tmp_path):
    """``match``: "answer" must read 回答 where a result answers a call, not where a model answers in text."""
    answer = Term("answer", "回答", ("回应",), r"\banswer(s|ed)?\b(?! with| in text)[^.;:\n]{0,25}\bcalls?\b")
    english = _notebook(tmp_path / "notebooks", markdown=["# 01 · Tools\n\nThe model answers in text.",
                                                          "A ToolMessage answers the call."])
    faithful = _translation(tmp_path / "tr", english, ["# 01 · 工具\n\n模型用文本作答。", "ToolMessage 回答这个调用。"])
    assert translation_problems(english, faithful, [answer]) == []
    other = _translation(tmp_path / "tr", english, ["# 01 · 工具\n\n模型用文本作答。", "ToolMessage 对这个调用作出回复。"])
    assert translation_problems(english, other, [answer]) == ["01_x: cell-003: glossary: 'answer' should read '回答'"]
    avoided = _translation(tmp_path / "tr", english, ["# 01 · 工具\n\n模型用文本回应。", "ToolMessage 回答这个调用。"])
    assert translation_problems(english, avoided, [answer]) == [
        "01_x: cell-001: glossary: 'answer' reads '回答', not '回应'"]


def test_the_chinese_readme_is_held_to_the_glossary_outside_code(tmp_path):
    from tooling.translation.readme import readme_problems

    readme = tmp_path / "README.zh-CN.md"
    readme.write_text("# 课程\n\n一个退款代理。\n\n```bash\nexport X=代理  # 代理\n```\n\n`代理` 与 Agent。\n",
                      encoding="utf-8")
    agent = [Term("agent", "Agent", ("代理",))]
    assert readme_problems(readme, tmp_path / "no-translations", agent) == [
        "README.zh-CN.md: line 3: glossary: 'agent' reads 'Agent', not '代理'"]
    assert readme_problems(readme, tmp_path / "no-translations", [Term("agent", "Agent", ())]) == []


def test_the_course_glossary_decides_each_term_once():
    """The issue's terms each have one rendering; the renderings another term avoids are not its own."""
    from tooling.translation.source import read_glossary

    terms = {term.en: term for term in read_glossary()}
    assert {"refund request", "guard", "reviewer", "answer", "playground", "trace", "fix", "agent"} <= set(terms)
    assert terms["agent"].zh == "Agent" and "代理" in terms["agent"].avoid
    renderings = {term.zh for term in terms.values()}
    clashes = [(term.en, bad) for term in terms.values() for bad in term.avoid if bad in renderings]
    assert not clashes, f"a rendering avoided by one term is another term's rendering: {clashes}"
