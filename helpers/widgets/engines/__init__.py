"""The widgets' engines: plain Python (no ipywidgets), one module per widget.

* :mod:`.you_are_the_model`: :class:`YouAreTheModelEngine` (notebook 02).
* :mod:`.reducer_playground`: :class:`ReducerPlaygroundEngine` (notebook 07).
* :mod:`.approval`: :class:`ApprovalEngine` (notebooks 08, 09, 11); :mod:`.approval_pause` reads a pause for it,
  :mod:`.approval_checks` builds and checks each decision.
* :mod:`.self_check`: :class:`SelfCheckEngine` (every "Check yourself" section).
"""

from .approval import ApprovalEngine, PanelResult, SentDecision
from .approval_pause import Review, ReviewAction, read_review
from .reducer_playground import PlaygroundResult, ReducerPlaygroundEngine, WriteOrderRun
from .self_check import CheckedAnswer, SelfCheckEngine
from .you_are_the_model import ModelTurn, YouAreTheModelEngine

__all__ = ["ApprovalEngine", "CheckedAnswer", "ModelTurn", "PanelResult", "PlaygroundResult", "ReducerPlaygroundEngine",
           "Review", "ReviewAction", "SelfCheckEngine", "SentDecision", "WriteOrderRun", "YouAreTheModelEngine",
           "read_review"]
