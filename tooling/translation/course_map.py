"""The Chinese course map: the generated region of 00's map cell, in Chinese, from the English entries.

:mod:`tooling.coursemap` writes the English region (a totals sentence, one table row per notebook) from
each notebook's metadata. Its Chinese counterpart is the same region in 00's translation block
(``translations/zh/notebooks/00_start_here.md``), which :mod:`.readme` copies into ``README.zh-CN.md``.
:func:`chinese_table` writes that region from the same entries: the totals and each time in Chinese
(``1 小时 5 分钟（20 + 45）``), each row's title and summary as the block already translates them (a new
notebook: the heading of its translation, else the English title, and the English summary until a
translator writes one). :func:`follow_english_map` brings the block along after the English region
changed, when nothing else in the cell did, so adding a notebook (``make new-notebook``) leaves the
Chinese edition fresh; any other change to the cell stays for the translator (``make worklist``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from .. import coursemap
from ..coursemap import (
    END,
    START,
    CourseEntry,
    about_hours,
    format_minutes,
    replace_region,
    timing,
)
from .next_cell import chinese_title
from .readme import write_readme
from .source import (
    TRANSLATIONS_DIR,
    cell_hash,
    markdown_cells,
    marker_line,
    read_blocks,
)

__all__ = ["chinese_minutes", "chinese_table", "chinese_timing", "follow_english_map", "map_cell", "write_course_maps"]

#: One row of the Chinese table: number, title, link target, summary, time.
_ROW = re.compile(r"^\| (\d\d) \| \[(.+)\]\((\d\d_\w+\.ipynb)\) \| (.*) \| (.+) \|$")
_TOTALS = ("总计约 **{hours}**（{total} 分钟：{reading} 分钟阅读正文和输出，{doing} 分钟运行和阅读代码、做练习、使用小组件和自测），"
           "根据每个笔记本的篇幅、按计时学习校准的速率测算（CONTRIBUTING.md，“Honest times”）：{timing}。")
_HEAD = "| # | 笔记本 | 你将学到 | 时间（阅读 + 动手） |\n|---|---|---|---|"


#: The Chinese words for hours and minutes.
_UNITS = ("小时", "分钟")


def chinese_minutes(minutes: int) -> str:
    """``"45 分钟"``, ``"1 小时"``, ``"1 小时 35 分钟"`` (:func:`tooling.coursemap.format_minutes` in Chinese)."""
    return format_minutes(minutes, _UNITS)


def chinese_timing(entries: Sequence[CourseEntry]) -> str:
    """Which notebooks' times were measured and which extrapolated, in Chinese (the English map's sentence:
    :func:`tooling.coursemap.timing`), e.g. ``"00-17 经认真的学习者实际计时（08-12 比篇幅所示多用约 20%，时间已按此
    计入）；18-20 按同样的速率推算，尚未计时"``."""
    when = timing(entries)
    parts = []
    if when.measured:
        slower = "；".join(f"{runs} 比篇幅所示多用约 {percent}%，时间已按此计入" for runs, percent in when.slower)
        parts.append(f"{when.measured} 经认真的学习者实际计时" + (f"（{slower}）" if slower else ""))
    if when.extrapolated:
        parts.append(f"{when.extrapolated} {'' if when.measured else '全部'}按同样的速率推算，尚未计时")
    return "；".join(parts)


def _rows(region: str) -> dict[str, tuple[str, str]]:
    """``{file: (title, summary)}`` of the rows of a Chinese region as translated."""
    return {found.group(3): (found.group(2), found.group(4))
            for found in map(_ROW.match, region.splitlines()) if found}


def chinese_table(entries: Sequence[CourseEntry], previous: str = "", translations: Path = TRANSLATIONS_DIR) -> str:
    """The Chinese region for ``entries`` (as :func:`tooling.coursemap.table` writes the English one for 00).

    Args:
        entries: the notebooks in course order (:func:`tooling.coursemap.course_entries`).
        previous: the Chinese region as translated so far (its rows' titles and summaries are kept).
        translations: where a new notebook's translation (and its Chinese heading) is.

    Returns:
        the totals sentence, a blank line, the table head and one row per entry.
    """
    kept = _rows(previous)
    reading, doing = sum(e.reading for e in entries), sum(e.doing for e in entries)
    lines = [_TOTALS.format(hours=about_hours(reading + doing, _UNITS[0]), total=reading + doing, reading=reading,
                            doing=doing, timing=chinese_timing(entries)),
             "", _HEAD]
    for e in entries:
        title, summary = kept.get(e.file) or (chinese_title(e.file, translations) or e.title, e.summary)
        lines.append(f"| {e.number} | [{title}]({e.file}) | {summary} | "
                     f"{chinese_minutes(e.minutes)}（{e.reading} + {e.doing}） |")
    return "\n".join(lines)


