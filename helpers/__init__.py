"""Plumbing for the course "Tool Calling, Step by Step".

* :mod:`helpers.model`: the chat models: the offline ``ScriptedChatModel``, the provider rules, request
  recording, the factory (environment variables, ``describe_model``), and the two kinds of model cell:
  ``scripted_model`` (a protocol case, always scripted), ``live_model`` (a live cell: the configured real
  model, scripted offline) and ``live_verdict`` (what the live model did).
* :mod:`helpers.error_contract`: what the model, the user and the log are told about a refused tool call.
* :mod:`helpers.domain`: orders, refund policies, the refund service and its error codes.
* :mod:`helpers.display`: traces, mermaid diagrams, state diffs, ``show_error``.
* :mod:`helpers.exercises`: the exercise core and one module of exercises per notebook.
* :mod:`helpers.widgets`: ipywidgets whose every control is also a plain method (imported on demand).
* :mod:`helpers.notebooks`: execute notebooks with nbclient (``python -m helpers.notebooks``).

The concept a notebook teaches is never hidden here: tools, graphs, ToolMessages and
Commands are written in the notebooks themselves.
"""

from .display import (
    expect_error,
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
