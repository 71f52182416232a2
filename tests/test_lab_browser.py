"""The course in real JupyterLab, driven by headless Chromium (Playwright).

Starts JupyterLab on 127.0.0.1 with a token and throw-away settings, opens a notebook, runs all
cells from the Run menu, and checks what a learner sees. This file holds the shared helpers
(:func:`_lab_server`, the ``lab_url`` fixture, :func:`_run_notebook_in_lab`) and the tests for
notebooks 00 and 02; ``test_lab_browser_07.py``, ``_08.py`` and ``_09.py`` use the same helpers, and
``test_lab_browser_diagrams.py`` starts :func:`_lab_server` on the notebooks *with* their outputs.

Deterministic under load. An earlier version waited for ``.jp-Notebook-ExecutionIndicator
[data-status="idle"]`` and then clicked "Clear Outputs of All Cells". That indicator shows
``idle`` in its initial state, before the kernel has even started, and JupyterLab 4.6 renders a
long notebook's cells in chunks. JupyterLab's ``clearAllOutputs`` and ``runAll`` do nothing while
the notebook has no active cell (``if (!notebook.model || !notebook.activeCell) return``). On a
loaded machine the click landed before the first chunk: Clear did nothing, the "no outputs" check
passed on a page that had no cells yet, and then the saved prompts appeared chunk by chunk
(1, 9, 25, 30 numbered prompts); a Run All clicked that early did nothing either, which a retry
papered over. Now:

* the notebooks are copied with their outputs and execution counts removed, so nothing on the
  page needs clearing and a numbered prompt can only come from this run;
* before any click, the test waits for JupyterLab's own state (``--LabApp.expose_app_in_browser``):
  the notebook's context is ready, its kernel is connected and idle, every cell exists and is in
  the DOM, and there is an active cell;
* Run All is clicked once; it cannot be a no-op any more, and "finished" means every code cell has
  an execution count and the kernel is idle again (or a cell failed, which is reported);
* on teardown every kernel session is deleted through the REST API before the server stops;
* a click that depends on text just typed into a widget waits until the kernel shows it has the
  text (07: the playground's "Changed since the run below: ..." line), because a button's click
  message can reach the kernel before a text box's update.

Proof (2026-12-01, 2 cores): 10 consecutive runs of all five browser test files (15 tests) with two
CPU-bound processes beside them, 10 of 10 passed, 167-190 s a run.

Needs Debian's ``chromium`` (``/usr/bin/chromium``, installed by ``.ci/run``). Without it the tests
are skipped, unless ``COURSE_REQUIRE_BROWSER=1`` (set by ``.ci/run``) turns the skip into a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
TOKEN = "course-browser-test"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: Generous limits for a loaded 2-core machine; nothing waits for a fixed time, every wait has a condition.
READY_TIMEOUT_MS = 180_000
RUN_TIMEOUT_MS = 240_000


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _copy_without_outputs(source: Path, target: Path) -> None:
    """Copy the course notebooks with every output and execution count removed (never touch the originals)."""
    import nbformat

    target.mkdir(parents=True)
    for path in sorted(source.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
        nbformat.write(nb, target / path.name)
    for path in source.iterdir():  # anything else a notebook reads next to itself
        if path.suffix != ".ipynb" and path.is_file():
            shutil.copy2(path, target / path.name)


def _api(base: str, method: str, path: str) -> object:
    request = urllib.request.Request(f"{base}{path}?token={TOKEN}", method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
    return json.loads(body) if body else None


def _delete_sessions(base: str) -> None:
    """Shut down every kernel session of the server (DELETE returns once the kernel is gone)."""
    try:
        for session in _api(base, "GET", "/api/sessions") or []:
            _api(base, "DELETE", f"/api/sessions/{session['id']}")
    except OSError:
        pass  # the server is already gone


@contextlib.contextmanager
def _lab_server(tmp_path: Path, copy_notebooks=_copy_without_outputs):
    """Start JupyterLab on 127.0.0.1 (token, throw-away settings) and yield its base URL; stop it after.

    ``copy_notebooks(source, target)`` fills ``<tmp_path>/course/notebooks`` from the course's
    ``notebooks/`` (by default without outputs, see the module docstring). On exit every kernel
    session is deleted through the REST API, then the server is stopped (terminate, kill after 30 s).
    """
    _require_browser()
    settings, workspaces, root = tmp_path / "settings", tmp_path / "workspaces", tmp_path / "course"
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    workspaces.mkdir()
    copy_notebooks(ROOT / "notebooks", root / "notebooks")
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY")}
    env.update(JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(workspaces),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    port = _free_port()
    with open(tmp_path / "lab.log", "w") as log:  # the server's log, shown if it does not start
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
             f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}", "--allow-root",
             "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"],
            env=env, stdout=subprocess.DEVNULL, stderr=log,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=2)
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        pytest.fail("JupyterLab did not start:\n" + (tmp_path / "lab.log").read_text()[-2000:])
                    time.sleep(0.3)
            yield base
        finally:
            _delete_sessions(base)
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=30)


@pytest.fixture
def lab_url(tmp_path):
    """A JupyterLab server of this test's own, on a copy of the notebooks without outputs; its base URL."""
    with _lab_server(tmp_path) as base:
        yield base


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
def _run_notebook_in_lab(lab_url: str, name: str):
    """Open ``notebooks/<name>`` in JupyterLab and Run All; yield (page, notebook locator) once it finished.

    The notebook is a copy without outputs (see the module docstring), so every output a test
    checks comes from this run. A cell that raised fails here, with a screenshot path.
    """
    from playwright.sync_api import expect, sync_playwright

    path = f"notebooks/{name}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(60_000)  # clicks and fills on a loaded machine; every wait still has a condition
            page.goto(f"{lab_url}/lab/tree/{path}?reset&token={TOKEN}", timeout=READY_TIMEOUT_MS)
            _wait_ready(page, path)
            notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
            # Nothing left from an earlier run: no output, no numbered prompt (all cells are in the DOM now).
            expect(notebook.locator(".jp-OutputArea-output")).to_have_count(0)
            expect(notebook.locator(".jp-CodeCell .jp-InputPrompt").filter(has_text=re.compile(r"\d"))).to_have_count(0)
            _menu(page, "Run", "Run All Cells")
            _wait_finished(page, path)
            state = _state(page, path)
            if state["errors"]:
                shot = Path(os.environ.get("TMPDIR", "/tmp")) / f"lab-{name}.png"
                page.screenshot(path=str(shot), full_page=True)
                pytest.fail(f"{name}: a cell raised in JupyterLab ({state}); screenshot {shot}")
            yield page, notebook
        finally:
            browser.close()


