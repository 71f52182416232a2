"""The benchmark's plumbing (``make bench``): what it measures and how it reports. No timing is asserted."""

from __future__ import annotations

import os

import nbformat

from tooling.bench import TARGETS, BenchReport, Measurement, _peak_mb, format_report, measure
from tooling.notebooks import kernel_env


def test_peak_memory_is_read_from_proc():
    assert _peak_mb(os.getpid()) > 1.0
    assert _peak_mb(None) is None
    assert _peak_mb(2**31 - 1) is None, "a process that does not exist"


def test_measure_times_every_cell_and_reads_the_kernel_peak(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# x"),
                                         nbformat.v4.new_code_cell("block = bytearray(50 * 10**6)"),
                                         nbformat.v4.new_code_cell("raise ValueError('stop')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    result = measure(nb, name="x.ipynb", cwd=tmp_path, env=kernel_env(), timeout=60)
    assert [index for index, _, _ in result.cells] == [1, 2]
    assert result.cells[0][2] == "block = bytearray(50 * 10**6)"
    assert result.peak_mb is not None and result.peak_mb > 50, "the 50 MB block is in the kernel's peak"
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
    assert 'test suite (python -m pytest): 310.0 s, exit status 0, "9 passed"  target 300 s: MISSES' in text
    slowest = text.split("01_b.ipynb: slowest cells")[1].splitlines()
    assert slowest[1].strip().startswith("cell   5:   3.20 s  import big")
    report.postgres = {"start_s": [1.31, 0.92, 0.97], "stop_s": [0.2, 0.15, 0.18]}
    assert ("PostgreSQL server (notebook 18 starts one per kernel): start 0.92 s (runs: 1.31, 0.92, 0.97), "
            "stop 0.15 s") in format_report(report)
    report.postgres = {"unavailable": "PostgreSQL is turned off here (COURSE_POSTGRES=off)"}
    assert "PostgreSQL server: unavailable (PostgreSQL is turned off here (COURSE_POSTGRES=off))" in format_report(report)


def test_the_server_timing_says_why_when_postgresql_is_missing(monkeypatch):
    from helpers.postgres.server import time_server

    monkeypatch.setenv("COURSE_POSTGRES", "off")
    assert time_server() == {"unavailable": "PostgreSQL is turned off here (COURSE_POSTGRES=off)"}


# -- issue 16: bad arguments end in one error line; the learner's state never reaches a bench kernel ------

import pytest  # noqa: E402

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
