"""Packages whose names load on first use (PEP 562), so importing one stays cheap.

A package lists where each of its names lives, ``{"show_error": ".errors", ...}``, and gets its
module-level ``__getattr__`` and ``__dir__`` from :func:`lazy_exports`. ``from helpers.progress import
progress_report`` then loads ``helpers/progress/report.py`` and what it imports, not the package's
other modules (notebook 00's first cell loads no LangChain), and a package's ``__init__`` imports none of
its modules, so a module inside it never closes an import cycle through it
(``tests/test_import_graph.py`` reads these maps).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose names load on first use.

    Args:
        package: the package's ``__name__``.
        exports: each public name -> the module it is defined in, relative to the package (``".errors"``)
            or absolute (``"helpers.widgets.self_check_view"``).

    Returns:
        ``(__getattr__, __dir__)``: ``__getattr__(name)`` imports the name's module, stores the value
        in the package (later lookups do not come back) and returns it; ``__dir__()`` lists the
        package's globals and every exported name.

    Raises:
        AttributeError: from ``__getattr__``, for a name the map does not list.
    """
    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
