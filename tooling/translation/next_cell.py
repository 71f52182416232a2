"""Each Chinese notebook's last cell, "下一篇", written by the build rather than translated.

:mod:`tooling.coursemap` ends every English notebook with a generated cell
(``[Next: 03 · ToolMessage pairing](03_toolmessage_pairing.ipynb)``, or ``[Back to 00 · Start
here](00_start_here.ipynb)`` in the last one). Its Chinese counterpart is derived, not translated:
the same link, with the target notebook's Chinese title (the first heading of its translation,
``# 03 · ToolMessage 配对``). So the translation files hold no block for it (the coursemap gives that
cell a new id whenever it is written again, which would leave a translation behind), and a renamed
or renumbered notebook changes every "下一篇" with no translator's work.
"""

from __future__ import annotations

import re
from pathlib import Path

from .source import NEXT_CELL, TRANSLATIONS_DIR, is_next_cell, readable_blocks

__all__ = ["chinese_next", "chinese_title", "is_next_cell"]
_HEADING = re.compile(r"^#\s*\d\d\s*·\s*(.+?)\s*$", re.M)
_WORDS = {"Next: ": "下一篇：", "Back to ": "返回 "}


def chinese_title(notebook_file: str, translations: Path = TRANSLATIONS_DIR) -> str | None:
    """The Chinese title of ``notebook_file`` (``03_toolmessage_pairing.ipynb``): the first
    ``# NN · ...`` heading of its translation file; ``None`` when there is none (or the file is not
    UTF-8, which the check names)."""
    blocks = readable_blocks(Path(translations) / (Path(notebook_file).stem + ".md"))
    for block in (blocks or {}).values():
        match = _HEADING.search(block.text)
        if match:
            return match.group(1)
    return None


def chinese_next(source: str, translations: Path = TRANSLATIONS_DIR) -> str:
    """The Chinese edition's version of the generated cell ``source``: ``[下一篇：03 · ToolMessage
    配对](03_toolmessage_pairing.ipynb)`` (the English title when the target has no translation).

    Raises:
        ValueError: ``source`` is not a generated "Next" cell (:func:`is_next_cell`).
    """
    match = NEXT_CELL.match(source.strip())
    if match is None:
        raise ValueError(f"not a generated Next cell: {source[:60]!r}")
    word, number, title, target = match.groups()
    return f"[{_WORDS[word]}{number} · {chinese_title(target, translations) or title}]({target})"
