"""Replay what the course's Binder / JupyterHub image does, without Docker, and measure it.

repo2docker builds the image from ``binder/`` (Python from ``runtime.txt``, ``pip install -r
binder/requirements.txt`` in the repository folder), then every container start runs ``binder/start``
with the server's command. Here the install is this venv (the same pinned ``requirements.txt``), the
repository is a temporary copy of this checkout's files (tracked and new, never ``workspace/``), and
the command is JupyterLab on 127.0.0.1 with a token.

``python -m tests.binder_replay`` prints the figures a hub admin sets per-user limits from (the size
of the installed packages, the server's memory, a kernel's peak memory running notebook 00); the
test (``tests/test_binder.py``) asserts the behaviour, never the figures.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.local_server import free_port, stop, wait_until_answers
from tooling.bench import _kernel_pid, _peak_mb
from tooling.kernel_env import CHECKOUT, checkout_first
from tooling.notebooks import kernel_env, read_notebook, run_notebook

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 120  # seconds for the server to answer (a busy 2-core CI machine)


def instructor_python(module: str) -> str | None:
    """A Python that can import ``module`` (an instructor requirement, ``requirements-instructor.txt``):
    this one, else the one ``COURSE_INSTRUCTOR_PYTHON`` names (``.ci/run`` sets it), else ``None``."""
    if importlib.util.find_spec(module) is not None:
        return sys.executable
    named = os.environ.get("COURSE_INSTRUCTOR_PYTHON")
    return named if named and Path(named).exists() else None


def course_copy(target: Path) -> Path:
    """Copy this checkout's files (tracked and untracked, not git-ignored) to ``target``; return it."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@dataclass
class Server:
    """A started server: its base URL, token and process (``binder/start`` execs into it: same pid)."""

    base: str
    token: str
    process: subprocess.Popen

    def get(self, path: str) -> tuple[int, str | None, bytes]:
        """``(status, Location header, body)`` of ``GET path`` with the token, redirects not followed."""
        host, port = self.base.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            sep = "&" if "?" in path else "?"
            connection.request("GET", f"{path}{sep}token={self.token}")
            reply = connection.getresponse()
            return reply.status, reply.getheader("Location"), reply.read()
        finally:
            connection.close()


def image_env(repo: Path, tmp: Path) -> dict[str, str]:
    """The environment of the replayed container: offline, this venv first on ``PATH``, the copy first on
    ``PYTHONPATH`` and this checkout not on it (what ``binder/start`` exports for the server and its kernels;
    the image installs no helpers), throw-away Jupyter dirs."""
    env = kernel_env()
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    others = [entry for entry in env["PYTHONPATH"].split(os.pathsep) if Path(entry) != CHECKOUT]
    env["PYTHONPATH"] = checkout_first(os.pathsep.join(others), repo)
    for name, folder in (("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                         ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"), ("JUPYTER_CONFIG_DIR", "user-config")):
        (tmp / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp / folder)
    env["TMPDIR"] = str(tmp)  # binder/start's config folder goes there, not in /tmp
    env.pop("JUPYTER_CONFIG_PATH", None)
    env.pop("COURSE_WORKSPACE", None)
    return env


@contextlib.contextmanager
def started_image(repo: Path, tmp: Path) -> Iterator[Server]:
    """Run ``repo/binder/start jupyter lab ...`` in ``repo`` (as repo2docker's entry point does) and yield
    the server once it answers; stop it after (terminate, kill after 30 s)."""
    port, token = free_port(), secrets.token_hex(16)
    command = [str(repo / "binder" / "start"), "jupyter", "lab", "--no-browser", f"--port={port}",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", "--allow-root",
               "--LabApp.extension_manager=readonly"]
    log_path = tmp / "server.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=repo, env=image_env(repo, tmp), stdout=log, stderr=subprocess.STDOUT)
        server = Server(f"http://127.0.0.1:{port}", token, process)
        try:
            wait_until_answers(f"{server.base}/api/status?token={token}", process, log_path, START_TIMEOUT, poll_s=0.5)
            yield server
        finally:
            stop(process)


def run_start_notebook(repo: Path, workspace: Path, tmp: Path,
                       name: str = "00_start_here.ipynb") -> tuple[object, float | None]:
    """Execute the workspace's notebook ``name`` in a kernel started in the workspace (as the learner's
    kernel is); return the executed notebook and the kernel's peak memory in MB (VmHWM)."""
    peak: list[float] = []

    def after_cell(client, _index) -> None:
        value = _peak_mb(_kernel_pid(client))
        if value is not None:
            peak.append(value)

    path = workspace / name
    executed = run_notebook(read_notebook(path), path=path, cwd=workspace, env=image_env(repo, tmp),
                            on_cell_executed=after_cell)
    return executed, max(peak, default=None)


def _folder_mb(folder: Path) -> float:
    total = sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    return total / 10**6


def installed_mb() -> dict[str, float]:
    """Sizes in MB (10**6 bytes) of this venv's installed packages and of the whole venv."""
    return {"site-packages": round(_folder_mb(Path(sysconfig.get_paths()["purelib"])), 1),
            "venv": round(_folder_mb(Path(sys.prefix)), 1)}


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 10**6
    raise RuntimeError(f"no VmRSS for process {pid}")


def measure(tmp: Path) -> dict[str, object]:
    """Start the replayed image, open notebook 00's URL, run notebooks 00, 09 and 12 in the workspace; the
    figures (MB are 10**6 bytes; a server's is its resident memory, a kernel's its peak)."""
    repo = course_copy(tmp / "repo")
    figures: dict[str, object] = {"installed_mb": installed_mb()}
    with started_image(repo, tmp) as server:
        figures["server_started_mb"] = round(_rss_mb(server.process.pid), 1)
        status, location, _ = server.get("/")
        server.get(location or "/lab")
        _, kernel_peak = run_start_notebook(repo, repo / "workspace", tmp)
        figures["server_after_lab_page_mb"] = round(_rss_mb(server.process.pid), 1)
        figures["kernel_peak_notebook_00_mb"] = round(kernel_peak, 1) if kernel_peak else None
        for name in ("09_tool_errors_and_idempotency.ipynb", "12_deep_agents_control_plane.ipynb"):
            _, peak = run_start_notebook(repo, repo / "workspace", tmp, name)  # the largest notebooks
            figures[f"kernel_peak_notebook_{name[:2]}_mb"] = round(peak, 1) if peak else None
    figures["load_average"] = os.getloadavg()
    return figures


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(measure(Path(folder)), indent=2))
