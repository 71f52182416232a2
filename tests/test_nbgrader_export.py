"""The nbgrader export (tooling/nbgrader_export.py): its layout, its solution regions, a second export that
never overwrites the teacher's edits, bad output folders, and a real nbgrader round trip
(generate_assignment, then autograde of seven submissions, two of them tampering with the checks).

The round trip needs nbgrader (``requirements-instructor.txt``, not in the learner's install): it runs
with this interpreter when it has nbgrader, else with the interpreter named by
``COURSE_INSTRUCTOR_PYTHON`` (``.ci/run`` builds one with the instructor requirements), and is skipped
with the reason otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from helpers.exercises.grading import CONTEXT_FILE
from helpers.exercises.registry import EXERCISES
from tooling.nbgrader_export import CODE_STUB, MANIFEST, POINTS, ExportError, export, main
from tests.binder_replay import instructor_python

ROOT = Path(__file__).resolve().parent.parent
REGION = re.compile(r"\n### BEGIN SOLUTION\n(.*?)### END SOLUTION\n", re.DOTALL)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("grading")
    export(out)
    return out


def _graded_cells(path: Path) -> tuple[list, list]:
    nb = nbformat.read(path, as_version=4)
    marked = [c for c in nb.cells if "nbgrader" in c.metadata]
    return ([c for c in marked if c.metadata.nbgrader["solution"]],
            [c for c in marked if c.metadata.nbgrader["grade"]])


def test_every_registered_exercise_gets_a_solution_cell_and_an_autograded_cell(exported):
    config = (exported / "nbgrader_config.py").read_text()
    assert repr(CODE_STUB) in config
    sources = sorted(p.relative_to(exported).as_posix() for p in exported.glob("source/*/*.ipynb"))
    notebooks = sorted({e.notebook for e in EXERCISES})
    assert sources == [f"source/{Path(n).stem}/{n}" for n in notebooks]
    for notebook in notebooks:
        solutions, tests = _graded_cells(exported / "source" / Path(notebook).stem / notebook)
        ids = [e for e in EXERCISES if e.notebook == notebook]
        assert len(solutions) == len(tests) == len(ids), notebook
        for entry, test in zip(ids, tests):
            assert test.metadata.nbgrader["points"] == POINTS and test.metadata.nbgrader["locked"]
            # graded in a fresh kernel (helpers.exercises.grading), not by objects of nbgrader's kernel
            assert f'"helpers.exercises.grading", "{entry.id}", "{notebook}"' in test.source
            assert ".check(" not in test.source and ".evaluate(" not in test.source
        nb = nbformat.read(exported / "source" / Path(notebook).stem / notebook, as_version=4)
        assert not any(f".{e.attribute}.check(" in c.source for c in nb.cells for e in ids), notebook
        assert all(c.get("outputs") == [] for c in nb.cells if c.cell_type == "code")
        context = (exported / "source" / Path(notebook).stem / CONTEXT_FILE).read_text(encoding="utf-8")
        assert sorted(json.loads(context)["exercises"]) == [e.id for e in ids]
        assert "BEGIN SOLUTION" not in context and not re.search(r"\bnb\d\d\.\w+\.check\(", context)  # released


@pytest.mark.parametrize("entry", EXERCISES, ids=[e.id for e in EXERCISES])
def test_each_solution_region_passes_the_hidden_checks_and_the_stub_above_it_is_the_course_stub(exported, entry):
    path = exported / "source" / Path(entry.notebook).stem / entry.notebook
    solutions, _ = _graded_cells(path)
    cell = solutions[[e.id for e in EXERCISES if e.notebook == entry.notebook].index(entry.id)]
    region = REGION.search(cell.source)
    assert region is not None
    stub = cell.source[:region.start()].rstrip()
    course = nbformat.read(ROOT / "notebooks" / entry.notebook, as_version=4)
    assert any(stub and stub in c.source for c in course.cells if c.cell_type == "code")
    answer = re.search(rf"\.{entry.attribute}\.check\((\w+)\)", "".join(c.source for c in course.cells)).group(1)
    namespace: dict = {}
    exec(compile(region.group(1), f"<{entry.id} solution region>", "exec"), namespace)  # self-contained
    result = entry.exercise().evaluate(namespace[answer])
    assert result.passed, result.summary()


def test_the_command_line_writes_the_folder_and_says_what_next(tmp_path, capsys):
    assert main([str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert "source/00_start_here/00_start_here.ipynb" in printed and "generate_assignment" in printed
    with pytest.raises(SystemExit):
        main([str(tmp_path / "out"), "--points", "0"])


def test_a_second_export_never_overwrites_what_the_teacher_edited(tmp_path, capsys):
    out = tmp_path / "grading"
    export(out)
    config, notebook = out / "nbgrader_config.py", out / "source" / "00_start_here" / "00_start_here.ipynb"
    assert export(out) and main([str(out)]) == 0  # unchanged files: a second export is fine
    config.write_text(config.read_text() + "c.CourseDirectory.course_id = 'tc-2026'\n")
    edited = notebook.read_text().replace("ids of the tool calls", "ids of the tool calls (week 1)")
    notebook.write_text(edited)
    (out / "source" / "01_function_to_tool" / CONTEXT_FILE).unlink()
    capsys.readouterr()
    assert main([str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{config} was changed since the last export" in err and f"{notebook} was changed" in err
    assert "nothing written" in err and "Traceback" not in err
    assert "course_id = 'tc-2026'" in config.read_text() and notebook.read_text() == edited
    assert not (out / "source" / "01_function_to_tool" / CONTEXT_FILE).exists()  # nothing written at all


def test_an_export_replaces_its_own_unchanged_files_and_refuses_files_it_did_not_write(tmp_path):
    out = tmp_path / "grading"
    export(out)
    notebook = out / "source" / "03_toolmessage_pairing" / "03_toolmessage_pairing.ipynb"
    fresh = notebook.read_bytes()
    notebook.write_text("{}")  # as an older export of the course wrote it (recorded), not edited since
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["files"]["source/03_toolmessage_pairing/03_toolmessage_pairing.ipynb"] = hashlib.sha256(b"{}").hexdigest()
    (out / MANIFEST).write_text(json.dumps(manifest))
    export(out)
    assert notebook.read_bytes() == fresh
    foreign = tmp_path / "theirs"
    (foreign / "source" / "00_start_here").mkdir(parents=True)
    (foreign / "nbgrader_config.py").write_text("c = get_config()\n")
    with pytest.raises(ExportError, match="nbgrader_config.py was not written by this export"):
        export(foreign)
    assert (foreign / "nbgrader_config.py").read_text() == "c = get_config()\n"


@pytest.mark.parametrize("where", ["a file", "under a file", "empty"])
def test_an_output_folder_that_cannot_be_one_gets_one_line_not_a_traceback(tmp_path, capsys, where):
    (tmp_path / "notes.txt").write_text("mine")
    out = {"a file": tmp_path / "notes.txt", "under a file": tmp_path / "notes.txt" / "grading", "empty": ""}[where]
    if where == "empty":
        with pytest.raises(SystemExit) as stopped:
            main([str(out)])
        assert stopped.value.code == 2 and "empty folder name" in capsys.readouterr().err
        return
    assert main([str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1 and "notes.txt" in err, err
    assert (tmp_path / "notes.txt").read_text() == "mine"


# -- the round trip with nbgrader itself ------------------------------------------------------------


INSTRUCTOR = instructor_python("nbgrader")
needs_nbgrader = pytest.mark.skipif(
    INSTRUCTOR is None,
    reason="nbgrader is not installed (optional, for teachers: pip install -r requirements-instructor.txt, "
           "or set COURSE_INSTRUCTOR_PYTHON to a Python that has it; .ci/run does)")

#: What a submission puts in place of the checks' result when it tampers with them.
_PASSED = ("class _Passed:\n    passed = True\n\n    def summary(self):\n        return 'all checks passed'\n\n"
           "    def _repr_markdown_(self):\n        return self.summary()\n\n\n")
#: The answer cell of each sample submission for exercise 00.1 (None: the release's stub untouched).
SUBMISSIONS = {
    "reference": None,  # filled from the source notebook's solution region
    "wrong": "def tool_call_ids(ai_message):\n    return [call['name'] for call in ai_message.tool_calls]\n",
    "crashing": "def tool_call_ids(ai_message):\n    return [call.id for call in ai_message.tool_calls]\n",
    "endless": "def tool_call_ids(ai_message):\n    while True:\n        pass\n",
    "stub": None,
    # the answer cell monkeypatches the exercise module's class: every exercise "passes"
    "patches": ("import helpers.exercises.core\n\n" + _PASSED
                + "helpers.exercises.core.Exercise.evaluate = lambda self, answer: _Passed()\n\n\n"
                "def tool_call_ids(ai_message):\n    return []\n"),
    "redefines": None,  # the stub untouched, and a cell of its own below it (TAMPER_CELL)
}
#: A cell the "redefines" submission adds below its answer cell: it replaces the check the graded cell calls.
TAMPER_CELL = _PASSED + "nb00.TOOL_CALL_IDS.evaluate = lambda answer: _Passed()\n"


def _env() -> dict[str, str]:
    """This environment without the learner's state, the instructor venv's ``bin`` first on ``PATH``
    (nbgrader runs ``alembic`` from there) and this checkout's ``helpers`` importable by the kernels."""
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_PROGRESS_FILE", "COURSE_WORKSPACE")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(ROOT)]))
    env["PATH"] = os.pathsep.join([str(Path(INSTRUCTOR).parent), env.get("PATH", "")])
    return env


