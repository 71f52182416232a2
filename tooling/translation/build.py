"""Build the Chinese notebooks: ``notebooks/zh/NN_x.ipynb`` from ``notebooks/NN_x.ipynb`` and its translation.

:func:`compose` makes the unexecuted notebook: every cell as in the English notebook (code cells
byte-identical: source, id, metadata; outputs are dropped and made again), each Markdown cell's
source replaced by its translation, and ``metadata.course_edition``: ``{"language": "zh-CN",
"built_from": <hash>}``. :func:`build` writes it into the Chinese folder (with the edition marker,
:data:`helpers.i18n.MARKER`, so its kernels speak Chinese) and executes it with the course's own
runner (:func:`tooling.notebooks.execute_notebook`), so its outputs are stored like the English ones.

**Only changed notebooks are rebuilt.** ``built_from`` is the SHA-256 of everything the Chinese
notebook is made from: the English notebook file (sources *and* outputs: a helper change that
re-executed the English notebook rebuilds the Chinese one too), the translation file and the
compiled catalog's messages (``course.mo``, without its header's dates). A notebook whose recorded hash matches is skipped; ``--force``
rebuilds anyway (after a helper change that changes only Chinese outputs).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from pathlib import Path

import nbformat
from babel.messages.mofile import read_mo

from helpers.i18n import DOMAIN, EDITIONS, LOCALE_DIR, write_marker
from ..notebooks import execute_notebook, read_notebook
from .next_cell import chinese_next, is_next_cell
from .source import TRANSLATIONS_DIR, ZH_DIR, UnreadableTranslation, read_blocks, translation_path

__all__ = ["EDITION", "TranslationMissing", "build", "built_from", "compose", "recorded_hash"]

#: The edition this module builds.
EDITION = "zh-CN"


class TranslationMissing(ValueError):
    """A Markdown cell has no translation (or the notebook has no translation file)."""


def _catalog() -> Path:
    return LOCALE_DIR / str(EDITIONS[EDITION]) / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _messages(catalog: Path) -> bytes:
    """The compiled catalog's messages (msgid, msgstr), sorted, as bytes; its header (dates that
    ``make catalogs`` renews on every run) left out; ``b""`` when there is no catalog."""
    if not Path(catalog).is_file():
        return b""
    with open(catalog, "rb") as handle:
        messages = read_mo(handle)
    return repr(sorted((repr(m.id), repr(m.string)) for m in messages if m.id)).encode("utf-8")


def built_from(english: Path, translation: Path, catalog: Path | None = None) -> str:
    """SHA-256 (hex) over the English notebook file (sources and outputs), the translation file and the
    compiled catalog's messages (:func:`_messages`; a missing file counts as empty)."""
    digest = hashlib.sha256()
    parts = [Path(part).read_bytes() if Path(part).is_file() else b"" for part in (english, translation)]
    for data in (*parts, _messages(_catalog() if catalog is None else catalog)):
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def recorded_hash(built: Path) -> str | None:
    """The ``built_from`` hash a built Chinese notebook records (``None``: none, or no such file)."""
    try:
        return read_notebook(built).metadata.get("course_edition", {}).get("built_from")
    except Exception:  # noqa: BLE001 - an unreadable build is simply out of date
        return None


def compose(english: Path, translation: Path) -> nbformat.NotebookNode:
    """The unexecuted Chinese notebook of ``english`` (see the module docstring).

    Raises:
        TranslationMissing: the translation file is missing or lacks a Markdown cell (its id named).
        tooling.notebooks.NotebookFailure: ``english`` is missing or not a notebook.
    """
    nb = copy.deepcopy(read_notebook(english))
    if not Path(translation).is_file():
        raise TranslationMissing(f"{Path(english).name}: no translation file {Path(translation).name}")
    try:
        blocks, _ = read_blocks(translation)
    except UnreadableTranslation as exc:
        raise TranslationMissing(f"{Path(english).name}: {exc}") from None
    for cell in nb.cells:
        if cell.cell_type == "markdown" and is_next_cell(cell.source):
            cell.source = chinese_next(cell.source, Path(translation).parent)
        elif cell.cell_type == "markdown":
            if cell.id not in blocks:
                raise TranslationMissing(f"{Path(english).name}: cell {cell.id} has no translation")
            cell.source = blocks[cell.id].text
        elif cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata["course_edition"] = {"language": EDITION,
                                     "built_from": built_from(english, translation)}
    return nb


def build(english: Path, *, out_dir: Path = ZH_DIR, translations: Path = TRANSLATIONS_DIR,
          force: bool = False, timeout: int = 600, env: Mapping[str, str] | None = None) -> bool:
    """Write and execute the Chinese notebook of ``english`` in ``out_dir`` unless it is up to date.

    ``env``: extra environment variables for its kernel (:func:`tooling.notebooks.execute_notebook`),
    e.g. another checkout first on ``PYTHONPATH`` (the scaffold's).

    Returns:
        ``True`` when it was (re)built, ``False`` when its recorded hash showed it up to date.

    Raises:
        TranslationMissing: see :func:`compose` (nothing is written then).
        tooling.notebooks.NotebookFailure: the notebook failed to execute; the composed, unexecuted
            notebook is left in ``out_dir`` (it records its hash only once executed, so the next
            build tries again).
    """
    english, out_dir = Path(english), Path(out_dir)
    translation = translation_path(english, translations)
    target = out_dir / english.name
    if not force and Path(translation).is_file() and recorded_hash(target) == built_from(english, translation):
        return False
    nb = compose(english, translation)
    write_marker(out_dir, EDITION)
    pending = copy.deepcopy(nb)
    pending.metadata["course_edition"]["built_from"] = "not executed"
    nbformat.write(pending, target)
    execute_notebook(target, timeout=timeout, env=env)
    executed = read_notebook(target)
    executed.metadata["course_edition"] = nb.metadata["course_edition"]
    nbformat.write(executed, target)
    return True
