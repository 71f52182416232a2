"""One JupyterLab per test process for the browser tests, and what they share (issue 28).

Starting JupyterLab costs 10-14 s on the course's 2-core machine; there are nine browser test
modules. So each test process (the one pytest process, or each pytest-xdist worker) starts one
server, the first time a browser test asks for it (the session-scoped :func:`jupyterlab` fixture),
and stops it when the session ends. Isolation stays per test:

* each test gets a folder of its own under the server's root (:meth:`JupyterLab.folder`), holding
  its copy of the course's ``notebooks/``: by default each notebook it opens is copied there without
  outputs and execution counts, when it opens it (:func:`_run_notebook_in_lab`), so nothing on the
  page comes from an earlier run; a test that needs another copy (the Chinese edition, the
  committed outputs) passes its own ``copy_notebooks``;
* every kernel session of that folder is deleted through the REST API when the test ends (pass or
  fail), then the folder is removed; the server itself is stopped at the end of the session;
* each test opens its notebook in a browser of its own with ``?reset`` (JupyterLab's layout starts
  from scratch), and waits for JupyterLab's own state of that notebook, never for a fixed time.

This module is a pytest plugin (the root ``conftest.py`` registers it), so the session-scoped
server is one fixture for every module. A browser test asks for ``lab_url`` (a :class:`LabFolder`:
the server's base URL and the test's folder) and calls ``_run_notebook_in_lab(lab_url, name)``
(imported from here).

The waits (why they are what they are) are described in ``tests/test_lab_browser.py``. Needs
Debian's ``chromium`` (``/usr/bin/chromium``) and the ``playwright`` package; without them the
tests are skipped, unless ``COURSE_REQUIRE_BROWSER=1`` (set by ``.ci/run``) turns the skip into a failure.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.local_server import ServerDidNotStart, free_port, stop, wait_until_answers

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
TOKEN = "course-browser-test"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: Generous limits for a loaded 2-core machine; nothing waits for a fixed time, every wait has a condition.
READY_TIMEOUT_MS = 180_000
RUN_TIMEOUT_MS = 240_000
#: Seconds JupyterLab may take to answer ``/api/status`` after it is started.
START_TIMEOUT_S = 90

#: ``copy_notebooks(source, target)``: fills ``target`` from the course's ``notebooks/`` folder ``source``.
CopyNotebooks = Callable[[Path, Path], None]


def _require_browser() -> None:
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append("Debian package chromium (/usr/bin/chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing.append("the playwright Python package")
    if missing:
        message = "browser test needs " + " and ".join(missing)
        if os.environ.get("COURSE_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)


def _strip_outputs(source: Path, target: Path) -> None:
    """Write notebook ``source`` to ``target`` with every output and execution count removed."""
    import nbformat

    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nbformat.write(nb, target)


def _copy_side_files(source: Path, target: Path) -> None:
    """Copy what a notebook reads next to itself (every file of ``source`` that is not a notebook)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.suffix != ".ipynb" and path.is_file():
            shutil.copy2(path, target / path.name)


def _copy_opened_notebooks_only(source: Path, target: Path) -> None:
    """The default copy: only the files beside the notebooks now; each notebook is copied without
    outputs when the test opens it (:meth:`LabFolder.ensure`), so a test copies what it opens."""
    _copy_side_files(source, target)


