"""Reference solutions, known-wrong and crashing answers for exercise 19.1 (cut a history without orphaning a
tool result)."""

from langchain_core.messages import ToolMessage

from helpers.exercises.registry import AnswerSet, KnownWrong


def cut_point(messages, keep):
    start = max(0, len(messages) - keep)
    while start > 0 and isinstance(messages[start], ToolMessage):
        start -= 1
    return start


def _by_type_name(messages, keep):
    start = max(0, len(messages) - keep)
    while start and messages[start].type == "tool":
        start -= 1
    return start


def _plain_slice(messages, keep):
    return max(0, len(messages) - keep)


def _one_step_back(messages, keep):
    start = max(0, len(messages) - keep)
    if start and isinstance(messages[start], ToolMessage):
        start -= 1
    return start


def _forward(messages, keep):
    start = max(0, len(messages) - keep)
    while start < len(messages) and isinstance(messages[start], ToolMessage):
        start += 1
    return start


def _negative_when_short(messages, keep):
    start = len(messages) - keep
    while start > 0 and isinstance(messages[start], ToolMessage):
        start -= 1
    return start


def _pops_the_tail(messages, keep):
    start = max(0, len(messages) - keep)
    while start > 0 and isinstance(messages[start], ToolMessage):
        start -= 1
    del messages[start:]  # "keeps" by deleting: changes the caller's list
    return start


CUT_POINT = AnswerSet(
    solutions={"while loop on ToolMessage": cut_point, "by message type": _by_type_name},
    wrong={
        "plain slice": KnownWrong(_plain_slice, fails=("the cut lands on a tool result",), status="fail"),
        "one step back": KnownWrong(_one_step_back, fails=("two parallel results",), status="fail"),
        "moves forward": KnownWrong(_forward, fails=("the cut lands on a tool result",), status="fail"),
        "negative index": KnownWrong(_negative_when_short, fails=("keep more than the history",), status="fail"),
        "changes the messages": KnownWrong(_pops_the_tail, fails=("the cut lands on a tool result",),
                                           status="fail"),
    },
    crashing={"indexes past the end": lambda messages, keep: messages[len(messages)].type},
    answer_from=lambda body: lambda messages, keep: body(),
)
