"""Interactive widgets (ipywidgets 8.1) for the notebooks: each one an engine and a view.

The **engine** (``helpers.widgets.engines.*``) is plain Python: the state, the validation of what
the learner typed, the graph runs. It never imports ipywidgets; tests and notebook demos drive
it. The **view** is itself an ``ipywidgets.VBox`` (as ``ipywidgets.interactive`` is), so it is
displayed as a cell's value; every control calls one engine method, and the same methods are on
the view. A view's plain-text repr is one line ("... run this cell to open the playground"), which
is what a committed notebook shows (nbval compares ``text/plain``, not the widget model).
Handlers never ``print``; results go to ``HTML`` widgets.

* :class:`YouAreTheModel` (notebook 02) / ``YouAreTheModelEngine``: play the model, see what ``ToolNode`` does.
* :class:`ReducerPlayground` (07) / ``ReducerPlaygroundEngine``: two parallel writes, in both orders.
* :class:`StreamStepper` (12) / ``StreamStepperEngine``: a streamed reply chunk by chunk, cut anywhere.
* :class:`ApprovalPanel` (08, 09) / ``ApprovalEngine``: answer an ``interrupt()`` or a
  ``HumanInTheLoopMiddleware`` pause with checked ``Command(resume=...)`` values.
* :class:`SelfCheck` / ``SelfCheckEngine``: "Check yourself" questions. :func:`self_check` (the widget of one
  notebook, also :func:`helpers.selfcheck.self_check`). The view's module is
  ``self_check_view``, so no module in this package shares the function's name: ``from
  helpers.widgets import self_check`` always gives the function.

Shared pieces, once: :mod:`.page_clicks` (the page part of the approval panel, the two playgrounds
and the self-check, an anywidget, anywidget 0.11: a click carries the render the page had drawn and
what its fields held, so a field's late update cannot change what is sent), :mod:`.text` (escaping incl. lone surrogates, JSON in and out, errors, the one
shortening every shown value goes through),
:mod:`.amounts` (amount parsing), :mod:`.graphs` (the one-node ToolNode graph), :mod:`.outcomes`
(the outcome enums, with the word and colour each is shown in), :mod:`.style` (badges, boxes).

Names are imported on first use, so ``import helpers.widgets.engines`` never loads ipywidgets.
"""

from __future__ import annotations

from ..lazy import lazy_exports

_EXPORTS = {
    "YouAreTheModel": ".you_are_the_model",
    "ReducerPlayground": ".reducer_playground",
    "StreamStepper": ".stream_stepper",
    "ApprovalPanel": ".approval_panel",
    "SelfCheck": ".self_check_view",
    "self_check": ".self_check_view",
    "YouAreTheModelEngine": ".engines.you_are_the_model",
    "ModelTurn": ".engines.you_are_the_model",
    "ReducerPlaygroundEngine": ".engines.reducer_playground",
    "StreamStepperEngine": ".engines.stream_stepper",
    "StreamPosition": ".engines.stream_stepper",
    "PlaygroundResult": ".engines.reducer_playground",
    "WriteOrderRun": ".engines.reducer_playground",
    "ApprovalEngine": ".engines.approval",
    "PanelResult": ".engines.approval",
    "SentDecision": ".engines.approval",
    "SelfCheckEngine": ".engines.self_check",
    "CheckedAnswer": ".engines.self_check",
    "TurnOutcome": ".outcomes",
    "PlaygroundOutcome": ".outcomes",
    "PanelOutcome": ".outcomes",
    "Answer": ".outcomes",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
