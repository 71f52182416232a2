"""The script of the scripted model: its steps, the builders for them, and their validation.

A script is a ``list`` (or ``tuple``) of steps, one per model request, each one of

* ``str``: a text reply;
* ``AIMessage`` (e.g. from :func:`reply`): played as is, ids filled in;
* ``list`` of :func:`tool_call` / :func:`invalid_tool_call` dicts: a reply with those calls and no text;
* a callable ``f(request: RecordedRequest) -> step``: decides from the messages and bound tools
  when the request arrives (it may return any of the above);
* :func:`streamed` around any of the first three: the same reply with its stream written out
  (which chunks, in which order, interleaving parallel calls) and the ``finish_reason`` it reports
  (``"length"``: a reply cut off by the token limit).

:func:`validate_script` checks a script when the model is built and names each problem with its
step number. A bare string is refused (not read as one step per character): write ``["Done."]``.
Tool call arguments are what a provider sends: a JSON object. :func:`tool_call` refuses a string
(``'{"a": 1}'``), a list (``["A1"]``) and values JSON cannot carry (a ``date``), and stores the
arguments as they come back from JSON, so ``invoke`` and ``stream`` give the same tool calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Union, get_args

from langchain_core.messages import AIMessage, BaseMessage

# one piece of a stream (a str of text, or (index, text) of tool call index's arguments) is provider_streams'
# shape: the scripted model frames its pieces as ChatOpenAI does (a head chunk with the name and id first)
from .provider_streams import Piece

# the tool call builders and ScriptError live in script_calls; re-exported here, where notebooks and tests
# import them
from .script_calls import ScriptError, _a, _short, invalid_tool_call, tool_call

if TYPE_CHECKING:
    from .recording import RecordedRequest

__all__ = ["FinishReason", "Piece", "ScriptError", "Step", "StreamedStep", "invalid_tool_call", "reply",
           "step_to_message", "streamed", "tool_call", "validate_script"]

#: A script step: a reply, text, a list of tool calls, a :class:`StreamedStep`, or a callable that picks one.
Step = Union[AIMessage, str, list, "StreamedStep", Callable[["RecordedRequest"], Any]]

#: The ``finish_reason`` values of OpenAI's chat.completions (``response_metadata["finish_reason"]``).
FinishReason = Literal["stop", "tool_calls", "length", "content_filter"]



def _normalise_call(entry: Any, where: str) -> dict[str, Any]:
    """One call entry of a step, checked (a ``tool_call`` / ``invalid_tool_call`` dict)."""
    if not isinstance(entry, Mapping):
        raise ScriptError(
            f"{where} is {_a(entry)} {_short(entry)}; build tool calls with tool_call(name, {{...}})"
        )
    kind = entry.get("type", "tool_call")
    if kind == "invalid_tool_call":
        return invalid_tool_call(entry.get("name"), entry.get("args"), entry.get("id"))
    if kind != "tool_call":
        raise ScriptError(f"{where} has type {_short(kind)}; expected a tool_call(...) or invalid_tool_call(...) dict")
    if "name" not in entry:
        raise ScriptError(f"{where} has no 'name'; build it with tool_call(name, {{...}})")
    return tool_call(entry["name"], entry.get("args"), entry.get("id"))


def reply(text: str = "", *calls: Mapping[str, Any]) -> AIMessage:
    """Build a scripted reply: optional text plus tool calls and/or invalid tool calls.

    Args:
        text: the reply text (content).
        *calls: dicts from :func:`tool_call` or :func:`invalid_tool_call`.

    Returns:
        an ``AIMessage``; ids are filled in when the model plays it.

    Raises:
        ScriptError: ``text`` is not a str, or an entry is not a tool call dict.
    """
    if not isinstance(text, str):
        raise ScriptError(f"reply(text, *calls): text must be a str, got {_a(text)} {_short(text)}; "
                          "pass tool calls after the text: reply('', tool_call(...))")
    checked = [_normalise_call(c, f"reply(...) entry {n}") for n, c in enumerate(calls, start=1)]
    return AIMessage(
        content=text,
        tool_calls=[c for c in checked if c["type"] == "tool_call"],
        invalid_tool_calls=[c for c in checked if c["type"] == "invalid_tool_call"],
    )


@dataclass(frozen=True)
class StreamedStep:
    """A reply whose stream is written out; build it with :func:`streamed`.

    Attributes:
        reply: the step it wraps (a ``str``, an ``AIMessage`` or a list of call dicts).
        pieces: the chunks in order (see :data:`Piece`), or ``None`` for the model's default split.
        finish_reason: what the reply reports in ``response_metadata["finish_reason"]``, streamed
            or not; ``None`` keeps the default (``"tool_calls"`` when it has tool calls, else ``"stop"``).
    """

    reply: Any
    pieces: tuple[Piece, ...] | None = None
    finish_reason: FinishReason | None = None


def _check_pieces(message: AIMessage, pieces: Sequence[Any]) -> tuple[Piece, ...]:
    """``pieces`` checked against ``message``: they must join into its text and each call's arguments."""
    calls = [*message.tool_calls, *message.invalid_tool_calls]
    checked: list[Piece] = []
    text: list[str] = []
    arguments: dict[int, list[str]] = {}
    for number, piece in enumerate(pieces, start=1):
        if isinstance(piece, str):
            text.append(piece)
        elif (isinstance(piece, tuple) and len(piece) == 2 and isinstance(piece[0], int)
              and not isinstance(piece[0], bool) and isinstance(piece[1], str)):
            if not 0 <= piece[0] < len(calls):
                raise ScriptError(f"streamed(...): piece {number} {_short(piece)} is for tool call index {piece[0]}, "
                                  f"but the reply has {len(calls)} call{'' if len(calls) == 1 else 's'} "
                                  f"(indexes 0-{len(calls) - 1}: tool calls first, then invalid tool calls)")
            arguments.setdefault(piece[0], []).append(piece[1])
        else:
            raise ScriptError(f"streamed(...): piece {number} is {_a(piece)} {_short(piece)}; a piece is a str "
                              "(reply text) or (index, text) (arguments of tool call index)")
        checked.append(piece if isinstance(piece, str) else (piece[0], piece[1]))
    content = message.content if isinstance(message.content, str) else None
    if content is not None and "".join(text) != content:
        raise ScriptError(f"streamed(...): the text pieces join to {_short(''.join(text))}, "
                          f"not the reply's text {_short(content)}")
    for index, call in enumerate(calls):
        if index not in arguments:
            raise ScriptError(f"streamed(...): tool call {index} ({call['name']!r}) has no piece; give it at "
                              f"least ({index}, '') (its first piece carries the name and id)")
        joined = "".join(arguments[index])
        if call.get("type") == "invalid_tool_call":
            if joined != call["args"]:
                raise ScriptError(f"streamed(...): the pieces of tool call {index} join to {_short(joined)}, "
                                  f"not its raw arguments {_short(call['args'])}")
            continue
        try:
            parsed = json.loads(joined)
        except ValueError:
            parsed = None
        if parsed != call["args"]:
            raise ScriptError(f"streamed(...): the pieces of tool call {index} join to {_short(joined)}, which is "
                              f"not the JSON of its arguments {_short(json.dumps(call['args']))}; to script "
                              "arguments cut short, use invalid_tool_call(name, raw)")
    return tuple(checked)


