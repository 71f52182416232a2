"""The exercise core: hidden check cases and a ``check`` that never raises into the notebook.

An :class:`Exercise` has an ``id`` (``"01.1"``), a title and hidden :class:`Case` objects.
``Exercise.check(answer)`` runs every case against the learner's answer and returns a
:class:`CheckResult`, which Jupyter renders as a per-case pass/fail list with hints.

* A case passes when its ``run(answer)`` returns; it fails with the hint when it raises
  ``AssertionError``; any other exception (the learner's code crashed) is reported as
  feedback ``your code raised TypeError: ...``, never re-raised.
* An unsolved stub (``answer is None`` or the answer raises ``NotImplementedError``) renders
  one deterministic line, ``not solved yet``, so the shipped notebooks pass strict nbval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Case", "CaseResult", "CheckResult", "Exercise"]


def _safe_str(exc: BaseException) -> str:
    """``str(exc)``, or a placeholder when the exception's own ``__str__`` fails."""
    try:
        return str(exc)
    except Exception:  # noqa: BLE001
        return f"<{type(exc).__name__} whose message could not be shown>"


@dataclass(frozen=True)
class Case:
    """One hidden check.

    Attributes:
        name: what the case checks, shown to the learner (e.g. ``"unknown tool name"``).
        run: ``run(answer) -> None``; raise ``AssertionError("hint")`` when the answer is wrong.
        hint: shown when the case fails and the AssertionError has no message of its own.
    """

    name: str
    run: Callable[[Any], Any]
    hint: str = ""


@dataclass(frozen=True)
class CaseResult:
    """Outcome of one case: ``status`` is ``"pass"``, ``"fail"`` or ``"error"`` (the answer raised)."""

    name: str
    status: str
    feedback: str = ""

    @property
    def passed(self) -> bool:
        """True when the case passed."""
        return self.status == "pass"


@dataclass
class CheckResult:
    """All case results of one ``check`` call, renderable in Jupyter.

    Attributes:
        exercise_id, title: from the exercise.
        solved: False when the answer is still the unsolved stub (then ``results`` is empty).
        results: one :class:`CaseResult` per case, in order.
    """

    exercise_id: str
    title: str
    solved: bool
    results: list[CaseResult] = field(default_factory=list)
    unsolved_hint: str = "replace the `raise NotImplementedError` and run the check again"

    @property
    def passed(self) -> bool:
        """True when the answer is solved and every case passed."""
        return self.solved and all(r.passed for r in self.results)

    @property
    def failed(self) -> list[CaseResult]:
        """The cases that did not pass."""
        return [r for r in self.results if not r.passed]

    def summary(self) -> str:
        """One line: ``Exercise 01.1 (title): 3/4 checks passed``, ``... all N checks passed``, or ``... not solved yet``."""
        head = f"Exercise {self.exercise_id} ({self.title})"
        if not self.solved:
            return f"{head}: not solved yet - {self.unsolved_hint}"
        good = sum(r.passed for r in self.results)
        if good == len(self.results):
            return f"{head}: all {good} checks passed"
        return f"{head}: {good}/{len(self.results)} checks passed"

    def text(self) -> str:
        """Plain-text report: the summary and one line per case."""
        lines = [self.summary()]
        mark = {"pass": "PASS", "fail": "FAIL", "error": "ERROR"}
        for r in self.results:
            lines.append(f"  [{mark[r.status]}] {r.name}" + (f" - {r.feedback}" if r.feedback else ""))
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        if not self.solved:
            return f"⏳ **{self.summary()}**"
        icon = {"pass": "✅", "fail": "❌", "error": "💥"}
        head = ("🎉 " if self.passed else "") + f"**{self.summary()}**"
        lines = [head, ""]
        for r in self.results:
            detail = f": {r.feedback}" if r.feedback else ""
            lines.append(f"- {icon[r.status]} {r.name}{detail}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()


class Exercise:
    """An exercise with hidden checks.

    Args:
        id: stable id, ``"NN.k"`` (notebook number and exercise number).
        title: short title shown in the report.
        cases: the hidden :class:`Case` objects, run in order.
        probe: optional ``probe(answer) -> None`` that calls the answer once; if it raises
            ``NotImplementedError`` the answer is treated as the unsolved stub. Without a
            probe, the stub is detected when a case raises ``NotImplementedError``.
        unsolved_hint: what the "not solved yet" line tells the learner to do (default:
            replace the ``raise NotImplementedError``).
    """

    def __init__(self, id: str, title: str, cases: Sequence[Case], *, probe: Callable[[Any], Any] | None = None,
                 unsolved_hint: str | None = None):
        if not cases:
            raise ValueError(f"exercise {id} needs at least one case")
        self.id = id
        self.title = title
        self.cases = list(cases)
        self.probe = probe
        self.unsolved_hint = unsolved_hint or CheckResult.unsolved_hint

    def evaluate(self, answer: Any) -> CheckResult:
        """Run every case and return the :class:`CheckResult`.

        Never raises for a bad answer: anything the answer raises (``SystemExit`` and
        ``asyncio.CancelledError`` included, ``KeyboardInterrupt`` excepted, so the learner
        can still stop a hanging answer) becomes per-case feedback. ``NotImplementedError``
        means "unsolved" only when the probe (or, without a probe, the first case) raises it;
        from a later case it is reported as an unfinished branch.
        """
        unsolved = CheckResult(self.id, self.title, solved=False, unsolved_hint=self.unsolved_hint)
        if answer is None:
            return unsolved
        if self.probe is not None:
            try:
                self.probe(answer)
            except NotImplementedError:
                return unsolved
            except KeyboardInterrupt:
                raise
            except BaseException:  # noqa: BLE001 - the cases report it properly
                pass
        results = []
        for number, case in enumerate(self.cases):
            result = self._run_case(case, answer)
            if result is None:  # NotImplementedError
                if self.probe is None and number == 0:
                    return unsolved
                result = CaseResult(case.name, "error", "your code raised NotImplementedError: a branch is not finished yet")
            results.append(result)
        return CheckResult(self.id, self.title, solved=True, results=results, unsolved_hint=self.unsolved_hint)

    def check(self, answer: Any) -> CheckResult:
        """Same as :meth:`evaluate`; the result renders as Markdown when it is a cell's last value."""
        return self.evaluate(answer)

    @staticmethod
    def _run_case(case: Case, answer: Any) -> CaseResult | None:
        """One case's result, or ``None`` when the answer raised ``NotImplementedError``."""
        try:
            case.run(answer)
        except NotImplementedError:
            return None
        except AssertionError as exc:
            message = _safe_str(exc) or case.hint or "the result is not what this case expects"
            return CaseResult(case.name, "fail", message)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - the learner's exception becomes feedback
            text = f"your code raised {type(exc).__name__}: {_safe_str(exc)}"
            if case.hint:
                text += f" (hint: {case.hint})"
            return CaseResult(case.name, "error", " ".join(text.split()))
        return CaseResult(case.name, "pass")

    def __repr__(self) -> str:
        return f"Exercise({self.id!r}, {self.title!r}, {len(self.cases)} cases)"
