"""``python -m helpers.notebooks``: one line per notebook, goes on after every kind of failure, exits 1.

One run of the command line over a folder of small notebooks (each bad in one way) is shared by the
tests below, so that only a few kernels are started.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import nbformat
import pytest

from helpers.notebooks import NotebookFailure, execute_notebook, main


def _notebook(*sources: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.cells.insert(0, nbformat.v4.new_markdown_cell("# a test notebook"))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


CASES = {
    "01_ok.ipynb": _notebook("print('hello')", "# NBVAL_RAISES_EXCEPTION\nraise KeyError('allowed')", "1 + 1"),
    "02_raises.ipynb": _notebook("x = 1", "raise ValueError('boom \\x1b[31mred\\x1b[0m')"),
    "03_syntax.ipynb": _notebook("x = 1", "y = (1,"),
    "04_dies.ipynb": _notebook("import os\nos._exit(3)"),
    "05_slow.ipynb": _notebook("import time\ntime.sleep(60)"),
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Run the command line once over every case, a missing file, a file that is not a notebook and
    a notebook in a folder nothing can be written to (first, so that the others run after it)."""
    folder = tmp_path_factory.mktemp("runner")
    for name, nb in CASES.items():
        nbformat.write(nb, folder / name)
    (folder / "06_not_json.ipynb").write_text("this is not JSON", encoding="utf-8")
    (folder / "locked").mkdir()
    nbformat.write(_notebook("print('ran')"), folder / "locked" / "07_unwritable.ipynb")
    originals = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    paths = [folder / "locked" / "07_unwritable.ipynb", folder / "00_missing.ipynb", *sorted(folder.glob("0*.ipynb"))]
    return folder, paths, originals


def _unwritable(folder: Path):
    """``tempfile.mkstemp`` in ``folder`` fails as in a read-only folder (chmod does not stop root, so
    the OS's answer is played here)."""
    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == folder:
            raise PermissionError(13, "Permission denied", str(folder))
        return real(*args, dir=dir, **kwargs)

    return mkstemp


@pytest.fixture(scope="module")
def report(run):
    """The command line's stdout lines, and everything written to the process's file descriptors 1
    and 2 meanwhile (where a kernel's own output would land)."""
    import contextlib
    import io

    folder, paths, originals = run
    out = io.StringIO()
    with tempfile.TemporaryFile() as fds, pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "mkstemp", _unwritable(folder / "locked"))
        saved = [os.dup(1), os.dup(2)]
        os.dup2(fds.fileno(), 1)
        os.dup2(fds.fileno(), 2)
        try:
            with contextlib.redirect_stdout(out):
                status = main([*map(str, paths), "--timeout", "3"])
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
        fds.seek(0)
        leaked = fds.read().decode("utf-8", "replace")
    return status, out.getvalue().splitlines(), folder, originals, leaked


def _line(lines, name):
    found = [line for line in lines if name in line]
    assert len(found) == 1, f"expected one line for {name}: {lines}"
    return found[0]


def test_every_notebook_gets_one_line_and_the_run_exits_nonzero(report):
    status, lines, _, _, _ = report
    assert status == 1
    assert len(lines) == 8 + 1, lines  # eight notebooks, one summary
    assert lines[-1] == "executed 1 of 8 notebooks, 7 FAILED"
    assert not any("\x1b" in line or "Traceback" in line for line in lines)


def test_the_kernels_own_stderr_does_not_leak_into_the_report(report):
    """ipykernel 7.4 warns "running over TCP without encryption" at every start and logs a ZMQError
    traceback when it is stopped after a timeout (05_slow): both go to the runner's kernel log."""
    leaked = report[4]
    assert "without encryption" not in leaked
    assert "Traceback" not in leaked and "ZMQError" not in leaked and "IPKernelApp" not in leaked
    assert leaked == "", leaked


def test_an_unwritable_folder_is_one_line_and_the_next_notebooks_still_run(report):
    _, lines, folder, originals, _ = report
    assert lines[0] == ("FAILED 07_unwritable.ipynb: ran, but the result could not be written to its folder "
                        "(Permission denied); the file is unchanged")
    assert (folder / "locked" / "07_unwritable.ipynb").read_bytes() == originals["locked/07_unwritable.ipynb"]
    assert lines[1].startswith("FAILED 00_missing.ipynb") and _line(lines, "01_ok").startswith("ok 01_ok.ipynb")


