"""Reference solution, known-wrong and crashing answers for exercise 00.1 (tool call ids)."""

from helpers.exercises.registry import AnswerSet, KnownWrong


def tool_call_ids(ai_message):
    return [call["id"] for call in ai_message.tool_calls]


TOOL_CALL_IDS = AnswerSet(
    solutions={
        "list comprehension": tool_call_ids,
        # right ids, but it empties the message it reads: the check hands each case a fresh copy
        "pops every call (changes its input)": lambda m: [m.tool_calls.pop(0)["id"] for _ in list(m.tool_calls)],
    },
    wrong={
        "includes invalid calls": KnownWrong(lambda m: [c["id"] for c in m.tool_calls + m.invalid_tool_calls],
                                             fails=("invalid tool calls are not tool calls",), status="fail"),
        "sorted instead of in order": KnownWrong(lambda m: sorted(c["id"] for c in m.tool_calls),
                                                 fails=("two tool calls, in order",), status="fail"),
        # issue 27: every named message called only lookup_order, so this passed them all
        "ids of lookup_order calls only": KnownWrong(lambda m: [c["id"] for c in m.tool_calls if c["name"] == "lookup_order"],
                                                     fails=("agrees with the reference on generated messages",),
                                                     status="fail"),
        "returns names": KnownWrong(lambda m: [c["name"] for c in m.tool_calls],
                                    fails=("one tool call", "two tool calls, in order"), status="fail"),
    },
    crashing={"attribute access": lambda m: [call.id for call in m.tool_calls]},
    answer_from=lambda body: lambda ai_message: body(),
)
