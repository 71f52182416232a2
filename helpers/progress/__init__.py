"""The learner's progress: exercises solved, self-check scores, what to do next (``make progress``,
``python -m helpers.progress``, the cell at the top of notebook 00).

Four modules, one job each; the names callers use are importable from here
(``from helpers.progress import progress_report, record_self_check``), loaded on first use
(:mod:`helpers.lazy`), so the package imports none of its modules:

* :mod:`helpers.progress.format`: the file's format (records, their fields); imports nothing of the course;
* :mod:`helpers.progress.store`: the file (lock, parse, write, the renumbering of an older format);
* :mod:`helpers.progress.record`: where the file is and recording each check and answer there;
* :mod:`helpers.progress.report`: the table, the next step and the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load on first use
    from .format import FILE_NAME, ExerciseRecord, Progress, SelfCheckRecord
    from .record import (
        PROGRESS_FILE_ENV,
        load,
        progress_file,
        record_exercise,
        record_self_check,
        recorded_self_checks,
        recording_file,
    )
    from .report import (
        QUESTION_MODULES,
        NextStep,
        ProgressReport,
        ProgressRow,
        course_questions,
        main,
        next_step,
        progress_markdown,
        progress_report,
        progress_rows,
        progress_table,
        register_questions,
        unreadable_line,
    )

#: Where each public name lives.
_EXPORTS = {
    "FILE_NAME": ".format",
    "ExerciseRecord": ".format",
    "Progress": ".format",
    "SelfCheckRecord": ".format",
    "PROGRESS_FILE_ENV": ".record",
    "load": ".record",
    "progress_file": ".record",
    "record_exercise": ".record",
    "record_self_check": ".record",
    "recorded_self_checks": ".record",
    "recording_file": ".record",
    "QUESTION_MODULES": ".report",
    "NextStep": ".report",
    "ProgressReport": ".report",
    "ProgressRow": ".report",
    "course_questions": ".report",
    "main": ".report",
    "next_step": ".report",
    "progress_markdown": ".report",
    "progress_report": ".report",
    "progress_rows": ".report",
    "progress_table": ".report",
    "register_questions": ".report",
    "unreadable_line": ".report",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