def test_a_kernel_that_does_not_start_shows_its_last_words(tmp_path):
    """A real start-up error (here: a broken ipykernel_launcher first on the kernel's path) stays
    visible in the one-line report, although the kernel's stderr is captured."""
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "ipykernel_launcher.py").write_text(
        "import sys\nsys.stderr.write('ImportError: this kernel cannot start (a test)\\n')\nsys.exit(1)\n",
        encoding="utf-8")
    path = tmp_path / "x.ipynb"
    nbformat.write(_notebook("1 + 1"), path)
    with pytest.raises(NotebookFailure) as caught:
        execute_notebook(path, timeout=30, env={"PYTHONPATH": str(broken)})
    assert caught.value.kind in ("kernel error", "kernel died")
    assert caught.value.line().endswith("; the kernel's last words: ImportError: this kernel cannot start (a test)")


def test_a_good_notebook_after_failures_still_runs(report):
    _, lines, folder, _, _ = report
    assert re.fullmatch(r"ok 01_ok\.ipynb \(\d+\.\d s\)", _line(lines, "01_ok"))
    nb = nbformat.read(folder / "01_ok.ipynb", as_version=4)
    assert [c.id for c in nb.cells] == ["cell-001", "cell-002", "cell-003", "cell-004"]
    assert nb.cells[1].outputs[0]["text"] == "hello\n"
    assert nb.cells[2].outputs[0]["ename"] == "KeyError", "a marked cell may raise"


def test_missing_file(report):
    assert _line(report[1], "00_missing") == "FAILED 00_missing.ipynb: no such file"


def test_raising_cell_names_the_cell_and_the_error_without_ansi(report):
    assert _line(report[1], "02_raises") == 'FAILED 02_raises.ipynb: cell 2 ("raise ValueError(\'boom \\x1b[31mred\\x1b[0m\')"): ValueError: boom red'


def test_syntax_error_cell_has_a_reason(report):
    assert _line(report[1], "03_syntax") == 'FAILED 03_syntax.ipynb: cell 2 ("y = (1,"): SyntaxError: incomplete input (line 1)'


def test_kernel_that_dies(report):
    line = _line(report[1], "04_dies")
    assert line.startswith('FAILED 04_dies.ipynb: cell 1 ("import os"): the kernel died'), line


def test_cell_past_its_timeout(report):
    assert _line(report[1], "05_slow") == (
        'FAILED 05_slow.ipynb: cell 1 ("import time"): the cell ran longer than the timeout (3 s)')


def test_not_a_notebook(report):
    line = _line(report[1], "06_not_json")
    assert line.startswith("FAILED 06_not_json.ipynb: not a readable notebook (Notebook does not appear to be JSON")


def test_a_failed_notebook_is_never_written(report):
    _, _, folder, originals, _ = report
    for name, content in originals.items():
        if name != "01_ok.ipynb":
            assert (folder / name).read_bytes() == content, f"{name} was changed"
    written = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert written == sorted(originals), "no temporary file is left behind"


def test_execute_notebook_raises_a_one_line_failure(tmp_path):
    path = tmp_path / "x.ipynb"
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(NotebookFailure) as caught:
        execute_notebook(path)
    assert caught.value.kind == "not a notebook"
    assert caught.value.line().startswith("FAILED x.ipynb: not a readable notebook (")


def test_timeout_must_be_positive(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--timeout", "0"])
    assert caught.value.code == 2
    assert "--timeout must be a positive number of seconds" in capsys.readouterr().err


def test_consecutive_stream_chunks_are_stored_as_one_output(tmp_path):
    """nbclient may store one print as several chunks; the runner merges them (nbval compares merged text)."""
    import nbformat

    from helpers.notebooks import execute_notebook

    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    nb.cells = [nbformat.v4.new_code_cell(
        "import sys, time\nfor i in range(3):\n    print(i, flush=True); time.sleep(0.05)\n"
        "print('err', file=sys.stderr, flush=True)\nprint('after', flush=True)")]
    path = tmp_path / "streams.ipynb"
    nbformat.write(nb, path)
    executed = execute_notebook(path)
    outputs = executed.cells[0].outputs
    assert [(o.name, "".join(o.text)) for o in outputs] == [("stdout", "0\n1\n2\n"), ("stderr", "err\n"),
                                                              ("stdout", "after\n")]
