"""Reference solutions and known-wrong answers for exercise 03.1 (run_tool_calls).

The references answer the failures the application expects (an unknown tool, a DomainError,
arguments that fail the schema or are not JSON) with an error ToolMessage carrying a stable
code, and let a bug raise: the habit notebook 09's error contract keeps. Among the wrong answers
is the catch-all this exercise used to ask for (every exception as ``str(exc)`` for the model).
"""

from __future__ import annotations

import asyncio
import json

from langchain_core.messages import AIMessage, ToolMessage
from pydantic import ValidationError

from helpers.domain import DomainError
from helpers.exercises.nb03 import INVALID_ARGUMENTS, UNKNOWN_TOOL
from helpers.exercises.registry import AnswerSet, KnownWrong


def _error(call: dict, code: str, text: str) -> ToolMessage:
    return ToolMessage(content=f"Error {code}: {text}", tool_call_id=call["id"], name=call["name"], status="error")


def _unknown(call: dict, by_name: dict) -> ToolMessage:
    return _error(call, UNKNOWN_TOOL, f"there is no tool {call['name']}; the tools are {sorted(by_name)}")


def _not_json(call: dict) -> ToolMessage:
    return _error(call, INVALID_ARGUMENTS, f"the arguments of {call['name']} are not valid JSON")


