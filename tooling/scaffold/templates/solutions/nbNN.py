"""Reference solution, known-wrong and crashing answers for exercise NN.1 (the skeleton's tool names)."""

from helpers.exercises.registry import AnswerSet, KnownWrong


def tool_names(ai_message):
    return [call["name"] for call in ai_message.tool_calls]


TOOL_NAMES = AnswerSet(
    solutions={"list comprehension": tool_names},
    wrong={
        "returns the ids": KnownWrong(lambda m: [c["id"] for c in m.tool_calls],
                                      fails=("two calls and an invalid one",), status="fail"),
        "includes invalid calls": KnownWrong(lambda m: [c["name"] for c in m.tool_calls + m.invalid_tool_calls],
                                             fails=("two calls and an invalid one",), status="fail"),
    },
    crashing={"attribute access": lambda m: [call.name for call in m.tool_calls]},
    answer_from=lambda body: lambda ai_message: body(),
)
