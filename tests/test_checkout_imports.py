"""Every command and kernel imports the checkout it runs in (issue 28).

Nothing is installed from a checkout (``requirements.txt`` has no ``-e .``: an editable install made a
second clone's kernels import the first clone's helpers). Two checkouts share one venv here: this one,
and a second copy whose ``.venv`` is this checkout's venv. Started from the second, with nothing of
either checkout on ``PYTHONPATH``:

* a kernel started by the Makefile (``make notebooks``: the runner and its kernel), and a Python that a
  recipe starts outside the checkout, as ``make lab`` starts JupyterLab in the workspace (the same
  exported ``PYTHONPATH`` reaches its kernels),
* a kernel started by pytest (strict nbval, through the second's root ``conftest.py``),
* ``binder/start``, which starts the server of the Binder / JupyterHub image,

each import the second checkout's ``helpers`` (and the runner its ``tooling``); a plain Python started
outside the checkout without them does not, so the mechanisms above are what makes it so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from tooling.kernel_env import CHECKOUT

ROOT = Path(__file__).resolve().parent.parent
#: What the second checkout needs to run the commands below.
COPIED = ("helpers", "tooling", "binder", "Makefile", "pyproject.toml", "requirements.txt", "conftest.py",
          # the pytest plugins the root conftest.py loads, and what they import
          "tests/nbval_report.py", "tests/lab_server.py", "tests/local_server.py", "tests/notebook_selection.py")
#: The probe cell: which helpers and tooling a kernel imported, written beside the notebook (no output,
#: so the committed notebook passes strict nbval too).
PROBE = ("import json, helpers, tooling\n"
         "json.dump({'helpers': helpers.__file__, 'tooling': tooling.__file__}, open('where.json', 'w'))")


def _second_checkout(tmp_path: Path) -> Path:
    second = tmp_path / "second"
    second.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, second / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (second / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, second / name)
    (second / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)  # one venv, shared
    (second / "notebooks").mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE, id="cell-000")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, second / "notebooks" / "99_probe.ipynb")
    return second


def _env() -> dict[str, str]:
    """This environment with neither checkout on ``PYTHONPATH`` (the offline guard stays), as a fresh shell."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    kept = [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry and Path(entry) != CHECKOUT]
    env["PYTHONPATH"] = os.pathsep.join(kept)
    return env


def _imported(second: Path) -> dict[str, str]:
    where = second / "notebooks" / "where.json"
    found = json.loads(where.read_text(encoding="utf-8"))
    where.unlink()
    return found


def _inside(path: str, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(folder.resolve())


def test_kernels_and_commands_started_from_a_second_checkout_import_its_helpers(tmp_path):
    second = _second_checkout(tmp_path)
    env = _env()

    # make: the venv is up to date (-o: never reinstall the shared venv from this test)
    made = subprocess.run(["make", "-C", str(second), "-o", ".venv/.requirements-installed", "notebooks",
                           "NB=notebooks/99_probe.ipynb"], env=env, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    assert "ok 99_probe.ipynb" in made.stdout, made.stdout
    found = _imported(second)
    assert _inside(found["helpers"], second / "helpers") and _inside(found["tooling"], second / "tooling"), found
    # what every recipe exports, e.g. `make lab`'s JupyterLab started in the workspace and its kernels: a
    # Python started outside the checkout (a rule added for the test: GNU make's --eval)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    rule = f'probe: ; @cd "{outside}" && "$(abspath $(BIN))/python" -c "import helpers; print(helpers.__file__)"'
    made = subprocess.run(["make", "--no-print-directory", "-C", str(second), "-o", ".venv/.requirements-installed",
                           "--eval", rule, "probe"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    assert _inside(made.stdout.strip().splitlines()[-1], second / "helpers"), made.stdout

    # pytest: strict nbval's kernel
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist",
                             "notebooks/99_probe.ipynb"], cwd=second, env=env, capture_output=True, text=True,
                            timeout=600)
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-3000:]
    assert _inside(_imported(second)["helpers"], second / "helpers")

    # binder/start: the image's entry point, then the command it is given (the server; here a Python)
    started = subprocess.run([str(second / "binder" / "start"), "python", "-c", "import helpers; print(helpers.__file__)"],
                             cwd=tmp_path, env={**env, "PATH": os.pathsep.join([str(Path(sys.executable).parent),
                                                                                env.get("PATH", "")]),
                                                "TMPDIR": str(tmp_path)},
                             capture_output=True, text=True, timeout=600)
    assert started.returncode == 0, started.stdout[-3000:] + started.stderr[-3000:]
    assert _inside(started.stdout.strip().splitlines()[-1], second / "helpers"), started.stdout

    # the control: without them, a Python started outside the checkout does not import the second's helpers
    bare = subprocess.run([sys.executable, "-c", "import helpers; print(helpers.__file__)"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert bare.returncode != 0 or not _inside(bare.stdout.strip(), second), bare.stdout
