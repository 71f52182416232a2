"""Freshness of the Chinese edition: every way a translation or a built Chinese notebook drifted from
the English source, one line each, naming notebook and cell id.

:func:`translation_problems` compares a translation file with its English notebook (a cell without
translation, an English cell changed since it was translated, a translation of a cell the notebook
lacks, an inline-code span, link target or number of the English cell missing from its
translation, a glossary term rendered otherwise, a cell left in English); :func:`build_problems`
compares the built ``notebooks/zh`` notebook with both (code cells not byte-identical, Markdown not
the translation's, built from other inputs: not rebuilt). The checks mirror the prototype
``zh_tool.py`` the translators use.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .build import built_from, recorded_hash
from .next_cell import chinese_next, is_next_cell
from .source import Term, UnreadableTranslation, cell_hash, markdown_cells, read_blocks, readable_blocks

__all__ = ["avoided_renderings", "build_problems", "translation_problems"]

_FENCE = re.compile(r"```.*?```", re.S)
_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"\]\(([^)\s]+)")
_HREF = re.compile(r"""href=["']([^"']+)""")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?(?![0-9])")  # CJK may touch a number
_WORD = re.compile(r"[A-Za-z]{2,}")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _prose(text: str) -> str:
    """``text`` without fenced blocks and inline-code spans (identifiers stay English there)."""
    return _CODE.sub(" ", _FENCE.sub(" ", text))


def avoided_renderings(chinese: str, terms: list[Term]) -> list[str]:
    """``"glossary: 'agent' reads 'Agent', not '代理'"`` for each rendering the glossary says to avoid that
    ``chinese`` uses in its prose (fenced blocks and inline code left out, where identifiers stay English)."""
    plain = _prose(chinese)
    return [f"glossary: {term.en!r} reads {term.zh!r}, not {bad!r}" for term in terms for bad in term.avoided_in(plain)]


def _cell_problems(english: str, chinese: str, terms: list[Term]) -> list[str]:
    problems = []
    if not _CJK.search(chinese) and len(_WORD.findall(_prose(english))) >= 3:
        problems.append("still in English (no Chinese in the translation)")
    for match in _CODE.finditer(_FENCE.sub(" ", english)):
        if match.group(0) not in chinese:
            problems.append(f"inline-code span missing: {match.group(0)}")
    for pattern in (_LINK, _HREF):
        for match in pattern.finditer(english):
            if match.group(1) not in chinese:
                problems.append(f"link target missing: {match.group(1)}")
    numbers = set(_NUMBER.findall(_prose(chinese)))
    problems += [f"number missing: {n}" for n in dict.fromkeys(_NUMBER.findall(_prose(english))) if n not in numbers]
    plain_en, plain_zh = _prose(english).lower(), _prose(chinese)
    problems += avoided_renderings(chinese, terms)
    for term in terms:
        if term.pattern.search(plain_en) and term.zh not in plain_zh:
            problems.append(f"glossary: {term.en!r} should read {term.zh!r}")
    return problems


def translation_problems(english: Path, translation: Path, terms: list[Term]) -> list[str]:
    """What is wrong with ``translation`` against the English notebook, ``"<stem>: <cell id>: ..."`` each.

    Args:
        english: the English notebook.
        translation: its translation file (a missing one is one problem).
        terms: the glossary (:func:`tooling.translation.source.read_glossary`).
    """
    stem = Path(english).stem
    if not Path(translation).is_file():
        return [f"{stem}: no translation file {Path(translation).name}"]
    try:
        blocks, layout = read_blocks(translation)
    except UnreadableTranslation as exc:
        return [f"{stem}: {exc}"]
    problems = [f"{stem}: {line}" for line in layout]
    cells = markdown_cells(english)
    for cell_id, source in cells:
        block = blocks.get(cell_id)
        if block is None:
            problems.append(f"{stem}: {cell_id}: no translation")
            continue
        if block.en_hash != cell_hash(source):
            problems.append(f"{stem}: {cell_id}: the English cell changed since it was translated "
                            f"(en-sha256 {block.en_hash}, now {cell_hash(source)})")
        problems += [f"{stem}: {cell_id}: {line}" for line in _cell_problems(source, block.text, terms)]
    known = {cell_id for cell_id, _ in cells}
    problems += [f"{stem}: {cell_id}: translation of a cell the notebook lacks"
                 for cell_id in blocks if cell_id not in known]
    return problems


def _cells(path: Path) -> list[dict]:
    return json.loads(Path(path).read_text(encoding="utf-8"))["cells"]


def build_problems(english: Path, translation: Path, built: Path) -> list[str]:
    """What is wrong with the built Chinese notebook ``built``, ``"<stem>: <cell id>: ..."`` each:
    missing; a different cell list; a code cell whose source, id or metadata differs from the
    English one; a Markdown cell that is not its translation; built from other inputs than today's
    English notebook, translation and catalog (``make zh`` rebuilds it)."""
    stem = Path(english).stem
    if not Path(built).is_file():
        return [f"{stem}: not built (make zh)"]
    en_cells, zh_cells = _cells(english), _cells(built)
    if [(c["id"], c["cell_type"]) for c in en_cells] != [(c["id"], c["cell_type"]) for c in zh_cells]:
        return [f"{stem}: the Chinese notebook's cells are not the English notebook's (make zh)"]
    blocks = readable_blocks(translation) or {}  # an unreadable translation is translation_problems' to name
    problems = []
    for en, zh in zip(en_cells, zh_cells):
        if en["cell_type"] == "code":
            for key in ("source", "metadata"):
                if en[key] != zh[key]:
                    problems.append(f"{stem}: {en['id']}: code cell's {key} differs from the English")
        elif en["cell_type"] == "markdown" and is_next_cell("".join(en["source"])):
            if "".join(zh["source"]) != chinese_next("".join(en["source"]), Path(translation).parent):
                problems.append(f"{stem}: {en['id']}: the Next cell is not the Chinese one (not rebuilt: make zh)")
        elif en["cell_type"] == "markdown" and en["id"] in blocks:
            if "".join(zh["source"]) != blocks[en["id"]].text:
                problems.append(f"{stem}: {en['id']}: Markdown is not the translation's (not rebuilt: make zh)")
    if not problems and Path(translation).is_file() and recorded_hash(built) != built_from(english, translation):
        problems.append(f"{stem}: built from an older English notebook, translation or catalog (make zh)")
    return problems
