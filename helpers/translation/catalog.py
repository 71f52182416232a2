"""The message catalog's freshness: every wrapped string translated, nothing fuzzy, the ``.mo`` compiled
from today's ``.po``. Uses Babel 2.19 (``babel.messages``), the library ``make catalogs`` runs.

:func:`catalog_problems` lists, one line each: a string wrapped in ``_()`` / ``N_()`` / ``ngettext()`` in
``helpers/`` (extracted with the method map of ``babel.cfg``) that the ``.po`` lacks; a message that
is untranslated or fuzzy; a ``.mo`` that is missing or differs from what ``pybabel compile`` makes of
the ``.po``.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from ..i18n import DOMAIN, LOCALE_DIR

__all__ = ["BABEL_CFG", "catalog_problems", "compiled", "extracted", "po_path"]

#: Babel's extraction configuration (which files hold wrapped strings).
BABEL_CFG = LOCALE_DIR.parent.parent / "babel.cfg"


def po_path(language: str = "zh_CN", locale_dir: Path = LOCALE_DIR) -> Path:
    """``<locale_dir>/<language>/LC_MESSAGES/course.po``."""
    return Path(locale_dir) / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted(root: Path = LOCALE_DIR.parent, cfg: Path = BABEL_CFG) -> set[str]:
    """The msgids wrapped in ``_()`` / ``N_()`` / ``ngettext()`` under ``root`` (both forms of a plural)."""
    with open(cfg, encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(root), method_map, options_map, keywords={"_": None, "N_": None, "ngettext": (1, 2)}):
        found.update([message] if isinstance(message, str) else [m for m in message if m])
    return found


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes ``pybabel compile`` writes for ``po`` (fuzzy messages left out)."""
    with open(po, "rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def catalog_problems(po: Path | None = None, sources: set[str] | None = None) -> list[str]:
    """What is wrong with the catalog ``po`` (default: the Chinese one), one line each.

    Args:
        po: the ``.po``; its ``.mo`` is the file beside it.
        sources: the wrapped strings (default: :func:`extracted` from the checkout).
    """
    po = po_path() if po is None else Path(po)
    if not po.is_file():
        return [f"{po.name}: missing (make catalogs)"]
    with open(po, "rb") as handle:
        catalog = read_po(handle)
    problems = []
    have: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        have.update(ids)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy:
            problems.append(f"{po.name}: fuzzy (check the translation, then drop the flag): {ids[0]!r}")
        elif not all(strings):
            problems.append(f"{po.name}: untranslated: {ids[0]!r}")
    for missing in sorted((extracted() if sources is None else sources) - have):
        problems.append(f"{po.name}: lacks {missing!r} (make catalogs, then translate it)")
    mo = po.with_suffix(".mo")
    if not mo.is_file() or mo.read_bytes() != compiled(po):
        problems.append(f"{mo.name}: stale or missing: not compiled from today's {po.name} (make catalogs)")
    return problems
