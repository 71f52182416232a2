"""Plumbing for the course "Tool Calling, Step by Step".

* :mod:`helpers.scripted_model`: the offline scripted chat model (``ScriptedChatModel``).
* :mod:`helpers.models`: ``chat_model(script)``, the scripted model unless a real one is configured.
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
from .models import ModelConfigError, chat_model, describe_model
from .scripted_model import (
    ProviderRuleError,
    RecordedRequest,
    ScriptedChatModel,
    ScriptExhaustedError,
    invalid_tool_call,
    reply,
    tool_call,
)

__all__ = [
    "ModelConfigError",
    "ProviderRuleError",
    "RecordedRequest",
    "ScriptExhaustedError",
    "ScriptedChatModel",
    "chat_model",
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
