"""One mistake in a reference solution gives one failure (issue 28): the exercise contract run on a
reference broken on purpose (a plugin replaces exercise 00.1's first reference solution in a pytest
subprocess) fails once, in ``test_reference_solution_passes``, naming the case and its feedback;
the tests marked ``needs_reference`` skip and point at that failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: A pytest plugin that breaks exercise 00.1's first reference: it answers only the first tool call.
BREAKS_THE_REFERENCE = '''
def pytest_configure(config):
    from tests.solutions import nb00

    solutions = nb00.TOOL_CALL_IDS.solutions
    first = next(iter(solutions))
    solutions[first] = lambda ai_message: [call["id"] for call in ai_message.tool_calls][:1]
'''


def test_a_broken_reference_fails_once_and_the_tests_that_need_it_point_at_that_failure(tmp_path):
    (tmp_path / "breaks_the_reference.py").write_text(BREAKS_THE_REFERENCE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    selection = "00.1 and (reference_solution_passes or references_still_pass or hostile_answer)"
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/test_exercise_contract.py", "-k", selection,
                          "-p", "breaks_the_reference", "-p", "no:xdist", "-q", "-rfs", "--color=no"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("1 failed, 1 passed, 8 skipped"), out  # the second reference still passes
    failed = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert failed == [line for line in failed if "test_reference_solution_passes[00.1-" in line] and len(failed) == 1
    assert "[FAIL] " in out, "the failure names the failing case and its feedback"
    pointer = ("a reference solution of exercise 00.1 fails its own checks, reported once by "
               "tests/test_exercise_contract.py::test_reference_solution_passes[00.1-")
    assert out.count(pointer) == 2, out  # -rfs folds the 7 hostile skips into one line