async def run_tool_calls(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """Reference (async): run valid calls concurrently; each result keeps the id of its own call."""
    by_name = {t.name: t for t in tools}

    async def run_one(call: dict) -> ToolMessage:
        tool = by_name.get(call["name"])
        if tool is None:
            return _unknown(call, by_name)
        try:
            return await tool.ainvoke(call)
        except DomainError as exc:  # a refusal the app expects: its stable code
            return _error(call, exc.code, str(exc))
        except ValidationError as exc:
            return _error(call, INVALID_ARGUMENTS, f"{exc.error_count()} argument(s) do not fit the schema")
        # anything else is a bug: it propagates

    results = list(await asyncio.gather(*(run_one(c) for c in ai_message.tool_calls)))
    return results + [_not_json(c) for c in ai_message.invalid_tool_calls]


def _one_after_another(ai_message: AIMessage, tools: list, run_one) -> list[ToolMessage]:
    """Answer every call in order: ``run_one(tool, call) -> ToolMessage``; expected failures become error results."""
    by_name = {t.name: t for t in tools}
    results = []
    for call in ai_message.tool_calls:
        tool = by_name.get(call["name"])
        if tool is None:
            results.append(_unknown(call, by_name))
            continue
        try:
            results.append(run_one(tool, call))
        except DomainError as exc:
            results.append(_error(call, exc.code, str(exc)))
        except ValidationError:
            results.append(_error(call, INVALID_ARGUMENTS, "the arguments do not fit the schema"))
    return results + [_not_json(c) for c in ai_message.invalid_tool_calls]


def run_tool_calls_sync(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """Reference (plain function): the same pairing, one call after another."""
    return _one_after_another(ai_message, tools, lambda tool, call: tool.invoke(call))


# -- known-wrong answers ---------------------------------------------------------------------


async def wrong_catch_all(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """The old reference: every exception becomes ``Error: Type: text`` for the model, bugs included, no code."""
    by_name = {t.name: t for t in tools}

    async def run_one(call: dict) -> ToolMessage:
        tool = by_name.get(call["name"])
        if tool is None:
            return ToolMessage(f"Error: {call['name']} is not a valid tool", tool_call_id=call["id"], status="error")
        try:
            return await tool.ainvoke(call)
        except Exception as exc:  # noqa: BLE001 - the anti-pattern this answer exists for
            return ToolMessage(f"Error: {type(exc).__name__}: {exc}", tool_call_id=call["id"], status="error")

    results = list(await asyncio.gather(*(run_one(c) for c in ai_message.tool_calls)))
    return results + [ToolMessage("Error: arguments are not valid JSON", tool_call_id=c["id"], status="error")
                      for c in ai_message.invalid_tool_calls]


def wrong_codes_but_catches_bugs(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """Maps every expected failure right, then adds ``except Exception``: a bug becomes text for the model."""

    def run_one(tool, call):
        try:
            return tool.invoke(call)
        except (DomainError, ValidationError):
            raise
        except Exception as exc:  # noqa: BLE001 - the bug swallowed
            return _error(call, "internal_error", str(exc))

    return _one_after_another(ai_message, tools, run_one)


def wrong_text_without_code(ai_message: AIMessage, tools: list) -> list[ToolMessage]:
    """Catches the right exceptions but writes only their text: no stable code."""
    return [ToolMessage(content=m.content.split(": ", 1)[-1] if m.status == "error" else m.content,
                        tool_call_id=m.tool_call_id, name=m.name, status=m.status)
            for m in run_tool_calls_sync(ai_message, tools)]


async def wrong_pairs_by_completion(ai_message, tools):
    """Runs concurrently, but zips results in completion order with the calls in request order."""
    by_name = {t.name: t for t in tools}

    async def run(call):
        try:
            return await by_name[call["name"]].ainvoke(call["args"])
        except DomainError as exc:
            return exc

    calls = list(ai_message.tool_calls)
    finished = [await f for f in asyncio.as_completed([run(c) for c in calls])]
    out = []
    for call, result in zip(calls, finished):
        if isinstance(result, DomainError):
            out.append(_error(call, result.code, str(result)))
        else:
            content = result if isinstance(result, str) else json.dumps(result)
            out.append(ToolMessage(content=content, tool_call_id=call["id"]))
    return out + [_not_json(c) for c in ai_message.invalid_tool_calls]


def wrong_no_error_handling(ai_message, tools):
    """Lets unknown names and exceptions escape (KeyError / NotRefundable)."""
    by_name = {t.name: t for t in tools}
    return [by_name[c["name"]].invoke(c) for c in ai_message.tool_calls] + [
        _not_json(c) for c in ai_message.invalid_tool_calls
    ]


def wrong_skips_invalid_calls(ai_message, tools):
    """Handles errors but forgets invalid_tool_calls: the provider would reject the next request."""
    return run_tool_calls_sync(AIMessage(content="", tool_calls=ai_message.tool_calls), tools)


def wrong_repairs_invalid_calls(ai_message, tools):
    """Guesses the arguments of an invalid call (quotes the bare word) and runs the tool anyway."""
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
    """Catches ToolException only: a DomainError and a ValidationError escape."""
    from langchain_core.tools import ToolException

    def run_one(tool, call):
        try:
            return tool.invoke(call)
        except ToolException as exc:
            return _error(call, "tool_error", str(exc))

    by_name = {t.name: t for t in tools}
    out = []
    for call in ai_message.tool_calls:
        if call["name"] not in by_name:
            out.append(_unknown(call, by_name))
        else:
            out.append(run_one(by_name[call["name"]], call))
    return out + [_not_json(c) for c in ai_message.invalid_tool_calls]


async def wrong_forgets_await(ai_message, tools):
    """Calls tool.ainvoke(call) without await: a list of coroutines, not ToolMessages."""
    by_name = {t.name: t for t in tools}
    return [by_name[c["name"]].ainvoke(c) for c in ai_message.tool_calls if c["name"] in by_name] + [
        _not_json(c) for c in ai_message.invalid_tool_calls
    ]


def wrong_edits_tool_results(ai_message, tools):
    """Reads each order with the tool's plain arguments and edits the dict it gets back, in place.

    Its ToolMessages carry the edited product names, so the pairing check fails; and the edit
    must not reach the checker's own data (each case gets fresh copies), or the reference
    answers would fail afterwards.
    """

    def edit_then_answer(tool, call):
        result = tool.invoke(call["args"])
        if isinstance(result, dict):
            result["product"] = result.get("product", "").upper()  # the in-place edit
            result = json.dumps(result)
        return ToolMessage(content=result, tool_call_id=call["id"], name=call["name"])

    return _one_after_another(ai_message, tools, edit_then_answer)


def wrong_catches_value_error(ai_message, tools):
    """Wrong (issue 27): catches ValueError for the schema failures (a ValidationError is one), so a tool's
    ValueError bug becomes text for the model. The named bug is a KeyError, so it passed them all."""

    def run_one(tool, call):
        try:
            return tool.invoke(call)
        except DomainError:
            raise
        except ValueError as exc:
            return _error(call, INVALID_ARGUMENTS, str(exc))

    return _one_after_another(ai_message, tools, run_one)


def wrong_one_code_for_every_refusal(ai_message, tools):
    """Wrong (issue 27): answers every DomainError with the code not_refundable. The named refusal is a
    NotRefundable, so it passed them all; an unknown order is order_not_found."""

    def run_one(tool, call):
        try:
            return tool.invoke(call)
        except DomainError as exc:
            return _error(call, "not_refundable", str(exc))

    return _one_after_another(ai_message, tools, run_one)


async def crashing(ai_message, tools):
    """Crashes inside the coroutine (the checker must report it, not raise)."""
    raise TypeError("boom inside run_tool_calls")


_UNKNOWN = "an unknown tool becomes an error result with code unknown_tool"
_DOMAIN = "a DomainError becomes an error result with its code"
_SCHEMA = "arguments that fail the schema become an error result with code invalid_arguments"
_INVALID = "an invalid call (not JSON) is answered with code invalid_arguments, not run"
_BUG = "a bug in a tool is not turned into text for the model"
_GENERATED = "agrees with the reference on generated messages"

RUN_TOOL_CALLS = AnswerSet(
    solutions={"async, concurrent": run_tool_calls, "plain def, one after another": run_tool_calls_sync},
    wrong={
        "the catch-all (every exception as text)": KnownWrong(
            wrong_catch_all, fails=(_UNKNOWN, _DOMAIN, _SCHEMA, _INVALID, _BUG), status="fail"),
        "codes right, but bugs caught too": KnownWrong(wrong_codes_but_catches_bugs, fails=(_BUG,), status="fail"),
        "error text without a code": KnownWrong(wrong_text_without_code, fails=(_UNKNOWN, _DOMAIN, _SCHEMA, _INVALID),
                                                status="fail"),
        "pairs by completion order": KnownWrong(wrong_pairs_by_completion,
                                                fails=("out-of-order completion still pairs by id",)),
        "no error handling": KnownWrong(wrong_no_error_handling, fails=(_UNKNOWN, _DOMAIN)),
        "skips invalid calls": KnownWrong(wrong_skips_invalid_calls, fails=(_INVALID,), status="fail"),
        "repairs invalid calls": KnownWrong(wrong_repairs_invalid_calls, fails=(_INVALID,), status="fail"),
        "error text without status": KnownWrong(wrong_error_without_status, fails=(_DOMAIN,), status="fail"),
        "catches only ToolException": KnownWrong(wrong_catches_only_tool_exception, fails=(_DOMAIN, _SCHEMA)),
        "forgets await": KnownWrong(wrong_forgets_await, fails=("every call answered once, status success",),
                                    status="fail"),
        "catches ValueError, not ValidationError": KnownWrong(wrong_catches_value_error, fails=(_GENERATED,),
                                                               status="fail"),
        "one code for every DomainError": KnownWrong(wrong_one_code_for_every_refusal, fails=(_GENERATED,),
                                                     status="fail"),
        "edits what a tool returned": KnownWrong(wrong_edits_tool_results,
                                                 fails=("out-of-order completion still pairs by id",), status="fail"),
    },
    crashing={"TypeError inside the coroutine": crashing},
    answer_from=lambda body: lambda ai_message, tools: body(),
)