def _api(base: str, method: str, path: str) -> object:
    request = urllib.request.Request(f"{base}{path}?token={TOKEN}", method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
    return json.loads(body) if body else None


def _delete_sessions(base: str, under: str = "") -> None:
    """Shut down every kernel session of the server whose notebook path starts with ``under``
    (DELETE returns once the kernel is gone)."""
    try:
        for session in _api(base, "GET", "/api/sessions") or []:
            if str(session.get("path", "")).startswith(under):
                _api(base, "DELETE", f"/api/sessions/{session['id']}")
    except OSError:
        pass  # the server is already gone


@dataclass(frozen=True)
class LabFolder:
    """One test's folder on the shared server.

    Attributes:
        base: the server's base URL (``http://127.0.0.1:PORT``).
        name: the folder's path under the server's root (``t3``); notebooks are ``t3/notebooks/<name>``.
        path: the folder on disk.
        lazy: notebooks are copied without outputs when opened (the default copy).
    """

    base: str
    name: str
    path: Path
    lazy: bool = False

    def notebook(self, name: str) -> str:
        """The server path of ``notebooks/<name>`` in this folder (``name`` may be ``zh/00_x.ipynb``)."""
        return f"{self.name}/notebooks/{name}"

    def ensure(self, name: str) -> None:
        """With the default copy, copy ``notebooks/<name>`` without outputs (and the files beside it) if it is not there yet."""
        target = self.path / "notebooks" / name
        if self.lazy and not target.exists():
            _copy_side_files((ROOT / "notebooks" / name).parent, target.parent)
            _strip_outputs(ROOT / "notebooks" / name, target)


class JupyterLab:
    """A JupyterLab server on 127.0.0.1 (a token, throw-away settings) serving test folders under ``root``."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.root = scratch / "root"
        self.base = ""
        self.server: subprocess.Popen | None = None
        self.starts = 0
        self._numbers = itertools.count(1)

    def start(self) -> None:
        """Start the server and wait until it answers; a server that does not start fails the test with its log."""
        settings, workspaces = self.scratch / "settings", self.scratch / "workspaces"
        (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
        (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
            '{"fetchNews": "false", "checkForUpdates": false}')
        workspaces.mkdir(exist_ok=True)
        self.root.mkdir(exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in ("COURSE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY")}
        env.update(JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(workspaces),
                   JUPYTER_RUNTIME_DIR=str(self.scratch / "runtime"))
        port = free_port()
        log_path = self.scratch / "lab.log"
        with open(log_path, "a") as log:  # the server's log, shown if it does not start
            self.server = subprocess.Popen(
                [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
                 f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={self.root}", "--allow-root",
                 "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"],
                env=env, stdout=subprocess.DEVNULL, stderr=log,
            )
        self.starts += 1
        self.base = f"http://127.0.0.1:{port}"
        try:
            wait_until_answers(f"{self.base}/api/status?token={TOKEN}", self.server, log_path, START_TIMEOUT_S)
        except ServerDidNotStart as exc:
            self.stop()
            pytest.fail(f"JupyterLab: {exc}")

    def running(self) -> bool:
        return self.server is not None and self.server.poll() is None

    def stop(self) -> None:
        """Delete every kernel session, then stop the server (terminate, kill after 30 s)."""
        if self.server is None:
            return
        if self.server.poll() is None:
            _delete_sessions(self.base)
        stop(self.server)
        self.server = None

    @contextlib.contextmanager
    def folder(self, copy_notebooks: CopyNotebooks | None = None) -> Iterator[LabFolder]:
        """A fresh folder for one test, its ``notebooks/`` filled by ``copy_notebooks`` (default: each
        notebook copied without outputs when it is opened); on exit its kernel sessions are deleted
        and the folder removed. (Re)starts the server if it is not running (it died with a test)."""
        _require_browser()
        if not self.running():
            self.start()
        name = f"t{next(self._numbers)}"
        path = self.root / name
        (copy_notebooks or _copy_opened_notebooks_only)(ROOT / "notebooks", path / "notebooks")
        try:
            yield LabFolder(self.base, name, path, lazy=copy_notebooks is None)
        finally:
            _delete_sessions(self.base, f"{name}/")
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory) -> Iterator[JupyterLab]:
    """This test process's one JupyterLab (started on first use, stopped when the session ends)."""
    lab = JupyterLab(tmp_path_factory.mktemp("jupyterlab"))
    try:
        yield lab
    finally:
        lab.stop()


@pytest.fixture
def lab_url(jupyterlab) -> Iterator[LabFolder]:
    """This test's folder on the shared JupyterLab (notebooks copied without outputs as they are opened)."""
    with jupyterlab.folder() as lab:
        yield lab


def _menu(page, menu: str, item: str) -> None:
    """Open a main-menu menu and click one item (JupyterLab 4 has no Run All shortcut)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).first.click()
    entry = page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel").filter(
        has_text=re.compile(rf"^{re.escape(item)}$")).first
    entry.wait_for(state="visible", timeout=30_000)
    entry.click()


# JupyterLab's own state of the notebook opened from `path` (window.jupyterapp exists because the
# server runs with --LabApp.expose_app_in_browser=True). Reads only; nothing is clicked from here.
_NOTEBOOK_STATE = """(path) => {
    const app = window.jupyterapp;
    if (!app || !app.shell) return {ready: false, why: "no app yet"};
    const panel = [...app.shell.widgets("main")].find(w => w.context && w.context.path === path);
    if (!panel) return {ready: false, why: "notebook not open yet"};
    const notebook = panel.content;
    const kernel = panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = notebook.widgets.length;
    const codeCells = notebook.widgets.filter(c => c.model.type === "code");
    // Errors from the notebook model, not the page: JupyterLab 4 leaves a cell off screen out of the DOM.
    const models = notebook.model ? Array.from({length: notebook.model.cells.length},
                                               (_, i) => notebook.model.cells.get(i)) : [];
    const errors = [];
    models.forEach((cell, index) => {
        if (cell.type !== "code") return;
        for (const output of cell.outputs.toJSON()) {
            if (output.output_type === "error") errors.push(`cell ${index}: ${output.ename}: ${output.evalue}`);
        }
    });
    return {
        ready: panel.context.isReady && !!kernel && kernel.connectionStatus === "connected"
               && kernel.status === "idle" && cells > 0 && cells === notebook.model.cells.length
               && !!notebook.activeCell
               && notebook.node.querySelectorAll(".jp-Cell").length === cells,
        cells: cells,
        kernel: kernel ? kernel.connectionStatus + "/" + kernel.status : "none",
        counted: codeCells.filter(c => c.model.executionCount !== null).length,
        code: codeCells.length,
        errors: errors.length,
        error_list: errors.slice(0, 5),
    };
}"""


def _state(page, path: str) -> dict:
    return page.evaluate(_NOTEBOOK_STATE, path)


def _wait_ready(page, path: str) -> None:
    """Wait until JupyterLab has the notebook loaded and rendered and its kernel connected and idle."""
    page.wait_for_function(f"(path) => ({_NOTEBOOK_STATE})(path).ready", arg=path, timeout=READY_TIMEOUT_MS)


def _wait_finished(page, path: str) -> None:
    """Wait until Run All is over: every code cell has a count and the kernel is idle, or a cell failed."""
    done = (f"(path) => {{ const s = ({_NOTEBOOK_STATE})(path); "
            "return s.errors > 0 || (s.counted === s.code && s.kernel === 'connected/idle'); }")
    page.wait_for_function(done, arg=path, timeout=RUN_TIMEOUT_MS)


@contextlib.contextmanager
def _run_notebook_in_lab(lab: LabFolder, name: str):
    """Open ``notebooks/<name>`` of the test's folder in JupyterLab and Run All; yield (page, notebook
    locator) once it finished.

    The notebook is a copy without outputs (see ``tests/test_lab_browser.py``), so every output a
    test checks comes from this run. A cell that raised fails here, with a screenshot path.
    """
    from playwright.sync_api import expect, sync_playwright

    lab.ensure(name)
    path = lab.notebook(name)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(60_000)  # clicks and fills on a loaded machine; every wait still has a condition
            page.goto(f"{lab.base}/lab/tree/{path}?reset&token={TOKEN}", timeout=READY_TIMEOUT_MS)
            _wait_ready(page, path)
            notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
            # Nothing left from an earlier run: no output, no numbered prompt (all cells are in the DOM now).
            expect(notebook.locator(".jp-OutputArea-output")).to_have_count(0)
            expect(notebook.locator(".jp-CodeCell .jp-InputPrompt").filter(has_text=re.compile(r"\d"))).to_have_count(0)
            _menu(page, "Run", "Run All Cells")
            _wait_finished(page, path)
            state = _state(page, path)
            if state["errors"]:
                shot = Path(os.environ.get("TMPDIR", "/tmp")) / f"lab-{Path(name).name}.png"
                page.screenshot(path=str(shot), full_page=True)
                pytest.fail(f"{name}: a cell raised in JupyterLab ({state}); screenshot {shot}")
            yield page, notebook
        finally:
            browser.close()
