"""The exercise core: hidden check cases and a ``check`` that never raises into the notebook.

An :class:`Exercise` has an ``id`` (``"01.1"``), a title and hidden :class:`Case` objects.
``Exercise.check(answer)`` runs every case against the learner's answer, records the outcome in
the learner's progress (:func:`helpers.progress.record_exercise`) and returns a
:class:`~helpers.exercises.results.CheckResult`, which Jupyter renders as a per-case
PASS / FAIL / ERROR list with hints. ``Exercise.evaluate(answer)`` does the same without
recording (for demo cells that are not the learner's own answer).

* A case passes when its ``run(answer)`` returns; it fails with the hint when a hidden check
  raises ``AssertionError``. Anything else is an ``ERROR`` in the learner's code, reported as
  feedback, never re-raised: an exception (``your code raised TypeError: ...``; ``SystemExit`` and
  ``asyncio.CancelledError`` included), the learner's *own* ``assert`` (an ``AssertionError``
  raised outside the checker: reported with its line), and a case still running after the
  exercise's ``timeout`` (``your code was still running after 5 s: an endless loop?``; the
  case's threads are stopped, see :mod:`helpers.exercises.deadline`, and the remaining cases
  are not run).
* An ``async def`` answer to an exercise that wants a plain ``def`` (and the reverse) is told so
  before anything runs, so no coroutine is created (no never-awaited warning).
* An unsolved stub (``answer is None`` or the answer raises ``NotImplementedError``) renders one
  deterministic line, ``not solved yet``, so the shipped notebooks pass strict nbval.
* Only ``KeyboardInterrupt`` escapes (the kernel's interrupt button stops a check).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .deadline import DeadlineOutcome, run_with_deadline
from .diagnose import (
    Wants,
    async_tool_problem,
    code_files,
    learner_line,
    raised_by_checker,
    style_problem,
    sync_call_of_async_tool,
)
from .results import DEFAULT_UNSOLVED_HINT, CaseResult, CheckResult, Verdict, bounded

__all__ = ["DEFAULT_TIMEOUT", "Case", "CaseResult", "CheckResult", "Exercise", "Verdict"]

#: Seconds one case (or the probe) may run before it is stopped.
DEFAULT_TIMEOUT = 5.0

_SKIPPED = "not run: your code did not finish an earlier check"


def _safe_str(exc: BaseException) -> str:
    """``str(exc)``, or a placeholder when the exception's own ``__str__`` fails (even with ``SystemExit``)."""
    try:
        text = str(exc)
        return text if isinstance(text, str) else ""
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a learner's __str__ may raise anything
        return f"<{_type_name(exc)} whose message could not be shown>"


def _type_name(exc: BaseException) -> str:
    try:
        name = type(exc).__name__
        return name if isinstance(name, str) else "exception"
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001
        return "exception"


@dataclass(frozen=True)
class Case:
    """One hidden check.

    Attributes:
        name: what the case checks, shown to the learner (e.g. ``"unknown tool name"``).
        run: ``run(answer) -> None``; raise ``AssertionError("hint")`` when the answer is wrong.
        hint: shown when the case fails and the AssertionError has no message of its own, and
            after an error in the learner's code.
    """

    name: str
    run: Callable[[Any], Any]
    hint: str = ""


