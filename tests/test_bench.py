"""The benchmark's plumbing (``make bench``): what it measures and how it reports. No timing is asserted."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tooling.bench import (
    LESSON_COST,
    SUITE_KINDS,
    TARGETS,
    BenchReport,
    Measurement,
    _cpu_s,
    _peak_mb,
    format_report,
    main,
    measure,
    nbval_seconds,
    suite_kind,
    suite_summary,
    worker_seconds,
)
from tooling.notebooks import kernel_env


def test_peak_memory_is_read_from_proc():
    assert _peak_mb(os.getpid()) > 1.0
    assert _peak_mb(None) is None
    assert _peak_mb(2**31 - 1) is None, "a process that does not exist"


def test_cpu_time_is_read_from_proc():
    spent = os.times()
    assert abs(_cpu_s(os.getpid()) - (spent.user + spent.system)) < 0.5
    assert _cpu_s(None) is None and _cpu_s(2**31 - 1) is None


def test_measure_times_every_cell_and_reads_the_kernel_peak(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# x"),
                                         nbformat.v4.new_code_cell("block = bytearray(50 * 10**6)"),
                                         nbformat.v4.new_code_cell("raise ValueError('stop')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    result = measure(nb, name="x.ipynb", cwd=tmp_path, env=kernel_env(), timeout=60)
    assert [index for index, _, _ in result.cells] == [1, 2]
    assert result.cells[0][2] == "block = bytearray(50 * 10**6)"
    assert result.peak_mb is not None and result.peak_mb > 50, "the 50 MB block is in the kernel's peak"
    assert result.cpu_s is not None and result.cpu_s > 0, "the kernel's own CPU time, read after its cells"
    assert [index for index, _ in result.cell_cpu] == [1, 2] and all(used >= 0 for _, used in result.cell_cpu)
    assert result.error == 'FAILED x.ipynb: cell 2 ("raise ValueError(\'stop\')"): ValueError: stop'


def test_report_marks_what_misses_a_target_and_lists_its_slowest_cells():
    machine = {"cpus": 2, "python": "3.11.7", "load_average_start": [1.0, 1, 1], "load_average_end": [2.0, 2, 2],
               "note": "shared"}
    fast = Measurement("00_a.ipynb", 3.0, 120.0, [(2, 0.5, "x = 1")], overhead_s=1.0)
    slow = Measurement("01_b.ipynb", 6.0, TARGETS["peak_mb"] + 1, [(3, 0.1, "a"), (5, 3.2, "import big")], overhead_s=4.0)
    report = BenchReport(machine, Measurement("baseline", 2.0, 100.0), [2.0, 2.1], [fast, slow], 9.0, 5.0,
                         {"command": "python -m pytest", "seconds": 310.0, "exit_status": 0, "summary": "9 passed"})
    text = format_report(report)
    assert "00_a.ipynb" in text and text.splitlines()[4].endswith("ok")
    assert "MISSES: over baseline + 1.5 s, over 300 MB" in text
    assert 'test suite (python -m pytest): 310.0 s, exit status 0, "9 passed"  target 420 s: ok' in text
    slowest = text.split("01_b.ipynb: slowest cells")[1].splitlines()
    assert slowest[1].strip().startswith("cell   5:   3.20 s  import big")
    report.postgres = {"start_s": [1.31, 0.92, 0.97], "stop_s": [0.2, 0.15, 0.18]}
    assert ("PostgreSQL server (notebook 18 starts one per kernel): start 0.92 s (runs: 1.31, 0.92, 0.97), "
            "stop 0.15 s") in format_report(report)
    report.postgres = {"unavailable": "PostgreSQL is turned off here (COURSE_POSTGRES=off)"}
    assert "PostgreSQL server: unavailable (PostgreSQL is turned off here (COURSE_POSTGRES=off))" in format_report(report)


def test_a_notebook_whose_cost_is_its_lesson_is_named_with_the_reason_not_missed():
    machine = {"cpus": 2, "python": "3.11.7", "load_average_start": [1.0, 1, 1], "load_average_end": [2.0, 2, 2],
               "note": "shared"}
    lesson = Measurement("16_mcp_tools.ipynb", 14.0, 150.0, [(7, 4.0, "tools = await client.get_tools()")],
                         overhead_s=10.5, cpu_s=3.1, cell_cpu=[(7, 0.4)])
    plain = Measurement("17_untrusted.ipynb", 6.0, 150.0, [(2, 2.5, "import jsonschema")], overhead_s=2.8)
    report = BenchReport(machine, Measurement("baseline", 2.0, 100.0, cpu_s=1.2), [2.0], [lesson, plain], 20.0, 13.3,
                         None)
    text = format_report(report)
    rows = {line.split()[0]: line for line in text.splitlines() if line.split() and line.split()[0].endswith(".ipynb")}
    assert rows["16_mcp_tools.ipynb"].endswith(f"over by its lesson: {LESSON_COST['16']}")
    assert "3.10" in rows["16_mcp_tools.ipynb"], "the kernel's CPU seconds are a column"
    assert rows["17_untrusted.ipynb"].endswith("MISSES: over baseline + 1.5 s")
    assert "16_mcp_tools.ipynb: slowest cells" in text and "17_untrusted.ipynb: slowest cells" in text
    assert "  cell   7:   4.00 s (CPU  0.40 s)  tools = await client.get_tools()" in text


@pytest.fixture(scope="module")
def small_course_junit(tmp_path_factory) -> Path:
    return _junit_of_a_small_course(tmp_path_factory.mktemp("small-course"))


def _junit_of_a_small_course(folder: Path) -> Path:
    """Run pytest (one process, strict nbval) on a small course laid out like this one: a test file of
    each kind and one notebook in both editions; return its JUnit XML report (xunit1, as the bench asks)."""
    def cell():
        return nbformat.v4.new_code_cell("1 + 1", execution_count=1, outputs=[
            nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)])

    for name in ("notebooks/03_x.ipynb", "notebooks/zh/03_x.ipynb"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# x"), cell(), cell()]),
                       folder / name)
    tests = {"test_lab_browser_x.py": 2, "test_live_track.py": 1, "test_exercises_nb03.py": 3,
             "test_exercise_contract.py": 1, "test_selfcheck_nb03.py": 1, "test_widget_x.py": 1,
             "test_postgres_x.py": 1, "test_other.py": 2}
    (folder / "tests").mkdir()
    for name, count in tests.items():
        (folder / "tests" / name).write_text(
            f"import pytest\n\n@pytest.mark.parametrize('n', range({count}))\n"
            f"def test_it(n):\n    assert n < {count}\n")
    (folder / "pytest.ini").write_text("[pytest]\n")
    report = folder / "suite.xml"
    # Only nbval's plugin: the others installed here (Hypothesis, xdist, LangSmith's, ...) add seconds, not meaning.
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "nbval.plugin", "-p", "no:cacheprovider",
                           "--nbval", f"--junitxml={report}", "-o", "junit_family=xunit1", "tests", "notebooks"],
                          cwd=folder, env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return report


def test_the_suite_is_summed_by_kind_and_nbval_by_notebook_from_a_real_junit_report(small_course_junit):
    report = small_course_junit
    kinds = worker_seconds(report)
    assert list(kinds) == ["browser", "live track", "strict nbval", "exercise checks", "widgets", "PostgreSQL",
                           "other tests", "all"]
    assert {kind: entry["tests"] for kind, entry in kinds.items()} == {
        "browser": 2, "live track": 1, "strict nbval": 4, "exercise checks": 5, "widgets": 1, "PostgreSQL": 1,
        "other tests": 2, "all": 16}
    parts = sum(entry["seconds"] for kind, entry in kinds.items() if kind != "all")
    assert abs(kinds["all"]["seconds"] - parts) <= 0.1 * len(SUITE_KINDS) + 0.1, "the kinds add up to the whole"
    notebooks = nbval_seconds(report)
    assert sorted(notebooks) == ["03_x.ipynb", "zh/03_x.ipynb"], "each edition is its own row"
    assert all(entry["cells"] == 2 for entry in notebooks.values())
    assert list(notebooks.values()) == sorted(notebooks.values(), key=lambda e: -e["seconds"]), "costliest first"
    assert sum(e["seconds"] for e in notebooks.values()) == pytest.approx(kinds["strict nbval"]["seconds"], abs=0.2)
    assert suite_kind("tests/test_exercise_contract_reporting.py") == "exercise checks"
    assert suite_kind("tests/lab_server.py") == "other tests"

    lines = suite_summary(kinds, notebooks, cpu_s=820.0, workers=3)
    assert lines[0].startswith("  worker-seconds by kind (each test with its set-up and tear-down; ")
    assert "on 3 workers" in lines[0] and lines[0].endswith("CPU 820 s of pytest and every process it ran):")
    assert [line.split()[0] for line in lines[1:8]] == ["browser", "live", "strict", "exercise", "widgets",
                                                         "PostgreSQL", "other"]
    assert re.fullmatch(r"    exercise checks +\d+\.\d s +\d+ %  \(5 tests\)", lines[4])
    assert lines[8] == ("  strict nbval by notebook, costliest 2 of 2 "
                        "(the first cell's time includes the kernel's start):")
    assert {line.split()[0] for line in lines[9:]} == {"03_x.ipynb", "zh/03_x.ipynb"}
    assert suite_summary({}, notebooks) == [], "nothing to say without a report"
    assert "; " + f"{kinds['all']['seconds']:.0f} in all):" in suite_summary(kinds, {}, workers=None)[0]


def test_bench_junit_prints_where_an_earlier_run_went_and_refuses_a_bad_report(small_course_junit, tmp_path, capsys):
    report = small_course_junit
    assert main(["--junit", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"test suite from {report}:\n  worker-seconds by kind")
    assert "workers" not in out, "how many workers ran the report is not known"
    assert "(4 tests)" in out and "zh/03_x.ipynb" in out
    (tmp_path / "bad.xml").write_text("<testsuites><testsuite>")
    assert main(["--junit", str(tmp_path / "bad.xml")]) == 2
    assert capsys.readouterr().err.startswith(f"error: --junit {tmp_path / 'bad.xml'}: not a readable JUnit XML")
    (tmp_path / "empty.xml").write_text("<testsuites><testsuite name='pytest'/></testsuites>")
    assert main(["--junit", str(tmp_path / "empty.xml")]) == 2
    assert "the report has no test case" in capsys.readouterr().err
    assert main(["--junit", str(tmp_path / "missing.xml")]) == 2


def test_the_server_timing_says_why_when_postgresql_is_missing(monkeypatch):
    from helpers.postgres.server import time_server

    monkeypatch.setenv("COURSE_POSTGRES", "off")
    assert time_server() == {"unavailable": "PostgreSQL is turned off here (COURSE_POSTGRES=off)"}


# -- issue 16: bad arguments end in one error line; the learner's state never reaches a bench kernel ------


import tooling.bench as bench  # noqa: E402


def _no_run(*args, **kwargs):
    raise AssertionError("nothing may run for a bad argument")


@pytest.mark.parametrize("argv, expected", [
    (["99"], "error: '99' matches no course notebook; the course notebooks are: 00_start_here.ipynb, "),
    (["refund-desk"], "error: 'refund-desk' matches no course notebook"),
    (["../../etc/passwd"], "error: '../../etc/passwd' matches no course notebook"),
    (["03", "--timeout", "0"], "error: --timeout must be a positive number of seconds"),
])
def test_a_bad_notebook_argument_is_one_error_line_before_anything_runs(argv, expected, capsys, monkeypatch):
    monkeypatch.setattr(bench, "measure", _no_run)
    status = bench.main([*argv, "--skip-tests"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith(expected) and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("where", ["missing folder", "a folder", "under a file"])
def test_a_json_path_that_cannot_be_written_is_one_error_line_before_anything_runs(where, tmp_path, capsys,
                                                                                  monkeypatch):
    (tmp_path / "plain.txt").write_text("x", encoding="utf-8")
    path = {"missing folder": tmp_path / "missing" / "bench.json", "a folder": tmp_path,
            "under a file": tmp_path / "plain.txt" / "bench.json"}[where]
    monkeypatch.setattr(bench, "run_bench", _no_run)
    status = bench.main(["00", "--skip-tests", "--json", str(path)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith(f"error: --json {path}") and err.count("\n") == 1 and "Traceback" not in err, err


def test_bench_kernels_get_their_own_workspace_and_none_of_the_learners_state(monkeypatch, tmp_path):
    """Before: the learner's COURSE_PROGRESS_FILE (and other providers' keys) reached the bench's
    kernels, so the course's own stubs recorded failed attempts in the learner's file."""
    monkeypatch.setenv("COURSE_PROGRESS_FILE", str(tmp_path / "learner-progress.json"))
    monkeypatch.setenv("COURSE_WORKSPACE", str(tmp_path / "learner-workspace"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-0123456789abcdef")
    seen = []

    def fake_measure(nb, *, name, cwd, env, timeout=600):
        seen.append((cwd, env))
        return Measurement(name, 1.0, 100.0)

    monkeypatch.setattr(bench, "measure", fake_measure)
    bench.run_bench(["00"], skip_tests=True, progress=lambda line: None)
    assert len(seen) == 4, "warm-up, baseline, notebook 00, baseline"
    for cwd, env in seen:
        assert "COURSE_PROGRESS_FILE" not in env and "ANTHROPIC_API_KEY" not in env
        assert env["COURSE_WORKSPACE"] == str(cwd) != str(tmp_path / "learner-workspace")


def test_the_bench_times_the_suite_on_as_many_workers_as_make_test():
    from tooling.bench import TEST_WORKERS

    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    default = re.search(r"^TEST_WORKERS \?= (\d+)$", makefile, re.MULTILINE)
    assert default, "the Makefile sets TEST_WORKERS ?= N"
    assert int(default.group(1)) == TEST_WORKERS
