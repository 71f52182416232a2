"""The words a check says about what went wrong: an exception's message and type, safely read from
the learner's objects, and the threads a case left running or could not stop.

Used by :class:`helpers.exercises.core.Exercise`; nothing here touches progress or the registry.
"""

from __future__ import annotations

from ..i18n import _, ngettext
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
        return _("<{type} whose message could not be shown>").format(type=_type_name(exc))


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
    if len(names) <= 3:
        return shown
    return _("{names} and {count} more").format(names=shown, count=len(names) - 3)


def _stuck_text(outcome: DeadlineOutcome) -> str:
    """Why the stuck threads of ``outcome`` could not be stopped."""
    blocked = [s.name for s in outcome.stuck if s.state == "blocked"]
    running = [s.name for s in outcome.stuck if s.state == "running"]
    unknown = [s.name for s in outcome.stuck if s.state == "unknown"]
    parts = []
    if blocked:
        parts.append(_("{count} thread(s) ({names}) are blocked inside one call that Python cannot interrupt (such "
                       "as time.sleep, or waiting for a lock, an event or another thread); each ends when that call "
                       "returns").format(count=len(blocked), names=_names(blocked)))
    if running:
        parts.append(_("{count} thread(s) ({names}) catch the stop (a bare `except:` or `except BaseException:` in "
                       "a loop) and keep running").format(count=len(running), names=_names(running)))
    if unknown:
        parts.append(_("{count} thread(s) ({names}) are blocked inside one call that Python cannot interrupt, or "
                       "catch the stop (a bare `except:` in a loop)").format(count=len(unknown), names=_names(unknown)))
    return "; ".join(parts)


def _left_text(outcome: DeadlineOutcome) -> str:
    """What to say about threads a case left running (``outcome.left``)."""
    count = len(outcome.left)
    if not outcome.stuck:
        text = ngettext("your code left a thread running ({names}); it was stopped.",
                        "your code left {count} threads running ({names}); they were stopped.", count)
    else:
        text = ngettext("your code left a thread running ({names}); stopping failed: {reason}.",
                        "your code left {count} threads running ({names}); stopping failed: {reason}.", count)
    text = text.format(count=count, names=_names(outcome.left), reason=_stuck_text(outcome) if outcome.stuck else "")
    return text + " " + _("Let every thread you start finish (`thread.join()`) before your function returns")
