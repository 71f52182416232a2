"""Reference solutions, known-wrong and crashing answers for exercise 13.1 (the tool calls a streamed reply may run)."""

from helpers.exercises.registry import AnswerSet, KnownWrong

# what each integration writes into response_metadata when a reply ended normally (notebook 13, section 3)
ENDED_NORMALLY = {
    "finish_reason": ("tool_calls", "stop"),  # ChatOpenAI, chat.completions
    "status": ("completed",),  # ChatOpenAI, Responses API
    "stop_reason": ("tool_use", "end_turn"),  # ChatAnthropic
}


def runnable_calls(message):
    signs = {key: message.response_metadata.get(key) for key in ENDED_NORMALLY}
    signs = {key: value for key, value in signs.items() if value is not None}
    finished = bool(signs) and all(value in ENDED_NORMALLY[key] for key, value in signs.items())
    return list(message.tool_calls) if finished else []


def runnable_calls_by_provider(message):
    metadata = message.response_metadata
    if "finish_reason" in metadata:
        finished = metadata["finish_reason"] in {"tool_calls", "stop"}
    elif "stop_reason" in metadata:
        finished = metadata["stop_reason"] in {"tool_use", "end_turn"}
    else:
        finished = metadata.get("status") == "completed"
    return [call for call in message.tool_calls] if finished else []


def refuses_only_length(message):
    return [] if message.response_metadata.get("finish_reason") == "length" else list(message.tool_calls)


def refuses_length_and_filter(message):
    if message.response_metadata.get("finish_reason") in ("length", "content_filter"):
        return []
    return list(message.tool_calls)


def refuses_every_providers_cut(message):
    # issue 27: a deny-list of the bad reasons; any reason it does not list runs the refund
    metadata = message.response_metadata
    if (metadata.get("finish_reason") in ("length", "content_filter") or metadata.get("status") == "incomplete"
            or metadata.get("stop_reason") == "max_tokens"):
        return []
    return list(message.tool_calls)


def knows_only_finish_reason(message):
    # the guard notebook 13 taught before issue 27: right for ChatOpenAI, refuses every Anthropic or Responses reply
    finish = message.response_metadata.get("finish_reason")
    return list(message.tool_calls) if finish in ("tool_calls", "stop") else []


def misses_the_responses_api(message):
    # a reference that knows two of the three integrations
    metadata = message.response_metadata
    finished = metadata.get("finish_reason") in ("tool_calls", "stop") or metadata.get("stop_reason") in (
        "tool_use", "end_turn")
    return list(message.tool_calls) if finished else []


def only_tool_calls_reason(message):
    # 'stop' with calls is what OpenAI sends when tool_choice names a function: those calls may run too
    metadata = message.response_metadata
    finished = (metadata.get("finish_reason") == "tool_calls" or metadata.get("status") == "completed"
                or metadata.get("stop_reason") == "tool_use")
    return list(message.tool_calls) if finished else []


def runs_everything(message):
    return list(message.tool_calls)


def includes_invalid_calls(message):
    if not runnable_calls(message):
        return []
    return [*message.tool_calls, *message.invalid_tool_calls]


def clears_the_message(message):
    if runnable_calls(message):
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
    solutions={"an allow-list per stop signal": runnable_calls,
               "one branch per integration": runnable_calls_by_provider},
    wrong={
        "refuses only length": KnownWrong(refuses_only_length, fails=(
            "filtered by the provider", "a stream without its finish_reason", "Responses API: cut at max_output_tokens",
            "ChatAnthropic: cut at max_tokens"), status="fail"),
        "refuses length and content_filter": KnownWrong(refuses_length_and_filter, fails=(
            "a stream without its finish_reason", "ChatAnthropic: cut at max_tokens"), status="fail"),
        "a deny-list of every integration's cut": KnownWrong(refuses_every_providers_cut, fails=(
            "a stream without its finish_reason", "ChatAnthropic: cut by the context window"), status="fail"),
        "knows only OpenAI's finish_reason": KnownWrong(knows_only_finish_reason, fails=(
            "Responses API: a complete reply", "ChatAnthropic: a complete reply"), status="fail"),
        "misses the Responses API": KnownWrong(misses_the_responses_api, fails=("Responses API: a complete reply",),
                                               status="fail"),
        "runs everything": KnownWrong(runs_everything, fails=("cut off at the token limit",), status="fail"),
        "includes invalid calls": KnownWrong(includes_invalid_calls, fails=("an invalid call never runs",),
                                             status="fail"),
        "empties the message's calls": KnownWrong(clears_the_message, fails=("cut off at the token limit",),
                                                  status="fail"),
        "a list that equals anything": KnownWrong(always_equal, fails=(
            "a complete reply: both calls", "an invalid call never runs"), status="fail"),
    },
    crashing={"indexes a missing key": lambda m: list(m.tool_calls) if m.response_metadata["finish_reason"] in
              ("tool_calls", "stop") else [],
              "attribute that does not exist": lambda m: m.finish_reason},
    answer_from=lambda body: lambda message: body(),
)

# Known-wrong answers that only the generated inputs catch (helpers.exercises.nb13_streams.GENERATED): each differs
# from the reference on some generated stream, and tests/test_exercises_nb13.py proves it.
GENERATED_WRONG = {
    "'tool_calls' only, not 'stop' (forced tool_choice)": only_tool_calls_reason,
}
