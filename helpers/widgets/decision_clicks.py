"""The approval panel's page part: a click in the page says which render of the panel it was made on.

Why it exists (issue 27, part 4). An ``ipywidgets.Button`` click reaches the kernel as a bare
``{"event": "click"}``: it does not say what the page showed when it was made, nor that it was the
second click of a double click. Under load the kernel often answers the first click of a double
click (and the page draws the next gated call) before the browser has even dispatched the second
click, so the second click decided a call the learner never reviewed (2 of 6 tries in JupyterLab).

:class:`DecisionClicks` is an invisible anywidget (anywidget 0.11) inside the panel. Its page code
(``decision_clicks.js``) catches a click on a decision button, or Enter in the amount field, before
ipywidgets' handler and sends one message instead::

    {"event": "decide", "decision": "approve", "render": 7, "clicks": 1,
     "fields": {"amount": "", "args": "{...}", "message": ""}}

``render`` is the number of the render the page had drawn when the click happened (:attr:`render`,
which the panel sets after every other part of a render); the second and third clicks of one
double or triple click (``MouseEvent.detail`` 2, 3) carry the render the first click was made on;
``fields`` is what the text fields held at that moment (a field's own update can reach the kernel
after the click). The kernel checks everything: :meth:`ApprovalEngine.approve
<helpers.widgets.engines.approval.ApprovalEngine.approve>` and the other decisions refuse a
``render`` that is not the current one. Tests send the same messages to
:meth:`helpers.widgets.ApprovalPanel.on_page_message`.
"""

from __future__ import annotations

from importlib import resources

import anywidget
import traitlets

__all__ = ["DecisionClicks"]


class DecisionClicks(anywidget.AnyWidget):
    """The invisible page part of :class:`~helpers.widgets.ApprovalPanel` (see the module docstring).

    Attributes:
        render: the number of the panel's latest render (synced to the page; 0 before the first).
    """

    # The module's text (read through importlib.resources, so it works from a zipped wheel too; anywidget
    # would take a path it cannot open for the code itself).
    _esm = resources.files(__package__).joinpath("decision_clicks.js").read_text(encoding="utf-8")
    render = traitlets.Int(0).tag(sync=True)

    def __repr__(self) -> str:
        return "DecisionClicks()"  # anywidget's own repr holds a memory address
