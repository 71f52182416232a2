"""Where an installed library does something: one line of its source, with file and line number.

:func:`library_line` prints the first line of a function's (or class's, or module's) source that contains a
text, as ``package/module.py:LINE Qualified.name`` and the line itself. Notebooks use it to show that a fact
they teach is the pinned library's own code, read at run time (``inspect.getsourcelines``): when a pin moves
and the line moves or changes, the printed number changes (strict nbval fails) or the text is gone
(``LookupError``). Notebook 14 writes the same function in a cell to introduce the idea; notebooks 10, 15 and
20 import it from here.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

__all__ = ["library_line"]


def library_line(obj: Any, text: str) -> None:
    """Print the first line of ``obj``'s source that contains ``text``: ``module/path.py:LINE name``, then the line.

    Args:
        obj: a module, function, method or class of an installed package (``inspect.getsourcelines`` must
            find it; a nested function's lines are part of the function that defines it); for a module, the
            line is printed without a name.
        text: the exact text to look for in that source (one line's worth, a plain substring).

    Prints:
        two lines: the file relative to ``site-packages`` (``langgraph/prebuilt/tool_node.py``, never a
        machine path) with the 1-based line number and the qualified name, then the line itself, stripped and
        indented by four spaces.

    Raises:
        LookupError: ``text`` is not in the source: the library changed (the message names both).
        TypeError: ``obj`` has no Python source (a builtin, a C extension).
    """
    lines, start = inspect.getsourcelines(obj)
    module = obj.__name__ if inspect.ismodule(obj) else obj.__module__
    name = "" if inspect.ismodule(obj) else f" {obj.__qualname__}"
    start = max(start, 1)  # a module's source starts at line 1 (getsourcelines says 0)
    for offset, line in enumerate(lines):
        if text in line:
            print(f"{_package_path(obj, module)}:{start + offset}{name}\n    {line.strip()}")
            return
    raise LookupError(f"{text!r} is not in {module}{name}: the library changed")


def _package_path(obj: Any, module: str) -> str:
    """The source file of ``obj`` relative to its ``site-packages`` folder; else its module as a path."""
    parts = Path(inspect.getsourcefile(obj) or "").parts
    for root in ("site-packages", "dist-packages"):
        if root in parts:
            return "/".join(parts[parts.index(root) + 1:])
    file = module.replace(".", "/")
    return file + ("/__init__.py" if inspect.getfile(obj).endswith("__init__.py") else ".py")  # a package's own code