class Exercise:
    """An exercise with hidden checks.

    Args:
        id: stable id, ``"NN.k"`` (notebook number and exercise number).
        title: short title shown in the report.
        cases: the hidden :class:`Case` objects, run in order.
        probe: optional ``probe(answer) -> None`` that calls the answer once; if it raises
            ``NotImplementedError`` the answer is treated as the unsolved stub. Without a
            probe, the stub is detected when the first case raises ``NotImplementedError``.
        unsolved_hint: what the "not solved yet" line tells the learner to do (default:
            replace the ``raise NotImplementedError``).
        timeout: seconds each case (and the probe) may run, default :data:`DEFAULT_TIMEOUT`.
        wants: ``"def"`` (default), ``"async def"`` or ``"either"``: the kind of function the
            answer must be (a non-callable answer, such as a dict, is not judged).

    Raises:
        ValueError: no cases, or a timeout that is not a positive number.
    """

    def __init__(self, id: str, title: str, cases: Sequence[Case], *, probe: Callable[[Any], Any] | None = None,
                 unsolved_hint: str | None = None, timeout: float = DEFAULT_TIMEOUT, wants: Wants = "def"):
        if not cases:
            raise ValueError(f"exercise {id} needs at least one case")
        if not (isinstance(timeout, (int, float)) and timeout > 0):
            raise ValueError(f"exercise {id}: timeout must be a positive number of seconds, got {timeout!r}")
        self.id = id
        self.title = title
        self.cases = list(cases)
        self.probe = probe
        self.unsolved_hint = unsolved_hint or DEFAULT_UNSOLVED_HINT
        self.timeout = float(timeout)
        self.wants: Wants = wants
        self._checker_files = code_files([probe, *(case.run for case in self.cases)])

    # -- public -----------------------------------------------------------------------------

    def evaluate(self, answer: Any) -> CheckResult:
        """Run every case and return the result, without recording progress.

        Never raises for a bad answer (see the module docstring); only ``KeyboardInterrupt``
        escapes. ``NotImplementedError`` means "unsolved" only when the probe (or, without a
        probe, the first case) raises it; from a later case it is reported as an unfinished branch.
        """
        unsolved = self._result(solved=False)
        if answer is None:
            return unsolved
        problem = style_problem(answer, self.wants)
        if problem:
            return self._result(notice=problem)
        if self.probe is not None:
            outcome = run_with_deadline(lambda: self.probe(answer), self.timeout, name=f"check-{self.id}-probe")
            if outcome.status == "timeout":
                return self._result(notice=self._timeout_text(outcome) + " Fix it and run the check again")
            if outcome.status == "raised" and isinstance(outcome.error, NotImplementedError):
                if sync_call_of_async_tool(outcome.error):
                    return self._result(notice=async_tool_problem())
                return unsolved
        results: list[CaseResult] = []
        stopped = False
        for number, case in enumerate(self.cases):
            if stopped:
                results.append(CaseResult(case.name, "error", _SKIPPED))
                continue
            outcome = run_with_deadline(lambda: case.run(answer), self.timeout, name=f"check-{self.id}-{number + 1}")
            if (outcome.status == "raised" and isinstance(outcome.error, NotImplementedError)
                    and not sync_call_of_async_tool(outcome.error) and self.probe is None and number == 0):
                return unsolved
            results.append(self._judge(case, outcome))
            stopped = outcome.status == "timeout"
        return self._result(results=results)

    def check(self, answer: Any) -> CheckResult:
        """:meth:`evaluate`, then record the outcome (``record_exercise(id, passed)``); the result
        renders as Markdown when it is a cell's last value. Recording never raises."""
        result = self.evaluate(answer)
        try:
            from helpers.progress import record_exercise

            record_exercise(self.id, result.passed)
        except Exception:  # noqa: BLE001 - progress is a convenience; the check's feedback matters more
            pass
        return result

    def __repr__(self) -> str:
        return f"Exercise({self.id!r}, {self.title!r}, {len(self.cases)} cases)"

    # -- internals ------------------------------------------------------------------------------

    def _result(self, *, solved: bool = True, results: list[CaseResult] | None = None, notice: str = "") -> CheckResult:
        return CheckResult(self.id, self.title, solved=solved, results=results or [], unsolved_hint=self.unsolved_hint,
                           notice=bounded(notice) if notice else "")

    def _timeout_text(self, outcome: DeadlineOutcome) -> str:
        text = f"your code was still running after {self.timeout:g} s: an endless loop? It was stopped."
        if outcome.stuck:
            text += (f" {len(outcome.stuck)} thread(s) it started are blocked in a call such as time.sleep and could "
                     "not be stopped; restart the kernel if the notebook stays busy.")
        return text

    def _judge(self, case: Case, outcome: DeadlineOutcome) -> CaseResult:
        """The :class:`CaseResult` of one case run."""
        if outcome.status == "returned":
            return CaseResult(case.name, "pass")
        if outcome.status == "timeout":
            return CaseResult(case.name, "error", bounded(self._timeout_text(outcome)))
        exc = outcome.error
        assert exc is not None
        if isinstance(exc, NotImplementedError):
            if sync_call_of_async_tool(exc):
                return CaseResult(case.name, "error", bounded(async_tool_problem()))
            return CaseResult(case.name, "error", "your code raised NotImplementedError: a branch is not finished yet")
        if isinstance(exc, AssertionError) and raised_by_checker(exc, self._checker_files):
            message = _safe_str(exc) or case.hint or "the result is not what this case expects"
            return CaseResult(case.name, "fail", bounded(message))
        if isinstance(exc, AssertionError):
            where = learner_line(exc, self._checker_files)
            message = _safe_str(exc)
            text = "an `assert` in your own code failed" + (f" ({where})" if where else "")
            text += f": AssertionError: {message}" if message else " (it is not one of the hidden checks)"
            return CaseResult(case.name, "error", bounded(text))
        text = f"your code raised {_type_name(exc)}: {_safe_str(exc)}"
        return CaseResult(case.name, "error", bounded(text), hint=case.hint)

