"""The course map, generated from one source: each notebook's ``metadata["course"]``.

Every notebook ``notebooks/NN_topic.ipynb`` carries::

    "metadata": {"course": {"title": "From a function to a tool",
                            "summary": "what `@tool` builds: ...",
                            "reading": 30, "doing": 25}}

(``reading`` and ``doing`` in minutes, measured by :func:`measure` / :func:`estimate`). From that,
``python -m tooling.coursemap`` writes:

* the course map in ``notebooks/00_start_here.ipynb`` and the notebook table in ``README.md``:
  the text between ``<!-- course-map:start -->`` and ``<!-- course-map:end -->`` (a table and the
  totals); nothing outside those markers is touched;
* each notebook's last cell, the "Next" cell: ``[Next: NN · Title](NN_topic.ipynb)`` (the last
  notebook links back to 00);
* the times of a notebook whose stored time is missing or more than :data:`TOLERANCE` away from
  what :func:`estimate` measures now (small prose edits do not churn the times); with
  ``--remeasure`` every time as measured (after the rates or :data:`PACE` changed);
* 00's Chinese map block (``translations/zh/notebooks/00_start_here.md``) and ``README.zh-CN.md``'s
  table, which follow the English region when nothing but the times and rows changed
  (:func:`tooling.translation.course_map.write_course_maps`; a changed title or summary is left for
  the translator).

``python -m tooling.coursemap --check`` changes nothing and exits with status 1, listing what is
stale; ``tests/test_course_map.py`` runs the same check.

**How the times are measured** (CONTRIBUTING, "Honest times"). *Reading*: the Markdown prose at
:data:`PROSE_WPM` words a minute and the outputs at :data:`OUTPUT_WPM`. *Doing*: the code at
:data:`CODE_LPM` lines a minute (read it, run it, compare with the prose), :data:`EXERCISE_MIN`
minutes an exercise, :data:`WIDGET_MIN` a widget to play with, :data:`QUESTION_MIN` a self-check
question. The rates are calibrated on the measured careful passes (issue 17: 00-11 in about 16 hours
where the old estimate said 10½, so the rates sum to that pass; issue 29: 00-17 in about 25 hours where
the map said 22, the difference in 08-12, each about 20 % longer than the rates say: :data:`PACE`).
The map says which notebooks' times were measured (:data:`MEASURED`) and which are extrapolated.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CODE_LPM", "EXERCISE_MIN", "MEASURED", "OUTPUT_WPM", "PACE", "PROSE_WPM", "QUESTION_MIN", "TOLERANCE",
    "WIDGET_MIN", "CourseEntry", "Measure", "Timing", "about_hours", "apply", "course_entries", "estimate",
    "format_minutes", "measure", "ranges", "stale", "timing",
]

ROOT = Path(__file__).resolve().parent.parent.parent
#: Words of Markdown prose a careful learner reads in a minute (technical text, with the code beside it).
PROSE_WPM = 130
#: Words of output (printouts, tables, traces) read in a minute: skimmed, then compared with the prose.
OUTPUT_WPM = 200
#: Non-blank, non-comment code lines read, run and understood in a minute.
CODE_LPM = 18
#: Minutes for one exercise: read the task, write the answer, run the check, fix it once or twice.
EXERCISE_MIN = 18
#: Minutes for one widget (playground, approval panel): try the cases the prose suggests.
WIDGET_MIN = 8
#: Minutes for one self-check question: read it, answer, read the explanation.
QUESTION_MIN = 1.5
#: A stored time is kept while it is within this share (or 5 minutes) of the measurement.
TOLERANCE = 0.10
#: The notebooks a careful learner has worked through end to end and timed (issue 17: 00-11; issue 29: 00-17),
#: by file name (a renamed notebook must be renamed here too: ``tests/test_course_map.py`` names a stale one).
#: Their times are calibrated on that measurement; the others' are extrapolated from the same rates.
MEASURED = frozenset({
    "00_start_here.ipynb", "01_function_to_tool.ipynb", "02_tool_calls_are_requests.ipynb",
    "03_toolmessage_pairing.ipynb", "04_tool_runtime.ipynb", "05_return_values_and_tooloutputmixin.ipynb",
    "06_command_state_updates.ipynb", "07_reducers_and_parallel_writes.ipynb", "08_interrupt_and_resume.ipynb",
    "09_tool_errors_and_idempotency.ipynb", "10_human_approval.ipynb", "11_capstone_refund_agent.ipynb",
    "12_deep_agents_control_plane.ipynb", "13_streaming_tool_calls.ipynb", "14_wire_formats_and_bind_tools.ipynb",
    "15_structured_output_and_tools.ipynb", "16_mcp_tools.ipynb", "17_untrusted_results_and_tracing.ipynb",
})
#: How much longer than the rates a measured notebook took, where it differed (issue 29: 00-17 took about 25 h
#: where the map said 22, mostly in 08-12, about 20 % longer each; the others about as the rates say). Both its
#: reading and its doing time are multiplied by it.
PACE = {
    "08_interrupt_and_resume.ipynb": 1.2, "09_tool_errors_and_idempotency.ipynb": 1.2,
    "10_human_approval.ipynb": 1.2, "11_capstone_refund_agent.ipynb": 1.2, "12_deep_agents_control_plane.ipynb": 1.2,
}

START, END = "<!-- course-map:start", "<!-- course-map:end -->"
_START_LINE = START + " (generated by `python -m tooling.coursemap` from each notebook's metadata; do not edit) -->"
_WIDGET = "application/vnd.jupyter.widget-view+json"
_CHECK = re.compile(r"\bnb\d\d\.[A-Z][A-Z0-9_]*\.check\(")
_NEXT = re.compile(r"^\[(Next: |Back to )[^\]]*\]\([^)]*\.ipynb\)\s*$")


class CourseMapError(ValueError):
    """A notebook's ``metadata["course"]`` is missing or malformed, or a marker is missing; the
    message names the file and what to add."""


@dataclass(frozen=True)
class Measure:
    """What a notebook asks of a learner, counted from its cells.

    Attributes:
        prose_words: words in Markdown cells.
        output_words: words in text outputs (the self-check cell's excepted: its questions count).
        code_lines: non-blank code lines that are not comments.
        exercises: ``nbNN.NAME.check(...)`` calls (the learner's own exercise checks).
        widgets: code cells showing a widget, the self-check excepted.
        questions: self-check questions (``helpers/selfcheck/nbNN.py``).
    """

    prose_words: int
    output_words: int
    code_lines: int
    exercises: int
    widgets: int
    questions: int


@dataclass(frozen=True)
class CourseEntry:
    """One row of the course map: a notebook's ``metadata["course"]`` and its file name.

    Attributes:
        file: ``"01_function_to_tool.ipynb"``.
        title: ``"From a function to a tool"`` (the first cell's ``# 01 · ...`` heading).
        summary: one line, what the learner gets from it (Markdown).
        reading: minutes of reading (prose, outputs).
        doing: minutes of doing (code, exercises, widgets, self-check).
    """

    file: str
    title: str
    summary: str
    reading: int
    doing: int

    @property
    def number(self) -> str:
        """``"01"``."""
        return self.file[:2]

    @property
    def minutes(self) -> int:
        """``reading + doing``."""
        return self.reading + self.doing


def _words(text: str) -> int:
    return len(re.findall(r"\S+", text))


def _output_text(output: dict) -> str:
    data = output.get("data", {})
    text = output.get("text", "")
    text = "".join(text) if isinstance(text, list) else text
    for mime in ("text/markdown", "text/html", "text/plain"):
        if mime in data:
            value = data[mime]
            return text + ("".join(value) if isinstance(value, list) else value)
    return text


def measure(nb: dict, questions: int) -> Measure:
    """Count what notebook ``nb`` (its JSON) asks of a learner.

    Args:
        nb: the notebook as parsed JSON (nbformat 4).
        questions: its number of self-check questions.
    """
    prose = outputs = lines = exercises = widgets = 0
    for cell in nb.get("cells", []):
        source = "".join(cell.get("source", ""))
        if cell.get("cell_type") == "markdown":
            prose += _words(source)
            continue
        if cell.get("cell_type") != "code":
            continue
        lines += sum(1 for line in source.splitlines() if line.strip() and not line.lstrip().startswith("#"))
        exercises += len(_CHECK.findall(source))
        if "self_check(" in source:
            continue
        cell_outputs = cell.get("outputs", [])
        widgets += any(_WIDGET in o.get("data", {}) for o in cell_outputs)
        outputs += sum(_words(_output_text(o)) for o in cell_outputs)
    return Measure(prose, outputs, lines, exercises, widgets, questions)


def _round5(minutes: float) -> int:
    return max(5, int(5 * round(minutes / 5)))


def estimate(m: Measure, pace: float = 1.0) -> tuple[int, int]:
    """``(reading, doing)`` minutes for a :class:`Measure`, each rounded to 5 minutes (at least 5).

    Args:
        m: what the notebook holds.
        pace: how much longer than the rates a careful learner took on it (:data:`PACE`; 1.0: as the rates say).
    """
    reading = m.prose_words / PROSE_WPM + m.output_words / OUTPUT_WPM
    doing = (m.code_lines / CODE_LPM + m.exercises * EXERCISE_MIN + m.widgets * WIDGET_MIN
             + m.questions * QUESTION_MIN)
    return _round5(reading * pace), _round5(doing * pace)


def format_minutes(minutes: int, units: tuple[str, str] = ("h", "min")) -> str:
    """``"45 min"``, ``"1 h"``, ``"1 h 35 min"``; ``units``: the words for hours and minutes
    (the Chinese course map's: ``("小时", "分钟")``)."""
    hour, minute = units
    hours, rest = divmod(int(minutes), 60)
    if not hours:
        return f"{rest} {minute}"
    return f"{hours} {hour}" + (f" {rest} {minute}" if rest else "")


def about_hours(minutes: int, unit: str = "h") -> str:
    """``"16 h"``, ``"16½ h"`` (to the nearest half hour); ``unit``: the word for hours."""
    halves = round(minutes / 30)
    return f"{halves // 2}{'½' if halves % 2 else ''} {unit}"


def ranges(numbers: Sequence[str]) -> str:
    """Two-digit notebook numbers as runs: ``["00", "01", "02", "05"]`` -> ``"00-02, 05"`` (``""``: none)."""
    values = sorted(int(n) for n in numbers)
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(f"{run[0]:02d}" + (f"-{run[-1]:02d}" if len(run) > 1 else "") for run in runs)


@dataclass(frozen=True)
class Timing:
    """What the map says about where its times come from (:func:`timing`).

    Attributes:
        measured: the measured notebooks' numbers as runs (``"00-17"``), ``""`` for none.
        extrapolated: the others' (``"18-20"``).
        slower: ``(runs, percent)`` for each :data:`PACE` among them (``[("08-12", 20)]``).
    """

    measured: str
    extrapolated: str
    slower: list[tuple[str, int]]


def timing(entries: Sequence[CourseEntry]) -> Timing:
    """Which of ``entries`` were measured (:data:`MEASURED`), which extrapolated, and which took longer."""
    measured = [e.number for e in entries if e.file in MEASURED]
    paces = sorted({PACE[e.file] for e in entries if e.file in PACE})
    slower = [(ranges([e.number for e in entries if PACE.get(e.file) == pace]), round((pace - 1) * 100))
              for pace in paces]
    return Timing(ranges(measured), ranges([e.number for e in entries if e.file not in MEASURED]), slower)


# -- reading the notebooks ---------------------------------------------------------------------


def _notebooks(root: Path) -> list[Path]:
    return sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _dumps(nb: dict) -> str:
    """The notebook as nbformat 4 writes it (sources as lists of lines, sorted keys, indent 1)."""
    import nbformat

    return nbformat.writes(nbformat.from_dict(nb), version=4) + "\n"


def _questions(number: str, root: Path) -> int:
    path = root / "helpers" / "selfcheck" / f"nb{number}.py"
    if not path.is_file():
        return 0
    return len(re.findall(r"^\s*Question\(", path.read_text(encoding="utf-8"), re.MULTILINE))


def entry_of(path: Path, nb: dict) -> CourseEntry:
    """The :class:`CourseEntry` of notebook ``path`` (parsed as ``nb``).

    Raises:
        CourseMapError: no ``metadata["course"]``, or a field missing or of the wrong type.
    """
    course = nb.get("metadata", {}).get("course")
    shape = ('"course": {"title": "...", "summary": "one line", "reading": MINUTES, "doing": MINUTES}')
    if not isinstance(course, dict):
        raise CourseMapError(f"{path.name} has no metadata.course: add {shape} to the notebook's metadata "
                             "(python -m tooling.coursemap measures the times)")
    fields = {"title": str, "summary": str, "reading": int, "doing": int}
    bad = [name for name, kind in fields.items()
           if not isinstance(course.get(name), kind) or (kind is str and not course[name].strip())]
    if bad or "\n" in course.get("summary", ""):
        raise CourseMapError(f"{path.name}: metadata.course needs {shape}; wrong or missing: "
                             f"{', '.join(bad) or 'summary (one line)'}")
    return CourseEntry(path.name, course["title"], course["summary"], course["reading"], course["doing"])


def course_entries(root: Path = ROOT) -> list[CourseEntry]:
    """The course map's entries of the notebooks under ``root``, in course order, as stored (not re-measured).

    Raises:
        CourseMapError: a notebook without ``metadata.course`` (see :func:`entry_of`).
    """
    return [entry_of(path, _load(path)) for path in _notebooks(root)]


# -- what is generated ---------------------------------------------------------------------------


def table(entries: Sequence[CourseEntry], link_prefix: str) -> str:
    """The Markdown course map: a totals sentence and one table row per notebook.

    Args:
        entries: the notebooks in course order.
        link_prefix: put before each file name in a link (``""`` in 00, ``"notebooks/"`` in the README).
    """
    reading, doing = sum(e.reading for e in entries), sum(e.doing for e in entries)
    when = timing(entries)
    source = []
    if when.measured:
        slower = "; ".join(f"{runs} took about {percent}% longer than their length says, and their times say so"
                           for runs, percent in when.slower)
        source.append(f"{when.measured} were timed by careful learners" + (f" ({slower})" if slower else ""))
    if when.extrapolated:
        source.append(f"{when.extrapolated} {'are' if when.measured else 'are all'} extrapolated from the same "
                      "rates, not yet timed")
    totals = (f"In all about **{about_hours(reading + doing)}** ({reading + doing} minutes: {reading} reading the prose "
              f"and outputs, {doing} running and reading the code, the exercises, widgets and self-checks), "
              "measured from each notebook's length at rates calibrated on timed passes (CONTRIBUTING.md, "
              f"\"Honest times\"): {'; '.join(source)}.")
    lines = [
        totals,
        "",
        "| # | notebook | what you learn | time (reading + doing) |",
        "|---|---|---|---|",
    ]
    for e in entries:
        lines.append(f"| {e.number} | [{e.title}]({link_prefix}{e.file}) | {e.summary} | "
                     f"{format_minutes(e.minutes)} ({e.reading} + {e.doing}) |")
    return "\n".join(lines)


def replace_region(text: str, body: str, where: str) -> str:
    """``text`` with its generated region (between :data:`START` and :data:`END`) replaced by ``body``.

    Raises:
        CourseMapError: ``text`` has no such region (``where`` names the file in the message).
    """
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise CourseMapError(f"{where} has no generated region: put the lines '{_START_LINE}' and '{END}' where "
                             "the course map goes")
    return text[:start] + _START_LINE + "\n" + body + "\n" + text[end:]


def next_line(entries: Sequence[CourseEntry], index: int) -> str:
    """The "Next" cell of ``entries[index]``: a link to the following notebook, or back to 00 for the last."""
    if index + 1 < len(entries):
        following = entries[index + 1]
        return f"[Next: {following.number} · {following.title}]({following.file})"
    return f"[Back to {entries[0].number} · {entries[0].title}]({entries[0].file})"


def _with_next(nb: dict, line: str) -> dict:
    """``nb`` whose last cell is the Markdown cell ``line``; a "Next" line at the end of the last
    cell (the Recap) moves into that cell of its own."""
    cells = nb["cells"]
    last = cells[-1] if cells else None
    text = "".join(last["source"]) if last else ""
    if last and last["cell_type"] == "markdown" and _NEXT.match(text.strip()):
        last["source"] = line
        return nb
    if last and last["cell_type"] == "markdown":
        kept = text.rstrip().splitlines()
        if kept and _NEXT.match(kept[-1]):
            last["source"] = "\n".join(kept[:-1]).rstrip()
    # a new id above every cell-NNN id (tooling.notebooks keeps ids: a translation is keyed by them)
    top = max((int(c["id"][5:]) for c in cells if re.fullmatch(r"cell-\d{3,}", str(c.get("id", "")))), default=0)
    cells.append({"cell_type": "markdown", "id": f"cell-{top + 1:03d}", "metadata": {}, "source": line})
    return nb


def heading_title(nb: dict) -> str | None:
    """The title in the first cell's ``# NN · Title`` heading, or None."""
    first = "".join(nb["cells"][0]["source"]).splitlines()[0] if nb.get("cells") and nb["cells"][0]["source"] else ""
    found = re.fullmatch(r"# \d\d · (.+)", first.strip())
    return found.group(1).strip() if found else None


@dataclass(frozen=True)
class _Plan:
    """What :func:`apply` would write: path -> new text, and the reasons."""

    writes: dict[Path, str]
    reasons: list[str]


def _plan(root: Path, remeasure: bool = False) -> _Plan:
    paths = _notebooks(root)
    writes: dict[Path, str] = {}
    reasons: list[str] = []
    books = {p: _load(p) for p in paths}
    # 1. times: measured where missing or off by more than the tolerance
    for path, nb in books.items():
        course = nb.setdefault("metadata", {}).setdefault("course", {})
        reading, doing = estimate(measure(nb, _questions(path.name[:2], root)), PACE.get(path.name, 1.0))
        for name, value in (("reading", reading), ("doing", doing)):
            stored = course.get(name)
            if not isinstance(stored, int) or abs(stored - value) > max(5, TOLERANCE * value) \
                    or (remeasure and stored != value):
                course[name] = value
                reasons.append(f"{path.name}: {name} time {stored} -> {value} min (measured)")
    entries = [entry_of(p, nb) for p, nb in books.items()]
    for path, nb in books.items():
        title = heading_title(nb)
        if title != nb["metadata"]["course"]["title"]:
            raise CourseMapError(f"{path.name}: metadata.course.title is {nb['metadata']['course']['title']!r} but "
                                 f"the first cell's heading says {title!r}: make them the same")
    # 2. each notebook's Next cell
    for index, (path, nb) in enumerate(books.items()):
        before = ["".join(c["source"]) for c in nb["cells"][-2:]]
        _with_next(nb, next_line(entries, index))
        if ["".join(c["source"]) for c in nb["cells"][-2:]] != before:
            reasons.append(f"{path.name}: the Next cell")
    # 3. the map in 00 and the README
    start = next((p for p in paths if p.name.startswith("00_")), None)
    if start is not None:
        nb = books[start]
        cells = [c for c in nb["cells"] if c["cell_type"] == "markdown" and START in "".join(c["source"])]
        if len(cells) != 1:
            raise CourseMapError(f"{start.name}: one Markdown cell must hold the course map markers "
                                 f"('{_START_LINE}' ... '{END}'), found {len(cells)}")
        old = "".join(cells[0]["source"])
        new = replace_region(old, table(entries, ""), start.name)
        if new != old:
            cells[0]["source"] = new
            reasons.append(f"{start.name}: the course map")
    readme = root / "README.md"
    if readme.is_file():
        old = readme.read_text(encoding="utf-8")
        new = replace_region(old, table(entries, "notebooks/"), "README.md")
        if new != old:
            writes[readme] = new
            reasons.append("README.md: the notebook table")
    for path, nb in books.items():
        text = _dumps(nb)
        if text != path.read_text(encoding="utf-8"):
            writes[path] = text
    return _Plan(writes, reasons)


def stale(root: Path = ROOT) -> list[str]:
    """What ``python -m tooling.coursemap`` would change under ``root``, one line each (empty: up to date).

    Raises:
        CourseMapError: a notebook without ``metadata.course``, a title that is not the heading's,
            or a missing marker (the message says what to add).
    """
    plan = _plan(root)
    return plan.reasons or [f"{p.relative_to(root)}: formatting" for p in plan.writes]


def apply(root: Path = ROOT, *, remeasure: bool = False) -> list[str]:
    """Write the generated parts under ``root``; return what changed (as :func:`stale`).

    Args:
        root: the course checkout.
        remeasure: store every notebook's measured time, also where the stored one is within
            :data:`TOLERANCE` (after a rate or :data:`PACE` changed: a recalibration, not an edit).
    """
    plan = _plan(root, remeasure)
    for path, text in plan.writes.items():
        path.write_text(text, encoding="utf-8")
    return plan.reasons or [f"{p.relative_to(root)}: formatting" for p in plan.writes]