def streamed(step: Any, pieces: Sequence[Piece] | None = None, *,
             finish_reason: FinishReason | None = None) -> StreamedStep:
    """A script step whose stream you write out: where chunks split, how calls interleave, and how it ends.

    Args:
        step: the reply (a ``str``, an ``AIMessage`` e.g. from :func:`reply`, or a list of call dicts).
        pieces: the chunks in order: a ``str`` is reply text, ``(index, text)`` a piece of tool call
            ``index``'s argument JSON (calls are numbered 0.. in the reply's order, tool calls first,
            then invalid tool calls). ``[(0, '{"order_'), (1, '{"ord'), (0, 'id": "A1"}'), ...]``
            interleaves two parallel calls. They must join into the reply's text and each call's
            arguments (for an invalid call, exactly its raw text). ``None``: the model's default split.
        finish_reason: reported in ``response_metadata["finish_reason"]`` by ``invoke`` and, streamed, on the
            chunk before the stream's last (empty) chunk, as ``ChatOpenAI`` streams it; ``"length"`` is what a
            provider reports for a reply cut off at ``max_tokens`` (script the cut arguments with
            :func:`invalid_tool_call`).

    Returns:
        a :class:`StreamedStep` for the script.

    Raises:
        ScriptError: the step is malformed, a piece is not a ``str`` or ``(int, str)``, an index has no
            call, the pieces do not join into the reply, or ``finish_reason`` is not a :data:`FinishReason`.
    """
    if finish_reason is not None and finish_reason not in get_args(FinishReason):
        raise ScriptError(f"streamed(..., finish_reason={_short(finish_reason)}): expected one of "
                          f"{', '.join(get_args(FinishReason))}, or None for the default")
    if isinstance(step, StreamedStep) or callable(step):
        raise ScriptError("streamed(step, ...): step is a reply (str, AIMessage or list of calls), "
                          f"not {_a(step)}; a callable may return streamed(...) itself")
    message = step_to_message(step, 0)
    if pieces is not None and (isinstance(pieces, (str, Mapping)) or not isinstance(pieces, Sequence)):
        raise ScriptError(f"streamed(..., pieces=...): give a list of pieces, got {_a(pieces)} {_short(pieces)}")
    checked = None if pieces is None else _check_pieces(message, pieces)
    return StreamedStep(step, checked, finish_reason)


