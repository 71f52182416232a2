"""Babel extractor for the exercise modules: the Python extractor's messages, plus each exercise's
title and each case's name.

Titles and case names stay plain string literals in ``Exercise("NN.k", "title", [Case("name", run,
hint), ...])``: the exercise registry reads the title with :mod:`ast` (no import), and tests and
``KnownWrong.fails`` compare case names in English. They are translated where they are shown
(:mod:`helpers.exercises.results`, :mod:`helpers.progress`). Babel 2.19's own Python extractor cannot
mark them as keywords: it reads tokens, and a keyword call nested inside another one's arguments
(``Case(...)`` inside ``Exercise(..., [...])``, ``N_(...)`` inside ``Case(...)``) is skipped. So this
extractor yields what :func:`babel.messages.extract.extract_python` yields, and adds, from the
module's :mod:`ast`, every literal ``title`` of an ``Exercise(...)`` call and literal ``name`` of a
``Case(...)`` call (positional or keyword), as an ``N_`` message. ``babel.cfg`` maps
``exercises/**.py`` to it.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

__all__ = ["MARKED_ARGUMENTS", "extract_exercises"]

#: The constructor, and which argument of it (position, keyword) is a learner-facing text.
MARKED_ARGUMENTS: dict[str, tuple[int, str]] = {"Exercise": (1, "title"), "Case": (0, "name")}


def _marked(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKED_ARGUMENTS):
            continue
        position, keyword = MARKED_ARGUMENTS[node.func.id]
        given = node.args[position] if len(node.args) > position else next(
            (k.value for k in node.keywords if k.arg == keyword), None)
        if isinstance(given, ast.Constant) and isinstance(given.value, str) and given.value:
            yield given.lineno, given.value


def extract_exercises(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                      options: Mapping[str, Any]) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's extractor interface (``(lineno, funcname, messages, comments)``, Babel 2.19): the Python
    extractor's messages, then the titles and case names, each as ``N_`` (``N_`` must be a keyword:
    ``make catalogs`` passes ``-k N_``)."""
    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)
    if "N_" in keywords:
        for line, text in sorted(_marked(ast.parse(source))):
            yield line, "N_", text, []
