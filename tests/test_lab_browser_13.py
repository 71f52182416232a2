"""Notebook 13's stream stepper in real JupyterLab (headless Chromium), clicked like a learner."""

from __future__ import annotations

from tests.lab_server import _run_notebook_in_lab


def test_stream_stepper_widget_works_in_jupyterlab(lab_url, tmp_path):
    """It opens on the first stream with no chunk; Next chunk, the stream picker and Whole stream show
    the merged calls and what an application would run; Start again goes back."""
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "13_streaming_tool_calls.ipynb") as (page, notebook):
        widget = notebook.locator(".course-stream-stepper")
        expect(widget).to_be_visible(timeout=60_000)
        widget.scroll_into_view_if_needed()
        verdict = widget.locator(".course-verdict")
        position = widget.locator(".course-position")
        expect(verdict).to_have_attribute("data-outcome", "nothing_yet", timeout=30_000)
        expect(position).to_have_text("0 of 8 chunks received")
        expect(widget).to_contain_text("No chunk has arrived")

        # Issue 29: every stream's name is read whole (the picker was 300 px: "cut off at the token limit (se").
        fits = widget.locator("select").evaluate("""(select) => {
            const style = getComputedStyle(select);
            const context = document.createElement("canvas").getContext("2d");
            context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const widest = Math.max(...[...select.options].map((option) => context.measureText(option.text).width));
            const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return {widest, room};
        }""")
        assert fits["widest"] <= fits["room"], fits

        # The opening chunk, the call's head, then three pieces of the refund: a valid call for 49, not finished;
        # only the trusting app runs it.
        next_chunk = widget.locator("button", has_text="Next chunk")
        for count in (1, 2, 3, 4, 5):
            next_chunk.click()
            expect(position).to_have_text(f"{count} of 8 chunks received", timeout=30_000)
        expect(verdict).to_have_attribute("data-outcome", "in_flight")
        expect(verdict.locator(".course-badge")).to_have_text("NOT FINISHED")
        expect(verdict).to_contain_text("Trusting tool_calls runs refund(order_id='A1024', amount=49)")
        expect(widget.locator(".course-chunks tr.course-last-chunk")).to_contain_text('"amount": 49')
        expect(widget.locator(".course-merged")).to_contain_text('"amount": 49')

        # The cut reply, whole: CUT OFF, and the merged message holds a valid call for 49.
        widget.locator("select").select_option("cut off at the token limit (section 2)")
        expect(position).to_contain_text("0 of", timeout=30_000)
        widget.locator("button", has_text="Whole stream").click()
        expect(verdict).to_have_attribute("data-outcome", "cut_off", timeout=30_000)
        expect(verdict.locator(".course-badge")).to_have_text("CUT OFF")
        expect(widget.locator(".course-merged")).to_contain_text("stop signal: finish_reason='length'")
        expect(widget.locator(".course-merged")).to_contain_text("invalid_tool_calls: []")
        expect(next_chunk).to_be_disabled()
        widget.screenshot(path=str(tmp_path / "stream_stepper_cut.png"))

        # Start again: the first stream, nothing received.
        widget.locator("button", has_text="Start again").click()
        expect(verdict).to_have_attribute("data-outcome", "nothing_yet", timeout=30_000)
        expect(widget.locator("select")).to_have_value("one refund call (section 1)")

        # The self-check section is there, before the recap.
        expect(notebook.locator(".course-self-check .course-question")).to_have_count(5)
