"""The environment ``make lab`` starts JupyterLab with, so every kernel of the learner's inherits it:
the learner's own, without LangSmith tracing unless the learner opts in with :data:`TRACING_OPT_IN`
(README, "Offline, guaranteed").

The course's own runs (the notebook runner, ``make bench``, strict nbval) start kernels from
:mod:`tooling.kernel_env`, which removes every LangSmith variable whatever the opt-in says.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["TRACING_OPT_IN", "TRACING_SWITCHES", "lab_env", "tracing_opted_in"]

#: The variables that switch LangSmith tracing on (langsmith 0.15.1 reads ``<LANGSMITH|LANGCHAIN>_TRACING[_V2]``,
#: langsmith/utils.py:139 and :413; ``LANGCHAIN_HANDLER`` is the retired v1 tracer,
#: langchain_core/callbacks/manager.py:2480; :mod:`helpers.model.sdk_environment` lists them with the rest).
#: With one of them left in a shell, every run of a notebook (the customers' messages, the tool calls) would
#: be sent to LangSmith.
TRACING_SWITCHES = ("LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING", "LANGCHAIN_TRACING_V2",
                    "LANGCHAIN_HANDLER")
#: The one variable with which a learner lets ``make lab``'s kernels trace to LangSmith (README, "Offline,
#: guaranteed"): ``COURSE_LANGSMITH_TRACING=1``. The course's own runs never trace, whatever it says.
TRACING_OPT_IN = "COURSE_LANGSMITH_TRACING"


def tracing_opted_in(env: Mapping[str, str]) -> bool:
    """True when ``env`` sets :data:`TRACING_OPT_IN` to ``1``, ``true`` or ``yes`` (any case)."""
    return env.get(TRACING_OPT_IN, "").strip().lower() in ("1", "true", "yes")


def lab_env(env: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The environment ``make lab`` starts JupyterLab with (its kernels inherit it).

    Args:
        env: the learner's environment (``os.environ``).

    Returns:
        ``(environment, switches)``: ``env`` without the :data:`TRACING_SWITCHES` it sets (unless
        :func:`tracing_opted_in`), and the names of the switches it sets (removed or, opted in, kept).
        Everything else is kept: the real-model variables, the learner's own settings.
    """
    switches = [name for name in TRACING_SWITCHES if env.get(name, "").strip()]
    removed = set() if tracing_opted_in(env) else set(switches)
    return {k: v for k, v in env.items() if k not in removed}, switches
