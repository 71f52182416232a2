"""Plumbing for the course "Tool Calling, Step by Step".

* :mod:`helpers.scripted_model`: the offline scripted chat model (``ScriptedChatModel``).
* :mod:`helpers.live`: ``scripted_model`` (a protocol case, always scripted), ``live_model`` (a live cell:
  the configured real model, scripted offline) and ``live_verdict`` (what the live model did).
* :mod:`helpers.models`: the model factory behind them (environment variables, ``describe_model``).
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
from .live import LiveVerdict, is_live, live_model, live_verdict, scripted_model
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
    "LiveVerdict",
    "is_live",
    "live_model",
    "live_verdict",
    "scripted_model",
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
