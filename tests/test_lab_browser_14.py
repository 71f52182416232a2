"""Notebook 14's wire-format view in real JupyterLab (headless Chromium), clicked like a learner."""

from __future__ import annotations

from tests.lab_server import _run_notebook_in_lab


def test_wire_formats_view_works_in_jupyterlab(lab_url, tmp_path):
    """It opens on the conversation; dropping an answer, forcing a tool and forbidding parallel calls re-render
    the three bodies as each integration builds them."""
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "14_wire_formats_and_bind_tools.ipynb") as (page, notebook):
        widget = notebook.locator(".course-wire-formats")
        expect(widget).to_be_visible(timeout=60_000)
        columns = widget.locator(".course-body")
        expect(columns).to_have_count(3, timeout=30_000)
        # Opens on the conversation: every call answered; only Anthropic carries the error flag.
        for index in range(3):
            expect(columns.nth(index)).to_have_attribute("data-verdict", "paired")
        expect(columns.nth(0).locator(".course-answers")).to_contain_text("call_2: no error field")
        expect(columns.nth(2).locator(".course-answers")).to_contain_text("call_2: is_error=true")
        widget.scroll_into_view_if_needed()

        selects = widget.locator("select")
        # (ipywidgets writes an option's spaces as no-break spaces)
        shown = "s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text.replace(/\\u00a0/g, ' ')"
        # Nothing forced: the tool_choice picker says so (it was an empty box), in the body's type size.
        assert selects.nth(2).evaluate(shown) == "not given"
        assert widget.locator(".course-options small").count() == 0
        # Drop the answer to call_2: built without error, but every column says it is unanswered.
        selects.nth(1).select_option(label="answer dropped")
        for index in range(3):
            expect(columns.nth(index)).to_have_attribute("data-verdict", "unanswered", timeout=30_000)
        expect(columns.nth(1)).to_contain_text("no result answers call_2")

        # tool_choice="required": OpenAI's word, a tool name on Anthropic; then no parallel calls.
        selects.nth(2).select_option(label="'required'")
        expect(columns.nth(0).locator(".course-options")).to_contain_text('tool_choice="required"', timeout=30_000)
        expect(columns.nth(2).locator(".course-options")).to_contain_text(
            'tool_choice={"type": "tool", "name": "required"}')
        widget.locator("input[type=checkbox]").uncheck()
        expect(columns.nth(0).locator(".course-options")).to_contain_text("parallel_tool_calls=false",
                                                                            timeout=30_000)
        expect(columns.nth(2).locator(".course-options")).to_contain_text('"disable_parallel_tool_use": true')
        assert widget.locator("text=Traceback").count() == 0
        widget.screenshot(path=str(tmp_path / "wire_formats.png"))

        # Start again: back to how it opened.
        widget.locator("button", has_text="Start again").click()
        for index in range(3):
            expect(columns.nth(index)).to_have_attribute("data-verdict", "paired", timeout=30_000)
        expect(columns.nth(0).locator(".course-options")).to_contain_text("none sent")
        assert selects.nth(2).evaluate(shown) == "not given"

        # The self-check section is there, before the recap.
        expect(notebook.locator(".course-self-check .course-question")).to_have_count(5)
