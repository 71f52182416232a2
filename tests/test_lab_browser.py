"""The course in real JupyterLab, driven by headless Chromium (Playwright).

Opens a notebook in JupyterLab on 127.0.0.1 (a token, throw-away settings), runs all cells from the
Run menu, and checks what a learner sees. The server and the shared helpers (the ``lab_url``
fixture, :func:`_run_notebook_in_lab`) are in ``tests/lab_server.py``: one JupyterLab per test
process, a fresh folder per test (issue 28). This file holds the tests for notebooks 00 and 02;
``test_lab_browser_diagrams.py`` opens the notebooks *with* their outputs on the same server.

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
* on teardown every kernel session of the test's folder is deleted through the REST API (the
  server, shared by the test process, stops at the end of the session);
* a click right after typing into a widget needs no wait: the widget's page part
  (``helpers/widgets/page_clicks.js``) sends the click with the text the page shows, because a
  button's own click message can reach the kernel before a text box's update (ipywidgets 8).

Proof (2026-12-01, 2 cores): 10 consecutive runs of all five browser test files (15 tests) with two
CPU-bound processes beside them, 10 of 10 passed, 167-190 s a run.

Needs Debian's ``chromium`` (``/usr/bin/chromium``, installed by ``.ci/run``). Without it the tests
are skipped, unless ``COURSE_REQUIRE_BROWSER=1`` (set by ``.ci/run``) turns the skip into a failure.
"""

from __future__ import annotations

import pytest

from tests.lab_server import _run_notebook_in_lab

@pytest.mark.notebook("00")
def test_start_here_runs_in_jupyterlab(lab_url, tmp_path):
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "00_start_here.ipynb") as (page, notebook):
        expect(notebook.locator(".jp-OutputArea-output", has_text="all 5 checks passed")).to_be_visible(timeout=60_000)
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


@pytest.mark.notebook("02")
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
        # Typed and clicked at once, like a fast learner: the click carries the text the page shows
        # (the page part), so the call sent is the one typed even if the field's own update comes later.
        arguments.fill('{"order_id": "A1024"}')
        widget.locator("button", has_text="Send tool call").click()
        reply = widget.locator(".course-reply")
        expect(reply).to_have_attribute("data-outcome", "argument_error", timeout=30_000)
        expect(reply).to_contain_text('AIMessage.tool_calls: submit_refund_request({"order_id": "A1024"}) id=call_1')
        expect(reply).to_contain_text("ToolMessage(tool_call_id=call_1, status=error)")
        expect(reply).to_contain_text("amount: Field required")
        expect(reply.locator(".course-badge")).to_have_text("ERROR RESULT")

        expect(widget.locator(".course-history li")).to_have_count(1)
        arguments.fill('{"order_id": A1024}')
        widget.locator("button", has_text="Send tool call").click()
        expect(reply).to_have_attribute("data-outcome", "invalid_json", timeout=30_000)
        expect(reply).to_contain_text("""AIMessage.invalid_tool_calls: submit_refund_request id=call_2 """
                                      """args='{"order_id": A1024}'""")
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
