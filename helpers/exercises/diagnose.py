"""Read what kind of answer the learner wrote and where an exception came from.

* :func:`answer_kind` tells a plain ``def`` from an ``async def`` (functions, ``functools.partial``,
  callable objects, and LangChain tools: ``@tool`` over an ``async def`` builds a
  ``StructuredTool`` with ``coroutine`` set and ``func=None``, langchain-core 1.8.3).
* :func:`style_problem` turns a mismatch with what the exercise wants into one sentence.
* :func:`raised_by_checker` decides whether an ``AssertionError`` is a hidden check's verdict
  (raised in checker code) or the learner's own ``assert`` (raised anywhere else);
  :func:`learner_line` finds the line of the learner's code an exception passed through.
* :func:`raised_in_library` tells an exception raised by a library (langchain-core's
  ``NotImplementedError("Unsupported message type: <class 'NoneType'>")`` when an answer
  returned ``None``) from one raised by the learner's or the checker's code (the stub's
  ``raise NotImplementedError``); :func:`is_learner_file` names the learner's source files (for
  :mod:`helpers.exercises.deadline`, which stops threads running them first).

Nothing here raises: a hostile answer (a ``__getattr__`` that raises ``SystemExit``) reads as
``"other"``. The deadline's stop (:class:`~helpers.exercises.deadline.CheckTimeout`) and
``KeyboardInterrupt`` pass through.
"""

from __future__ import annotations

import functools
import inspect
import linecache
import sysconfig
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from ..i18n import _
from .deadline import CheckTimeout

__all__ = ["AnswerKind", "Wants", "answer_kind", "async_tool_problem", "code_files", "is_learner_file", "learner_line",
           "raised_by_checker", "raised_in_code_of", "raised_in_library", "style_problem", "sync_call_of_async_tool"]

#: What an exercise wants: a plain function, a coroutine function, or either of them.
Wants = Literal["def", "async def", "either"]
#: What an answer is: a plain callable, an ``async def``, or not callable at all (a dict of predictions).
AnswerKind = Literal["def", "async def", "other"]

_CHECKER_DIR = Path(__file__).resolve().parent
_COURSE_DIR = _CHECKER_DIR.parent  # the helpers package: course code, not the learner's
_LIBRARY_DIRS = tuple(
    str(Path(p).resolve()) for p in {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
)


def _is_coroutine_function(fn: Any) -> bool:
    while isinstance(fn, functools.partial):
        fn = fn.func
    return inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn)


def answer_kind(answer: Any) -> AnswerKind:
    """``"async def"`` for a coroutine function (or a tool that has only a coroutine), ``"def"`` for
    any other callable, ``"other"`` for a value that is not callable."""
    try:
        if _is_coroutine_function(answer):
            return "async def"
        if hasattr(answer, "coroutine") and hasattr(answer, "func") and hasattr(answer, "invoke"):  # a BaseTool
            return "async def" if answer.func is None and answer.coroutine is not None else "def"
        if callable(answer):
            call = getattr(type(answer), "__call__", None)
            return "async def" if not inspect.isfunction(answer) and _is_coroutine_function(call) else "def"
    except (KeyboardInterrupt, CheckTimeout):
        raise
    except BaseException:  # noqa: BLE001 - a hostile answer; the cases will report it
        return "other"
    return "other"


def _name(answer: Any) -> str:
    try:
        name = getattr(answer, "name", None) if hasattr(answer, "invoke") else None
        name = name or getattr(answer, "__name__", None)
        return name if isinstance(name, str) and name.isidentifier() else "your answer"
    except (KeyboardInterrupt, CheckTimeout):
        raise
    except BaseException:  # noqa: BLE001
        return "your answer"


def style_problem(answer: Any, wants: Wants) -> str | None:
    """One sentence when ``answer`` is not the kind of function the exercise wants, else ``None``.

    Only a callable answer is judged (a dict of predictions is ``"other"`` and passes).
    """
    kind = answer_kind(answer)
    if wants == "either" or kind == "other" or kind == wants:
        return None
    name = _name(answer)
    if wants == "def":
        if hasattr(answer, "coroutine"):
            return async_tool_problem()
        return _wants_def(_("`{name}` is an `async def`").format(name=name) if name != "your answer"
                          else _("your answer is an `async def`"))
    return _("this exercise wants an `async def`: `{name}` is a plain `def`. Write `async def` and `await` "
             "the tools' `.ainvoke(...)`, then run the check again").format(name=name)


def _wants_def(what: str) -> str:
    return _("this exercise wants a plain `def`: {what}. Remove `async` (call `.invoke(...)`, not "
             "`await ....ainvoke(...)`) and run the check again").format(what=what)


