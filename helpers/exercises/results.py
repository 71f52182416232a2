"""The outcome of a check and how it shows: plain text, and Markdown that JupyterLab renders.

A verdict is said in words and colour: a ``PASS`` / ``FAIL`` / ``ERROR`` badge (white on green,
red, purple) in front of each case, never an emoji alone, so it reads without an emoji font and
for colour-blind learners. Cases that failed with the same error (a crash that fails every case)
are shown once, with the names of the cases it hit.

The Markdown is one raw-HTML block (CommonMark "HTML block": no blank line inside), so nothing
from the answer is read as Markdown: every value is HTML-escaped (``<!--``, ``|``, ``*`` and
backticks cannot change the report), and only the checkers' own ``code`` spans (text between
backticks) become ``<code>``. Inline styles are limited to what JupyterLab 4.6's sanitizer keeps
(``color``, ``background-color``, ``font-weight``, ``overflow-wrap``, ``padding``,
``border-radius``). Long lines wrap at word boundaries (``overflow-wrap: break-word`` breaks a
word only when it is longer than the line). Feedback is cut at :data:`MAX_FEEDBACK` characters
when a case result is made, so a report stays small whatever the answer returns.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["MAX_FEEDBACK", "CaseResult", "CheckResult", "Verdict", "bounded"]

#: The outcome of one case: passed, failed a hidden check (with a hint), or the answer raised / hung.
Verdict = Literal["pass", "fail", "error"]

#: Longest feedback kept for one case (characters); the rest is cut and the cut is said.
MAX_FEEDBACK = 600

_WORD = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "todo": "TO DO"}
_COLOUR = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#8250df", "todo": "#57606a"}
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
DEFAULT_UNSOLVED_HINT = "replace the `raise NotImplementedError` and run the check again"


def bounded(text: str, limit: int = MAX_FEEDBACK) -> str:
    """``text`` on one line (whitespace runs collapsed), cut to ``limit`` characters with a note saying so."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return f"{flat[:limit].rstrip()}... [cut: {len(flat)} characters in all]"


@dataclass(frozen=True)
class CaseResult:
    """Outcome of one case.

    Attributes:
        name: the case's name.
        status: ``"pass"``, ``"fail"`` (a hidden check rejected the result) or ``"error"`` (the
            answer raised, ran past the deadline, or an ``assert`` of its own failed).
        feedback: what to change, or what the learner's code raised (at most
            :data:`MAX_FEEDBACK` characters plus the cut note).
        hint: the case's hint after an error in the learner's code (shown with the feedback,
            but not when one error is shared by several cases: each case's hint fits only it).
    """

    name: str
    status: Verdict
    feedback: str = ""
    hint: str = ""

    @property
    def passed(self) -> bool:
        """True when the case passed."""
        return self.status == "pass"


@dataclass
class CheckResult:
    """All case results of one check, renderable in Jupyter (``_repr_markdown_``) and as text.

    Attributes:
        exercise_id, title: from the exercise.
        solved: False when the answer is still the unsolved stub (then ``results`` is empty).
        results: one :class:`CaseResult` per case, in order.
        unsolved_hint: what the "not solved yet" line tells the learner to do.
        notice: a problem found before any case ran (e.g. "this exercise wants a plain `def`"):
            then ``results`` is empty and the check did not pass.
    """

    exercise_id: str
    title: str
    solved: bool
    results: list[CaseResult] = field(default_factory=list)
    unsolved_hint: str = DEFAULT_UNSOLVED_HINT
    notice: str = ""

    @property
    def passed(self) -> bool:
        """True when the answer is solved, no notice stopped it, and every case passed."""
        return self.solved and not self.notice and bool(self.results) and all(r.passed for r in self.results)

    @property
    def failed(self) -> list[CaseResult]:
        """The cases that did not pass."""
        return [r for r in self.results if not r.passed]

    def summary(self) -> str:
        """One line: ``Exercise 01.1 (title): 3/4 checks passed``, ``... all N checks passed``,
        ``... not solved yet - <hint>`` or ``... <notice>``."""
        head = f"Exercise {self.exercise_id} ({self.title})"
        if not self.solved:
            return f"{head}: not solved yet - {self.unsolved_hint}"
        if self.notice:
            return f"{head}: {self.notice}"
        good = sum(r.passed for r in self.results)
        if good == len(self.results):
            return f"{head}: all {good} checks passed"
        return f"{head}: {good}/{len(self.results)} checks passed"

    def groups(self) -> list[tuple[Verdict, list[str], str]]:
        """``(status, case names, text)`` rows, in case order. Errors with the same feedback in
        several cases share one row (placed where the first of them is, without hints); a single
        row's text is its feedback plus ``(hint: ...)``."""
        rows: list[tuple[Verdict, list[CaseResult], str]] = []
        where: dict[str, int] = {}
        for r in self.results:
            if r.status == "error" and r.feedback and r.feedback in where:
                rows[where[r.feedback]][1].append(r)
                continue
            if r.status == "error" and r.feedback:
                where[r.feedback] = len(rows)
            rows.append((r.status, [r], r.feedback))
        out: list[tuple[Verdict, list[str], str]] = []
        for status, members, text in rows:
            if len(members) == 1 and members[0].hint:
                text = f"{text} (hint: {members[0].hint})"
            out.append((status, [m.name for m in members], text))
        return out

    def _label(self, names: list[str]) -> str:
        if len(names) == 1:
            return names[0]
        if len(names) == len(self.results):
            return f"all {len(names)} checks ({'; '.join(names)})"
        return f"{len(names)} checks ({'; '.join(names)})"

    def text(self) -> str:
        """Plain-text report: the summary and one line per case (or per shared error).

        Lines are not wrapped here (a terminal or ``print`` wraps them; tests search them)."""
        lines = [self.summary()]
        for status, names, feedback in self.groups():
            lines.append(f"  [{_WORD[status]}] {self._label(names)}" + (f" - {feedback}" if feedback else ""))
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        box = '<div class="course-check" style="overflow-wrap: break-word; line-height: 1.5">'
        if not self.solved:
            head = f"Exercise {self.exercise_id} ({self.title}): not solved yet"
            return f"{box}{_badge('todo')} <strong>{_inline(head)}</strong> - {_inline(self.unsolved_hint)}</div>"
        if self.notice:
            return f"{box}{_badge('error')} <strong>{_inline(self.summary())}</strong></div>"
        lines = [box, f"<div><strong>{_inline(self.summary())}</strong></div>",
                 '<ul style="list-style: none; padding-left: 0.5em; margin: 0.2em 0">']
        for status, names, feedback in self.groups():
            detail = f": {_inline(feedback)}" if feedback else ""
            lines.append(f"<li>{_badge(status)} {_inline(self._label(names))}{detail}</li>")
        lines += ["</ul>", "</div>"]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()


def _badge(status: str) -> str:
    return (f'<span style="color: #ffffff; background-color: {_COLOUR[status]}; font-weight: bold; '
            f'padding: 0 0.4em; border-radius: 0.3em">{_WORD[status]}</span>')


def _inline(text: str) -> str:
    """Escaped HTML on one line; `code` spans (the checkers' own backticks) become ``<code>``."""
    escaped = html.escape(" ".join(text.split()), quote=False)
    return _CODE_SPAN.sub(r"<code>\1</code>", escaped)
