"""``python -m tooling.notebooks``: one line per notebook, goes on after every kind of failure, exits 1.

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

from tooling.notebooks import NotebookFailure, execute_notebook, main


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

    from tooling.notebooks import execute_notebook

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


# -- issue 16, "Real model and runner" and "Workspace and progress": what the runner's kernels get and leave ----

import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from tooling.notebooks import LEARNER_STATE, kernel_env, removed_variables  # noqa: E402

#: Variables a developer's shell may hold that no course kernel may see.
PRIVATE = {
    "ANTHROPIC_API_KEY": "sk-ant-0123456789abcdef", "GOOGLE_API_KEY": "AIza0123456789abcdef",
    "GEMINI_API_KEY": "g-0123456789", "MISTRAL_API_KEY": "m-0123456789", "GROQ_API_KEY": "gsk_0123456789",
    "AZURE_OPENAI_API_KEY": "az-0123456789", "HF_TOKEN": "hf_0123456789", "GITHUB_TOKEN": "ghp_0123456789",
    "AWS_SECRET_ACCESS_KEY": "aws-0123456789", "my_db_password": "hunter2hunter2", "COHERE_APIKEY": "co-012345",
    "LANGSMITH_API_KEY": "lsv2_0123456789", "LANGCHAIN_TRACING_V2": "true", "LANGSMITH_TRACING": "true",
    "COURSE_PROGRESS_FILE": "/tmp/learner-progress.json", "COURSE_WORKSPACE": "/tmp/learner-workspace",
}
REAL_MODEL = {"COURSE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": "sk-test-0123456789abcdefghij"}


def test_the_runners_kernel_gets_no_other_secret_and_no_learner_state(tmp_path, monkeypatch):
    """Before: ANTHROPIC_API_KEY & co. and the learner's COURSE_PROGRESS_FILE / COURSE_WORKSPACE
    reached the kernel (and so a learner's table could land in 00's committed output)."""
    for name, value in {**PRIVATE, **REAL_MODEL}.items():
        monkeypatch.setenv(name, value)
    path = tmp_path / "env.ipynb"
    names = sorted({*PRIVATE, *REAL_MODEL})
    nbformat.write(_notebook(f"import os\nprint(sorted(n for n in {names!r} if n in os.environ))"), path)
    executed = execute_notebook(path, timeout=120)
    assert executed.cells[1].outputs[0]["text"] == "[]\n"


def test_a_live_run_keeps_the_model_variables_but_drops_the_rest(monkeypatch):
    for name, value in {**PRIVATE, **REAL_MODEL, "COURSE_MODEL_TIMEOUT": "5", "PATH_EXTRA": "x"}.items():
        monkeypatch.setenv(name, value)
    live = kernel_env(offline=False)
    assert {"COURSE_MODEL", "OPENAI_API_KEY", "COURSE_MODEL_TIMEOUT", "PATH_EXTRA"} <= set(live)
    assert not set(PRIVATE) & set(live)
    assert not {*PRIVATE, *REAL_MODEL} & set(kernel_env())
    assert set(LEARNER_STATE) <= set(removed_variables({name: "x" for name in LEARNER_STATE}, offline=False))
    assert kernel_env(extra={"COURSE_WORKSPACE": "/tmp/bench"})["COURSE_WORKSPACE"] == "/tmp/bench", \
        "a run's own workspace (make bench's) is passed on explicitly"


def _state(pid: int) -> str | None:
    """The process's state letter from /proc (``Z`` a zombie), or ``None`` when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def test_a_child_process_a_notebook_started_does_not_outlive_the_run(tmp_path):
    """Before: a process a cell started in the background (``!server &``: a shell's ``&`` job ignores
    SIGINT, and its shell has exited) kept running after the kernel was shut down. At shutdown
    jupyter_client 8.10 sends SIGINT to the kernel's process group and ipykernel 7 ends the
    kernel's own children; this one is neither."""
    pid_file = tmp_path / "child.pid"
    path = tmp_path / "child.ipynb"
    nbformat.write(_notebook("import subprocess\n"
                             f"subprocess.run('sleep 300 > /dev/null 2>&1 & echo $! > {pid_file}', shell=True)"), path)
    execute_notebook(path, timeout=120)
    pid = int(pid_file.read_text())
    try:
        for _ in range(300):  # the kill is immediate; reaping by init may take a moment on a busy machine
            if _state(pid) in (None, "Z"):
                break
            time.sleep(0.1)
        assert _state(pid) in (None, "Z"), "the child process is still running"
    finally:
        if _state(pid) not in (None, "Z"):
            os.kill(pid, 9)  # the test's own child (before the fix): do not leave it running