def step_to_message(step: Any, number: int) -> AIMessage:
    """Turn a (non-callable) step into a fresh ``AIMessage`` with checked, JSON-normalised calls.

    Args:
        step: a ``str``, an ``AIMessage``, a list of call dicts or a :class:`StreamedStep` (its
            ``finish_reason``, if any, goes into ``response_metadata``).
        number: the 1-based step number, for messages (0: not in a script yet).

    Raises:
        ScriptError: the step is malformed (named with its number).
    """
    try:
        if isinstance(step, StreamedStep):
            message = step_to_message(step.reply, number)
            if step.finish_reason is not None:
                message.response_metadata = {**message.response_metadata, "finish_reason": step.finish_reason}
            return message
        if isinstance(step, str):
            return AIMessage(content=step)
        if isinstance(step, AIMessage):
            calls = [_normalise_call({**c, "type": "tool_call"}, f"tool call {n}")
                     for n, c in enumerate(step.tool_calls, start=1)]
            invalid = [_normalise_call({**c, "type": "invalid_tool_call"}, f"invalid tool call {n}")
                       for n, c in enumerate(step.invalid_tool_calls, start=1)]
            message = step.model_copy(deep=True)
            message.tool_calls = calls
            message.invalid_tool_calls = invalid
            return message
        if isinstance(step, (list, tuple)):
            if not step:
                raise ScriptError('is an empty list; give tool_call(...) entries, or "" for an empty text reply')
            return reply("", *[_normalise_call(c, f"entry {n}") for n, c in enumerate(step, start=1)])
        if isinstance(step, Mapping):
            raise ScriptError(
                "is a single dict; a step with tool calls is a list of them: [tool_call(...)] "
                "(so a script with one such step is [[tool_call(...)]])"
            )
    except ScriptError as error:
        if error.step is not None:
            raise
        raise ScriptError(error.detail, step=number or None) from None
    raise ScriptError(
        f"is {_a(step)} {_short(step)}; expected a str, an AIMessage, a list of tool_call(...) "
        "dicts, or a callable returning one of these",
        step=number or None,
    )


def validate_script(script: Any) -> list[Any]:
    """Check a whole script when the model is built; return it as a list.

    Args:
        script: a list or tuple of steps (see the module docstring).

    Returns:
        the steps as a new list, static steps checked (callables are checked when played).

    Raises:
        ScriptError: the script is not a list/tuple (a bare ``str`` is refused: ``["Done."]`` is
            one text step), or a step is malformed; the message names the step number.
    """
    if isinstance(script, str):
        raise ScriptError(
            f"the script is a str ({_short(script, 40)}), not a list of steps; write [{_short(script, 40)}] "
            "for one text reply (a bare string would play one character per request)"
        )
    if isinstance(script, (BaseMessage, Mapping)) or callable(script):
        kind = "a callable" if callable(script) else f"one {type(script).__name__}"
        raise ScriptError(f"the script is {kind}, not a list of steps; wrap it: [step] (or [policy] * n for a callable)")
    if not isinstance(script, Sequence):
        raise ScriptError(f"the script is {_a(script)}; give a list of steps")
    steps = list(script)
    for number, step in enumerate(steps, start=1):
        if not callable(step):
            step_to_message(step, number)
    return steps
