"""Expected errors in a notebook: :func:`format_error` (``Type: message`` with no machine paths and
no memory addresses), :func:`show_error` and :func:`expect_error`, which show an expected error's
message without a traceback and say so when no error, or another one, was raised.

One floor of :mod:`helpers.display` (which re-exports its public names); it imports neither
LangChain nor LangGraph.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

from .text import _ADDRESS, _short, _type_name, safe_repr
from ..i18n import _

# Machine paths in error messages are cut to their last part (the file or folder name), so an
# output never shows where the course lives (/Users/Jane Doe/..., C:\Users\...) and stays the same
# on every machine. A folder name may hold single spaces when a separator follows it. A POSIX path
# of two parts is a machine path only under a system folder (/tmp/x.json, /home/alice): Deep Agents'
# virtual files (/notes/A1024.md, notebook 12) keep their path.
_SYSTEM_ROOTS = frozenset({
    "Applications", "Library", "System", "Users", "Volumes", "bin", "boot", "builds", "content", "dev", "etc",
    "home", "kaggle", "lib", "media", "mnt", "nix", "opt", "private", "proc", "root", "run", "sbin", "snap",
    "srv", "sys", "tmp", "usr", "var", "work", "workspace", "workspaces",
})
_SEGMENT = r"[\w.\-+@~%]+"
_FOLDER = rf"{_SEGMENT}(?: {_SEGMENT})*"
_SEP = r"(?:\\{1,2}|/)"  # \, or \\ as in the repr of a Windows path, or /
_POSIX_PATH = re.compile(rf"(?<![\w:/.\\])/(?:{_FOLDER}/)+{_SEGMENT}/?")
_WINDOWS_PATH = re.compile(rf"(?<![\w\\])(?:[A-Za-z]:|\\{{2,4}}[\w.\-]+)(?:{_SEP}{_FOLDER}(?={_SEP}))*{_SEP}{_SEGMENT}")
_FILE_URL = re.compile(r"\bfile:(?://[^/\s'\"]*)?/[^\s'\"]*", re.IGNORECASE)
_QUOTED_PATH = re.compile(r"""(['"])((?:file:/|/|[A-Za-z]:[\\/]|\\\\)[^'"\n]*?[\\/][^'"\n]*?)\1""")


def _last_part(path: str) -> str:
    """The last part of a POSIX or Windows path or ``file:`` URL (``/a/b c/d.py`` -> ``d.py``)."""
    parts = [part for part in re.split(r"[\\/]+", path) if part]
    return parts[-1] if parts else path


def _machine_path(path: str) -> bool:
    """True for a path that tells where something lives on this machine (see ``_SYSTEM_ROOTS``)."""
    if not path.startswith("/") or path.startswith("//"):
        return True  # a Windows path, a UNC path or a file: URL
    parts = [part for part in path.split("/") if part]
    return len(parts) >= 3 or (len(parts) == 2 and parts[0] in _SYSTEM_ROOTS)


def _cut(path: str) -> str:
    return _last_part(path) if _machine_path(path) else path


def _strip_paths(text: str, exc: BaseException) -> str:
    for attribute in ("filename", "filename2"):  # OSError: the exact path, spaces and all
        path = getattr(exc, attribute, None) if isinstance(exc, OSError) else None
        if isinstance(path, str) and re.search(r"[\\/]", path.strip("\\/")) and _machine_path(path):
            text = text.replace(repr(path), repr(_last_part(path))).replace(path, _last_part(path))
    text = _QUOTED_PATH.sub(lambda m: m.group(1) + _cut(m.group(2)) + m.group(1), text)
    text = _FILE_URL.sub(lambda m: _last_part(m.group(0)), text)
    text = _WINDOWS_PATH.sub(lambda m: _last_part(m.group(0)), text)
    return _POSIX_PATH.sub(lambda m: _cut(m.group(0)), text)


def _message_of(exc: BaseException) -> str:
    """``str(exc)``, or a placeholder when the exception's ``__str__`` raises or returns a non-str."""
    try:
        message = str(exc)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a broken __str__ must not let a traceback out
        return "<its message could not be turned into text>"  # the wording of helpers.widgets.text.error_text
    return message


