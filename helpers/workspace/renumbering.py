"""Issue 17's renumbering, as data: old notebook 09 became two notebooks (09 and 10), and notebooks
10-16 became 11-17. What a learner's files keyed by the old numbers become under the new ones.

This is the lowest floor (it imports nothing of the course): :mod:`helpers.progress.store` uses
:func:`renumber_progress` when it reads a progress file written before the split (``"format": 1``),
and :mod:`helpers.workspace.migration` uses :data:`RENAMED` and :data:`SPLIT_NOTEBOOK` to move the
workspace's copies. Nothing here touches a file.

The mapping:

* exercise ids ``10.k`` ... ``16.k`` become ``11.k`` ... ``17.k``; ``09.1`` and ``09.2`` stay (they
  are in the new 09);
* self-check records of notebooks ``"10"`` ... ``"16"`` move to ``"11"`` ... ``"17"``; those of old
  ``"09"`` stay in ``"09"``, except the questions the new notebook 10 asks now
  (:data:`MOVED_QUESTIONS`), which move to ``"10"``;
* the workspace copies ``10_capstone_refund_agent.ipynb`` ... are renamed (:data:`RENAMED`), and a
  copy of old 09 (:data:`SPLIT_NOTEBOOK`) has no single successor: it is kept whole.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

__all__ = ["FORMAT_BEFORE_SPLIT", "MOVED_QUESTIONS", "RENAMED", "SPLIT_INTO", "SPLIT_NOTEBOOK",
           "new_exercise_id", "renumber_progress"]

#: The progress file's ``format`` before the split: its keys use the old numbers.
FORMAT_BEFORE_SPLIT = 1

#: Old notebook 09, split in two; a workspace copy of it is kept, not renamed.
SPLIT_NOTEBOOK = "09_errors_and_high_risk_tools.ipynb"
SPLIT_INTO = ("09_tool_errors_and_idempotency.ipynb", "10_human_approval.ipynb")

#: The notebooks that only changed their number: old file name -> new file name.
RENAMED = {
    "10_capstone_refund_agent.ipynb": "11_capstone_refund_agent.ipynb",
    "11_deep_agents_control_plane.ipynb": "12_deep_agents_control_plane.ipynb",
    "12_streaming_tool_calls.ipynb": "13_streaming_tool_calls.ipynb",
    "13_wire_formats_and_bind_tools.ipynb": "14_wire_formats_and_bind_tools.ipynb",
    "14_structured_output_and_tools.ipynb": "15_structured_output_and_tools.ipynb",
    "15_mcp_tools.ipynb": "16_mcp_tools.ipynb",
    "16_untrusted_results_and_tracing.ipynb": "17_untrusted_results_and_tracing.ipynb",
}

#: Old notebook 09's self-check questions that notebook 10 asks now: question id -> new notebook key
#: (``tests/test_workspace_migration.py`` checks them against ``helpers/selfcheck/nb10.py``).
MOVED_QUESTIONS = {"two-gated-calls": "10", "after-a-wrong-resume": "10"}

_SHIFTED = {f"{n:02d}": f"{n + 1:02d}" for n in range(10, 17)}  # "10" -> "11", ..., "16" -> "17"
_EXERCISE_ID = re.compile(r"(\d\d)\.(\d+)")


def new_exercise_id(old: str) -> str:
    """The exercise id under the new numbers: ``"10.1"`` -> ``"11.1"``; ``"09.2"`` and anything that
    is not an old ``NN.k`` id are returned unchanged."""
    found = _EXERCISE_ID.fullmatch(old) if isinstance(old, str) else None
    if found and found.group(1) in _SHIFTED:
        return f"{_SHIFTED[found.group(1)]}.{found.group(2)}"
    return old


def _moved_keys(records: dict[str, Any], new_key: Callable[[str], str]) -> dict[str, Any]:
    """``records`` under ``new_key(old)``; where two old keys would get one new key, both keep
    their old keys, so two records never collapse into one."""
    targets = {old: new_key(old) for old in records}
    taken = Counter(targets.values())
    return {(targets[old] if taken[targets[old]] == 1 else old): record for old, record in records.items()}


def renumber_progress(data: dict[str, Any]) -> dict[str, Any]:
    """A progress file's JSON object written before the split, with its keys under the new numbers.

    Args:
        data: the parsed top-level object (any shape: what is not an object of records is returned
            as it is, for the reader to judge).

    Returns:
        a new object (``data`` is not changed): exercises and self-check notebooks renumbered, old
        09's moved questions under ``"10"``. Every record is kept; only keys change.
    """
    out = dict(data)
    exercises = data.get("exercises")
    if isinstance(exercises, dict):
        out["exercises"] = _moved_keys(exercises, new_exercise_id)
    checks = data.get("self_checks")
    if isinstance(checks, dict):
        renamed = _moved_keys(checks, lambda nb: _SHIFTED.get(nb, nb))
        old_09 = checks.get("09")
        if isinstance(old_09, dict) and renamed.get("09") is old_09:
            stay = {q: r for q, r in old_09.items() if q not in MOVED_QUESTIONS}
            for question, record in old_09.items():
                target = MOVED_QUESTIONS.get(question)
                if target is None:
                    continue
                answers = renamed.setdefault(target, {})
                if isinstance(answers, dict) and question not in answers:
                    answers[question] = record
                else:
                    stay[question] = record  # nowhere to put it: it stays readable under "09"
            renamed["09"] = stay
            if not stay:
                del renamed["09"]
        out["self_checks"] = renamed
    return out
