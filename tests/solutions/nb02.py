"""Reference solution and known-wrong answers for exercise 02.1 (execute the calls of one AIMessage)."""

from __future__ import annotations

from langchain_core.messages import AIMessage, ToolMessage

from helpers.exercises.registry import AnswerSet, KnownWrong


def execute_tool_calls(ai_message: AIMessage, tools_by_name: dict) -> list[ToolMessage]:
    """Reference: invoke each tool with the whole ToolCall, so LangChain builds the paired ToolMessage."""
    return [tools_by_name[call["name"]].invoke(call) for call in ai_message.tool_calls]


def execute_tool_calls_by_hand(ai_message: AIMessage, tools_by_name: dict) -> list[ToolMessage]:
    """Also correct: run with the args, then build the ToolMessage yourself (dicts as JSON)."""
    import json

    messages = []
    for call in ai_message.tool_calls:
        result = tools_by_name[call["name"]].invoke(call["args"])
        content = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        messages.append(ToolMessage(content=content, tool_call_id=call["id"], name=call["name"]))
    return messages


# -- known-wrong answers (each must fail at least one case) -------------------------------------


def wrong_returns_raw_results(ai_message, tools_by_name):
    """Passes only the args: gets raw results, never ToolMessages."""
    return [tools_by_name[c["name"]].invoke(c["args"]) for c in ai_message.tool_calls]


def wrong_invented_ids(ai_message, tools_by_name):
    """Builds ids from positions instead of copying them from the calls."""
    return [
        ToolMessage(content=str(tools_by_name[c["name"]].invoke(c["args"])), tool_call_id=f"call_{i}")
        for i, c in enumerate(ai_message.tool_calls, start=1)
    ]


def wrong_python_str(ai_message, tools_by_name):
    """Right ids, but str(dict) is not JSON."""
    return [
        ToolMessage(content=str(tools_by_name[c["name"]].invoke(c["args"])), tool_call_id=c["id"])
        for c in ai_message.tool_calls
    ]


def wrong_first_call_only(ai_message, tools_by_name):
    """Executes only the first call of a reply with several calls."""
    calls = ai_message.tool_calls[:1]
    return [tools_by_name[c["name"]].invoke(c) for c in calls]


def wrong_never_runs(ai_message, tools_by_name):
    """Acknowledges every call without running anything."""
    return [ToolMessage(content="ok", tool_call_id=c["id"]) for c in ai_message.tool_calls]


def wrong_runs_twice(ai_message, tools_by_name):
    """Runs each tool once to 'check' it, then again for the message."""
    out = []
    for c in ai_message.tool_calls:
        tools_by_name[c["name"]].invoke(c["args"])
        out.append(tools_by_name[c["name"]].invoke(c))
    return out


def wrong_json_everything(ai_message, tools_by_name):
    """Wrong (issue 27): json.dumps on every result. The named tools return a dict and an int, whose JSON is the
    text LangChain sends, so it passed them all; a string result reaches the model wrapped in quotes."""
    import json

    return [ToolMessage(content=json.dumps(tools_by_name[c["name"]].invoke(c["args"])), tool_call_id=c["id"],
                        name=c["name"]) for c in ai_message.tool_calls]


def wrong_runs_a_repeated_call_once(ai_message, tools_by_name):
    """Wrong (issue 27): a call that repeats an earlier call's tool and arguments reuses its result (a cache). The
    named calls never repeat, so it passed them all; a repeated call never runs."""
    import json

    results, out = {}, []
    for c in ai_message.tool_calls:
        key = (c["name"], json.dumps(c["args"], sort_keys=True))
        if key not in results:
            results[key] = tools_by_name[c["name"]].invoke(c).content
        out.append(ToolMessage(content=results[key], tool_call_id=c["id"], name=c["name"]))
    return out


def crashing(ai_message, tools_by_name):
    """Crashes with a KeyError (the checker must report it, not raise)."""
    return tools_by_name[None].invoke(ai_message)  # type: ignore[index]


_ONCE = "each call runs the tool exactly once"
_GENERATED = "agrees with the reference on generated messages"

EXECUTE_CALLS = AnswerSet(
    solutions={"invoke the whole ToolCall": execute_tool_calls, "build the ToolMessage by hand": execute_tool_calls_by_hand},
    wrong={
        "returns raw results": KnownWrong(wrong_returns_raw_results, fails=("one call, one ToolMessage with the call's id",)),
        "invents ids from positions": KnownWrong(wrong_invented_ids, fails=("ids come from the calls, not from positions",)),
        "str(dict) is not JSON": KnownWrong(wrong_python_str, fails=("a dict result arrives as JSON text",)),
        "answers the first call only": KnownWrong(wrong_first_call_only,
                                                  fails=("ids come from the calls, not from positions", _ONCE)),
        "never runs the tools": KnownWrong(wrong_never_runs, fails=(_ONCE,)),
        "runs each tool twice": KnownWrong(wrong_runs_twice, fails=(_ONCE,), status="fail"),
        "json.dumps on every result": KnownWrong(wrong_json_everything, fails=(_GENERATED,), status="fail"),
        "runs a repeated call once": KnownWrong(wrong_runs_a_repeated_call_once, fails=(_GENERATED,), status="fail"),
    },
    crashing={"KeyError": crashing},
    answer_from=lambda body: lambda ai_message, tools_by_name: body(),
)
