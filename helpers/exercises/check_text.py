"""The words a check says about what went wrong: an exception's message and type, safely read from
the learner's objects, and the threads a case left running or could not stop.

Used by :class:`helpers.exercises.core.Exercise`; nothing here touches progress or the registry.
"""

from __future__ import annotations

from .deadline import CheckTimeout, DeadlineOutcome

__all__: list[str] = []


def _safe_str(exc: BaseException) -> str:
    """``str(exc)``, or a placeholder when the exception's own ``__str__`` fails (even with ``SystemExit``)."""
    try:
        text = str(exc)
        return str.__str__(text) if isinstance(text, str) else ""
    except (KeyboardInterrupt, CheckTimeout):
        raise
    except BaseException:  # noqa: BLE001 - a learner's __str__ may raise anything
        return f"<{_type_name(exc)} whose message could not be shown>"


def _type_name(exc: BaseException) -> str:
    try:
        name = type(exc).__name__
        return str.__str__(name) if isinstance(name, str) else "exception"
    except (KeyboardInterrupt, CheckTimeout):
        raise
    except BaseException:  # noqa: BLE001
        return "exception"


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _stuck_text(outcome: DeadlineOutcome) -> str:
    """Why the stuck threads of ``outcome`` could not be stopped."""
    blocked = [s.name for s in outcome.stuck if s.state == "blocked"]
    running = [s.name for s in outcome.stuck if s.state == "running"]
    unknown = [s.name for s in outcome.stuck if s.state == "unknown"]
    parts = []
    if blocked:
        parts.append(f"{len(blocked)} thread(s) ({_names(blocked)}) are blocked inside one call that Python cannot "
                     "interrupt (such as time.sleep, or waiting for a lock, an event or another thread); each ends "
                     "when that call returns")
    if running:
        parts.append(f"{len(running)} thread(s) ({_names(running)}) catch the stop (a bare `except:` or "
                     "`except BaseException:` in a loop) and keep running")
    if unknown:
        parts.append(f"{len(unknown)} thread(s) ({_names(unknown)}) are blocked inside one call that Python cannot "
                     "interrupt, or catch the stop (a bare `except:` in a loop)")
    return "; ".join(parts)


def _left_text(outcome: DeadlineOutcome) -> str:
    """What to say about threads a case left running (``outcome.left``)."""
    count = len(outcome.left)
    what = "a thread" if count == 1 else f"{count} threads"
    text = f"your code left {what} running ({_names(outcome.left)}); "
    if not outcome.stuck:
        text += "it was stopped." if count == 1 else "they were stopped."
    else:
        text += f"stopping failed: {_stuck_text(outcome)}."
    return text + " Let every thread you start finish (`thread.join()`) before your function returns"
