"""Notebook 07's reducer playground in real JupyterLab (headless Chromium), clicked like a learner."""

from __future__ import annotations

from tests.test_lab_browser import CHROMIUM, _run_notebook_in_lab, lab_url  # noqa: F401


def test_reducer_playground_widget_works_in_jupyterlab(lab_url, tmp_path):
    """The widget renders; choosing a reducer, typing both writes and clicking Run shows both orders."""
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "07_reducers_and_parallel_writes.ipynb") as (page, notebook):
        widget = notebook.locator(".widget-vbox", has_text="Reducer playground:")
        expect(widget).to_be_visible(timeout=120_000)
        page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', timeout=120_000)
        assert notebook.locator('[data-mime-type="application/vnd.jupyter.error"]').count() == 0

        # Wait until the front end shows the last scripted run (operator.add on 1 and 2): the state has synced.
        expect(widget).to_contain_text("operator.add(current=2, update=1)", timeout=30_000)
        boxes = widget.locator("textarea")
        expect(boxes.nth(0)).to_have_value("1", timeout=30_000)
        expect(boxes.nth(1)).to_have_value("2", timeout=30_000)
        widget.scroll_into_view_if_needed()
        run = widget.locator("button", has_text="Run in parallel")

        # operator.add on two lists: the orders differ, side by side.
        boxes.nth(0).fill('["A1024"]')
        boxes.nth(1).fill('["A1030"]')
        run.click()
        verdict = widget.locator(".course-verdict")
        expect(verdict).to_have_attribute("data-outcome", "differ", timeout=15_000)
        orders = widget.locator(".course-orders td")
        expect(orders).to_have_count(2)
        expect(orders.nth(0)).to_contain_text('audit = ["A1024", "A1030"]')
        expect(orders.nth(1)).to_contain_text('audit = ["A1030", "A1024"]')
        widget.screenshot(path=str(tmp_path / "reducer_playground_differ.png"))

        # No reducer: the real InvalidUpdateError, message only, in both columns.
        widget.locator("select").select_option("no reducer (plain key)")
        expect(widget.locator(".course-declaration")).to_contain_text("audit: Any", timeout=15_000)
        run.click()
        expect(verdict).to_have_attribute("data-outcome", "invalid_update", timeout=15_000)
        expect(widget.locator(".course-error")).to_have_count(2)
        expect(widget.locator(".course-error").first).to_contain_text(
            "InvalidUpdateError: At key 'audit': Can receive only one value per step.")
        assert widget.locator("text=Traceback").count() == 0

        # merge_audit: both orders agree.
        widget.locator("select").select_option("merge_audit")
        expect(widget.locator(".course-declaration")).to_contain_text("Annotated[Any, merge_audit]", timeout=15_000)
        boxes.nth(0).fill('[{"key": "k1", "event": "requested"}]')
        boxes.nth(1).fill('[{"key": "k1", "event": "approved"}]')
        run.click()
        expect(verdict).to_have_attribute("data-outcome", "agree", timeout=15_000)
        expect(orders.nth(1)).to_contain_text('audit = [{"key": "k1", "event": "approved"}]')

        # Invalid JSON: a clear message, nothing runs, the typed text stays.
        boxes.nth(1).fill('[{"key": k1}]')
        run.click()
        expect(verdict).to_have_attribute("data-outcome", "invalid_json", timeout=15_000)
        expect(widget).to_contain_text("Write B is not valid JSON")
        expect(orders).to_have_count(0)
        expect(boxes.nth(1)).to_have_value('[{"key": k1}]')
        widget.screenshot(path=str(tmp_path / "reducer_playground.png"))
