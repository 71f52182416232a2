"""The environment a kernel of the course's own runs starts with (the runner, ``make bench``,
strict nbval's session): no real-model variable when offline (:data:`OFFLINE_UNSET`), no other
secret, no LangSmith tracing, none of the learner's state (:data:`LEARNER_STATE`); and the one
``make lab`` starts JupyterLab with (:func:`lab_env`): the learner's, without LangSmith tracing
unless the learner opts in with :data:`TRACING_OPT_IN`.

One floor of :mod:`helpers.notebooks` (which re-exports its public names); it imports nothing of
Jupyter.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

#: Environment variables that would switch the course to a real model; removed for offline runs.
OFFLINE_UNSET = ("COURSE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "DASHSCOPE_API_KEY", "COURSE_MODEL_API_KEY")
#: The learner's own state: never in a kernel the course's tools start (runner, bench, nbval), so
#: the course's stubs record nothing in the learner's progress and no learner table is committed
#: (``COURSE_LANG``, the edition ``make lab`` opens, included: a course run's edition is its folder's).
LEARNER_STATE = ("COURSE_PROGRESS_FILE", "COURSE_WORKSPACE", "COURSE_LANG")
#: A variable name that holds a secret (``*_API_KEY``, ``*_TOKEN``, ``*_SECRET*``, ...), or ends like one:
#: ``*_KEY`` (``OPENAI_KEY``), Baidu Qianfan's ``QIANFAN_AK`` / ``QIANFAN_SK`` (langchain-community),
#: ``*_PAT`` (a personal access token), ``*_PASS`` / ``*_PWD`` (not ``PWD`` itself, the current folder).
_SECRET_NAME = re.compile(r"API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|ACCESS_KEY|PRIVATE_KEY"
                          r"|_(?:KEY|AK|SK|PAT|PASS|PWD)$", re.IGNORECASE)
#: Prefixes of variables that switch on LangSmith tracing (it sends every run to a web service).
_TRACING_PREFIXES = ("LANGCHAIN_", "LANGSMITH_")
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


def removed_variables(env: Mapping[str, str], *, offline: bool = True) -> list[str]:
    """The names in ``env`` that a kernel of the course's own runs must not inherit.

    Args:
        env: an environment (``os.environ``).
        offline: also remove :data:`OFFLINE_UNSET` (the real-model variables). ``False`` keeps
            them, for a run against a configured model.

    Returns:
        :data:`LEARNER_STATE`; with ``offline``, :data:`OFFLINE_UNSET`; every other name that
        holds a secret (``API_KEY``, ``APIKEY``, ``TOKEN``, ``SECRET``, ``PASSWORD``, ``PASSWD``,
        ``CREDENTIAL``, ``ACCESS_KEY``, ``PRIVATE_KEY`` anywhere in it, any case: ``ANTHROPIC_API_KEY``,
        ``GOOGLE_API_KEY``, ``HF_TOKEN``, ``AWS_SECRET_ACCESS_KEY``, ...; or ending in ``_KEY``, ``_AK``,
        ``_SK``, ``_PAT``, ``_PASS``, ``_PWD``: ``OPENAI_KEY``, ``QIANFAN_AK``, ``QIANFAN_SK``); and LangSmith's
        ``LANGCHAIN_*`` / ``LANGSMITH_*`` (tracing sends every run to a web service). In ``env``'s order.
    """
    def removed(name: str) -> bool:
        if name in OFFLINE_UNSET:
            return offline
        return (name in LEARNER_STATE or bool(_SECRET_NAME.search(name))
                or name.upper().startswith(_TRACING_PREFIXES))

    return [name for name in env if removed(name)]


def kernel_env(*, offline: bool = True, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a kernel starts with: this process's, minus :func:`removed_variables`
    (with :data:`OFFLINE_UNSET` when ``offline``), plus ``extra``."""
    removed = set(removed_variables(os.environ, offline=offline))
    env = {k: v for k, v in os.environ.items() if k not in removed}
    env.update(extra or {})
    return env


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