def _region(text: str) -> str:
    start, end = text.find(START), text.find(END)
    return text[text.index("\n", start) + 1:end] if 0 <= start < end else ""


def follow_english_map(start: Path, english_before: str, entries: Sequence[CourseEntry],
                       translations: Path = TRANSLATIONS_DIR) -> bool:
    """Bring 00's Chinese map block along after :mod:`tooling.coursemap` rewrote the English region.

    Args:
        start: the English notebook 00 (as written now).
        english_before: its map cell's English source before the course map was written.
        entries: the course map's entries now.
        translations: the folder of the translation files.

    Returns:
        ``True`` when the block was rewritten (region regenerated, ``en-sha256`` of the English now);
        ``False`` when nothing needed it, or when the block was not a translation of
        ``english_before``, the cell changed outside its region or a notebook's title or summary changed
        (a translator's work: the block stays stale, ``make worklist NB=00`` shows it).
    """
    translation = Path(translations) / f"{Path(start).stem}.md"
    cells = [(cell_id, source) for cell_id, source in markdown_cells(start) if START in source]
    if len(cells) != 1 or not translation.is_file():
        return False
    cell_id, english_now = cells[0]
    blocks, _ = read_blocks(translation)
    block = blocks.get(cell_id)
    if block is None or block.en_hash == cell_hash(english_now) or block.en_hash != cell_hash(english_before):
        return False
    if replace_region(english_before, _region(english_now).rstrip("\n"), start.name) != english_now:
        return False  # more than the generated region changed
    rows_before, rows_now = _rows(_region(english_before)), _rows(_region(english_now))
    if any(rows_now[file] != row for file, row in rows_before.items() if file in rows_now):
        return False  # a title or summary changed: its Chinese row is a translator's work
    marker = block.marker()  # with its `checked` decision, if any: the block now translates the English now
    text = translation.read_text(encoding="utf-8")
    at = text.index(marker)
    rest = text[at + len(marker):]
    rest = replace_region(rest, chinese_table(entries, _region(block.text), translations), translation.name)
    translation.write_text(text[:at] + marker_line(cell_id, cell_hash(english_now)) + rest, encoding="utf-8")
    return True


def map_cell(start: Path) -> str | None:
    """The English source of 00's course-map cell (``None`` without a notebook 00 or such a cell)."""
    if not Path(start).is_file():
        return None
    return next((source for _cell_id, source in markdown_cells(start) if START in source), None)


def write_course_maps(root: Path, remeasure: bool = False) -> list[str]:
    """Write both editions' course maps: :func:`tooling.coursemap.apply`, then 00's Chinese map block follows
    (:func:`follow_english_map`) and ``README.zh-CN.md``'s table with it (:func:`.readme.write_readme`).

    Args:
        root: the course checkout (its ``translations/zh/notebooks/`` and ``README.zh-CN.md`` are used).
        remeasure: as :func:`tooling.coursemap.apply`.

    Returns:
        what changed (as :func:`tooling.coursemap.apply`), then one line for the Chinese map: written, or
        left for the translator when it could not follow.

    Raises:
        tooling.coursemap.CourseMapError: as :func:`tooling.coursemap.apply`.
    """
    start = Path(root) / "notebooks" / "00_start_here.ipynb"
    translations = Path(root) / "translations" / "zh" / "notebooks"
    before = map_cell(start)
    changes = coursemap.apply(root, remeasure=remeasure)
    after = map_cell(start)
    if before is None or after == before:
        return changes
    name = f"{translations.relative_to(root)}/{start.stem}.md"
    if follow_english_map(start, before, coursemap.course_entries(root), translations):
        readme = Path(root) / "README.zh-CN.md"
        wrote_readme = readme.is_file() and write_readme(readme, translations)
        return [*changes, f"{name}: the Chinese course map follows" + (" (and README.zh-CN.md)" if wrote_readme else "")]
    return [*changes, (f"{name}: the Chinese course map did not follow (a title, a summary or the cell's prose "
                       "changed, or its block was stale already): translate it (make worklist NB=00)")]
