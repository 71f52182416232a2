"""The learner's progress across the course: the table of exercises solved and self-check scores,
and what to do next (``make progress``, the cell at the top of notebook 00).

The top floor of three: :mod:`helpers.progress.store` owns the file (format, lock, parse, write;
it imports nothing of the course), :mod:`helpers.progress.record` records each check and answer
there (where the file is: ``COURSE_PROGRESS_FILE``, or ``.progress.json`` in the workspace), and
this module reads it to build the rows, the next step, the table and the command line. The names
callers use are importable from the package (``helpers.progress.record_self_check``, ``load``, ...).

Reading (:func:`load`, the table, ``make progress``) never moves, creates or locks anything: a file
that cannot be read (in full) shows as ``progress file unreadable: <why>`` above the table of what
could be read.

Self-check questions are known per notebook from the ``helpers.selfcheck.nbNN`` modules
(:func:`course_questions`), plus any :func:`register_questions` calls. A notebook's score reads the
same as in its self-check widget (:func:`helpers.progress.store.score_line`):
``1 of 5 right on first try, 2 answered``; ``0 ... 0 answered`` is never tried, ``0 ... 5 answered``
all wrong; a notebook with neither questions nor answers shows ``-``.

Importing this module is cheap: it reads the exercise registry (titles, not checkers) and imports
the self-check question modules only when a table is built.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal


from ..exercises.registry import EXERCISES
from ..i18n import N_, _, use
from .record import (
    PROGRESS_FILE_ENV,
    load,
    progress_file,
    record_exercise,
    record_self_check,
    recorded_self_checks,
    recording_file,
)
from ..display.text import OUTPUT_WIDTH, fit_row, text_width
from .store import FILE_NAME, ExerciseRecord, Progress, SelfCheckRecord, notebook_key, score_line
from ..workspace.files import kept_copy
from ..workspace.place import EDITION, NOTEBOOK_DIR, WORKSPACE_DIR, edition_error, shown_folder, workspace_problem
from ..workspace.renumbering import RENAMED, SPLIT_INTO, SPLIT_NOTEBOOK

__all__ = [
    "FILE_NAME",
    "PROGRESS_FILE_ENV",
    "QUESTION_MODULES",
    "course_questions",
    "ExerciseRecord",
    "NextStep",
    "Progress",
    "ProgressReport",
    "ProgressRow",
    "SelfCheckRecord",
    "load",
    "main",
    "next_step",
    "progress_file",
    "progress_markdown",
    "progress_report",
    "progress_rows",
    "progress_table",
    "record_exercise",
    "record_self_check",
    "recorded_self_checks",
    "recording_file",
    "register_questions",
    "unreadable_line",
]

#: Modules that call :func:`register_questions` when imported; ``make progress`` imports them.
QUESTION_MODULES: tuple[str, ...] = ()
#: The one line shown where nothing is recorded (the course's own notebooks).
NOT_IN_WORKSPACE = N_("Your progress shows here when you run this notebook in your workspace "
                      "(`make lab` opens it).")

_questions: dict[str, tuple[str, ...]] = {}


def register_questions(notebook: str, question_ids: Sequence[str]) -> None:
    """Declare the self-check questions of ``notebook`` (so the table can show ``right/total`` and
    point to an unanswered one). Call it where the questions are defined."""
    _questions[notebook_key(notebook)] = tuple(question_ids)


SolvedState = Literal["yes", "no", "-"]


@dataclass(frozen=True)
class ProgressRow:
    """One table row: a notebook's exercise (``exercise`` is ``"-"`` for a notebook without one).

    Attributes:
        notebook: the notebook's file stem, e.g. ``"03_toolmessage_pairing"``.
        exercise: ``"03.1 run_tool_calls: answer every call with its own id"`` or ``"-"``.
        solved: ``"yes"``, ``"no"``, or ``"-"`` (no exercise).
        self_check: :func:`~helpers.progress.store.score_line` of the known questions
            (``"1 of 4 right on first try, 2 answered"``; of the answered ones when the notebook's
            questions are not known) or ``"-"``; shown on the notebook's first row only.
    """

    notebook: str
    exercise: str
    solved: SolvedState
    self_check: str


@dataclass(frozen=True)
class NextStep:
    """What to do next.

    Attributes:
        kind: ``"exercise"`` or ``"self-check"``.
        notebook: the notebook's file stem, e.g. ``"00_start_here"``.
        label: the exercise, ``"03.1 (title)"``; or the question by its place in the notebook's
            "Check yourself", ``"question 2"``.
        about: for a question, a few words on it (``"second request"``, from its id); else ``""``.
    """

    kind: Literal["exercise", "self-check"]
    notebook: str
    label: str
    about: str = ""

    def text(self) -> str:
        """``Next: exercise 03.1 (title) in 03_toolmessage_pairing.ipynb`` or
        ``Next: Check yourself question 2 in 00_start_here.ipynb (second request)``."""
        if self.kind == "exercise":
            return _("Next: exercise {label} in {notebook}.ipynb").format(label=self.label, notebook=self.notebook)
        about = f" ({self.about})" if self.about else ""
        return _("Next: Check yourself {label} in {notebook}.ipynb{about}").format(
            label=self.label, notebook=self.notebook, about=about)


def _notebooks() -> list[str]:
    """Notebook stems in course order: the course's notebooks and every registered exercise's."""
    stems = {path.stem for path in NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb")}
    stems |= {e.notebook.removesuffix(".ipynb") for e in EXERCISES}
    return sorted(stems)


def _score(key: str, progress: Progress, questions: Mapping[str, Sequence[str]]) -> str:
    answers = progress.self_checks.get(key, {})
    known = questions.get(key)
    if known:
        answered = [answers[q] for q in known if q in answers]
        return score_line(sum(r.correct for r in answered), len(answered), len(known))
    if answers:
        return score_line(sum(r.correct for r in answers.values()), len(answers), len(answers))
    return "-"


def course_questions() -> dict[str, tuple[str, ...]]:
    """Self-check question ids per notebook key: every ``helpers.selfcheck.nbNN`` module, plus any
    :func:`register_questions` made. A question module that fails to load is left out (its
    notebook's score then counts answers only), never an error in the table."""
    known: dict[str, tuple[str, ...]] = {}
    try:
        from ..selfcheck import available_notebooks, questions_for
    except ImportError:  # pragma: no cover - the self-check package is part of the course
        return dict(_questions)
    for number in available_notebooks():
        try:
            ids = tuple(question.id for question in questions_for(number))
        except Exception:  # noqa: BLE001 - a broken question module must not break the progress table
            continue
        known[notebook_key(number)] = ids
    known.update(_questions)
    return known


def _questions_known(questions: Mapping[str, Sequence[str]] | None) -> Mapping[str, Sequence[str]]:
    return course_questions() if questions is None else questions


def progress_rows(progress: Progress | None = None, *,
                  questions: Mapping[str, Sequence[str]] | None = None) -> list[ProgressRow]:
    """The table's rows, in course order.

    Args:
        progress: what to show (default :func:`load`).
        questions: self-check question ids per notebook key (default: what :func:`register_questions` got).
    """
    progress = load() if progress is None else progress
    questions = _questions_known(questions)
    rows = []
    for stem in _notebooks():
        key = notebook_key(stem)
        score = _score(key, progress, questions)
        entries = [e for e in EXERCISES if e.notebook_key == key]
        if not entries:
            rows.append(ProgressRow(stem, "-", "-", score))
        for number, e in enumerate(entries):
            record = progress.exercises.get(e.id)
            rows.append(ProgressRow(stem, f"{e.id} {_title(e.title)}", "yes" if record and record.solved else "no",
                                    score if number == 0 else ""))
    return rows


def _title(title: str) -> str:
    """An exercise's title in the edition's language (marked for the catalog by
    ``tooling/translation/extract.py``; the registry keeps the English)."""
    return _(title) if title else title


def _about(question_id: str) -> str:
    """A question's id as a few words: ``"what-the-model-receives"`` -> ``"what the model receives"``."""
    return question_id.replace("-", " ").strip()


def next_step(progress: Progress | None = None, *,
              questions: Mapping[str, Sequence[str]] | None = None) -> NextStep | None:
    """The first unsolved exercise or unanswered self-check question, in course order; ``None``
    when everything known is done.

    A question answered wrongly on the first try is done: its first answer is the one that counts
    (see :func:`record_self_check`), so answering it again would change nothing. A question is named
    by its place in the notebook's "Check yourself" (``question 2``) and a few words from its id.
    Recorded answers to questions a notebook no longer has are ignored.
    """
    progress = load() if progress is None else progress
    questions = _questions_known(questions)
    for stem in _notebooks():
        key = notebook_key(stem)
        for e in EXERCISES:
            if e.notebook_key == key and not (e.id in progress.exercises and progress.exercises[e.id].solved):
                return NextStep("exercise", stem, f"{e.id} ({_title(e.title)})")
        answers = progress.self_checks.get(key, {})
        for number, question in enumerate(questions.get(key, ()), 1):
            if question not in answers:
                return NextStep("self-check", stem, _("question {number}").format(number=number), _about(question))
    return None


_HEAD = (N_("notebook"), N_("exercise"), N_("solved"), N_("self-check"))
#: The solved column's words (:data:`SolvedState`), marked for the catalog.
_SOLVED_WORDS = (N_("yes"), N_("no"))



def _head() -> tuple[str, ...]:
    return tuple(_(word) for word in _HEAD)


def _solved(word: str) -> str:
    return _(word) if word in _SOLVED_WORDS else word


def progress_table(progress: Progress | None = None, *,
                   questions: Mapping[str, Sequence[str]] | None = None) -> str:
    """The table as plain text (aligned columns), with the next step below it.

    Every line fits :data:`~helpers.display.text.OUTPUT_WIDTH` (one output line in JupyterLab at
    1280 px): the notebook column shows the notebook's number (``03``; the next-step line names the
    file), and an exercise title longer than the room left wraps under itself (:func:`fit_row`).
    """
    progress = load() if progress is None else progress
    rows = [_head()] + [(notebook_key(r.notebook), r.exercise, _solved(r.solved), r.self_check)
                        for r in progress_rows(progress, questions=questions)]
    widths = [max(text_width(row[i]) for row in rows) for i in range(len(_HEAD))]
    room = OUTPUT_WIDTH - sum(widths) + widths[1]  # what the exercise column may use (3 gaps of 2 included)
    widths[1] = max(min(widths[1], room - 6), text_width(rows[0][1]))

    def pad(cell: str, width: int) -> str:
        return cell + " " * (width - text_width(cell))

    lines = []
    for row in rows:
        title = fit_row("", row[1], width=widths[1]).split("\n")
        after = "  ".join(pad(cell, width) for cell, width in zip(row[2:], widths[2:]))
        lines.append(f"{pad(row[0], widths[0])}  {pad(title[0], widths[1])}  {after}".rstrip())
        lines += [f"{'':<{widths[0]}}  {more}" for more in title[1:]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    step = next_step(progress, questions=questions)
    lines += ["", step.text() if step else _("Everything is solved. Well done!")]
    if progress.problem:
        lines[:0] = [unreadable_line(progress), ""]
    return "\n".join(lines)


def unreadable_line(progress: Progress) -> str:
    """``progress file unreadable: <why>; the table shows what could be read`` (``""`` when the
    file was read in full). The table functions put it above the table."""
    if not progress.problem:
        return ""
    return _("progress file unreadable: {problem}; the table shows what could be read").format(
        problem=progress.problem)


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace("`", "\\`") or " "


def progress_markdown(progress: Progress | None = None, *,
                      questions: Mapping[str, Sequence[str]] | None = None) -> str:
    """The same table as Markdown, with the next step below it."""
    progress = load() if progress is None else progress
    lines = ["| " + " | ".join(_head()) + " |", "|---|---|---|---|"]
    for r in progress_rows(progress, questions=questions):
        lines.append("| " + " | ".join(_cell(c) for c in (r.notebook, r.exercise, _solved(r.solved), r.self_check)) + " |")
    step = next_step(progress, questions=questions)
    lines += ["", f"**{_cell(step.text() if step else _('Everything is solved. Well done!'))}**"]
    if progress.problem:
        lines[:0] = [_cell(unreadable_line(progress)), ""]
    return "\n".join(lines)


def kept_from_renumbering(workspace: Path) -> list[str]:
    """One line per copy of a notebook under its old number that the workspace keeps in ``replaced/`` (issue
    17's renumbering, :mod:`helpers.workspace.migration`): old 09, kept whole when the course split it, and an
    old copy kept there because the new name was taken. The progress cell shows them under the table, so
    the learner finds in JupyterLab what ``make lab`` said in the terminal. ``[]``: none (or no workspace)."""
    lines = []
    kept = kept_copy(workspace, SPLIT_NOTEBOOK)
    if kept is not None:
        lines.append(_("{kept}: your copy of old notebook {number}, kept whole when the course split it into {first} "
                       "and {second}").format(kept=kept, number=SPLIT_NOTEBOOK[:2], first=SPLIT_INTO[0],
                                              second=SPLIT_INTO[1]))
    for old, new in RENAMED.items():
        kept = kept_copy(workspace, old)
        if kept is not None:
            lines.append(_("{kept}: your copy of old notebook {number}, which the course renumbered to {new}").format(
                kept=kept, number=old[:2], new=new))
    return lines


class ProgressReport:
    """What the progress cell at the top of notebook 00 shows (render it as a cell's last value).

    In the workspace (or with ``COURSE_PROGRESS_FILE``) the table; elsewhere, such as the course's
    own ``notebooks/``, one fixed line (:data:`NOT_IN_WORKSPACE`), so the committed output is
    deterministic.
    """

    def __init__(self, *, questions: Mapping[str, Sequence[str]] | None = None):
        file = recording_file()
        self.active = file is not None
        self._questions = questions
        self._progress = load(file) if self.active else None
        self._kept = kept_from_renumbering(Path(file).parent) if file is not None else []

    def _repr_markdown_(self) -> str:
        if not self.active:
            return _(NOT_IN_WORKSPACE)
        return "\n\n".join([progress_markdown(self._progress, questions=self._questions),
                             *(_cell(line) for line in self._kept)])

    def __repr__(self) -> str:
        if not self.active:
            return _(NOT_IN_WORKSPACE).replace("`", "")
        return "\n".join([progress_table(self._progress, questions=self._questions),
                          *(fit_row("", line) for line in self._kept)])


def progress_report(*, questions: Mapping[str, Sequence[str]] | None = None) -> ProgressReport:
    """The progress cell's value: ``from helpers.progress import progress_report; progress_report()``."""
    return ProgressReport(questions=questions)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m helpers.progress [--markdown]``: print the table of :func:`progress_file`, in the
    language of the edition ``COURSE_LANG`` names (``COURSE_LANG=zh make progress``: the Chinese
    workspace's table, in Chinese); 1 and one ``error: ...`` line when it names no edition."""
    if edition_error() is not None:
        print(edition_error(), file=sys.stderr)
        return 1
    with use(EDITION):
        return _main(list(sys.argv[1:] if argv is None else argv))


def _main(args: list[str]) -> int:
    for module in QUESTION_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    path = Path(os.path.abspath(progress_file()))
    if not os.environ.get(PROGRESS_FILE_ENV):
        problem = workspace_problem()
        if problem is not None:
            print(f"error: the workspace ({shown_folder(WORKSPACE_DIR)}) cannot be used: {problem}; unset COURSE_WORKSPACE or "
                  "point it at a folder of its own", file=sys.stderr)
            return 1
    progress = load(path)
    text = progress_markdown(progress) if "--markdown" in args else progress_table(progress)
    where = _("the workspace") if path.parent == WORKSPACE_DIR else (path.parent.name or str(path.parent))
    print(_("Progress from {name} in {where}:").format(name=path.name or str(path), where=where) + "\n")
    print("\n".join([text, *kept_from_renumbering(path.parent)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
