"""The nbgrader export (tooling/nbgrader_export.py): its layout, its solution regions, and a real
nbgrader round trip (generate_assignment, then autograde of five submissions).

The round trip needs nbgrader (``requirements-instructor.txt``, not in the learner's install): it runs
with this interpreter when it has nbgrader, else with the interpreter named by
``COURSE_INSTRUCTOR_PYTHON`` (``.ci/run`` builds one with the instructor requirements), and is skipped
with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from helpers.exercises.registry import EXERCISES
from tooling.nbgrader_export import CODE_STUB, POINTS, export, main
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
            assert f"{entry.module_name}.{entry.attribute}.evaluate(" in test.source
            assert ".check(" not in test.source  # grading never records into a progress file
        nb = nbformat.read(exported / "source" / Path(notebook).stem / notebook, as_version=4)
        assert not any(f".{e.attribute}.check(" in c.source for c in nb.cells for e in ids), notebook
        assert all(c.get("outputs") == [] for c in nb.cells if c.cell_type == "code")


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


# -- the round trip with nbgrader itself ------------------------------------------------------------


INSTRUCTOR = instructor_python("nbgrader")
needs_nbgrader = pytest.mark.skipif(
    INSTRUCTOR is None,
    reason="nbgrader is not installed (optional, for teachers: pip install -r requirements-instructor.txt, "
           "or set COURSE_INSTRUCTOR_PYTHON to a Python that has it; .ci/run does)")

#: The answer cell of each sample submission for exercise 00.1 (None: the release's stub untouched).
SUBMISSIONS = {
    "reference": None,  # filled from the source notebook's solution region
    "wrong": "def tool_call_ids(ai_message):\n    return [call['name'] for call in ai_message.tool_calls]\n",
    "crashing": "def tool_call_ids(ai_message):\n    return [call.id for call in ai_message.tool_calls]\n",
    "endless": "def tool_call_ids(ai_message):\n    while True:\n        pass\n",
    "stub": None,
}


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
def test_nbgrader_autogrades_reference_wrong_crashing_endless_and_stub_submissions(tmp_path):
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
    assert scores == {"reference": POINTS, "wrong": 0, "crashing": 0, "endless": 0, "stub": 0}
    feedback = nbformat.read(course / "autograded" / "endless" / assignment / notebook, as_version=4)
    graded = next(c for c in feedback.cells if c.metadata.get("nbgrader", {}).get("grade"))
    shown = json.dumps(graded.outputs)
    assert "AssertionError" in shown and "Exercise 00.1" in shown  # feedback, not a killed grading run
    assert not list(course.rglob(".progress.json"))
