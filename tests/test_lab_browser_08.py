"""Notebook 08's approval panel in real JupyterLab (headless Chromium, Playwright).

Runs the notebook, then uses the panel through the page: a bad amount is refused, a double click on
Approve resumes once, to the next interrupt (its Approve greyed out: the amount is above the
refundable one), an amount above the refundable one is refused (sent with Enter), a correct edit
(a triple click) finishes the run with one decision sent. One status is shown at a time; a button that is not allowed is grey.
"""

from __future__ import annotations

from tests.lab_server import _run_notebook_in_lab


def test_approval_panel_works_in_jupyterlab(lab_url, tmp_path):
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "08_interrupt_and_resume.ipynb") as (page, notebook):
        widget = notebook.locator(".course-approval-panel", has_text="thread approval-panel")
        expect(widget).to_be_visible(timeout=60_000)
        # The scripted cells use their own panels; this one is still paused at the first order.
        expect(notebook.locator(".jp-OutputArea-output", has_text="refund_stage: rejected")).to_have_count(1)
        expect(widget).to_contain_text('order_id: "A1024"', timeout=30_000)
        expect(widget).to_contain_text("Allowed here: approve, edit")
        status = widget.locator(".course-status")
        expect(status).to_have_attribute("data-outcome", "paused")
        widget.scroll_into_view_if_needed()
        approve = widget.locator("button", has_text="Approve")
        edit = widget.locator("button", has_text="Edit amount")
        reject = widget.locator("button", has_text="Reject")
        expect(reject).to_be_disabled()
        assert "mod-danger" not in (reject.get_attribute("class") or "")  # grey, not red, when disabled
        amount = widget.locator(".widget-text", has_text="amount:").locator("input")
        widget.screenshot(path=str(tmp_path / "approval_panel_start.png"))

        amount.fill("abc")
        edit.click()
        expect(status).to_have_attribute("data-outcome", "refused", timeout=30_000)
        expect(status).to_contain_text("The amount 'abc' is not a number")
        expect(status).to_contain_text("Nothing was sent.")
        expect(amount).to_have_value("abc")
        expect(widget).to_contain_text("No decision sent yet")

        approve.dblclick()  # one gesture, one decision: the second click never answers A1030 (issue 27 part 4)
        expect(widget).to_contain_text('order_id: "A1030"', timeout=30_000)
        expect(status).to_have_attribute("data-outcome", "paused")
        expect(status).to_contain_text("The run paused again at the next interrupt.")
        expect(widget.locator(".course-history li")).to_have_count(1)
        expect(widget).not_to_contain_text('order_id: "A1024"')  # the answered payload is gone
        expect(approve).to_be_disabled()  # A1030's 150 is above its refundable 120: approve is always refused
        expect(widget).to_contain_text("Approve is off: Approving keeps the amount 150.0")

        # Enter that confirms an input method's composition (Chinese, ...) sends nothing: a valid 120 would have
        # finished the run, and the 150 below could not be refused for its amount
        amount.fill("120")
        amount.dispatch_event("keydown", {"key": "Enter", "code": "Enter", "isComposing": True, "bubbles": True})
        amount.fill("150")
        amount.press("Enter")  # Enter sends the edit
        expect(status).to_contain_text("The amount 150.0 is above the refundable 120.0", timeout=30_000)
        expect(widget.locator(".course-history li")).to_have_count(1)
        expect(status).not_to_contain_text("Sent.")  # one status at a time: the refusal replaced it

        amount.fill("120")
        edit.click(click_count=3)  # a triple click: one edit sent
        expect(status).to_contain_text("The run finished; no interrupt is left.", timeout=30_000)
        expect(status.locator(".course-badge")).to_have_text("FINISHED")
        expect(widget).to_contain_text('requests:\n    - "RF-0001"\n    - "RF-0002"')  # one row each
        expect(widget).to_contain_text('stage: "submitted"')
        expect(widget.locator(".course-history li")).to_have_count(2)
        expect(widget.locator(".course-history li").nth(1)).to_have_text(
            'A1030: {"type": "edit", "amount": 120.0} -> finished')
        expect(approve).to_be_disabled()
        expect(edit).to_be_disabled()
        notes = status.locator(".course-stale")  # a later click that reached the kernel before Edit greyed out
        if notes.count():
            expect(notes).to_contain_text("which an earlier click already answered")
        widget.screenshot(path=str(tmp_path / "approval_panel.png"))
