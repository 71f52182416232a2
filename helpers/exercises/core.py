"""The exercise core: hidden check cases and a ``check`` that never raises into the notebook.

An :class:`Exercise` has an ``id`` (``"01.1"``), a title and hidden :class:`Case` objects.
``Exercise.check(answer)`` runs every case against the learner's answer, records the outcome in
the learner's progress (:func:`helpers.progress.record_exercise`) and returns a
:class:`~helpers.exercises.results.CheckResult`, which Jupyter renders as a per-case
PASS / FAIL / ERROR list with hints. ``Exercise.evaluate(answer)`` does the same without
recording (for demo cells that are not the learner's own answer).

* A case passes when its ``run(answer)`` returns; it fails with the hint when a hidden check
  raises ``AssertionError`` (a :class:`~helpers.exercises.results.CheckFailure` names its advice
  apart, so the report shows the FAIL lines that share it as one row; list cases most telling
  first, since a shared row shows its first case). Anything else is an ``ERROR`` in the learner's code, reported as
  feedback, never re-raised: an exception (``your code raised TypeError: ...``; ``SystemExit`` and
  ``asyncio.CancelledError`` included), the learner's *own* ``assert`` (an ``AssertionError``
  raised outside the checker: reported with its line), and a case still running after the
  exercise's ``timeout`` (``your code was still running after 5 s: an endless loop?``; the
  case's threads are stopped, see :mod:`helpers.exercises.deadline`, and the remaining cases
  are not run).
* Everything that touches the learner's objects runs in the case's worker thread, under the
  deadline: the case itself, and the feedback built from what it raised (``str(exc)``, the
  learner's line, the checkers' :func:`~helpers.exercises.results.shown` values). A ``__str__``,
  ``__repr__`` or ``__eq__`` that loops or sleeps is stopped like an endless loop; the notebook's
  thread receives only finished text.
* Threads a case started and left running are stopped after the case, and the case says so
  (``your code left a thread running (...); it was stopped``): it does not pass.
  So are processes it started and left running, and an ``os.chdir`` is changed back
  (:mod:`helpers.exercises.isolation`); a process that detached itself from the kernel (a shell's
  ``cmd &`` whose shell has exited) is no longer the kernel's child and is not seen.
* An answer that raises :class:`~helpers.exercises.deadline.CheckTimeout` itself (it is
  importable) is told so; only the deadline's own stop counts as "still running after N s".
* An ``async def`` answer to an exercise that wants a plain ``def`` (and the reverse) is told so
  before anything runs, so no coroutine is created (no never-awaited warning).
* An unsolved stub renders one deterministic line, ``not solved yet``, so the shipped notebooks
  pass strict nbval: ``answer is None``, or the answer's own code (or a checker) raises
  ``NotImplementedError`` in the probe (without a probe: the first case). A
  ``NotImplementedError`` that a *library* raises is not the stub: langchain-core raises one when
  a middleware forgot ``return`` (``Unsupported message type: <class 'NoneType'>``); it is
  reported as ``your code raised NotImplementedError: ...`` with a hint about ``None``.
* One check runs at a time: an answer that calls ``EX.evaluate(...)`` or ``EX.check(...)`` itself
  gets the refusal back from that inner call, and its own case is an ``ERROR`` that says so.
* Only ``KeyboardInterrupt`` escapes, by design: the kernel's interrupt button stops a check, and
  so does a ``raise KeyboardInterrupt`` in the learner's code (the threads are stopped first).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, _
from ..progress.record import record_exercise
from .check_text import _left_text, _safe_str, _stuck_text, _type_name
from .deadline import CheckTimeout, DeadlineOutcome, run_with_deadline
from .isolation import Snapshot
from .diagnose import (
    Wants,
    async_tool_problem,
    code_files,
    is_learner_file,
    learner_line,
    raised_by_checker,
    raised_in_code_of,
    raised_in_library,
    style_problem,
    sync_call_of_async_tool,
)
from .results import DEFAULT_UNSOLVED_HINT, CaseResult, CheckFailure, CheckResult, Verdict, bounded, shown_text

__all__ = ["DEFAULT_NONE_HINT", "DEFAULT_TIMEOUT", "Case", "CaseResult", "CheckFailure", "CheckResult", "Exercise",
           "Verdict"]

#: Seconds one case (or the probe) may run before it is stopped.
DEFAULT_TIMEOUT = 5.0
#: Added to an error that a library raised about ``None`` (an answer that forgot ``return``).
DEFAULT_NONE_HINT = N_("did your function forget to `return` its result? Without `return` it gives None")

_SKIPPED = N_("not run: your code did not finish an earlier check")
_NESTED = N_("your code runs a check itself (it calls `.evaluate(...)` or `.check(...)` of an exercise): a check "
             "cannot run inside another check. Remove that call and run the check again")
_REFUSED = N_("not run: another check is running (a check cannot run inside another check)")
_INTERNAL = N_("the check could not judge this answer (an error in the checker); run the check again")


class _OneCheckAtATime:
    """The process-wide guard: one check runs at a time; a check started while another runs
    (from the answer's own code, in any thread) is refused and counted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.refused = 0

    def enter(self) -> bool:
        if self._lock.acquire(blocking=False):
            return True
        self.refused += 1
        return False

    def leave(self) -> None:
        self._lock.release()


_GUARD = _OneCheckAtATime()


class _Unsolved:
    """A case or probe found the unsolved stub."""


_UNSOLVED = _Unsolved()


@dataclass
class _Phase:
    """Where a worker is: running the learner's code, or building the feedback from what it raised."""

    describing: bool = False


@dataclass(frozen=True)
class Case:
    """One hidden check.

    Attributes:
        name: what the case checks, shown to the learner (e.g. ``"unknown tool name"``).
        run: ``run(answer) -> None``; raise ``AssertionError("hint")`` when the answer is wrong.
            It runs in the check's worker thread: show the learner's values in the message with
            :func:`~helpers.exercises.results.shown`, never ``{value!r}``.
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
        probe: optional ``probe(answer) -> None`` that calls the answer once; if the answer's
            own code (or the probe) raises ``NotImplementedError`` the answer is treated as the
            unsolved stub. Without a probe, the stub is detected when the first case raises it.
        unsolved_hint: what the "not solved yet" line tells the learner to do (default:
            replace the ``raise NotImplementedError``).
        timeout: seconds each case (and the probe) may run, default :data:`DEFAULT_TIMEOUT`.
        wants: ``"def"`` (default), ``"async def"`` or ``"either"``: the kind of function the
            answer must be (a non-callable answer, such as a dict, is not judged).
        none_hint: added (in brackets) to an error that library or checker code raised about
            ``NoneType``, default :data:`DEFAULT_NONE_HINT`.

    Raises:
        ValueError: no cases, or a timeout that is not a positive number.
    """

    def __init__(self, id: str, title: str, cases: Sequence[Case], *, probe: Callable[[Any], Any] | None = None,
                 unsolved_hint: str | None = None, timeout: float = DEFAULT_TIMEOUT, wants: Wants = "def",
                 none_hint: str = DEFAULT_NONE_HINT):
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
        self.none_hint = none_hint
        self._checker_files = code_files([probe, *(case.run for case in self.cases)])

    # -- public -----------------------------------------------------------------------------

    def evaluate(self, answer: Any) -> CheckResult:
        """Run every case and return the result, without recording progress.

        Never raises for a bad answer (see the module docstring); only ``KeyboardInterrupt``
        escapes. ``NotImplementedError`` means "unsolved" only when the probe (or, without a
        probe, the first case) raises it from the answer's own code; from a later case it is
        reported as an unfinished branch. Called while another check runs (from the answer
        itself), it returns a refusal without running anything.
        """
        return self._evaluate(answer)[0]

    def check(self, answer: Any) -> CheckResult:
        """:meth:`evaluate`, then record the outcome (``record_exercise(id, passed)``; not for a
        refused check); the result renders as Markdown when it is a cell's last value. Recording
        never raises."""
        result, ran = self._evaluate(answer)
        if not ran:
            return result
        try:
            record_exercise(self.id, result.passed)
        except Exception:  # noqa: BLE001 - progress is a convenience; the check's feedback matters more
            pass
        return result

    def __repr__(self) -> str:
        return f"Exercise({self.id!r}, {self.title!r}, {len(self.cases)} cases)"

    # -- running (the notebook's thread: only finished text comes back to it) -------------------

    def _evaluate(self, answer: Any) -> tuple[CheckResult, bool]:
        """The result, and whether the check ran (False: refused, another check is running)."""
        if answer is None:
            return self._result(solved=False), True
        if not _GUARD.enter():
            return self._result(notice=_(_REFUSED)), False
        try:
            return self._run_all(answer), True
        finally:
            _GUARD.leave()

    def _run_all(self, answer: Any) -> CheckResult:
        refused = _GUARD.refused
        snapshot = Snapshot.take()
        outcome = self._in_worker(lambda: self._first_step(answer), "probe")
        snapshot.restore()  # the cases run the answer again, and say what it changed
        if _GUARD.refused != refused:
            return self._result(notice=_(_NESTED))
        if outcome.status == "timeout":
            return self._result(notice=self._timeout_text(outcome, _Phase()) + " Fix it and run the check again")
        first = outcome.value if outcome.status == "returned" else None
        if first is _UNSOLVED:
            return self._result(solved=False)
        if isinstance(first, str):
            return self._result(notice=first)
        results: list[CaseResult] = []
        stopped = False
        for number, case in enumerate(self.cases):
            if stopped:
                results.append(CaseResult(case.name, "error", _(_SKIPPED)))
                continue
            phase = _Phase()
            refused = _GUARD.refused
            may_be_stub = self.probe is None and number == 0
            snapshot = Snapshot.take()
            outcome = self._in_worker(lambda: self._case_step(case, answer, may_be_stub, phase), str(number + 1))
            changed = snapshot.restore()
            if outcome.status == "returned" and outcome.value is _UNSOLVED:
                return self._result(solved=False)
            if _GUARD.refused != refused:
                results.append(CaseResult(case.name, "error", _(_NESTED)))
            else:
                results.append(self._judge(case, outcome, phase, changed))
            stopped = outcome.status == "timeout"
        return self._result(results=results)

    def _in_worker(self, step: Callable[[], Any], label: str) -> DeadlineOutcome:
        return run_with_deadline(step, self.timeout, name=f"check-{self.id}-{label}",
                                 learner_code=lambda filename: is_learner_file(filename, self._checker_files))

    def _result(self, *, solved: bool = True, results: list[CaseResult] | None = None, notice: str = "") -> CheckResult:
        return CheckResult(self.id, self.title, solved=solved, results=results or [], unsolved_hint=self.unsolved_hint,
                           notice=bounded(notice) if notice else "")

    def _own_timeout_text(self) -> str:
        return _("your code raised CheckTimeout itself: that is the exception the check uses to stop code still "
                 "running after {seconds} s, but your code was not stopped, it raised it (an `except` that "
                 "re-raises what it caught, or a `raise CheckTimeout`?). Let it raise its own errors instead").format(
                     seconds=f"{self.timeout:g}")

    def _timeout_text(self, outcome: DeadlineOutcome, phase: _Phase) -> str:
        if phase.describing:
            text = _("your code raised an exception whose message (its `__str__`) was still being built after "
                     "{seconds} s: an endless loop?").format(seconds=f"{self.timeout:g}")
        else:
            text = _("your code was still running after {seconds} s: an endless loop?").format(
                seconds=f"{self.timeout:g}")
        if not outcome.stuck:
            return text + _(" It was stopped.")
        lead = _(" It could not be stopped:") if outcome.worker_stuck else \
            _(" It was stopped, but not every thread it started:")
        return text + lead + _(" {threads}. Restart the kernel if the notebook stays busy.").format(
            threads=_stuck_text(outcome))

    def _judge(self, case: Case, outcome: DeadlineOutcome, phase: _Phase, changed: Sequence[str] = ()) -> CaseResult:
        """The :class:`CaseResult` of one case run (made from text only: the worker built it); ``changed``:
        what the run changed in the process and the check undid (:meth:`Snapshot.restore`)."""
        notes = [*([_left_text(outcome)] if outcome.left else []), *changed]
        if outcome.status == "timeout":
            text = self._timeout_text(outcome, phase)
            return CaseResult(case.name, "error", bounded(" Also, ".join([text, *notes])))
        if outcome.status == "raised" and isinstance(outcome.error, CheckTimeout):
            return CaseResult(case.name, "error", bounded(". Also, ".join([self._own_timeout_text(), *notes])))
        result = outcome.value
        if outcome.status != "returned" or not isinstance(result, CaseResult):
            return CaseResult(case.name, "error", _(_INTERNAL))
        if not notes:
            return result
        note = ". Also, ".join(notes)
        if result.status == "pass":
            return CaseResult(case.name, "error", bounded(note))
        feedback = result.feedback.rstrip()
        joint = " " if feedback.endswith((".", "!", "?", ":")) else ". "
        return CaseResult(case.name, result.status, bounded(f"{feedback}{joint}Also, {note}"), result.hint)

    # -- steps (each runs in a worker thread, under the deadline) --------------------------------

    def _first_step(self, answer: Any) -> _Unsolved | str | None:
        """Before the cases: ``str`` (a notice: wrong kind of function), ``_UNSOLVED``, or ``None`` (run the cases)."""
        problem = style_problem(answer, self.wants)
        if problem:
            return problem
        if self.probe is None:
            return None
        try:
            self.probe(answer)
        except (KeyboardInterrupt, CheckTimeout):
            raise
        except BaseException as exc:  # noqa: BLE001 - only the stub and an async tool matter here
            if isinstance(exc, NotImplementedError):
                if sync_call_of_async_tool(exc):
                    return async_tool_problem()
                if not raised_in_library(exc):
                    return _UNSOLVED
        return None

    def _case_step(self, case: Case, answer: Any, may_be_stub: bool, phase: _Phase) -> CaseResult | _Unsolved:
        try:
            case.run(answer)
        except (KeyboardInterrupt, CheckTimeout):
            raise
        except BaseException as exc:  # noqa: BLE001 - every learner error becomes feedback
            phase.describing = True
            try:
                return self._describe(case, exc, may_be_stub)
            except (KeyboardInterrupt, CheckTimeout):
                raise
            except BaseException:  # noqa: BLE001 - a hostile exception object
                return CaseResult(case.name, "error", _("your code raised an exception that could not be shown"),
                                  hint=case.hint)
        return CaseResult(case.name, "pass")

    def _describe(self, case: Case, exc: BaseException, may_be_stub: bool) -> CaseResult | _Unsolved:
        """The feedback for what ``case.run`` raised."""
        if isinstance(exc, NotImplementedError):
            if sync_call_of_async_tool(exc):
                return CaseResult(case.name, "error", bounded(async_tool_problem()))
            if not raised_in_library(exc):
                if may_be_stub:
                    return _UNSOLVED
                return CaseResult(case.name, "error",
                                  _("your code raised NotImplementedError: a branch is not finished yet"))
        if isinstance(exc, AssertionError) and raised_by_checker(exc, self._checker_files):
            message = _safe_str(exc) or shown_text(case.hint) or _("the result is not what this case expects")
            advice = exc.advice if isinstance(exc, CheckFailure) and isinstance(exc.advice, str) else ""
            return CaseResult(case.name, "fail", bounded(message), advice=bounded(advice))
        if isinstance(exc, AssertionError):
            where = learner_line(exc, self._checker_files)
            message = _safe_str(exc)
            text = _("an `assert` in your own code failed") + (f" ({where})" if where else "")
            text += f": AssertionError: {message}" if message else _(" (it is not one of the hidden checks)")
            return CaseResult(case.name, "error", bounded(text))
        message = bounded(_safe_str(exc))
        text = _("your code raised {type}: {message}").format(type=_type_name(exc), message=message)
        if "NoneType" in message and self.none_hint and not raised_in_code_of(exc, self._checker_files):
            text += f" ({_(self.none_hint)})"  # a library or a checker met the None that the answer gave
        return CaseResult(case.name, "error", bounded(text), hint=case.hint)
