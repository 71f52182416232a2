"""Reference solution and known-wrong answers for notebook 00."""


def tool_call_ids(ai_message):
    return [call["id"] for call in ai_message.tool_calls]


WRONG = {
    "attribute access crashes": lambda m: [call.id for call in m.tool_calls],
    "includes invalid calls": lambda m: [c["id"] for c in m.tool_calls + m.invalid_tool_calls],
    "sorted instead of in order": lambda m: sorted(c["id"] for c in m.tool_calls),
    "returns names": lambda m: [c["name"] for c in m.tool_calls],
}