def _nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([INSTRUCTOR, "-m", "nbgrader", *args], cwd=course, env=_env(), capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@needs_nbgrader
def test_nbgrader_autogrades_seven_submissions_and_tampering_gets_no_points(tmp_path):
    course = tmp_path / "course"
    export(course)
    assignment, notebook = "00_start_here", "00_start_here.ipynb"
    _nbgrader(course, "generate_assignment", assignment, "--force")
    release = nbformat.read(course / "release" / assignment / notebook, as_version=4)
    answer_at = next(i for i, c in enumerate(release.cells) if c.metadata.get("nbgrader", {}).get("solution"))
    released = release.cells[answer_at].source
    assert "BEGIN SOLUTION" not in released and "call[\"id\"] for call" not in released and CODE_STUB in released
    assert "raise NotImplementedError" in released  # the course's stub is what the learner starts from

    source = nbformat.read(course / "source" / assignment / notebook, as_version=4)
    reference = REGION.search(source.cells[answer_at].source).group(1)
    for student, code in SUBMISSIONS.items():
        submitted = nbformat.read(course / "release" / assignment / notebook, as_version=4)
        if student == "reference":
            code = reference
        if code is not None:
            submitted.cells[answer_at].source = "from helpers.exercises import nb00\n\n" + code
        if student == "redefines":
            submitted.cells.insert(answer_at + 1, nbformat.v4.new_code_cell(TAMPER_CELL))
        folder = course / "submitted" / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(submitted, folder / notebook)

    _nbgrader(course, "autograde", assignment, "--force")
    report = subprocess.run(
        [INSTRUCTOR, "-c", "import json, sys\nfrom nbgrader.api import Gradebook\n"
         "with Gradebook('sqlite:///gradebook.db') as gb:\n"
         f"    print(json.dumps({{s.id: gb.find_submission({assignment!r}, s.id).score for s in gb.students}}))"],
        cwd=course, env=_env(), capture_output=True, text=True, check=True)
    scores = json.loads(report.stdout)
    assert scores == {"reference": POINTS, "wrong": 0, "crashing": 0, "endless": 0, "stub": 0, "patches": 0,
                      "redefines": 0}
    feedback = nbformat.read(course / "autograded" / "endless" / assignment / notebook, as_version=4)
    graded = next(c for c in feedback.cells if c.metadata.get("nbgrader", {}).get("grade"))
    shown = json.dumps(graded.outputs)
    assert "AssertionError" in shown and "Exercise 00.1" in shown  # feedback, not a killed grading run
    assert "still running after" in shown
    feedback = nbformat.read(course / "autograded" / "patches" / assignment / notebook, as_version=4)
    graded = next(c for c in feedback.cells if c.metadata.get("nbgrader", {}).get("grade"))
    assert "Not graded: your code changes the course's checks" in json.dumps(graded.outputs)
    assert not list(course.rglob(".progress.json"))
