"""The Chinese edition is fresh (issue 22): it fails, naming notebook and cell id, the moment the two
editions drift apart. One test per English notebook (discovered as the runner discovers them, so a
new, split or renumbered notebook is covered without a list here):

* its translation file exists and covers every Markdown cell, each translated from today's English
  text (hash), keeping every inline-code span, link target and number, with the glossary's
  renderings (``translations/zh/glossary.toml``);
* no block's ``en-sha256`` was moved to a changed English cell while its Chinese stayed the same, unless
  its marker records that decision (``checked <the English the Chinese was written for>``; the
  translation file's git history tells, :func:`tooling.translation.worklist.unrecorded_keeps`);
* its built ``notebooks/zh`` notebook exists, has the English code cells byte for byte and the
  translation's Markdown, and was built from today's English notebook, translation and catalog
  (``make zh`` rebuilds what changed).

Plus: no translation or built notebook is left of an English notebook that no longer exists, and
the message catalog lacks no wrapped string, has none untranslated or fuzzy, and its ``.mo`` is
compiled from today's ``.po``. The check is :mod:`tooling.translation.check` (also
``python -m tooling.translation check``).
"""

from __future__ import annotations

import pytest

from tooling.translation.catalog import catalog_problems
from tooling.translation.check import build_problems, translation_problems
from tooling.translation.readme import readme_problems
from tooling.translation.source import TRANSLATIONS_DIR, ZH_DIR, english_notebooks, read_glossary, translation_path
from tooling.translation.worklist import unrecorded_keeps

NOTEBOOKS = english_notebooks()
TERMS = read_glossary()


def test_there_are_english_notebooks_and_a_glossary():
    assert NOTEBOOKS and NOTEBOOKS[0].name.startswith("00_")
    # The terms (ToolMessage and tool_call_id are identifiers: they stay English, in code spans).
    assert {"tool call", "tool schema", "reducer", "checkpointer", "thread", "interrupt", "resume", "middleware",
            "idempotency key"} <= {term.en for term in TERMS}
    assert len({term.en for term in TERMS}) == len(TERMS), "one rendering per term"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_chinese_edition_of_this_notebook_is_fresh(path):
    translation = translation_path(path)
    problems = translation_problems(path, translation, TERMS)
    if translation.is_file():
        problems += unrecorded_keeps(translation)
        problems += build_problems(path, translation, ZH_DIR / path.name)
    assert not problems, (f"the Chinese edition drifted: `make worklist NB={path.name[:2]}` shows each cell to translate "
                          "(the English change and the Chinese now); translate, then `make zh`:\n" + "\n".join(problems))


def test_nothing_is_left_of_a_notebook_the_course_no_longer_has():
    names = {path.stem for path in NOTEBOOKS}
    left = sorted(p.name for p in TRANSLATIONS_DIR.glob("*.md") if p.stem not in names)
    left += sorted(f"zh/{p.name}" for p in ZH_DIR.glob("*.ipynb") if p.stem not in names)
    assert not left, f"translations or built notebooks of no English notebook (renamed? move them): {left}"


def test_the_message_catalog_is_complete_and_compiled():
    problems = catalog_problems()
    assert not problems, "\n".join(problems)


def test_the_chinese_readme_lists_the_chinese_course_map():
    assert readme_problems() == []
