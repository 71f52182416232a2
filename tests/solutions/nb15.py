"""Reference solutions, known-wrong and crashing answers for exercise 15.1 (count the
structured-output retries of ``ToolStrategy``)."""

from langchain_core.messages import AIMessage, ToolMessage

from helpers.exercises.registry import AnswerSet, KnownWrong


def by_call_and_text(messages, response_tools):
    response_calls = {call["id"] for m in messages if isinstance(m, AIMessage)
                      for call in m.tool_calls if call["name"] in response_tools}
    return sum(1 for m in messages if isinstance(m, ToolMessage)
               and m.tool_call_id in response_calls and m.text.startswith("Error:"))


def by_name_and_text(messages, response_tools):
    return sum(m.type == "tool" and m.name in response_tools and m.content.startswith("Error")
               for m in messages)


def counts_error_status(messages, response_tools):
    return sum(m.type == "tool" and m.status == "error" for m in messages)


def counts_every_error_text(messages, response_tools):
    return sum(m.type == "tool" and m.text.startswith("Error:") for m in messages)


def counts_every_answer_to_a_response_tool(messages, response_tools):
    return sum(m.type == "tool" and m.name in response_tools for m in messages)


def counts_turns_not_messages(messages, response_tools):
    retried = {m.tool_call_id for m in messages if m.type == "tool" and m.name in response_tools
               and m.text.startswith("Error:")}
    return sum(1 for m in messages if isinstance(m, AIMessage)
               and any(call["id"] in retried for call in m.tool_calls))


def hard_codes_the_schema_name(messages, response_tools):
    return sum(m.type == "tool" and m.name == "RefundDecision" and m.text.startswith("Error:") for m in messages)


def success_status_and_error_text(messages, response_tools):
    return sum(m.type == "tool" and m.status == "success" and m.text.startswith("Error:") for m in messages)


def count_minus_one(messages, response_tools):
    """Wrong (issue 27): every answer to a response tool, minus the accepted one. Every named history ends with
    exactly one accepted response, so it passed them all; a run still retrying is counted one short."""
    return sum(m.type == "tool" and m.name in response_tools for m in messages) - 1


class _AlwaysEqual(int):
    """An int that says it equals anything."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def always_equal(messages, response_tools):
    return _AlwaysEqual(0)


STRUCTURED_RETRIES = AnswerSet(
    solutions={"match the call, then the text": by_call_and_text, "by name and text": by_name_and_text},
    wrong={
        "counts status='error'": KnownWrong(counts_error_status, fails=(
            "two retries, then a valid decision", "a failed tool is not a retry",
            "two structured calls in one turn"), status="fail"),
        "counts every 'Error:' text": KnownWrong(counts_every_error_text, fails=(
            "a failed tool is not a retry",), status="fail"),
        "counts every answer to RefundDecision": KnownWrong(counts_every_answer_to_a_response_tool, fails=(
            "two retries, then a valid decision", "a failed tool is not a retry", "a run without retries",
            "two structured calls in one turn"), status="fail"),
        "counts turns, not ToolMessages": KnownWrong(counts_turns_not_messages, fails=(
            "two structured calls in one turn",), status="fail"),
        "hard-codes the name RefundDecision": KnownWrong(hard_codes_the_schema_name, fails=(
            "another schema, another response tool",), status="fail"),
        "status 'success' and an 'Error:' text": KnownWrong(success_status_and_error_text, fails=(
            "a tool's own 'Error:' text is not a retry",), status="fail"),
        "count minus one (the accepted answer)": KnownWrong(count_minus_one, fails=(
            "agrees with the reference on generated histories",), status="fail"),
        "an int that equals anything": KnownWrong(always_equal, fails=(
            "two retries, then a valid decision",), status="fail"),
    },
    crashing={"tool_calls on every message": lambda messages, response_tools: sum(
        len(m.tool_calls) for m in messages)},
    answer_from=lambda body: lambda messages, response_tools: body(),
)
