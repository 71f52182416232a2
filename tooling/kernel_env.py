"""The environment a kernel of the course's own runs starts with (the runner, ``make bench``,
strict nbval's session): no real-model variable when offline (:data:`OFFLINE_UNSET`), no other
secret, no LangSmith tracing, none of the learner's state (:data:`LEARNER_STATE`), and this checkout
first on ``PYTHONPATH`` (nothing is installed from it: every kernel imports the checkout it runs for).
The course's own runs never trace, whatever the learner's opt-in (:mod:`helpers.workspace.lab_env`) says.

One floor of :mod:`tooling.notebooks` (which re-exports its public names); it imports nothing of
Jupyter.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

#: The checkout this module belongs to (the folder holding ``helpers/`` and ``tooling/``).
CHECKOUT = Path(__file__).resolve().parent.parent

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


def checkout_first(pythonpath: str | None, checkout: Path = CHECKOUT) -> str:
    """``PYTHONPATH`` with ``checkout`` first, so a process started with it imports that checkout's
    ``helpers/`` and ``tooling/``, never an installed copy or another clone's.

    Args:
        pythonpath: the current value (``None`` or ``""``: unset).
        checkout: the repository root (default: the one this module lives in).

    Returns:
        ``checkout``, then every other entry of ``pythonpath`` in its order (``checkout`` itself and
        empty entries, which would mean the current folder, left out).
    """
    rest = [entry for entry in (pythonpath or "").split(os.pathsep) if entry and Path(entry) != checkout]
    return os.pathsep.join([str(checkout), *rest])


def kernel_env(*, offline: bool = True, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a kernel starts with: this process's, minus :func:`removed_variables`
    (with :data:`OFFLINE_UNSET` when ``offline``), with this checkout first on ``PYTHONPATH``
    (:func:`checkout_first`: the kernel imports the helpers of the checkout whose runner started it),
    plus ``extra``."""
    removed = set(removed_variables(os.environ, offline=offline))
    env = {k: v for k, v in os.environ.items() if k not in removed}
    env["PYTHONPATH"] = checkout_first(env.get("PYTHONPATH"))
    env.update(extra or {})
    return env
