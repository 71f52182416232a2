"""The translation files of the Chinese edition: where they are, how they are written and read.

A translation file ``translations/zh/notebooks/<notebook stem>.md`` holds one block per Markdown cell
of the English notebook, in notebook order::

    <!-- cell cell-003 en-sha256 1a2b3c4d5e6f -->
    (the Chinese Markdown of that cell)

``en-sha256`` is the first 12 hex digits of the SHA-256 of the English cell's source (its joined
text, UTF-8), so a changed English cell is noticed. When the English changed and the Chinese still holds
(a typo fixed, a number the Chinese did not carry), the marker says so instead of the Chinese changing::

    <!-- cell cell-003 en-sha256 9f8e7d6c5b4a checked 1a2b3c4d5e6f -->

``checked`` names the English the Chinese was written for: a maintainer read the change from it to today's
English and kept the Chinese. The decision is visible (``python -m tooling.translation worklist --checked``
lists each with its English diff), and the freshness check refuses a hash moved without it
(:func:`tooling.translation.worklist.unrecorded_keeps`). The glossary
(``translations/zh/glossary.toml``, ``[[term]]`` tables with ``en``, ``zh`` and ``avoid``) gives
each field term one Chinese rendering. Imports nothing of the course but its notebook discovery.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..notebooks import NOTEBOOK_DIR, course_notebooks

__all__ = ["GLOSSARY", "TRANSLATIONS_DIR", "ZH_DIR", "Block", "GlossaryError", "Rekeyed", "Term", "cell_hash",
           "english_notebooks", "NEXT_CELL", "UnreadableTranslation", "format_blocks", "is_next_cell", "markdown_cells",
           "marker_line", "parse_blocks", "read_blocks", "readable_blocks", "read_glossary", "rekey", "translation_path"]

#: The repository root.
ROOT = NOTEBOOK_DIR.parent
#: The translation files, one per English notebook.
TRANSLATIONS_DIR = ROOT / "translations" / "zh" / "notebooks"
#: The glossary: one Chinese rendering per field term.
GLOSSARY = ROOT / "translations" / "zh" / "glossary.toml"
#: The built Chinese notebooks.
ZH_DIR = NOTEBOOK_DIR / "zh"

_MARK = re.compile(r"^<!-- cell (\S+) en-sha256 ([0-9a-f]{12})(?: checked ([0-9a-f]{12}))? -->[ \t]*$", re.M)
#: A line meant as a marker (it starts like one) that :data:`_MARK` does not read.
_LIKE_MARK = re.compile(r"^[ \t]*<!--[ \t]*cell\b.*$", re.M)


@dataclass(frozen=True)
class Block:
    """One cell's translation.

    Attributes:
        cell_id: the English cell's id.
        en_hash: the ``en-sha256`` of the English this block stands for today.
        text: the Chinese Markdown.
        checked: the ``en-sha256`` of the English the Chinese was written for, when a maintainer read the
            English change since and kept the Chinese (``checked`` in the marker); ``None`` when the
            Chinese was written for ``en_hash`` itself.
    """

    cell_id: str
    en_hash: str
    text: str
    checked: str | None = None

    def marker(self) -> str:
        """The block's marker line (``<!-- cell ... en-sha256 ... [checked ...] -->``)."""
        return marker_line(self.cell_id, self.en_hash, self.checked)


@dataclass(frozen=True)
class Term:
    """A glossary entry: the English term, its one Chinese rendering, renderings to avoid.

    Attributes:
        en: the English term.
        zh: its one Chinese rendering.
        avoid: renderings that must appear nowhere (a translation, the catalog, README.zh-CN).
        match: when a Markdown cell must use ``zh``: a regular expression searched in the cell's
            lowercased prose (code left out). ``None``: the term as a word, plural included
            (``\\btool calls?\\b``). A term with several senses (``answer``) names the one it renders.
        allow: longer words that contain an avoided rendering and are another term's (``代理服务器``,
            proxy server, holds ``代理``): they are not counted as the avoided one.
    """

    en: str
    zh: str
    avoid: tuple[str, ...] = ()
    match: str | None = None
    allow: tuple[str, ...] = ()

    def avoided_in(self, text: str) -> list[str]:
        """The renderings of :attr:`avoid` that ``text`` uses (an :attr:`allow` word does not count)."""
        for word in self.allow:
            text = text.replace(word, " ")
        return [bad for bad in self.avoid if bad in text]

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled :attr:`match` (or the term as a word, with ``s`` / ``es``)."""
        return re.compile(self.match or r"\b" + re.escape(self.en.lower()) + r"(s|es)?\b")


def marker_line(cell_id: str, en_hash: str, checked: str | None = None) -> str:
    """A block's marker: ``<!-- cell <id> en-sha256 <hash> -->``, with `` checked <hash>`` when the English
    changed from ``checked`` to ``en_hash`` and the Chinese was kept."""
    return f"<!-- cell {cell_id} en-sha256 {en_hash}" + (f" checked {checked}" if checked else "") + " -->"


def cell_hash(source: str) -> str:
    """The first 12 hex digits of SHA-256 of ``source`` (UTF-8): the ``en-sha256`` of a block."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]


