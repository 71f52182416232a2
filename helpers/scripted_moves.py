"""Script steps that read the request: the scripted model's moves of notebooks 09 and 10, kept out of the lesson.

A script step of :func:`helpers.scripted_model` may be a callable: the model calls it with the
:class:`helpers.model.RecordedRequest` it received (``request.messages``, ``request.tool_names``) and plays
what it returns: text, or a list of tool calls. Each function here returns such a step (or is one).
"""

from __future__ import annotations

from typing import Any, Callable

from langchain_core.messages import HumanMessage, ToolMessage

__all__ = ["echo", "insists_on", "retries_when_told"]

Step = Callable[[Any], Any]


def echo(request: Any) -> str:
    """A closing line that repeats what the last message (usually a tool result) said: ``"Done: <content>"``."""
    return f"Done: {request.messages[-1].content}"


def insists_on(call: dict) -> Step:
    """A model that asks for ``call`` again after every error result (a rejection included).

    Args:
        call: the tool call to ask for (a ``tool_call(...)`` dict); the scripted model numbers a new id
            each time it is played when the dict has none.

    Returns:
        a step: ``[call]`` when the last message is the customer's or an error ``ToolMessage``, else
        :func:`echo`'s closing line.
    """

    def step(request: Any) -> Any:
        last = request.messages[-1]
        if isinstance(last, HumanMessage) or (isinstance(last, ToolMessage) and last.status == "error"):
            return [dict(call)]
        return echo(request)

    return step


def retries_when_told(call: dict, *, at_most: int = 2, give_up: str) -> Step:
    """A model that does what the last tool result says: asks for ``call`` again when it says "try again".

    Args:
        call: the tool call to ask for.
        at_most: how many times it asks again after the first call.
        give_up: the text it answers when it stops.

    Returns:
        a step: ``[call]`` for the customer's message and for each result containing "try again" (case
        ignored) while fewer than ``at_most + 1`` results exist, else ``give_up``.
    """

    def step(request: Any) -> Any:
        results = sum(isinstance(m, ToolMessage) for m in request.messages)
        last = request.messages[-1]
        if isinstance(last, HumanMessage) or ("try again" in str(last.content).lower() and results <= at_most):
            return [dict(call)]
        return give_up

    return step
