"""``python -m tooling.translation``: build and check the Chinese edition.

    python -m tooling.translation build [NB ...] [--force]   # make zh: (re)build the changed ones
    python -m tooling.translation check [NB ...]             # every freshness problem, one line each
    python -m tooling.translation skeleton NB                # a new translation file holding the English
    python -m tooling.translation rekey NB [--from FILE ...]  # re-key blocks after cells moved or a split
    python -m tooling.translation worklist [NB ...]          # each stale cell: English diff, Chinese now
    python -m tooling.translation worklist --checked [NB ...] # each "English changed, Chinese still holds"

``NB`` is an English notebook: its file, or a short name as ``make reset`` takes them (``18``,
``18_streaming``, ``18_streaming.ipynb``: :func:`helpers.workspace.resolve_names`); default: every English
notebook that has a translation file, for ``build``; every English notebook, for ``check`` and ``worklist``
(``make worklist NB=18``). Exit status 1 when anything failed or drifted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from helpers.workspace import WorkspaceError, resolve_names

from ..notebooks import NOTEBOOK_DIR, NotebookFailure
from .build import TranslationMissing, build
from .catalog import catalog_problems
from .check import build_problems, translation_problems
from .readme import readme_problems, write_readme
from .source import (
    ZH_DIR,
    GlossaryError,
    UnreadableTranslation,
    english_notebooks,
    format_blocks,
    markdown_cells,
    read_glossary,
    rekey,
    translation_path,
)
from .worklist import format_item, kept_items, unrecorded_keeps, worklist


def _build(paths: list[Path], force: bool) -> int:
    chosen = paths or [p for p in english_notebooks() if translation_path(p).is_file()]
    failed = 0
    for path in chosen:
        try:
            done = build(path, force=force)
        except (TranslationMissing, NotebookFailure) as exc:
            failed += 1
            print(exc.line() if isinstance(exc, NotebookFailure) else f"FAILED {exc}", flush=True)
        else:
            print(f"{'built' if done else 'up to date'} zh/{path.name}", flush=True)
    if write_readme():
        print("wrote README.zh-CN.md: the notebook table", flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} Chinese notebooks up to date" + (f", {failed} FAILED" if failed else ""))
    return 1 if failed else 0


def _check(paths: list[Path]) -> int:
    terms = read_glossary()
    problems = catalog_problems() + readme_problems() if not paths else []
    for path in paths or english_notebooks():
        problems += translation_problems(path, translation_path(path), terms)
        if translation_path(path).is_file():
            problems += build_problems(path, translation_path(path), ZH_DIR / path.name)
            try:
                problems += unrecorded_keeps(translation_path(path))
            except UnreadableTranslation:
                pass  # translation_problems named it
    print("\n".join(problems) or "OK: the Chinese edition is fresh")
    return 1 if problems else 0


def _worklist(paths: list[Path], checked: bool = False) -> int:
    items, unreadable = [], []
    for path in paths or english_notebooks():
        try:
            items += (kept_items if checked else worklist)(path, translation_path(path))
        except UnreadableTranslation as exc:
            unreadable.append(f"error: {path.stem}: {exc}")
    if items:
        print("\n\n".join(format_item(item) for item in items) + "\n")
    notebooks = len({item.notebook for item in items})
    what = "kept after their English changed (checked)" if checked else "to translate"
    if unreadable:
        print("\n".join(unreadable), file=sys.stderr)
        print(f"{len(items)} cells {what} in {notebooks} notebooks; {len(unreadable)} translation files "
              "could not be read")
        return 1
    if checked:
        print(f"{len(items)} cells {what} in {notebooks} notebooks")
        return 0
    print(f"{len(items)} cells to translate in {notebooks} notebooks" if items
          else "nothing to translate: every Markdown cell's block matches its English")
    return 0


def _rekey(notebook: Path, sources: list[Path], target: Path) -> int:
    """``rekey``: write ``target`` from ``sources`` (:func:`~tooling.translation.source.rekey`); status 1 when a
    cell is left untranslated or its English changed since, 0 otherwise."""
    missing = [f"error: {source}: " + ("a folder, not a translation file" if source.is_dir()
                                       else "no such translation file" if source != target
                                       else f"no translation file of {notebook.name} to re-key; name the files "
                                            "to take blocks from with --from")
               for source in sources if not source.is_file()]
    if missing:
        print("\n".join(missing), file=sys.stderr)
        return 1
    try:
        done = rekey(notebook, sources, keep=target)
    except UnreadableTranslation as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(done.text, encoding="utf-8")
    notes = [f"no translation matched {', '.join(done.unmatched)}" if done.unmatched else "",
             f"kept the translation of {', '.join(done.stale)} whose English changed since (the old en-sha256: "
             "`worklist` shows what changed)" if done.stale else "",
             f"kept {', '.join(done.kept)} at the end: no cell of {notebook.name} has their English or id"
             if done.kept else "",
             f"dropped the old block of {', '.join(done.replaced)} (its cell took the block that has its English; "
             "git has the old one)" if done.replaced else ""]
    print(f"wrote {target}" + "".join(f"; {note}" for note in notes if note))
    return 1 if done.unmatched or done.stale else 0


def _named(path: Path) -> Path:
    """The notebook ``path`` names: the file itself when it exists or names a folder, else the English
    notebook a short name means (``18``, ``18_streaming``); as given when none or several match (the
    check below then says there is no such notebook)."""
    if path.exists() or len(path.parts) != 1:
        return path
    try:
        return NOTEBOOK_DIR / resolve_names([str(path)], NOTEBOOK_DIR)[0]
    except WorkspaceError:
        return path


def _not_notebooks(paths: list[Path]) -> list[str]:
    """One error line per path that is not an existing English ``.ipynb`` file (a built Chinese
    notebook in ``notebooks/zh/`` would be read as the English source of itself) or whose Markdown
    cells cannot be read (not UTF-8 JSON, a cell without an id or with a source that is not text)."""
    errors = []
    for path in paths:
        if not (path.is_file() and path.suffix == ".ipynb"):
            errors.append(f"error: {path}: " + ("not a notebook (.ipynb file)" if path.exists() else "no such notebook"))
        elif path.resolve().parent == ZH_DIR.resolve():
            errors.append(f"error: {path}: a built Chinese notebook; name the English one (notebooks/{path.name})")
        else:
            try:
                markdown_cells(path)
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                errors.append(f"error: {path}: not a readable notebook (nbformat 4 JSON, UTF-8, every cell "
                              f"with an id and a text source): {type(exc).__name__}: {exc}")
    return errors


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry (see the module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tooling.translation", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    built = commands.add_parser("build", help="write and execute notebooks/zh/*.ipynb that changed")
    built.add_argument("notebooks", nargs="*", type=Path)
    built.add_argument("--force", action="store_true", help="rebuild even when up to date")
    checked = commands.add_parser("check", help="list what drifted")
    checked.add_argument("notebooks", nargs="*", type=Path)
    skeleton = commands.add_parser("skeleton", help="start a translation file (never overwrites)")
    skeleton.add_argument("notebook", type=Path)
    listed = commands.add_parser("worklist", help="each stale or new cell: the English diff and the Chinese now")
    listed.add_argument("notebooks", nargs="*", type=Path)
    listed.add_argument("--checked", action="store_true",
                        help="list instead each cell whose English changed and whose Chinese was kept (checked)")
    rekeyed = commands.add_parser("rekey", help="move each block to the cell whose English it translates")
    rekeyed.add_argument("notebook", type=Path)
    rekeyed.add_argument("--from", dest="sources", nargs="+", type=Path, metavar="FILE",
                         help="translation files to take blocks from (default: the notebook's own)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    for name in ("notebooks", "notebook"):
        value = getattr(args, name, None)
        if value is not None:
            setattr(args, name, [_named(path) for path in value] if name == "notebooks" else _named(value))
    named = getattr(args, "notebooks", None) or [getattr(args, "notebook", None)]
    errors = _not_notebooks([path for path in named if path is not None])
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    if args.command == "build":
        return _build(args.notebooks, args.force)
    if args.command == "check":
        try:
            return _check(args.notebooks)
        except GlossaryError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    if args.command == "worklist":
        return _worklist(args.notebooks, args.checked)
    target = translation_path(args.notebook)
    try:
        if args.command == "rekey":
            return _rekey(args.notebook, args.sources or [target], target)
        if target.exists():
            print(f"error: {target} exists; not overwriting", file=sys.stderr)
            return 1
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(format_blocks(markdown_cells(args.notebook)), encoding="utf-8")
    except OSError as exc:  # a file to read or write that is a folder, or not readable or writable
        print(f"error: {exc.filename or target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