def async_tool_problem() -> str:
    """The sentence for a tool built on an ``async def`` where the exercise runs tools synchronously."""
    return _wants_def(_("your tool wraps an `async def` function"))


def sync_call_of_async_tool(exc: BaseException) -> bool:
    """True for the ``NotImplementedError`` that langchain-core raises when a tool built on an
    ``async def`` is invoked synchronously (``StructuredTool does not support sync invocation.``)."""
    try:
        return isinstance(exc, NotImplementedError) and "does not support sync invocation" in str(exc)
    except (KeyboardInterrupt, CheckTimeout):
        raise
    except BaseException:  # noqa: BLE001
        return False


def code_files(functions: Iterable[Callable[..., Any] | None]) -> frozenset[str]:
    """The source files of the given checker functions (``functools.partial`` unwrapped)."""
    files = set()
    for fn in functions:
        while isinstance(fn, functools.partial):
            fn = fn.func
        code = getattr(fn, "__code__", None)
        if code is not None:
            files.add(code.co_filename)
    return frozenset(files)


def _frames(tb: TracebackType | None) -> list[TracebackType]:
    out = []
    while tb is not None:
        out.append(tb)
        tb = tb.tb_next
    return out


@functools.lru_cache(maxsize=4096)
def _resolved_absolute(filename: str) -> Path | None:
    try:
        return Path(filename).resolve()
    except (OSError, ValueError):
        return None


def _resolved(filename: str) -> Path | None:
    """``Path(filename).resolve()``, or ``None`` where it cannot be resolved. An absolute name (every
    imported module's and every notebook cell's) is resolved once per process: the stop of a thread
    looks at every frame of every thread each time it polls, and resolving touches the disk. A
    relative name depends on the working directory, so it is resolved each time."""
    if Path(filename).is_absolute():
        return _resolved_absolute(filename)
    try:
        return Path(filename).resolve()
    except (OSError, ValueError):
        return None


def _is_checker(filename: str, checker_files: frozenset[str]) -> bool:
    if filename in checker_files:
        return True
    resolved = _resolved(filename)
    return resolved is not None and resolved.parent == _CHECKER_DIR


def _is_library(filename: str) -> bool:
    if filename.startswith("<frozen") or filename.startswith("<string>"):
        return True
    resolved = _resolved(filename)
    return resolved is not None and str(resolved).startswith(_LIBRARY_DIRS)


def _is_course(filename: str) -> bool:
    resolved = _resolved(filename)
    return resolved is not None and resolved.is_relative_to(_COURSE_DIR)


def is_learner_file(filename: str, checker_files: frozenset[str] = frozenset()) -> bool:
    """True for a source file of the learner's code: not a checker file, not the course's
    ``helpers`` package, not the standard library or an installed package."""
    return not (_is_checker(filename, checker_files) or _is_library(filename) or _is_course(filename))


def raised_in_library(exc: BaseException) -> bool:
    """True when the innermost frame of ``exc``'s traceback is library code (the standard library,
    an installed package such as langchain-core, or the course's own non-checker helpers), i.e.
    neither the learner's code nor a checker raised it."""
    frames = _frames(exc.__traceback__)
    if not frames:
        return False
    filename = frames[-1].tb_frame.f_code.co_filename
    return _is_library(filename) or (_is_course(filename) and not _is_checker(filename, frozenset()))


def raised_in_code_of(exc: BaseException, checker_files: frozenset[str] = frozenset()) -> bool:
    """True when the innermost frame of ``exc``'s traceback is the learner's own code (see
    :func:`is_learner_file`)."""
    frames = _frames(exc.__traceback__)
    return bool(frames) and is_learner_file(frames[-1].tb_frame.f_code.co_filename, checker_files)


def raised_by_checker(exc: BaseException, checker_files: frozenset[str]) -> bool:
    """True when ``exc`` was raised in checker code: the innermost frame of its traceback is in
    ``helpers/exercises/`` or in one of ``checker_files`` (the files of the case functions)."""
    frames = _frames(exc.__traceback__)
    return not frames or _is_checker(frames[-1].tb_frame.f_code.co_filename, checker_files)


def learner_line(exc: BaseException, checker_files: frozenset[str]) -> str | None:
    """``"line 3: `assert ids`"`` for the innermost traceback frame that is neither checker nor
    library code (the learner's cell), or ``None``. Never a file name (a kernel's cell file is a
    machine path)."""
    for tb in reversed(_frames(exc.__traceback__)):
        filename = tb.tb_frame.f_code.co_filename
        if _is_checker(filename, checker_files) or _is_library(filename):
            continue
        source = linecache.getline(filename, tb.tb_lineno, tb.tb_frame.f_globals).strip()
        where = _("line {number}").format(number=tb.tb_lineno)
        return f"{where}: `{source[:120]}`" if source else where
    return None
