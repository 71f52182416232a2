"""Notebook 10's approval panel in real JupyterLab (headless Chromium, Playwright).

Runs the notebook (Run All, from a copy without outputs: see ``tests/test_lab_browser.py``), then
answers the ``HumanInTheLoopMiddleware`` pause of two gated calls through the page, like a learner:
the panel opens untouched (the scripted cell used a panel of its own); real double and triple
clicks on Approve, Reject and Edit args, with Start over between, each note call 1 only (issue 27
part 4); the first Approve only notes a decision, an edit whose JSON fails the tool's schema is
refused with nothing sent, the second Approve (a double click) sends both decisions in one resume,
once, and the panel shows the finished run with the ToolMessage of each refund. Then one
self-check answer. Every wait has a condition (``expect``),
none a fixed time.
"""

from __future__ import annotations

from tests.lab_server import _run_notebook_in_lab


def _stale_note_if_any(status) -> None:
    """A later click of a gesture that reached the kernel is refused with a note under the standing status."""
    from playwright.sync_api import expect

    notes = status.locator(".course-stale")
    if notes.count():
        expect(notes).to_have_count(1)
        expect(notes).to_contain_text("which an earlier click already answered")


def _only_call_1_noted(widget, decision: str) -> None:
    """After one double or triple click on the first call: its decision noted, nothing else."""
    from playwright.sync_api import expect

    status, actions = widget.locator(".course-status"), widget.locator(".course-action")
    expect(status).to_have_attribute("data-outcome", "staged", timeout=30_000)
    expect(actions.nth(0)).to_contain_text(f"noted: {decision}")
    expect(actions.nth(1)).to_contain_text("deciding now")
    expect(widget).to_contain_text("No decision sent yet")
    # Approve, Edit and Reject stay enabled for call 2, so each later click reached the kernel, made on call 1.
    expect(status.locator(".course-stale")).to_have_count(1, timeout=30_000)
    _stale_note_if_any(status)


def test_approval_panel_answers_two_gated_calls_in_jupyterlab(lab_url, tmp_path):
    from playwright.sync_api import expect

    with _run_notebook_in_lab(lab_url, "10_human_approval.ipynb") as (page, notebook):
        widget = notebook.locator(".course-approval-panel")
        expect(widget).to_have_count(1, timeout=60_000)            # the scripted cell's panel is not displayed
        expect(widget).to_contain_text("thread two-refunds", timeout=30_000)
        # The scripted cell ran on its own thread and finished there ...
        expect(notebook.locator(".jp-OutputArea-output", has_text='sent: {"decisions": [{"type": "approve"}, '
                                                                  '{"type": "edit"')).to_have_count(1)
        # ... and this panel opens as the Markdown above it says: both calls pending, nothing sent.
        status = widget.locator(".course-status")
        expect(status).to_have_attribute("data-outcome", "paused", timeout=30_000)
        actions = widget.locator(".course-action")
        expect(actions).to_have_count(2)
        expect(actions.nth(0)).to_contain_text('"order_id": "A1024", "amount": 100.0')
        expect(actions.nth(0)).to_contain_text("deciding now")
        expect(actions.nth(1)).to_contain_text("waits")
        expect(widget).to_contain_text("Allowed here: approve, edit, reject")
        expect(widget).to_contain_text("No decision sent yet")
        widget.scroll_into_view_if_needed()
        approve = widget.locator("button", has_text="Approve")
        edit = widget.locator("button", has_text="Edit args")
        respond = widget.locator("button", has_text="Respond")
        expect(respond).to_be_disabled()                             # the gate does not allow it
        assert "mod-info" not in (respond.get_attribute("class") or "")
        args = widget.locator(".widget-textarea", has_text="args (JSON):").locator("textarea")
        expect(args).to_have_value('{"order_id": "A1024", "amount": 100.0}')
        widget.screenshot(path=str(tmp_path / "approval_panel_10_start.png"))

        # Real double and triple clicks on each decision button (issue 27 part 4), Start over between:
        # each gesture notes call 1 only, whatever the page had drawn when its later clicks came.
        start_over = widget.locator("button", has_text="Start over")
        reject = widget.locator("button", has_text="Reject")
        for button, clicks, noted in ((approve, 2, "approve"), (reject, 3, "reject"), (edit, 2, "edit"),
                                      (approve, 3, "approve")):
            button.click(click_count=clicks)
            _only_call_1_noted(widget, noted)
            start_over.click()
            expect(status).to_have_attribute("data-outcome", "paused", timeout=30_000)
            expect(actions.nth(0)).to_contain_text("deciding now")
            expect(widget).to_contain_text("No decision sent yet")

        approve.click()                                             # call 1: noted, nothing sent yet
        expect(status).to_have_attribute("data-outcome", "staged", timeout=30_000)
        expect(status).to_contain_text("Noted approve for call 1")
        expect(actions.nth(0)).to_contain_text("noted: approve")
        expect(args).to_have_value('{"order_id": "A1030", "amount": 50.0}')   # now filled for call 2

        args.fill('{"order_id": "A1030", "amount": "lots"}')
        edit.click()
        expect(status).to_have_attribute("data-outcome", "refused", timeout=30_000)
        expect(status).to_contain_text("do not fit submit_refund_request's schema")
        expect(status).to_contain_text("Nothing was sent.")
        expect(widget).to_contain_text("No decision sent yet")
        expect(actions.nth(0)).to_contain_text("noted: approve")   # the noted decision survived the refusal

        approve.dblclick()                                          # call 2: both decisions go out together, once
        expect(status).to_have_attribute("data-outcome", "finished", timeout=60_000)
        expect(status.locator(".course-badge")).to_have_text("FINISHED")
        expect(status).to_contain_text('Command(resume={"decisions": [{"type": "approve"}, {"type": "approve"}]})')
        expect(status).to_contain_text("The run finished; no interrupt is left.")
        expect(status).to_contain_text("refund request RF-0001 registered for A1024 (100.00)")
        expect(status).to_contain_text("refund request RF-0002 registered for A1030 (50.00)")
        expect(widget.locator(".course-history li")).to_have_count(1)
        expect(widget.locator(".course-history li").first).to_have_text(
            "call 1 (A1024): approve; call 2 (A1030): approve -> finished")
        # The second click found Approve greyed out (no click event) or was refused: never a second resume.
        expect(status.locator(".course-badge")).to_have_text("FINISHED")
        _stale_note_if_any(status)
        for label in ("Approve", "Edit", "Reject"):                  # nothing left to answer
            expect(widget.locator("button", has_text=label)).to_be_disabled()
        expect(args).to_be_disabled()                                # the HITL controls stay, greyed out
        expect(widget.locator("button", has_text="Start over")).to_be_visible()
        expect(widget.locator(".widget-text", has_text="amount:")).to_be_hidden()
        widget.screenshot(path=str(tmp_path / "approval_panel_10.png"))

        # The self-check before the recap: one right answer.
        check = notebook.locator(".course-self-check")
        check.scroll_into_view_if_needed()
        questions = check.locator(".course-question")
        expect(questions).to_have_count(3, timeout=30_000)
        second = questions.nth(1)
        second.locator("label", has_text="It raises the same KeyError").first.click()
        second.locator("button", has_text="Check").click()
        expect(second.locator(".course-verdict")).to_have_attribute("data-verdict", "right", timeout=30_000)
        expect(second).to_contain_text("(see section 1, Wrong answers, and why they are worse than errors)")
