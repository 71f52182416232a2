"""Notebook 07's reducer playground in real JupyterLab (headless Chromium), clicked like a learner."""

from __future__ import annotations

from tests.lab_server import _run_notebook_in_lab


def test_reducer_playground_widget_works_in_jupyterlab(lab_url, tmp_path):
    """It opens as its Markdown says; choosing a reducer, typing both writes and clicking Run shows both orders."""
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "07_reducers_and_parallel_writes.ipynb") as (page, notebook):
        widget = notebook.locator(".course-reducer-playground")
        expect(widget).to_be_visible(timeout=60_000)
        # Opens clean: no reducer, the section 4 writes, not run (the demo cell used its own engine).
        expect(widget).to_contain_text("Not run yet", timeout=30_000)
        expect(widget.locator("select")).to_have_value("no reducer (plain key)")
        boxes = widget.locator("textarea")
        expect(boxes.nth(0)).to_have_value('[{"key": "refund-A1024", "event": "requested"}]')
        widget.scroll_into_view_if_needed()
        run = widget.locator("button", has_text="Run in parallel")

        # As it opens: no reducer, the real InvalidUpdateError, message only, in both columns.
        run.click()
        verdict = widget.locator(".course-verdict")
        expect(verdict).to_have_attribute("data-outcome", "invalid_update", timeout=30_000)
        expect(verdict.locator(".course-badge")).to_have_text("STEP REFUSED")
        expect(widget.locator(".course-error")).to_have_count(2)
        expect(widget.locator(".course-error").first).to_contain_text(
            "InvalidUpdateError: At key 'audit': Can receive only one value per step.")
        assert widget.locator("text=Traceback").count() == 0

        # operator.add on two lists: the orders differ, side by side.
        widget.locator("select").select_option("operator.add")
        expect(widget.locator(".course-declaration")).to_contain_text("Annotated[Any, operator.add]", timeout=30_000)
        # Typed and clicked at once, like a fast learner: the click carries the writes the page shows (the
        # page part), so the run uses them even if a box's own update reaches the kernel after the click.
        boxes.nth(0).fill('["A1024"]')
        boxes.nth(1).fill('["A1030"]')
        run.click()
        stale = widget.locator(".course-stale")
        expect(verdict).to_have_attribute("data-outcome", "differ", timeout=30_000)
        expect(stale).to_have_count(0)
        expect(verdict.locator(".course-badge")).to_have_text("ORDERS DIFFER")
        orders = widget.locator(".course-orders td")
        expect(orders).to_have_count(2)
        expect(orders.nth(0)).to_contain_text('audit = ["A1024", "A1030"]')
        expect(orders.nth(1)).to_contain_text('audit = ["A1030", "A1024"]')
        widget.screenshot(path=str(tmp_path / "reducer_playground_differ.png"))

        # merge_audit: both orders agree.
        widget.locator("select").select_option("merge_audit")
        expect(widget.locator(".course-declaration")).to_contain_text("Annotated[Any, merge_audit]", timeout=30_000)
        boxes.nth(0).fill('[{"key": "k1", "event": "requested"}]')
        boxes.nth(1).fill('[{"key": "k1", "event": "approved"}]')
        run.click()
        expect(verdict).to_have_attribute("data-outcome", "agree", timeout=30_000)
        expect(orders.nth(1)).to_contain_text('audit = [{"key": "k1", "event": "approved"}]')
        expect(orders.nth(0)).to_contain_text('audit = [{"key": "k1", "event": "approved"}]')
        expect(stale).to_have_count(0)

        # Invalid JSON: a clear message, nothing runs, the typed text stays.
        boxes.nth(1).fill('[{"key": k1}]')
        run.click()
        expect(verdict).to_have_attribute("data-outcome", "invalid_json", timeout=30_000)
        expect(widget).to_contain_text("Write B is not valid JSON")
        expect(orders).to_have_count(0)
        expect(boxes.nth(1)).to_have_value('[{"key": k1}]')
        expect(widget.locator(".course-history li")).to_have_count(4)
        # Typing without running: the view names what changed since the run on show.
        boxes.nth(0).fill('[{"key": "k2", "event": "requested"}]')
        expect(stale).to_have_text("Changed since the run below: write A. Press Run in parallel to run them.",
                                   timeout=30_000)
        widget.screenshot(path=str(tmp_path / "reducer_playground.png"))

        # Start again: back to how it opened.
        widget.locator("button", has_text="Start again").click()
        expect(widget).to_contain_text("Not run yet", timeout=30_000)
        expect(widget.locator("select")).to_have_value("no reducer (plain key)")
        expect(widget.locator(".course-history li")).to_have_count(0)

        # The self-check section is there, before the recap.
        expect(notebook.locator(".course-self-check .course-question")).to_have_count(5)
