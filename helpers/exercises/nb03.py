"""Exercises of notebook 03 (ToolMessage pairing).

``RUN_TOOL_CALLS`` checks a function that answers every call of one AIMessage::

    run_tool_calls(ai_message: AIMessage, tools: list[BaseTool]) -> list[ToolMessage]

The answer may be a plain function or an ``async def`` (``wants="either"``; a returned
coroutine is run to the end on a private event loop: the core runs each case in a worker
thread, which has no running loop, so the check works inside Jupyter, whose loop is already
running).

The habit it trains is the one notebook 09's error contract keeps: the failures the application
*expects* are answered, a bug is not. Hidden cases: every call answered exactly once with its
own id; results paired with the right call when the calls finish out of order (different
``asyncio.sleep`` / ``time.sleep`` delays); each expected failure becomes
``ToolMessage(status="error")`` with the same id and a stable code in its content, and the
function does not raise for it:

* an unknown tool name: code :data:`UNKNOWN_TOOL` and the tool's name;
* a refusal from the domain (a :class:`helpers.domain.DomainError`): the error's own ``code``
  (``not_refundable`` here);
* arguments that fail the tool's schema (a pydantic ``ValidationError``) and an invalid call
  (arguments that are not JSON, ``ai_message.invalid_tool_calls``): code
  :data:`INVALID_ARGUMENTS`, and the tool never runs;

and a bug in a tool (here a ``KeyError`` from a record without the field the code reads) is
**not** turned into text for the model: the function lets it raise (the case checks that the
exception that leaves the answer is the tool's own, or has it as its cause). Results that are
un-awaited coroutines fail with "did you forget await?" (the coroutines are closed, so no
``RuntimeWarning`` reaches the notebook).

The generated check compares the answer with :func:`run_tool_calls` (the reference) on generated
AIMessages: one to four calls, each to one of five tools (two that work, a name that is not a tool, and
two tools with a bug, a ``KeyError`` and a ``ValueError``), for a delivered, a shipped or an unknown
order or with arguments that fail the schema, any of them an invalid call instead; the outcome is each
answer's status and codes (the tool's name too, for an unknown tool), each result, how often the tools
ran, or that the tool's bug was raised.

Every case works on fresh data: the tools hand out deep copies of ``nb03_run.ORDERS``, so an answer
that edits a returned dict in place cannot change what the next case (or attempt) sees.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ValidationError

from ..domain import DomainError, NotRefundable, OrderNotFound
from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .generated import content_value
from .nb03_run import (
    INVALID_ARGUMENTS,
    UNKNOWN_TOOL,
    _call,
    _caused_by,
    _checked,
    _invalid,
    _Recorder,
    call_answer,
)
from .results import clipped, shown

__all__ = ["INVALID_ARGUMENTS", "MESSAGES", "RUN_TOOL_CALLS", "UNKNOWN_TOOL", "call_answer", "run_tool_calls"]

def _answers(answer: Any, ai_message: AIMessage, tools: list[BaseTool]) -> dict[str, ToolMessage]:
    """Run the answer and check the basic contract (:func:`_checked`)."""
    return _checked(call_answer(answer, ai_message, tools), ai_message)


def _product(message: ToolMessage) -> str | None:
    try:
        return json.loads(message.content).get("product")
    except (TypeError, ValueError, AttributeError):
        return None


def _error_with_code(message: ToolMessage, code: str, what: str) -> None:
    """An error result whose content carries ``code`` (the model reads content, not status)."""
    assert message.status == "error", _("{what} should be answered with status='error'").format(what=what)
    assert code in str(message.content), (
        _("{what}: put the stable code {code!r} in the content (the model and your logs read the content; the "
          "status is not sent), got {content!r}").format(what=what, code=code, content=clipped(message.content, 60))
    )


def _each_call_once(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_a"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_b")])
    by_id = _answers(answer, ai, rec.tools())
    assert rec.runs == 2, _("two calls should run the tool twice, it ran {runs} time(s)").format(runs=rec.runs)
    for call_id in ("call_a", "call_b"):
        assert by_id[call_id].status == "success", _("{call_id} succeeded, so its status should be 'success'").format(
            call_id=call_id)


def _out_of_order(answer: Any) -> None:
    rec = _Recorder(delays={"A1024": 0.2, "A1030": 0.0})
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1024"}, "call_slow"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_fast")])
    by_id = _answers(answer, ai, rec.tools())
    pairs = {i: _product(by_id[i]) for i in ("call_slow", "call_fast")}
    assert pairs == {"call_slow": "Wireless headphones", "call_fast": "Winter jacket"}, (
        _("results are paired with the wrong calls: {pairs}. The fast call finished first; take the id from "
          "the call that produced each result, not from the order results arrive in").format(pairs=shown(pairs))
    )


def _unknown_tool(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("cancel_order", {"order_id": "A1024"}, "call_u"),
                                           _call("lookup_order", {"order_id": "A1024"}, "call_ok")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_u"], UNKNOWN_TOOL, _("a call to a tool that does not exist"))
    assert "cancel_order" in str(by_id["call_u"].content), (
        _("name the unknown tool in the error content so the model can pick a real one")
    )
    assert by_id["call_ok"].status == "success", _("one bad call must not spoil the other call's result")


def _domain_refusal(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("quote_refund", {"order_id": "A1025"}, "call_q"),
                                           _call("quote_refund", {"order_id": "A1024"}, "call_ok")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_q"], NotRefundable.code, _("a refusal from the domain (a DomainError)"))
    assert by_id["call_ok"].status == "success" and "refundable" in str(by_id["call_ok"].content), (
        _("the other call should still succeed")
    )


def _bad_arguments(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order": "A1024"}, "call_v")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_v"], INVALID_ARGUMENTS,
                     _("arguments that fail the tool's schema (a pydantic ValidationError)"))
    assert rec.runs == 0, _("the tool body must not run when its arguments are invalid")


def _invalid_call(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("lookup_order", {"order_id": "A1030"}, "call_ok")],
                   invalid_tool_calls=[_invalid("lookup_order", '{"order_id": A1024}', "call_bad")])
    by_id = _answers(answer, ai, rec.tools())
    _error_with_code(by_id["call_bad"], INVALID_ARGUMENTS, _("an invalid call (arguments not JSON)"))
    assert rec.runs == 1, (
        _("the tool ran {runs} time(s); only the valid call may run: never guess arguments for an invalid call").format(
            runs=rec.runs)
    )
    assert _product(by_id["call_ok"]) == "Winter jacket", _("the valid call should still get its result")


def _bug_propagates(answer: Any) -> None:
    rec = _Recorder()
    ai = AIMessage(content="", tool_calls=[_call("track_parcel", {"order_id": "A1024"}, "call_bug"),
                                           _call("lookup_order", {"order_id": "A1030"}, "call_ok")])
    try:
        result = call_answer(answer, ai, rec.tools())
    except Exception as exc:  # noqa: BLE001 - the learner's function must raise the tool's bug
        if rec.bug is not None and _caused_by(exc, rec.bug):
            return
        raise
    by_id = _checked(result, ai)
    assert rec.bug is None, (
        _("track_parcel has a bug (KeyError: 'carrier'), and your function turned it into a ToolMessage for "
          "the model: {content!r}. A bug is not a refusal the model can act on, and text hides it from you: "
          "catch only the failures you expect (DomainError, ValidationError) and let anything else raise "
          "(notebook 09's error contract does the same)").format(content=clipped(by_id['call_bug'].content, 60))
    )
    raise AssertionError(_("track_parcel never ran: run every valid call with its own tool"))


# -- the reference and the generated messages -----------------------------------------------------------


def _error_answer(call: dict[str, Any], code: str, text: str) -> ToolMessage:
    return ToolMessage(f"Error {code}: {text}", tool_call_id=call["id"], name=call["name"], status="error")


def run_tool_calls(ai_message: AIMessage, tools: list[BaseTool]) -> list[ToolMessage]:
    """The reference: every call answered once with its id; the failures the application expects (an unknown
    tool, a ``DomainError``, a ``ValidationError``, an invalid call) become error results with a stable code;
    anything else a tool raises (a bug) propagates."""
    by_name = {tool.name: tool for tool in tools}
    answers = []
    for call in ai_message.tool_calls:
        tool = by_name.get(call["name"])
        if tool is None:
            answers.append(_error_answer(call, UNKNOWN_TOOL, f"there is no tool {call['name']}"))
            continue
        try:
            answers.append(tool.invoke(call))
        except DomainError as exc:
            answers.append(_error_answer(call, exc.code, str(exc)))
        except ValidationError:
            answers.append(_error_answer(call, INVALID_ARGUMENTS, "the arguments do not fit the tool's schema"))
    return answers + [_error_answer(call, INVALID_ARGUMENTS, "the arguments are not valid JSON")
                      for call in ai_message.invalid_tool_calls]


class _OrderArgs(BaseModel):
    order_id: str


class _GeneratedRecorder(_Recorder):
    """:class:`_Recorder`'s tools without delays, plus ``parcel_weight``, a tool whose bug is a ``ValueError``
    (no record has a weight: a ``ValueError`` is not a schema failure, though pydantic's ``ValidationError`` is
    one). Every bug a tool raised is kept in ``bugs`` (concurrent calls may raise two). The tools are built
    with a ready schema (``StructuredTool.from_function`` would infer it again for every input)."""

    def __init__(self) -> None:
        super().__init__()
        self.bugs: list[BaseException] = []

    def _buggy(self, work: Callable[[str], Any], order_id: str) -> Any:
        try:
            return work(order_id)
        except (KeyError, ValueError) as exc:
            self.bugs.append(exc)
            raise

    def _weigh(self, order_id: str) -> float:
        self._lookup(order_id)
        return float("n/a")  # the bug: no record has a weight

    def tools(self) -> list[BaseTool]:
        work = {"lookup_order": ("Look up an order by id.", self._lookup),
                "quote_refund": ("Quote the refundable amount of an order.", self._quote),
                "track_parcel": ("The carrier of an order's parcel.", lambda o: self._buggy(self._track, o)),
                "parcel_weight": ("The weight of an order's parcel, in kg.", lambda o: self._buggy(self._weigh, o))}

        def tool_of(name: str, text: str, run: Callable[[str], Any]) -> BaseTool:
            async def arun(order_id: str) -> Any:
                return run(order_id)
            return StructuredTool(name=name, description=text, args_schema=_OrderArgs,
                                  func=lambda order_id: run(order_id), coroutine=arun)

        return [tool_of(name, text, run) for name, (text, run) in work.items()]


#: What a generated call names (``cancel_order`` is no tool) and what it asks for (``"bad arguments"``:
#: ``{"order": ...}``, which fails every tool's schema).
TOOL_NAMES = ("lookup_order", "quote_refund", "cancel_order", "track_parcel", "parcel_weight")
ORDER_KEYS = ("A1024", "A1025", "Z9", "A1030", "bad arguments")
IDS = ("call_9", "toolu_01A", "call_2", "fc_7b", "call_15", "toolu_00C")
#: A generated message's spec: one to four entries ``(tool, order key, id, invalid)``; an invalid entry goes
#: to ``invalid_tool_calls`` (arguments that are not JSON). Ids never repeat.
MESSAGES = st.lists(st.tuples(st.sampled_from(TOOL_NAMES), st.sampled_from(ORDER_KEYS), st.sampled_from(IDS),
                              st.booleans()), min_size=1, max_size=4, unique_by=lambda entry: entry[2]).map(tuple)
#: The stable codes an outcome looks for in an error's content.
CODES = (UNKNOWN_TOOL, INVALID_ARGUMENTS, NotRefundable.code, OrderNotFound.code)


def generated_message(spec: tuple) -> AIMessage:
    """A fresh AIMessage for a :data:`MESSAGES` spec."""
    def args(key: str) -> dict[str, str]:
        return {"order": "A1024"} if key == "bad arguments" else {"order_id": key}

    return AIMessage(content="", tool_calls=[_call(name, args(key), call_id) for name, key, call_id, invalid in spec
                                             if not invalid],
                     invalid_tool_calls=[_invalid(name, '{"order_id": ' + key.split()[0] + "}", call_id)
                                         for name, key, call_id, invalid in spec if invalid])


def _answer_outcome(message: ToolMessage, name: str) -> tuple:
    if message.status != "error":
        return (str(message.status), *content_value(message.content))
    text = str(message.content)
    codes = tuple(code for code in CODES if code in text)
    return ("error", codes, *((name in text,) if UNKNOWN_TOOL in codes else ()))


def _pairing_outcome(answer: Any, spec: tuple) -> Any:
    rec = _GeneratedRecorder()
    ai = generated_message(spec)
    try:
        result = call_answer(answer, ai, rec.tools())
    except Exception as exc:  # noqa: BLE001 - the tool's bug must leave the answer; anything else is the answer's
        if any(_caused_by(exc, bug) for bug in rec.bugs):
            return "raises the tool's bug"
        raise
    by_id = _checked(result, ai)
    names = {call["id"]: call["name"] for call in [*ai.tool_calls, *ai.invalid_tool_calls]}
    return {"answers": tuple(sorted(((call_id, *_answer_outcome(m, names[call_id])) for call_id, m in by_id.items()),
                                    key=repr)),
            "tool runs": rec.runs}


def _describe_pairing(spec: tuple) -> str:
    message = generated_message(spec)
    return _("an AIMessage with tool_calls {calls} and invalid_tool_calls {invalid}").format(
        calls=[f"{c['name']}({', '.join(f'{k}={v!r}' for k, v in c['args'].items())}) id={c['id']}"
               for c in message.tool_calls],
        invalid=[f"{c['name']}({c['args']}) id={c['id']}" for c in message.invalid_tool_calls])


RUN_TOOL_CALLS = Exercise(
    "03.1",
    "run_tool_calls: answer every call with its own id",
    [
        Case("every call answered once, status success", _each_call_once),
        Case("out-of-order completion still pairs by id", _out_of_order),
        Case("an unknown tool becomes an error result with code unknown_tool", _unknown_tool),
        Case("a DomainError becomes an error result with its code", _domain_refusal),
        Case("arguments that fail the schema become an error result with code invalid_arguments",
             _bad_arguments),
        Case("an invalid call (not JSON) is answered with code invalid_arguments, not run", _invalid_call),
        Case("a bug in a tool is not turned into text for the model", _bug_propagates),
    ],
    wants="either",
    generated=Generated(
        "agrees with the reference on generated messages", MESSAGES, _pairing_outcome, run_tool_calls,
        _describe_pairing, hint=N_("answer each call with its own id: an unknown tool, a DomainError (its own "
                                   "exc.code, whatever its class) and a ValidationError (only that: not every "
                                   "ValueError) become error results with their code; any other exception a tool "
                                   "raises is a bug, let it raise")),
)
