"""Reference solutions, known-wrong and crashing answers for exercise 14.1 (``helpers.exercises.nb14.UNANSWERED_CALLS``)."""

from __future__ import annotations

from helpers.exercises.registry import AnswerSet, KnownWrong


def _blocks(message):
    content = message.get("content")
    return content if isinstance(content, list) else []


def _calls_and_answers(body):
    """(call ids, answered ids), each in body order, for any of the three formats."""
    calls, answers = [], []
    if "input" in body:  # the Responses API
        for item in body["input"]:
            if item.get("type") == "function_call":
                calls.append(item["call_id"])
            elif item.get("type") == "function_call_output":
                answers.append(item["call_id"])
        return calls, answers
    for message in body["messages"]:
        calls += [call["id"] for call in message.get("tool_calls") or []]
        if message.get("role") == "tool":
            answers.append(message["tool_call_id"])
        for block in _blocks(message):
            if block.get("type") == "tool_use":
                calls.append(block["id"])
            elif block.get("type") == "tool_result":
                answers.append(block["tool_use_id"])
    return calls, answers


def unanswered_calls(body):
    """Reference: collect the call ids in order and the answered ids, then subtract."""
    calls, answers = _calls_and_answers(body)
    return [call_id for call_id in calls if call_id not in set(answers)]


def unanswered_calls_by_format(body):
    """Reference, second style: one (calls, answers) reader per format."""
    items = body.get("input") or body.get("messages") or []
    flat = []
    for item in items:
        flat.append(item)
        flat += [dict(b) for b in _blocks(item) if isinstance(b, dict)]
        flat += [{"type": "chat_call", "id": c["id"]} for c in item.get("tool_calls") or []]
    call_keys = {"function_call": "call_id", "tool_use": "id", "chat_call": "id"}
    calls = [i[call_keys[i.get("type")]] for i in flat if i.get("type") in call_keys]
    answered = {i["call_id"] for i in flat if i.get("type") == "function_call_output"}
    answered |= {i["tool_use_id"] for i in flat if i.get("type") == "tool_result"}
    answered |= {i["tool_call_id"] for i in flat if i.get("role") == "tool"}
    return [c for c in calls if c not in answered]


def wrong_chat_only(body):
    """Wrong: reads only chat.completions' shapes (an Anthropic or Responses body looks fully answered)."""
    messages = body.get("messages", [])
    calls = [c["id"] for m in messages for c in m.get("tool_calls") or []]
    answered = {m["tool_call_id"] for m in messages if m.get("role") == "tool"}
    return [c for c in calls if c not in answered]


def wrong_by_position(body):
    """Wrong: pairs the i-th answer with the i-th call, so answers out of order hide the lost call."""
    calls, answers = _calls_and_answers(body)
    return calls[len(answers):]


def wrong_sorted(body):
    """Wrong: right ids, but as a sorted set (not in call order)."""
    return sorted(set(unanswered_calls(body)), reverse=True)


def wrong_last_turn_only(body):
    """Wrong: reads only the last assistant turn's calls (right for the notebook's one-turn bodies)."""
    calls, answers = _calls_and_answers(body)
    messages = body.get("messages")
    if messages is not None:
        last = [m for m in messages if m.get("tool_calls") or any(b.get("type") == "tool_use" for b in _blocks(m))]
        calls = [c for c in calls if last and c in {*[x["id"] for x in last[-1].get("tool_calls") or []],
                                                      *[b.get("id") for b in _blocks(last[-1])]}]
    return [call_id for call_id in calls if call_id not in answers]


def wrong_first_turn_only(body):
    """Wrong: stops reading calls after the first assistant turn with calls."""
    calls, answers = _calls_and_answers(body)
    messages = body.get("messages")
    if messages is not None:
        first = next((m for m in messages if m.get("tool_calls")), None)
        if first is not None:
            calls = [c["id"] for c in first["tool_calls"]]
    return [call_id for call_id in calls if call_id not in answers]


def wrong_set_difference(body):
    """Wrong (issue 27): the calls minus the answered ids as a sorted set. The named cases' ids are call_A,
    call_B, call_C, whose alphabetical order is their call order, so it passed them all."""
    calls, answers = _calls_and_answers(body)
    return sorted(set(calls) - set(answers))


class _AlwaysEqual(list):
    """A list that says it equals anything."""

    def __eq__(self, other):
        return True

    __hash__ = None


def wrong_always_equal(body):
    """Wrong (hostile): returns a list subclass whose == is always True."""
    return _AlwaysEqual()


def crashing_messages_only(body):
    """Crashes with KeyError on a Responses body, which has no 'messages'."""
    return [c["id"] for m in body["messages"] for c in m.get("tool_calls") or []
            if not any(x.get("tool_call_id") == c["id"] for x in body["messages"])]


UNANSWERED_CALLS = AnswerSet(
    solutions={"one loop for all formats": unanswered_calls, "flattened blocks": unanswered_calls_by_format},
    wrong={
        "reads chat.completions only": KnownWrong(
            wrong_chat_only, fails=("Responses API, two answers lost", "Anthropic, results merged with text, "
                                    "out of order", "Anthropic, no results at all"), status="fail"),
        "pairs by position": KnownWrong(wrong_by_position, fails=("chat.completions, answers out of order",),
                                        status="fail"),
        "not in call order": KnownWrong(wrong_sorted, fails=("Responses API, two answers lost",), status="fail"),
        "reads only the last turn": KnownWrong(wrong_last_turn_only, fails=("chat.completions, two rounds of calls",),
                                               status="fail"),
        "reads only the first turn": KnownWrong(wrong_first_turn_only,
                                                fails=("chat.completions, two rounds of calls",), status="fail"),
        "sorted(set(calls) - answered)": KnownWrong(
            wrong_set_difference, fails=("agrees with the reference on generated bodies",), status="fail"),
        "a list that equals anything": KnownWrong(wrong_always_equal, fails=(
            "chat.completions, one answer lost", "Responses API, two answers lost"), status="fail"),
    },
    crashing={"body['messages'] on a Responses body": crashing_messages_only},
    answer_from=lambda body: lambda request_body: body(),
)
