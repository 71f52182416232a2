"""Interactive widgets (ipywidgets 8.1) for the notebooks.

Every action a learner can take with the mouse is also a plain method, so tests drive the
widgets headless and notebooks can show a scripted run. Handlers never ``print`` (nbval
compares cell output); results go to ``HTML`` widgets, whose values are the widget state.

* :class:`YouAreTheModel` (notebook 02): play the model, see what ``ToolNode`` does with the call.
* :class:`ReducerPlayground` (notebook 07): pick a reducer, run two parallel writes in both orders.
* :class:`ApprovalPanel` (notebook 08): answer a paused run's ``interrupt()`` with checked ``Command(resume=...)``.
"""

from .approval_panel import ApprovalPanel, PanelResult, SentDecision
from .reducer_playground import PlaygroundResult, ReducerPlayground, WriteOrderRun
from .you_are_the_model import ModelTurn, YouAreTheModel

__all__ = ["ApprovalPanel", "ModelTurn", "PanelResult", "PlaygroundResult", "ReducerPlayground", "SentDecision", "WriteOrderRun", "YouAreTheModel"]