def english_notebooks(folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The English notebooks, discovered as the runner discovers them (``NN_*.ipynb``)."""
    return course_notebooks(folder)


def translation_path(notebook: Path, folder: Path = TRANSLATIONS_DIR) -> Path:
    """The translation file of ``notebook`` (``<folder>/<stem>.md``)."""
    return Path(folder) / (Path(notebook).stem + ".md")


#: The generated last cell of an English notebook (:func:`tooling.coursemap.next_line`).
NEXT_CELL = re.compile(r"^\[(Next: |Back to )(\d\d) · ([^\]]*)\]\((\d\d_\w+\.ipynb)\)\s*$")


def is_next_cell(source: str) -> bool:
    """``source`` is a generated "Next" / "Back to" cell, which the build writes in Chinese itself
    (:mod:`tooling.translation.next_cell`) and no translation file holds."""
    return bool(NEXT_CELL.match(source.strip()))


def markdown_cells(notebook: Path) -> list[tuple[str, str]]:
    """``(cell id, source)`` of each Markdown cell of ``notebook`` (JSON, nbformat 4) that a translator
    translates, in order: every one but the generated "Next" cell, which the build writes itself
    (:mod:`tooling.translation.next_cell`)."""
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    cells = [(cell["id"], "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"])
             for cell in nb["cells"] if cell["cell_type"] == "markdown"]
    return [(cell_id, source) for cell_id, source in cells if not is_next_cell(source)]


def parse_blocks(text: str) -> tuple[dict[str, Block], list[str]]:
    """The blocks of a translation file, by cell id, and the problems of its layout.

    Returns:
        ``(blocks, problems)``: a block's text loses the blank lines around it; problems name text
        before the first marker, a cell id given twice (the later block is kept), a ``checked`` hash equal
        to the marker's own and a line that starts like a marker but is not one (``line N``; it stays in
        its block's text). A leading BOM,
        CRLF / CR line endings (a Windows editor's) and spaces after a marker are read as if absent.
    """
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    problems = [f"line {text.count(chr(10), 0, like.start()) + 1}: not a well-formed marker "
                f"(<!-- cell <id> en-sha256 <12 lowercase hex digits> [checked <12 hex digits>] -->): "
                f"{like.group().strip()[:80]}"
                for like in _LIKE_MARK.finditer(text) if not _MARK.fullmatch(like.group())]
    parts = _MARK.split(text)
    if parts[0].strip():
        problems.insert(0, "text before the first <!-- cell ... --> marker")
    blocks: dict[str, Block] = {}
    for i in range(1, len(parts), 4):
        cell_id, en_hash, checked, body = parts[i], parts[i + 1], parts[i + 2], parts[i + 3].strip("\n")
        if cell_id in blocks:
            problems.append(f"{cell_id}: translated twice")
        if checked == en_hash:
            problems.append(f"{cell_id}: 'checked {checked}' names the English the marker already stands for; drop it")
        blocks[cell_id] = Block(cell_id, en_hash, body, checked)
    return blocks, problems


class UnreadableTranslation(ValueError):
    """A translation file that is not UTF-8 text."""


def read_blocks(path: Path) -> tuple[dict[str, Block], list[str]]:
    """:func:`parse_blocks` of the translation file ``path``.

    Raises:
        UnreadableTranslation: the file is not UTF-8 (the message names it and the first bad byte).
        OSError: it cannot be read.
    """
    data = Path(path).read_bytes()
    try:
        return parse_blocks(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UnreadableTranslation(f"{Path(path).name} is not UTF-8 text (byte {exc.start}: "
                                    f"{data[exc.start:exc.start + 4]!r}); save it as UTF-8") from None


def readable_blocks(path: Path) -> dict[str, Block] | None:
    """The blocks of the translation file ``path``, by cell id; ``None`` when there is no such file
    or it is not UTF-8 (:func:`tooling.translation.check.translation_problems` names that file).

    Raises:
        OSError: it exists but cannot be read.
    """
    if not Path(path).is_file():
        return None
    try:
        return read_blocks(path)[0]
    except UnreadableTranslation:
        return None


def format_blocks(cells: list[tuple[str, str]]) -> str:
    """A translation file whose blocks hold ``cells``' own text (``(cell id, English source)``):
    the skeleton a translator starts from."""
    return "\n".join(f"{marker_line(cid, cell_hash(src))}\n{src}\n" for cid, src in cells)


@dataclass(frozen=True)
class Rekeyed:
    """What :func:`rekey` made.

    Attributes:
        text: the new translation file.
        unmatched: ids of the cells no block translates (they hold their English as a placeholder).
        stale: ids of the cells that got the block of the same id although their English changed since
            it was translated: the block keeps its old ``en-sha256``, so ``check`` names it and ``worklist``
            shows the English diff.
        kept: ids of the blocks of ``keep`` that no cell of the notebook took, kept at the end of the file
            (``check`` names them as translations of cells the notebook lacks): nothing is thrown away.
        replaced: ids of the blocks of ``keep`` that no cell took although a cell has their id (it took
            another block, whose English it has): they cannot stay under that id; the message names them
            (git has the file as it was).
    """

    text: str
    unmatched: list[str]
    stale: list[str]
    kept: list[str]
    replaced: list[str]


def rekey(notebook: Path, sources: list[Path], keep: Path | None = None) -> Rekeyed:
    """A translation file for ``notebook`` made of the blocks of ``sources`` (translation files), each
    placed at the Markdown cell whose English text it was translated from (same ``en-sha256``): for a
    notebook whose cells were renumbered, moved or split into another notebook. A cell no block matches
    that way takes an unused block with its own cell id (its English changed since: a moved cell keeps
    its id), marked with the block's old ``en-sha256``.

    Args:
        notebook: the English notebook.
        sources: translation files to take blocks from, in order of preference.
        keep: the file the result replaces (usually one of ``sources``): its blocks that no cell takes
            are kept at the end, so re-keying never throws a translation away.

    Returns:
        a :class:`Rekeyed`.

    Raises:
        UnreadableTranslation: a source is not UTF-8. OSError: a source cannot be read.
    """
    by_hash: dict[str, list[Block]] = {}
    order: list[tuple[Path, Block]] = []
    for source in sources:
        for block in read_blocks(source)[0].values():
            by_hash.setdefault(block.en_hash, []).append(block)
            order.append((Path(source), block))
    cells = markdown_cells(notebook)
    placed: dict[str, Block] = {}
    for cell_id, english in cells:
        found = by_hash.get(cell_hash(english))
        if found:
            placed[cell_id] = found.pop(0)
    used = {id(block) for block in placed.values()}
    stale = []
    for cell_id, _english in cells:
        if cell_id not in placed:
            same = next((b for _, b in order if b.cell_id == cell_id and id(b) not in used), None)
            if same is not None:
                placed[cell_id], used = same, used | {id(same)}
                stale.append(cell_id)
    parts, unmatched = [], []
    for cell_id, english in cells:
        block = placed.get(cell_id)
        if block is None:
            unmatched.append(cell_id)
            parts.append(format_blocks([(cell_id, english)]))
        else:
            en_hash = block.en_hash if cell_id in stale else cell_hash(english)
            parts.append(f"{marker_line(cell_id, en_hash, block.checked)}\n{block.text}\n")
    left = [] if keep is None else [block for path, block in order
                                    if id(block) not in used and path.resolve() == Path(keep).resolve()]
    kept = [block for block in left if block.cell_id not in placed]
    parts += [f"{block.marker()}\n{block.text}\n" for block in kept]
    return Rekeyed("\n".join(parts), unmatched, stale, [block.cell_id for block in kept],
                   [block.cell_id for block in left if block.cell_id in placed])


class GlossaryError(ValueError):
    """The glossary is missing, not TOML, or not ``[[term]]`` tables with ``en`` and ``zh``; the message
    names the file and the problem in one line."""


def read_glossary(path: Path = GLOSSARY) -> list[Term]:
    """The glossary's terms.

    Raises:
        GlossaryError: no glossary, not UTF-8 TOML, a term without ``en`` / ``zh`` text, or a ``match``
            that is not a regular expression (one line, naming the file).
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        terms = data["term"]
        found = [Term(t["en"], t["zh"], tuple(t.get("avoid", ())), t.get("match"), tuple(t.get("allow", ())))
                 for t in terms]
    except FileNotFoundError:
        raise GlossaryError(f"{path}: no glossary (one [[term]] table per term: en, zh, avoid)") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise GlossaryError(f"{path}: not readable TOML ({exc})") from None
    except (KeyError, TypeError) as exc:
        raise GlossaryError(f"{path}: every entry must be a [[term]] table with en and zh (missing {exc})") from None
    bad = [t for t in found if not (isinstance(t.en, str) and isinstance(t.zh, str) and t.en and t.zh)
           or not all(isinstance(a, str) for a in (*t.avoid, *t.allow))
           or not (t.match is None or isinstance(t.match, str))]
    if bad:
        raise GlossaryError(f"{path}: en and zh must be text, avoid and allow lists of text, match a text "
                            f"(term {bad[0].en!r})")
    for term in found:
        if term.match is not None:
            try:
                re.compile(term.match)
            except re.error as exc:
                raise GlossaryError(f"{path}: term {term.en!r}: match is not a regular expression ({exc})") from None
    return found