def format_error(exc: BaseException) -> str:
    """``Type: message`` with machine paths reduced to their last part and memory addresses removed.

    Paths cut to their last part: POSIX paths of three or more parts (``/Users/Jane Doe/x.py``), and
    of two under a system folder (``/tmp/secret.json``; a virtual file such as Deep Agents'
    ``/notes/A1024.md`` is kept), also quoted or with spaces in folder names; Windows paths, also
    as an ``OSError`` shows them (``'C:\\\\Users\\\\...'``); ``file:`` URLs. Web URLs
    (``https://errors.pydantic.dev/...``) are kept.

    Args:
        exc: any exception.

    Returns:
        one line of text, e.g. ``FileNotFoundError: [Errno 2] No such file or directory: 'x.json'``.
        Never raises (except ``KeyboardInterrupt``): an exception whose ``__str__`` raises is shown
        by its type and a note saying so.
    """
    text = f"{type(exc).__name__}: {_message_of(exc)}"
    return _ADDRESS.sub("", _strip_paths(text, exc))


class ErrorReport:
    """Result of :func:`expect_error`: ``error`` is the caught exception, or ``None``."""

    def __init__(self) -> None:
        self.error: BaseException | None = None


def _report(error: BaseException | None, expected: tuple[type[BaseException], ...], result: Any = None) -> None:
    if error is None:
        print("!!! NO ERROR WAS RAISED !!!")
        print("!!! " + _("This cell expected an exception, but the call returned: {value}").format(
            value=_short(safe_repr(result), 120)))
        print("!!! " + _("The pinned library may have changed behaviour: check the claim above."))
    elif expected and not isinstance(error, expected):
        names = ", ".join(e.__name__ for e in expected)
        print(f"!!! UNEXPECTED ERROR TYPE (expected {names}) !!!")
        print(format_error(error))
    else:
        print(format_error(error))


def _expected_types(expected: Any, who: str) -> tuple[type[BaseException], ...]:
    types = expected if isinstance(expected, tuple) else (expected,)
    if not types or not all(isinstance(t, type) and issubclass(t, BaseException) for t in types):
        raise TypeError(f"{who}(expected=...) wants an exception class or a tuple of them, "
                        f"e.g. expected=ValueError; got {_short(safe_repr(expected), 60)}")
    return types


def _report_not_callable(value: Any) -> None:
    shown = _short(safe_repr(value), 80)
    print("!!! show_error WANTS A FUNCTION TO CALL, e.g. show_error(lambda: f(x)) !!!")
    print("!!! " + _("It got the value {value} ({type}): the call already ran before show_error saw it, "
                     "and it did not raise.").format(value=shown, type=_type_name(value)))


def show_error(func: Callable[..., Any], *args: Any, expected: type[BaseException] | tuple = Exception,
               **kwargs: Any) -> None:
    """Call ``func(*args, **kwargs)`` and print the error it raises as ``Type: message``.

    No traceback and no machine paths are printed. If nothing is raised, a loud
    ``!!! NO ERROR WAS RAISED !!!`` banner is printed instead (so nbval fails when a pinned
    library stops raising). ``show_error(f(x))`` is a common slip: ``f(x)`` runs *before*
    ``show_error`` is called, so ``show_error`` gets its result, not a function; that is reported
    as ``!!! show_error WANTS A FUNCTION TO CALL ...`` (never as if the value's ``TypeError: ...
    not callable`` were the expected error). Write ``show_error(lambda: f(x))`` or
    ``show_error(f, x)``.

    Args:
        func: the callable expected to raise (called with ``args`` and ``kwargs``).
        expected: exception type(s) the cell expects; another type is printed with an
            ``UNEXPECTED ERROR TYPE`` banner.

    Returns:
        ``None`` (so nothing more is displayed); use :func:`expect_error` to keep the
        exception. ``KeyboardInterrupt`` and ``SystemExit`` are not caught.

    Raises:
        TypeError: ``expected`` is not an exception class or a tuple of them.
    """
    expected_types = _expected_types(expected, "show_error")
    if not callable(func):
        _report_not_callable(func)
        return None
    try:
        result = func(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - showing any error is the point
        _report(exc, expected_types)
        return None
    _report(None, expected_types, result)
    return None


@contextlib.contextmanager
def expect_error(expected: type[BaseException] | tuple = Exception) -> Iterator[ErrorReport]:
    """Context-manager form of :func:`show_error` for multi-line code.

    Example:
        >>> with expect_error(ValueError) as caught:
        ...     int("x")
        ValueError: invalid literal for int() with base 10: 'x'
    """
    expected_types = _expected_types(expected, "expect_error")
    report = ErrorReport()
    try:
        yield report
    except Exception as exc:  # noqa: BLE001
        report.error = exc
        _report(exc, expected_types)
    else:
        _report(None, expected_types, "(the block finished)")
