"""``python -m tooling.drift``: re-execute the notebooks on the newest releases and report what changed.

Usage (``make drift``)::

    python -m tooling.drift                      # build .drift/venv, execute every notebook there, report
    python -m tooling.drift --reuse-venv 03 08   # keep the venv built last time; some notebooks only
    python -m tooling.drift report               # rebuild the report from the last run's executed copies

Writes, under ``--dir`` (default ``.drift/`` in the course root, git-ignored): ``venv/``,
``packages.json`` (the moves), ``notebooks/`` (the executed copies), ``guard.jsonl`` (connections the
offline guard refused while they ran), ``report.md`` and ``report.json``. The notebooks run offline
(the real-model variables removed), guarded by ``tests/offline_guard/`` like the test kernels, in
their own folder as strict nbval runs them; the committed notebooks are never written. Exit status
0 when the report was written (whatever it says), 1 when the venv could not be built.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import nbformat

from ..notebooks import DEFAULT_TIMEOUT, OFFLINE_UNSET, NotebookFailure, course_notebooks, execute_notebook
from helpers.workspace import COURSE_ROOT, NOTEBOOK_DIR, resolve_names
from .compare import NotebookDrift, compare_notebooks, render_json, render_markdown
from .upgrade import VENV_SEED, PackageMove, Pip, direct_pins, normalise, pinned_versions, plan_moves, resolve

GUARD_DIR = COURSE_ROOT / "tests" / "offline_guard"
_FAILURES = "failures.json"
_PROBE = "import sys; print(sys.prefix)"


def _say(text: str) -> None:
    print(text, flush=True)


def build_venv(folder: Path, requirements: str) -> list[PackageMove]:
    """Create ``folder/venv`` and install the newest releases of the direct dependencies there.

    Raises:
        RuntimeError: the venv could not be created or pip could not install the set (the message is pip's).
    """
    venv = folder / "venv"
    if not (venv / "bin" / "python").exists():
        _say(f"creating {venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = Pip(venv / "bin" / "python")
    pip("install", "--quiet", "--upgrade", "pip")
    pins = direct_pins(requirements)
    newest = {}
    for pin in pins:
        newest[pin.name] = pip.newest(pin.name)
        _say(f"  {pin.name}: pinned {pin.version}, newest served {newest[pin.name][0] or '?'}")
    moves = plan_moves(pins, newest)
    wanted = resolve(moves, pip)
    _say("installing " + " ".join(wanted))
    done = pip("install", "--quiet", "--upgrade", *wanted)
    if done.returncode != 0:
        raise RuntimeError(f"pip could not install the drift set: {done.stderr.strip()[-800:]}")
    installed = pip.installed()
    for move in moves:
        move.installed = installed.get(normalise(move.name), "")
        if move.newest and move.installed != move.newest and not move.note:
            move.note = f"pip installed {move.installed or 'nothing'} instead of {move.newest}"
    return moves


def execute(paths: Sequence[Path], out: Path, timeout: int) -> int:
    """Run inside the drift venv: execute each notebook offline into ``out`` (errors kept as outputs).

    A notebook that cannot be executed at all is listed in ``out/failures.json`` with its one-line reason.
    Returns 0, or 1 when the kernel did not run in this venv (then nothing is executed).
    """
    out.mkdir(parents=True, exist_ok=True)
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_PROBE)])
    probe_path = out / ".probe.ipynb"
    nbformat.write(probe, probe_path)
    executed = execute_notebook(probe_path, output=probe_path, timeout=120)
    prefix = "".join(o.get("text", "") for o in executed.cells[0].outputs).strip()
    probe_path.unlink()
    if Path(prefix).resolve() != Path(sys.prefix).resolve():
        _say(f"the kernel ran in {prefix}, not in the drift venv {sys.prefix}: check the python3 kernelspec")
        return 1
    failures = {}
    for path in paths:
        started = time.monotonic()
        try:
            execute_notebook(path, output=out / path.name, allow_errors=True, timeout=timeout)
            _say(f"  executed {path.name} ({time.monotonic() - started:.0f} s)")
        except NotebookFailure as exc:
            failures[path.name] = exc.line()
            _say(f"  {exc.line()}")
    (out / _FAILURES).write_text(json.dumps(failures, indent=1) + "\n", encoding="utf-8")
    return 0


def report(folder: Path, paths: Sequence[Path], moves: Sequence[PackageMove],
           notes: Sequence[str] = ()) -> list[NotebookDrift]:
    """Compare the executed copies in ``folder/notebooks`` with the committed notebooks; write the report."""
    executed_dir = folder / "notebooks"
    failures_file = executed_dir / _FAILURES
    failures = json.loads(failures_file.read_text(encoding="utf-8")) if failures_file.exists() else {}
    results = []
    for path in paths:
        committed = nbformat.read(path, as_version=4)
        copy = executed_dir / path.name
        if path.name in failures or not copy.exists():
            code = sum(1 for c in committed.cells if c.cell_type == "code")
            results.append(NotebookDrift(path.name, code, failure=failures.get(path.name, "no executed copy")))
            continue
        results.append(compare_notebooks(path.name, committed, nbformat.read(copy, as_version=4)))
    notes = [*notes, *_guard_notes(folder / "guard.jsonl")]
    (folder / "report.md").write_text(render_markdown(moves, results, notes), encoding="utf-8")
    (folder / "report.json").write_text(render_json(moves, results, notes), encoding="utf-8")
    return results


def _guard_notes(log: Path) -> list[str]:
    if not log.exists():
        return ["the offline guard's log is missing: the notebooks may not have run guarded"]
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    refused = [e for e in entries if e.get("event") != "guard.start"]
    if not any(e.get("event") == "guard.start" for e in entries):
        return ["the offline guard never started: the notebooks may not have run guarded"]
    return [f"the offline guard refused {e['event']} {e['target']} (pid {e['pid']})" for e in refused]


def _moved_dependencies(requirements: str, venv_python: Path) -> list[str]:
    pinned = pinned_versions(requirements)
    installed = Pip(venv_python).installed()
    direct = {normalise(p.name) for p in direct_pins(requirements)}
    return [f"{name} {pinned[name]} -> {version}" for name, version in sorted(installed.items())
            if name in pinned and name not in direct | VENV_SEED and pinned[name] != version]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry; see the module docstring."""
    parser = argparse.ArgumentParser(prog="python -m tooling.drift", description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks (NN or file names; default: all)")
    parser.add_argument("--dir", type=Path, default=COURSE_ROOT / ".drift", help="where everything goes")
    parser.add_argument("--reuse-venv", action="store_true", help="keep the venv and packages.json of the last run")
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, metavar="SECONDS", help="per cell")
    parser.add_argument("--execute-into", type=Path, help=argparse.SUPPRESS)  # internal: inside the venv
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    rebuild_report = args.notebooks == ["report"]
    names = [] if rebuild_report else args.notebooks
    paths = [NOTEBOOK_DIR / name for name in resolve_names(names)] if names else course_notebooks()
    if args.execute_into is not None:
        return execute(paths, args.execute_into, args.timeout)

    folder = args.dir.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    requirements = (COURSE_ROOT / "requirements.txt").read_text(encoding="utf-8")
    packages_file = folder / "packages.json"
    venv_python = folder / "venv" / "bin" / "python"
    if (args.reuse_venv or rebuild_report) and packages_file.exists() and venv_python.exists():
        moves = [PackageMove(**m) for m in json.loads(packages_file.read_text(encoding="utf-8"))]
    else:
        try:
            moves = build_venv(folder, requirements)
        except (RuntimeError, ValueError, subprocess.CalledProcessError) as exc:
            _say(f"drift: the venv could not be built: {exc}")
            return 1
        packages_file.write_text(json.dumps([asdict(m) for m in moves], indent=1) + "\n", encoding="utf-8")
    notes = []
    if not rebuild_report:
        log = folder / "guard.jsonl"
        log.unlink(missing_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in OFFLINE_UNSET}
        env.update(PYTHONPATH=os.pathsep.join([str(GUARD_DIR), str(COURSE_ROOT)]), COURSE_NET_GUARD_LOG=str(log))
        _say(f"executing {len(paths)} notebooks in {folder / 'venv'}")
        command = [str(venv_python), "-m", "tooling.drift", "--execute-into", str(folder / "notebooks"),
                   "--timeout", str(args.timeout), *[p.name for p in paths]]
        status = subprocess.run(command, env=env, cwd=COURSE_ROOT, check=False).returncode
        if status != 0:
            notes.append(f"the executor in the drift venv stopped with status {status} (its output says why)")
    moved = _moved_dependencies(requirements, venv_python)
    if moved:
        notes.append("other pinned packages that moved with them: " + ", ".join(moved))
    results = report(folder, paths, moves, notes)
    changed = sum(len(r.changes) for r in results)
    _say(f"drift: {changed} code cells changed in {sum(1 for r in results if r.changes or r.failure)} of "
         f"{len(results)} notebooks; report in {folder / 'report.md'} and {folder / 'report.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
