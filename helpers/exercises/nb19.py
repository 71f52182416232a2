"""Exercises of notebook 19 (Many tools, long runs).

19.1 asks for ``cut_point(messages, keep)``: where a sliding window over a long history starts, so that the
window holds at least the last ``keep`` messages and never starts with a ToolMessage (a result sent without
the AI message that asked for it is refused by the provider, notebook 03). It is the rule
``SummarizationMiddleware`` follows (langchain 1.5.2, ``_find_safe_cutoff_point``: the cut moves back to
the AI message that holds the calls).

A history is described by a small immutable **spec**, ``(turns, keep)``: ``turns`` is a tuple of ints, one
per assistant turn after the opening question: ``0`` is a text answer followed by the customer's next message,
``k > 0`` is an AI message with ``k`` parallel tool calls followed by their ``k`` ToolMessages. Every check
builds fresh messages from its spec (:func:`build_history`), so no answer can change another check's input.

The named cases below run with the current exercise core. The generated-input pieces (issue 27,
``helpers/exercises/generated.py``, not on main yet) are ready here: :func:`history_specs` (a Hypothesis
strategy), :func:`run_cut` (``run(answer, spec)``, an outcome comparable with ``==``), :func:`reference_cut_point`
and :func:`describe_spec`; :data:`GENERATED` holds them as the ``Generated(...)`` arguments.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from ..i18n import N_, _
from .core import Case, Exercise
from .results import shown

__all__ = ["CUT_POINT", "GENERATED", "build_history", "describe_spec", "history_specs", "reference_cut_point",
           "run_cut"]

#: A history spec: (turns, keep), see the module docstring.
Spec = tuple[tuple[int, ...], int]


def build_history(turns: tuple[int, ...]) -> list[BaseMessage]:
    """Fresh messages for ``turns``: a question, then per turn a text answer and a next question (``0``) or an
    AI message with ``k`` calls and their ``k`` ToolMessages (``k > 0``). Call ids are ``call_1``, ``call_2``, ...

    Args:
        turns: one int >= 0 per assistant turn.

    Returns:
        a new list of new messages.
    """
    messages: list[BaseMessage] = [HumanMessage("Where are my orders?")]
    call = 0
    for number, calls in enumerate(turns, start=1):
        if calls == 0:
            messages += [AIMessage(f"Answer {number}."), HumanMessage(f"Question {number + 1}?")]
            continue
        ids = [f"call_{call + k + 1}" for k in range(calls)]
        call += calls
        messages.append(AIMessage("", tool_calls=[
            {"name": "lookup_order", "args": {"order_id": f"A{1000 + int(i[5:])}"}, "id": i, "type": "tool_call"}
            for i in ids]))
        messages += [ToolMessage(f"Order A{1000 + int(i[5:])}: delivered.", tool_call_id=i, name="lookup_order")
                     for i in ids]
    return messages


def reference_cut_point(messages: list[BaseMessage], keep: int) -> int:
    """The reference: start ``keep`` from the end (0 if the history is shorter), then move back while the
    start is a ToolMessage (its AI message and all its results come along)."""
    start = max(0, len(messages) - keep)
    while start > 0 and isinstance(messages[start], ToolMessage):
        start -= 1
    return start


def _fingerprint(messages: list[BaseMessage]) -> list[tuple]:
    return [(type(m).__name__, m.content, getattr(m, "tool_call_id", None),
             [c.get("id") for c in getattr(m, "tool_calls", [])]) for m in messages]


def run_cut(answer: Any, spec: Spec) -> int:
    """Run ``answer(messages, keep)`` on fresh messages built from ``spec``; return the index it gave.

    Raises:
        AssertionError: the answer returned something that is not an index into the history, or changed
            the messages (a hint the learner reads).
    """
    turns, keep = spec
    messages = build_history(turns)
    before = _fingerprint(messages)
    got = answer(messages, keep)
    if _fingerprint(messages) != before:
        raise AssertionError(_("cut_point changed the messages it was given; only read them and return an "
                               "index"))
    if isinstance(got, bool) or not isinstance(got, int):
        raise AssertionError(_("return an int (an index into messages), got {got}").format(got=shown(got)))
    if not 0 <= got <= len(before):
        raise AssertionError(_("{got} is not an index into a history of {size} messages").format(
            got=shown(got), size=len(before)))
    return got


def describe_spec(spec: Spec) -> str:
    """The spec in the learner's words: the history's messages, one word each, and ``keep``."""
    turns, keep = spec
    words = []
    for message in build_history(turns):
        if isinstance(message, AIMessage) and message.tool_calls:
            words.append(f"ai({len(message.tool_calls)} calls)")
        else:
            words.append(message.type)
        words[-1] = f"{len(words) - 1}:{words[-1]}"
    return _("history [{messages}], keep={keep}").format(messages=", ".join(words), keep=keep)


def history_specs() -> Any:
    """The Hypothesis strategy of specs: up to 6 turns of 0-3 calls each, ``keep`` from 1 to 14.

    Hypothesis is imported when this is called: it comes with the generated-input core (issue 27)."""
    from hypothesis import strategies as st

    return st.tuples(st.lists(st.integers(min_value=0, max_value=3), max_size=6).map(tuple),
                     st.integers(min_value=1, max_value=14))


def _compare(spec: Spec, hint: str):
    def run(answer: Any) -> None:
        got, expected = run_cut(answer, spec), run_cut(reference_cut_point, spec)
        if got != expected:
            raise AssertionError(_("{case}: your cut_point gave {got}, the window must start at {expected}. "
                                   "{hint}").format(case=describe_spec(spec), got=shown(got), expected=expected,
                                                    hint=_(hint)))
    return run


HINT_BACK = N_("Start at len(messages) - keep; while that message is a ToolMessage, move one back.")
HINT_PARALLEL = N_("Parallel calls put several ToolMessages in a row: move back past all of them, to the AI "
                   "message that asked for them.")
HINT_SHORT = N_("When keep is larger than the history, keep it all: the window starts at 0.")
HINT_FORWARD = N_("A human or AI message may start the window: move only when the start is a ToolMessage, and "
                  "only back (keep at least `keep` messages).")

#: The generated-input pieces, as ``Generated(...)`` takes them (issue 27).
GENERATED = {
    "name": "histories generated at random",
    "inputs": history_specs,  # call it for the strategy
    "run": run_cut,
    "reference": reference_cut_point,
    "describe": describe_spec,
    "hint": HINT_PARALLEL,
    "examples": 60,
}

CUT_POINT = Exercise(
    "19.1",
    "cut a history without orphaning a tool result",
    [
        Case("the cut lands on a tool result", _compare(((1, 1), 1), HINT_BACK), HINT_BACK),
        Case("two parallel results", _compare(((2,), 1), HINT_PARALLEL), HINT_PARALLEL),
        Case("keep more than the history", _compare(((1,), 10), HINT_SHORT), HINT_SHORT),
        Case("the cut lands on a question", _compare(((0, 1), 3), HINT_FORWARD), HINT_FORWARD),
        Case("three parallel results, then a question", _compare(((3, 0), 4), HINT_PARALLEL), HINT_PARALLEL),
    ],
    probe=lambda answer: answer(build_history((1,)), 1),
)
