"""The benchmark's plumbing (``make bench``): what it measures and how it reports. No timing is asserted."""

from __future__ import annotations

import os

import nbformat

from helpers.bench import TARGETS, BenchReport, Measurement, _peak_mb, format_report, measure
from helpers.notebooks import kernel_env


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
                         {"command": "python -m pytest", "seconds": 250.0, "exit_status": 0, "summary": "9 passed"})
    text = format_report(report)
    assert "00_a.ipynb" in text and text.splitlines()[4].endswith("ok")
    assert "MISSES: over baseline + 1.5 s, over 300 MB" in text
    assert 'test suite (python -m pytest): 250.0 s, exit status 0, "9 passed"  target 240 s: MISSES' in text
    slowest = text.split("01_b.ipynb: slowest cells")[1].splitlines()
    assert slowest[1].strip().startswith("cell   5:   3.20 s  import big")