@pytest.mark.parametrize("source", [
    "print('x' * 20_000_000)",                                          # one 20 MB print
    "for i in range(100_000):\n    print(i)",                            # many small prints, merged
    "from IPython.display import HTML, display\ndisplay(HTML('<p>' + 'x' * 200_000 + '</p>'))",
])
def test_a_runaway_output_fails_the_notebook_and_is_never_committed(tmp_path, source, capsys):
    """Before: a 20 MB print was written into the notebook (and would be committed)."""
    path = tmp_path / "big.ipynb"
    nbformat.write(_notebook("x = 1", source, "print('after')"), path)
    before = path.read_bytes()
    status = main([str(path), "--timeout", "120"])
    line = capsys.readouterr().out.splitlines()[0]
    assert status == 1
    assert line.startswith(f'FAILED big.ipynb: cell 2 ("{source.splitlines()[0][:59]}') and (
        "characters, more than the 100,000 a committed cell may hold: print a summary" in line), line
    assert path.read_bytes() == before


def test_probe_what_a_pytest_sessions_kernels_inherit():
    """Run by the next test in a child pytest session: strict nbval's kernels inherit this process's
    environment, which tests/conftest.py cleans at start-up."""
    if "COURSE_ENV_PROBE" not in os.environ:
        pytest.skip("run inside the child session of test_strict_nbval_kernels_get_no_learner_state")
    assert sorted(set(PRIVATE) & set(os.environ)) == []


def test_strict_nbval_kernels_get_no_learner_state_and_no_other_secret():
    """Before: the learner's COURSE_PROGRESS_FILE / COURSE_WORKSPACE (and ANTHROPIC_API_KEY & co.)
    reached the kernels strict nbval starts, so 00's progress cell showed the learner's table."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, **PRIVATE, "COURSE_ENV_PROBE": "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_notebook_runner.py::test_probe_what_a_pytest_sessions_kernels_inherit"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_secrets_named_without_api_key_or_token_are_dropped_too(monkeypatch):
    """Hostile pass on issue 16: Baidu Qianfan's QIANFAN_AK / QIANFAN_SK (langchain-community's names),
    OPENAI_KEY, AZURE_OPENAI_KEY, a GitHub PAT, a database password in SMTP_PASS / DB_PWD reached
    the kernels (the pattern wanted API_KEY, TOKEN, SECRET, ...). The current folder (PWD), PATH and
    the like stay."""
    hidden = {"QIANFAN_AK": "ak-0123456789", "QIANFAN_SK": "sk-0123456789", "OPENAI_KEY": "sk-0123456789abcdef",
              "AZURE_OPENAI_KEY": "0123456789abcdef", "GH_PAT": "github_pat_0123", "SMTP_PASS": "hunter2hunter2",
              "DB_PWD": "hunter2hunter2"}
    kept = {"PWD": "/tmp", "OLDPWD": "/", "LD_LIBRARY_PATH": "/usr/lib", "KEYBOARD_LAYOUT": "us", "TASK": "x"}
    for name, value in {**hidden, **kept}.items():
        monkeypatch.setenv(name, value)
    env = kernel_env()
    assert not set(hidden) & set(env), sorted(set(hidden) & set(env))
    assert set(kept) <= set(env)


def test_course_cell_ids_are_kept_and_a_new_cell_gets_the_next_free_number(tmp_path):
    """Issue 17: a re-executed notebook kept no cell id (all renumbered cell-001, ...), so a cell that
    moved between notebooks lost the id its translation is keyed by. Course ids (cell-NNN) stay; a
    cell without one (a random id from JupyterLab, or a repeated id) gets the next number above the
    notebook's highest, never an id another cell had."""
    nb = _notebook("1 + 1", "2 + 2", "3 + 3")  # and the title cell first: four cells
    for cell, given in zip(nb.cells, ["cell-007", "5f3a9c1e", "cell-002", "cell-007"]):
        cell["id"] = given
    path = tmp_path / "ids.ipynb"
    nbformat.write(nb, path)
    execute_notebook(path, timeout=120)
    assert [c.id for c in nbformat.read(path, as_version=4).cells] == ["cell-007", "cell-008", "cell-002", "cell-009"]


def test_a_widget_view_is_stored_without_its_model_id_so_a_rerun_changes_no_byte(tmp_path):
    """ipywidgets names a model with a random id; the stored view keeps none (``""``, the widget manager's
    "this view is gone"), so re-executing a notebook with a widget leaves its file unchanged."""
    path = tmp_path / "widget.ipynb"
    nbformat.write(_notebook("import ipywidgets\nipywidgets.IntSlider()"), path)
    first = execute_notebook(path, timeout=120)
    text = path.read_text(encoding="utf-8")
    second = execute_notebook(path, timeout=120)
    views = [cell.outputs[0]["data"]["application/vnd.jupyter.widget-view+json"] for cell in (first.cells[1],
                                                                                             second.cells[1])]
    assert views[0]["model_id"] == views[1]["model_id"] == ""
    assert path.read_text(encoding="utf-8") == text


def test_a_kernel_imports_the_runners_checkout_first(monkeypatch):
    from tooling.kernel_env import CHECKOUT, checkout_first

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["/elsewhere/course", str(CHECKOUT), ""]))
    assert kernel_env()["PYTHONPATH"] == os.pathsep.join([str(CHECKOUT), "/elsewhere/course"])
    assert checkout_first(None, Path("/a")) == "/a" and checkout_first("/b:/a", Path("/a")) == "/a:/b"
