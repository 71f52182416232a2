"""``pytest --notebook NN`` (``make check NB=NN``, ``tests/notebook_selection.py``): which tests are about a notebook."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.notebook_selection import file_numbers

ROOT = Path(__file__).resolve().parent.parent


def test_a_file_is_about_the_notebooks_its_name_says():
    assert file_numbers(Path("tests/test_exercises_nb13.py")) == {"13"}
    assert file_numbers(Path("tests/test_exercises_nb00_nb01.py")) == {"00", "01"}
    assert file_numbers(Path("tests/test_lab_browser_13.py")) == {"13"}
    assert file_numbers(Path("notebooks/zh/13_streaming_tool_calls.ipynb")) == {"13"}
    assert file_numbers(Path("tests/test_lab_browser.py")) == set()
    assert file_numbers(Path("tests/test_live_track.py")) == set()


def _collected(*args: str) -> tuple[int, list[str], str]:
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                           "-p", "no:xdist", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    return proc.returncode, [line for line in proc.stdout.splitlines() if "::" in line], proc.stdout + proc.stderr


def test_only_the_tests_about_the_notebook_are_kept_in_both_editions():
    english = next(ROOT.glob("notebooks/13_*.ipynb")).relative_to(ROOT).as_posix()
    chinese = next(ROOT.glob("notebooks/zh/13_*.ipynb")).relative_to(ROOT).as_posix()
    other = next(ROOT.glob("notebooks/14_*.ipynb")).relative_to(ROOT).as_posix()
    status, ids, out = _collected("--notebook", "13", "tests/test_lab_browser.py", "tests/test_lab_browser_13.py",
                                  "tests/test_lab_browser_14.py", "tests/test_live_track.py",
                                  "tests/test_notebook_hygiene.py", english, chinese, other)
    assert status == 0, out
    files = {nodeid.split("::")[0] for nodeid in ids}
    assert files == {english, chinese, "tests/test_lab_browser_13.py", "tests/test_live_track.py",
                     "tests/test_notebook_hygiene.py"}, "nothing about 14, nor 00/02's browser tests"
    live = sorted(nodeid.split("[")[1] for nodeid in ids if nodeid.startswith("tests/test_live_track.py"))
    # the Chinese 13 runs the English code cells: the live track runs it in English only (tests/test_live_track.py)
    assert live == ["13]"], "the live track of the notebook"
    hygiene = [nodeid for nodeid in ids if nodeid.startswith("tests/test_notebook_hygiene.py")]
    assert hygiene and all("13_streaming" in nodeid for nodeid in hygiene)
    assert any("zh/13_" in nodeid for nodeid in hygiene)


def test_a_marked_test_is_kept_and_a_bad_number_is_refused():
    status, ids, out = _collected("--notebook", "02", "tests/test_lab_browser.py")
    assert status == 0, out
    assert ids == ["tests/test_lab_browser.py::test_you_are_the_model_and_the_self_check_work_in_jupyterlab"]
    status, ids, out = _collected("--notebook", "3", "tests/test_lab_browser.py")
    assert status == 4 and "--notebook '3': give a notebook's two-digit number, e.g. --notebook 03" in out