def test_start_here_runs_in_jupyterlab(lab_url, tmp_path):
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "00_start_here.ipynb") as (page, notebook):
        expect(notebook.locator(".jp-OutputArea-output", has_text="all 4 checks passed")).to_be_visible(timeout=60_000)
        expect(notebook.locator(".jp-OutputArea-output", has_text="not solved yet")).to_have_count(1)
        expect(notebook.locator(".jp-OutputArea-output", has_text="scripted model (1 step, offline)").first).to_be_visible()
        # Markdown tables: the trace table (and the static tables in Markdown cells).
        expect(notebook.locator(".jp-OutputArea-output table", has_text="answers call_1")).to_have_count(1)
        # Mermaid: the sequence diagram output is drawn as an SVG image, not left as code.
        diagram = notebook.locator('.jp-OutputArea-output .jp-RenderedMermaid img[src^="data:image/svg+xml"]')
        expect(diagram).to_have_count(1, timeout=60_000)
        assert notebook.locator(".jp-RenderedMermaid .jp-RenderedMermaid-error, .jp-mermaid-error").count() == 0
        assert notebook.locator(".jp-OutputArea-output", has_text="Traceback").count() == 0
        diagram.scroll_into_view_if_needed()
        diagram.screenshot(path=str(tmp_path / "sequence_diagram.png"))  # for a human to look at
        page.screenshot(path=str(tmp_path / "00_start_here.png"))


