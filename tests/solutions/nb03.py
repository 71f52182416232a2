"""Reference solutions and known-wrong answers for exercise 03.1 (run_tool_calls)."""

from __future__ import annotations

import asyncio

from langchain_core.messages import AIMessage, ToolMessage

from helpers.exercises.registry import AnswerSet, KnownWrong


def _error(call: dict, text: str) -> ToolMessage:
    return ToolMessage(content=f"Error: {text}", tool_call_id=call["id"], name=call["name"], status="error")


async def run_tool_calls(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """Reference (async): run valid calls concurrently; each result keeps the id of its own call."""
    by_name = {t.name: t for t in tools}

    async def run_one(call: dict) -> ToolMessage:
        tool = by_name.get(call["name"])
        if tool is None:
            return _error(call, f"{call['name']} is not a valid tool, try one of {sorted(by_name)}")
        try:
            return await tool.ainvoke(call)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a paired error result
            return _error(call, f"{type(exc).__name__}: {exc}")

    results = list(await asyncio.gather(*(run_one(c) for c in ai_message.tool_calls)))
    results += [_error(c, f"the arguments of {c['name']} are not valid JSON: {c['args']}")
                for c in ai_message.invalid_tool_calls]
    return results


def _one_after_another(ai_message: AIMessage, tools: list, run_one) -> list[ToolMessage]:
    """Answer every call in order: ``run_one(tool, call) -> ToolMessage``; failures become error results."""
    by_name = {t.name: t for t in tools}
    results = []
    for call in ai_message.tool_calls:
        tool = by_name.get(call["name"])
        if tool is None:
            results.append(_error(call, f"{call['name']} is not a valid tool"))
            continue
        try:
            results.append(run_one(tool, call))
        except Exception as exc:  # noqa: BLE001
            results.append(_error(call, str(exc)))
    for call in ai_message.invalid_tool_calls:
        results.append(_error(call, "arguments are not valid JSON"))
    return results


def run_tool_calls_sync(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """Reference (plain function): the same pairing, one call after another."""
    return _one_after_another(ai_message, tools, lambda tool, call: tool.invoke(call))


# -- known-wrong answers ---------------------------------------------------------------------


async def wrong_pairs_by_completion(ai_message, tools):
    """Runs concurrently, but zips results in completion order with the calls in request order."""
    by_name = {t.name: t for t in tools}

    async def run(call):
        try:
            return await by_name[call["name"]].ainvoke(call["args"])
        except Exception as exc:  # noqa: BLE001
            return exc

    calls = list(ai_message.tool_calls)
    finished = [await f for f in asyncio.as_completed([run(c) for c in calls])]
    out = []
    for call, result in zip(calls, finished):
        if isinstance(result, Exception):
            out.append(_error(call, str(result)))
        else:
            import json
            content = result if isinstance(result, str) else json.dumps(result)
            out.append(ToolMessage(content=content, tool_call_id=call["id"]))
    out += [_error(c, "invalid") for c in ai_message.invalid_tool_calls]
    return out


def wrong_no_error_handling(ai_message, tools):
    """Lets unknown names and exceptions escape (KeyError / ValueError)."""
    by_name = {t.name: t for t in tools}
    return [by_name[c["name"]].invoke(c) for c in ai_message.tool_calls] + [
        _error(c, "invalid") for c in ai_message.invalid_tool_calls
    ]


def wrong_skips_invalid_calls(ai_message, tools):
    """Handles errors but forgets invalid_tool_calls: the provider would reject the next request."""
    return run_tool_calls_sync(AIMessage(content="", tool_calls=ai_message.tool_calls), tools)


def wrong_repairs_invalid_calls(ai_message, tools):
    """Guesses the arguments of an invalid call (quotes the bare word) and runs the tool anyway."""
    import json
    import re

    repaired = []
    for call in ai_message.invalid_tool_calls:
        raw = re.sub(r":\s*([A-Za-z0-9]+)", r': "\1"', call["args"] or "{}")
        repaired.append({"name": call["name"], "args": json.loads(raw), "id": call["id"], "type": "tool_call"})
    return run_tool_calls_sync(AIMessage(content="", tool_calls=list(ai_message.tool_calls) + repaired), tools)


def wrong_error_without_status(ai_message, tools):
    """Writes the error text but leaves status='success'."""
    return [ToolMessage(content=m.content, tool_call_id=m.tool_call_id, name=m.name)
            for m in run_tool_calls_sync(ai_message, tools)]


def wrong_catches_only_tool_exception(ai_message, tools):
    """Catches ToolException only: ValueError and ValidationError escape."""
    from langchain_core.tools import ToolException

    by_name = {t.name: t for t in tools}
    out = []
    for call in ai_message.tool_calls:
        tool = by_name.get(call["name"])
        if tool is None:
            out.append(_error(call, f"{call['name']} is not a valid tool"))
            continue
        try:
            out.append(tool.invoke(call))
        except ToolException as exc:
            out.append(_error(call, str(exc)))
    return out + [_error(c, "invalid") for c in ai_message.invalid_tool_calls]


async def wrong_forgets_await(ai_message, tools):
    """Calls tool.ainvoke(call) without await: a list of coroutines, not ToolMessages."""
    by_name = {t.name: t for t in tools}
    return [by_name[c["name"]].ainvoke(c) for c in ai_message.tool_calls if c["name"] in by_name] + [
        _error(c, "invalid") for c in ai_message.invalid_tool_calls
    ]


def wrong_edits_tool_results(ai_message, tools):
    """Reads each order with the tool's plain arguments and edits the dict it gets back, in place.

    Its ToolMessages carry the edited product names, so the pairing check fails; and the edit
    must not reach the checker's own data (each case gets fresh copies), or the reference
    answers would fail afterwards.
    """
    import json

    def edit_then_answer(tool, call):
        result = tool.invoke(call["args"])
        if isinstance(result, dict):
            result["product"] = result.get("product", "").upper()  # the in-place edit
            result = json.dumps(result)
        return ToolMessage(content=result, tool_call_id=call["id"], name=call["name"])

    return _one_after_another(ai_message, tools, edit_then_answer)


async def crashing(ai_message, tools):
    """Crashes inside the coroutine (the checker must report it, not raise)."""
    raise TypeError("boom inside run_tool_calls")


_INVALID = "an invalid call (not JSON) is answered, not run"
_EXCEPTION = "a tool exception becomes an error result"

RUN_TOOL_CALLS = AnswerSet(
    solutions={"async, concurrent": run_tool_calls, "plain def, one after another": run_tool_calls_sync},
    wrong={
        "pairs by completion order": KnownWrong(wrong_pairs_by_completion, fails=("out-of-order completion still pairs by id",)),
        "no error handling": KnownWrong(wrong_no_error_handling,
                                        fails=("unknown tool name becomes an error result", _EXCEPTION)),
        "skips invalid calls": KnownWrong(wrong_skips_invalid_calls, fails=(_INVALID,), status="fail"),
        "repairs invalid calls": KnownWrong(wrong_repairs_invalid_calls, fails=(_INVALID,), status="fail"),
        "error text without status": KnownWrong(wrong_error_without_status, fails=(_EXCEPTION,), status="fail"),
        "catches only ToolException": KnownWrong(wrong_catches_only_tool_exception,
                                                 fails=(_EXCEPTION, "arguments that fail the schema become an error result")),
        "forgets await": KnownWrong(wrong_forgets_await, fails=("every call answered once, status success",), status="fail"),
        "edits what a tool returned": KnownWrong(wrong_edits_tool_results,
                                                 fails=("out-of-order completion still pairs by id",), status="fail"),
    },
    crashing={"TypeError inside the coroutine": crashing},
    answer_from=lambda body: lambda ai_message, tools: body(),
)
