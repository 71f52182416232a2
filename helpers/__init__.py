"""Plumbing for the course "Tool Calling, Step by Step".

* :mod:`helpers.model`: the chat models: the offline ``ScriptedChatModel``, the provider rules, request
  recording, the factory (environment variables, ``describe_model``), and the two kinds of model cell:
  ``scripted_model`` (a protocol case, always scripted), ``live_model`` (a live cell: the configured real
  model, scripted offline) and ``live_verdict`` (what the live model did).
* :mod:`helpers.error_contract`: what the model, the user and the log are told about a refused tool call.
* :mod:`helpers.domain`: orders, refund policies, the refund service and its error codes.
* :mod:`helpers.display`: traces, mermaid diagrams, state diffs, ``show_error``, ``fit_row``.
* :mod:`helpers.exercises`: the exercise core and one module of exercises per notebook.
* :mod:`helpers.widgets`: ipywidgets whose every control is also a plain method (imported on demand).
* :mod:`helpers.selfcheck`: the "Check yourself" questions of each notebook and ``self_check``.
* :mod:`helpers.progress`, :mod:`helpers.workspace`: the learner's progress and workspace, and their
  commands (``python -m helpers.progress``, ``python -m helpers.workspace``).

Only what notebooks and a learner's kernel import lives here; the course's own tooling (the notebook
runner, the Chinese edition's build, the course map, the scaffold, ...) is :mod:`tooling`, which
imports this package and is never imported by it.

The concept a notebook teaches is never hidden here: tools, graphs, ToolMessages and
Commands are written in the notebooks themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load on first use (below)
    from .display import (
        expect_error,
        fit_row,
        format_error,
        show,
        show_error,
        show_graph,
        show_sequence,
        show_state_diff,
        show_trace,
    )
    from .model import (
        InterleavedConversationsError,
        LiveVerdict,
        ModelConfigError,
        ProviderRule,
        ProviderRuleError,
        RecordedRequest,
        ScriptedChatModel,
        ScriptError,
        ScriptExhaustedError,
        describe_model,
        invalid_tool_call,
        is_live,
        live_model,
        live_verdict,
        reply,
        scripted_model,
        tool_call,
    )

#: Where each name of ``from helpers import ...`` lives. The package loads a submodule the first time
#: one of its names is used (PEP 562), so importing a light module such as ``helpers.progress`` (the
#: first cell of notebook 00) does not import LangChain and LangGraph.
_LAZY = {
    "expect_error": ".display",
    "fit_row": ".display",
    "format_error": ".display",
    "show": ".display",
    "show_error": ".display",
    "show_graph": ".display",
    "show_sequence": ".display",
    "show_state_diff": ".display",
    "show_trace": ".display",
    "InterleavedConversationsError": ".model",
    "LiveVerdict": ".model",
    "ModelConfigError": ".model",
    "ProviderRule": ".model",
    "ProviderRuleError": ".model",
    "RecordedRequest": ".model",
    "ScriptedChatModel": ".model",
    "ScriptError": ".model",
    "ScriptExhaustedError": ".model",
    "describe_model": ".model",
    "invalid_tool_call": ".model",
    "is_live": ".model",
    "live_model": ".model",
    "live_verdict": ".model",
    "reply": ".model",
    "scripted_model": ".model",
    "tool_call": ".model",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

__all__ = [
    "InterleavedConversationsError",
    "LiveVerdict",
    "ProviderRule",
    "ScriptError",
    "is_live",
    "live_model",
    "live_verdict",
    "scripted_model",
    "ModelConfigError",
    "ProviderRuleError",
    "RecordedRequest",
    "ScriptExhaustedError",
    "ScriptedChatModel",
    "describe_model",
    "expect_error",
    "fit_row",
    "format_error",
    "invalid_tool_call",
    "reply",
    "show",
    "show_error",
    "show_graph",
    "show_sequence",
    "show_state_diff",
    "show_trace",
    "tool_call",
]
