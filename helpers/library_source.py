"""Where a behaviour comes from: the line of an installed library's source that decides it.

Notebooks say "the library line behind each surprise" and show it: :func:`library_line` finds the first line
of a function's, class's or module's source that contains a given text and returns it with its file (relative
to ``site-packages``, e.g. ``langchain/agents/factory.py``) and line number. It reads the installed package
(``inspect.getsourcelines``), so when a pin moves and the line moves or disappears, the output changes or the
cell raises, and strict nbval fails.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["library_line"]


def library_line(source: Any, text: str) -> str:
    """``"<package path>.py:<line>\\n    <the line, stripped>"`` for the first line of ``source`` containing ``text``.

    Args:
        source: a function, method, class or module of an installed package (a nested function's lines are part
            of the function that defines it).
        text: a piece of the line to find, matched as a plain substring.

    Returns:
        two lines: the file as its module path (``langgraph/prebuilt/tool_node.py``) with the 1-based line
        number, then the line itself, indented by four spaces.

    Raises:
        LookupError: ``text`` is not in ``source`` (the library changed: the message names both).
        TypeError: ``source`` has no Python source (a builtin, a C extension).
    """
    lines, start = inspect.getsourcelines(source)
    start = max(start, 1)  # a module's lines start at 0
    for offset, line in enumerate(lines):
        if text in line:
            return f"{_package_path(source)}:{start + offset}\n    {line.strip()}"
    name = getattr(source, "__qualname__", getattr(source, "__name__", repr(source)))
    raise LookupError(f"{text!r} is not in the source of {name}: the installed library changed")


def _package_path(source: Any) -> str:
    """The source file of ``source`` relative to its ``site-packages`` folder (never a machine path)."""
    parts = Path(inspect.getsourcefile(source) or "").parts
    for root in ("site-packages", "dist-packages"):
        if root in parts:
            return "/".join(parts[parts.index(root) + 1:])
    module = source.__name__ if isinstance(source, ModuleType) else source.__module__
    return module.replace(".", "/") + ".py"
