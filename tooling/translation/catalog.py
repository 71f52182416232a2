"""The message catalog's freshness: every wrapped string translated, nothing fuzzy, the ``.mo`` compiled
from today's ``.po``. Uses Babel 2.19 (``babel.messages``), the library ``make catalogs`` runs.

:func:`catalog_problems` lists, one line each and naming the source lines: a string wrapped in
``_()`` / ``N_()`` / ``ngettext()`` in ``helpers/`` (or marked by the extra keywords of ``babel.cfg``:
exercise titles and case names) that the ``.po`` lacks; a message that is untranslated or fuzzy; a
translation that drops or adds a ``{placeholder}``; a message no source wraps any more; a ``.mo``
that is missing or differs from what ``pybabel compile`` makes of the ``.po``. This is the one
course-wide completeness check (``tests/test_zh_fresh.py``); the per-area i18n tests check behaviour.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from helpers.i18n import DOMAIN, LOCALE_DIR
from .source import Term, read_glossary

__all__ = ["BABEL_CFG", "PLACEHOLDER", "SOURCES", "catalog_problems", "compiled", "extracted", "extracted_at", "po_path"]

#: Babel's extraction configuration (which files hold wrapped strings, and the extra keywords).
BABEL_CFG = LOCALE_DIR.parent.parent / "babel.cfg"
#: Where the marked strings are: the helpers, and the scaffold's module templates (``make new-notebook``
#: writes them as a new notebook's exercise and self-check modules, so their Chinese is in the catalog
#: before any notebook uses them). ``make catalogs`` extracts the same folders.
SOURCES = (LOCALE_DIR.parent, LOCALE_DIR.parent.parent / "tooling" / "scaffold" / "templates")
#: A ``str.format`` field (``{name}``, ``{cid!r}``, ``{}``); ``{{`` / ``}}`` are literal braces.
PLACEHOLDER = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")


def po_path(language: str = "zh_CN", locale_dir: Path = LOCALE_DIR) -> Path:
    """``<locale_dir>/<language>/LC_MESSAGES/course.po``."""
    return Path(locale_dir) / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted_at(root: Path | Sequence[Path] = SOURCES, cfg: Path = BABEL_CFG) -> dict[str, list[str]]:
    """Every msgid marked under ``root`` (one folder or several; default :data:`SOURCES`; both forms of a
    plural) -> where: ``["helpers/x.py:12", ...]`` (paths start with the folder's name, as ``pybabel
    extract ... helpers`` writes them)."""
    with open(cfg, encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: dict[str, list[str]] = {}
    for folder in [root] if isinstance(root, (str, Path)) else root:
        for file, line, message, _comments, _context in extract_from_dir(
                str(folder), method_map, options_map, keywords={"_": None, "N_": None, "ngettext": (1, 2)}):
            for text in [message] if isinstance(message, str) else [m for m in message if m]:
                found.setdefault(text, []).append(f"{Path(folder).name}/{Path(file).as_posix()}:{line}")
    return found


def extracted(root: Path | Sequence[Path] = SOURCES, cfg: Path = BABEL_CFG) -> set[str]:
    """The msgids marked under ``root`` (:func:`extracted_at` without the places)."""
    return set(extracted_at(root, cfg))


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes ``pybabel compile`` writes for ``po`` (fuzzy messages left out)."""
    with open(po, "rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _at(places: Iterable[str]) -> str:
    places = list(places)
    return f" ({', '.join(places)})" if places else ""


def catalog_problems(po: Path | None = None, sources: Mapping[str, list[str]] | set[str] | None = None,
                     terms: list[Term] | None = None) -> list[str]:
    """What is wrong with the catalog ``po`` (default: the Chinese one), one line each, with the source
    lines the ``.po`` (or the extraction) records for the message.

    Args:
        po: the ``.po``; its ``.mo`` is the file beside it.
        sources: the marked strings, with or without their places (default: :func:`extracted_at` of
            the checkout).
        terms: the glossary (default :func:`tooling.translation.source.read_glossary`): a
            translation that uses a rendering the glossary says to avoid is a problem, as in the
            notebooks.
    """
    po = po_path() if po is None else Path(po)
    if not po.is_file():
        return [f"{po.name}: missing (make catalogs)"]
    sources = extracted_at() if sources is None else sources
    terms = read_glossary() if terms is None else terms
    where = sources if isinstance(sources, Mapping) else {}
    try:
        with open(po, "rb") as handle:
            catalog = read_po(handle)
    except (UnicodeDecodeError, ValueError) as exc:  # Babel reads it in its header's charset (UTF-8)
        return [f"{po.name}: cannot be read as a catalog ({type(exc).__name__}: {' '.join(str(exc).split())[:160]}); "
                "save it as UTF-8 and run make catalogs"]
    problems = []
    have: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        have.update(ids)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        at = _at(f"{file}:{line}" for file, line in message.locations)
        if message.fuzzy:
            problems.append(f"{po.name}: fuzzy (check the translation, then drop the flag): {ids[0]!r}{at}")
        elif not all(strings):
            problems.append(f"{po.name}: untranslated: {ids[0]!r}{at}")
        elif any(set(PLACEHOLDER.findall(s)) != set(PLACEHOLDER.findall(ids[-1])) for s in strings):
            problems.append(f"{po.name}: the translation of {ids[-1]!r} changes its placeholders: "
                            f"{strings[0]!r}{at}")
        for term in terms:
            for avoided in term.avoid:
                if any(avoided in term.avoided_in(s) for s in strings):
                    problems.append(f"{po.name}: glossary: {term.en!r} reads {term.zh!r}, not {avoided!r}: "
                                    f"{ids[0]!r}{at}")
        if not set(ids) & set(sources):
            problems.append(f"{po.name}: translates {ids[0]!r}, which no code marks any more (make catalogs){at}")
    for missing in sorted(set(sources) - have):
        problems.append(f"{po.name}: lacks {missing!r}{_at(where.get(missing, []))} (make catalogs, then translate it)")
    mo = po.with_suffix(".mo")
    if not mo.is_file() or mo.read_bytes() != compiled(po):
        problems.append(f"{mo.name}: stale or missing: not compiled from today's {po.name} (make catalogs)")
    return problems
