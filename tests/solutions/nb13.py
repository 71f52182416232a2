"""Reference solutions, known-wrong and crashing answers for exercise 13.1 (the tool calls a streamed reply may run)."""

from helpers.exercises.registry import AnswerSet, KnownWrong


def runnable_calls(message):
    finish = message.response_metadata.get("finish_reason")
    return list(message.tool_calls) if finish in ("tool_calls", "stop") else []


def runnable_calls_with_a_set(message):
    ended_normally = {"tool_calls", "stop"}
    if message.response_metadata.get("finish_reason") not in ended_normally:
        return []
    return [call for call in message.tool_calls]


def refuses_only_length(message):
    return [] if message.response_metadata.get("finish_reason") == "length" else list(message.tool_calls)


def refuses_length_and_filter(message):
    if message.response_metadata.get("finish_reason") in ("length", "content_filter"):
        return []
    return list(message.tool_calls)


def runs_everything(message):
    return list(message.tool_calls)


def includes_invalid_calls(message):
    if message.response_metadata.get("finish_reason") not in ("tool_calls", "stop"):
        return []
    return [*message.tool_calls, *message.invalid_tool_calls]


def only_tool_calls_reason(message):
    return list(message.tool_calls) if message.response_metadata.get("finish_reason") == "tool_calls" else []


def clears_the_message(message):
    if message.response_metadata.get("finish_reason") in ("tool_calls", "stop"):
        return list(message.tool_calls)
    message.tool_calls.clear()
    return message.tool_calls


class _AlwaysEqual(list):
    """A list that says it equals anything (and has a length of 1 for the one check that counts)."""

    def __eq__(self, other):
        return True

    def __len__(self):
        return 1

    __hash__ = None


def always_equal(message):
    return _AlwaysEqual()


RUNNABLE_CALLS = AnswerSet(
    solutions={"finish_reason in a tuple": runnable_calls, "a set of good endings": runnable_calls_with_a_set,
               "only 'tool_calls' (the text case has no calls)": only_tool_calls_reason},
    wrong={
        "refuses only length": KnownWrong(refuses_only_length, fails=("filtered by the provider",
                                                                       "a stream without its last chunk"),
                                          status="fail"),
        "refuses length and content_filter": KnownWrong(refuses_length_and_filter,
                                                        fails=("a stream without its last chunk",), status="fail"),
        "runs everything": KnownWrong(runs_everything, fails=("cut off at the token limit",), status="fail"),
        "includes invalid calls": KnownWrong(includes_invalid_calls, fails=("an invalid call never runs",),
                                             status="fail"),
        "empties the message's calls": KnownWrong(clears_the_message, fails=("cut off at the token limit",),
                                                  status="fail"),
        "a list that equals anything": KnownWrong(always_equal, fails=(
            "a complete reply: both calls", "an invalid call never runs"),
                                                  status="fail"),
    },
    crashing={"indexes a missing key": lambda m: list(m.tool_calls) if m.response_metadata["finish_reason"] in
              ("tool_calls", "stop") else [],
              "attribute that does not exist": lambda m: m.finish_reason},
    answer_from=lambda body: lambda message: body(),
)