def test_you_are_the_model_and_the_self_check_work_in_jupyterlab(lab_url, tmp_path):
    """Notebook 02: the widget opens clean, a click shows ToolNode's answer; the self-check says RIGHT and WRONG."""
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "02_tool_calls_are_requests.ipynb") as (page, notebook):
        widget = notebook.locator(".course-you-are-the-model")
        expect(widget).to_be_visible(timeout=60_000)
        expect(widget).to_contain_text("Can I get my money back for order A1024?")
        # It opens as its Markdown says: nothing sent yet, the first tool's skeleton (the demo used its own engine).
        expect(widget).to_contain_text("No tool call sent yet", timeout=30_000)
        expect(widget).not_to_contain_text("call_")
        arguments = widget.locator("textarea")
        expect(arguments).to_have_value('{"order_id": ""}')
        widget.scroll_into_view_if_needed()
        widget.locator("select").select_option("submit_refund_request")
        expect(arguments).to_have_value('{"order_id": "", "amount": 0}', timeout=30_000)
        arguments.fill('{"order_id": "A1024"}')
        widget.locator("button", has_text="Send tool call").click()
        reply = widget.locator(".course-reply")
        expect(reply).to_have_attribute("data-outcome", "argument_error", timeout=30_000)
        expect(reply).to_contain_text("ToolMessage(tool_call_id=call_1, status=error)")
        expect(reply).to_contain_text("amount: Field required")
        expect(reply.locator(".course-badge")).to_have_text("ERROR RESULT")

        arguments.fill('{"order_id": A1024}')
        widget.locator("button", has_text="Send tool call").click()
        expect(reply).to_have_attribute("data-outcome", "invalid_json", timeout=30_000)
        expect(reply).to_contain_text("No tool ran")
        expect(reply.locator(".course-badge")).to_have_text("NOT RUN")
        expect(widget.locator(".course-history li")).to_have_count(2)
        widget.screenshot(path=str(tmp_path / "you_are_the_model.png"))

        widget.locator("button", has_text="Start again").click()
        expect(widget).to_contain_text("No tool call sent yet", timeout=30_000)
        expect(widget.locator(".course-history li")).to_have_count(0)

        check = notebook.locator(".course-self-check")
        check.scroll_into_view_if_needed()
        expect(check).to_contain_text("Check yourself")
        questions = check.locator(".course-question")
        expect(questions).to_have_count(5)
        first, second = questions.nth(0), questions.nth(1)
        first.locator("label", has_text="1 0 0").click()
        first.locator("button", has_text="Check").click()
        expect(first.locator(".course-verdict")).to_have_attribute("data-verdict", "right", timeout=30_000)
        expect(first.locator(".course-badge")).to_have_text("RIGHT")
        expect(first).to_contain_text("(see section 3, Nothing has run yet)")
        second.locator("label", has_text="nothing: results are matched by their position").click()
        second.locator("button", has_text="Check").click()
        expect(second.locator(".course-verdict")).to_have_attribute("data-verdict", "wrong", timeout=30_000)
        expect(second.locator(".course-badge")).to_have_text("WRONG")
        expect(check.locator(".course-score")).to_contain_text("1 of 5 right on first try, 2 answered.")
        # Exploring another choice: ticking it unticks the first; it is shown as attempt 2, the score stays.
        second.locator("label", has_text='tool_call_id="call_7" on the ToolMessage').click()
        expect(second.locator("input[type=checkbox]:checked")).to_have_count(1, timeout=30_000)
        second.locator("button", has_text="Check").click()
        expect(second.locator(".course-verdict")).to_have_attribute("data-attempt", "2", timeout=30_000)
        expect(second.locator(".course-verdict")).to_have_attribute("data-verdict", "right")
        expect(second).to_contain_text("Your first answer (WRONG) counts")
        expect(check.locator(".course-score")).to_contain_text("1 of 5 right on first try, 2 answered.")
        check.screenshot(path=str(tmp_path / "self_check.png"))
