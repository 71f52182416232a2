"""The approval engine's checks: every decision is built here, or refused with the reason, before anything is sent.

No ipywidgets, no LangGraph calls. :func:`build_decision` turns a reviewer's click and typed value
into the resume value the pause expects (:mod:`helpers.widgets.engines.approval_pause` describes the
three kinds of pause), or raises :class:`Refused` with one or two sentences for the reviewer. Part of
:mod:`helpers.widgets.engines.approval`.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.tools import BaseTool

from ...i18n import _
from ..amounts import AmountError, parse_amount
from ..text import JsonInputError, about, error_text, json_problem, json_text, parse_json, sendable, shorten
from .approval_pause import Decision, ReviewAction

__all__ = ["MAX_WHOLE", "Refused", "build_decision", "graph_tools", "is_number", "same_refund", "schema_problems"]

#: The most characters of one call's arguments the "whole arguments" part holds (a write_file of
#: 21,646 characters is shown whole; beyond this the panel says how much it cannot show, and the
#: engine refuses to approve arguments the reviewer could not read whole).
MAX_WHOLE = 30_000


class Refused(Exception):
    """An answer that failed the engine's checks; ``str(error)`` says why (never leaves the engine)."""


def is_number(value: Any) -> bool:
    """``value`` is an ``int`` or ``float`` (not a ``bool``)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def graph_tools(graph: Any) -> dict[str, BaseTool]:
    """The tools of a graph's ``tools`` node (``create_agent``, ``create_deep_agent``), by name."""
    nodes = getattr(graph, "nodes", None) or {}
    node = nodes.get("tools") if isinstance(nodes, Mapping) else None
    tools = getattr(getattr(node, "bound", None), "tools_by_name", None)
    return dict(tools) if isinstance(tools, Mapping) else {}


def _properties(tool: BaseTool) -> dict[str, Any]:
    """The tool's argument properties as JSON schema (what the model sees), ``{}`` when unknown."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    try:
        properties = convert_to_openai_tool(tool)["function"]["parameters"].get("properties", {})
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a schema that cannot be converted: no amount rule from it
        return {}
    return properties if isinstance(properties, dict) else {}


def _number_property(prop: Any) -> bool:
    """A JSON-schema property that takes a number (``"number"``/``"integer"``, also inside ``anyOf``)."""
    if not isinstance(prop, dict):
        return False
    if prop.get("type") in ("number", "integer"):
        return True
    return any(_number_property(option) for option in prop.get("anyOf", ()) if isinstance(option, dict))


def schema_problems(tool: BaseTool, args: dict, text: str) -> str:
    """Why ``args`` (``text`` is their JSON) fail the tool's argument schema, or ``""``.

    The schema is ``tool.tool_call_schema`` (what the model sees; injected arguments left out),
    validated strictly as JSON (pydantic 2: ``model_validate_json(text, strict=True)``). An
    argument the schema does not declare is a problem unless the schema allows extra arguments.
    """
    from pydantic import BaseModel, ValidationError

    schema = tool.tool_call_schema
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        problems = []
        try:
            schema.model_validate_json(text, strict=True)
        except ValidationError as exc:
            problems = [f"{'.'.join(str(p) for p in error['loc']) or 'arguments'}: {error['msg']}"
                        for error in exc.errors()]
        if schema.model_config.get("extra") != "allow":
            known = {*schema.model_fields, *(f.alias for f in schema.model_fields.values() if f.alias)}
            for name in (key for key in args if key not in known):
                problems.append(_("{name}: not an argument of this tool (it takes: {known})").format(
                    name=about(name), known=", ".join(sorted(known))))
        return shorten("; ".join(problems))
    if isinstance(schema, dict):  # a JSON-schema tool: only the required keys can be checked here
        missing = [key for key in schema.get("required", []) if key not in args]
        return "; ".join(f"{key}: Field required" for key in missing)
    return ""


def _text_of(value: Any) -> str:
    """What was typed or given for a reason or message, as text; a value whose ``str`` raises is refused."""
    if value is None:
        return ""
    try:
        text = value if isinstance(value, str) else str(value)
    except Exception as exc:  # noqa: BLE001 - an object whose __str__ raises
        raise Refused(_("The message could not be read as text ({error}): type it as text.").format(
            error=error_text(exc, 200))) from None
    if not isinstance(text, str):
        raise Refused(_("The message could not be read as text: type it as text."))
    return sendable(text).strip()


def _invisible_only(text: str) -> bool:
    """``text`` holds no character a reader sees (only spaces, zero-width and other format characters)."""
    return all(ch.isspace() or unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Mn") for ch in text)


def _reason(decision: Decision, value: Any, *, plain: bool) -> dict:
    """A reject or respond decision with its text, or :class:`Refused`.

    HumanInTheLoopMiddleware (langchain 1.5.2) takes a reject without a message (``message`` is
    ``NotRequired`` in ``RejectDecision``: the model is told the call was not run and not to retry
    it), so a HITL reject may be sent with no reason. A respond needs its message (it is the tool's
    result). A plain ``interrupt()`` payload gets the course's shape ``{"type": "reject", "reason":
    ...}``, whose node reads the reason (notebook 08's graphs do), so there it is required. A text
    made only of invisible characters (zero-width spaces, bidi controls) counts as no text.
    """
    text = _text_of(value)
    if text and _invisible_only(text):
        raise Refused(_("The text holds only invisible characters (zero-width or format characters): a reader "
                        "would see an empty reason. Type words."))
    if plain:
        if not text:
            raise Refused(_("A rejection needs a reason: type one in the reason field (this pause is a plain "
                            "interrupt() whose node reads {\"type\": \"reject\", \"reason\": ...})."))
        return {"type": "reject", "reason": text}
    if decision == "reject":
        return {"type": "reject", "message": text} if text else {"type": "reject"}
    if not text:
        raise Refused(_("A response needs a message: type one in the message field (it is sent to the model as "
                        "the tool's result)."))
    return {"type": "respond", "message": text}


def _plain(action: ReviewAction, decision: Decision, value: Any) -> dict:
    """An approve or edit for a plain payload (``{"type": "edit", "amount": ...}``), or :class:`Refused`."""
    payload = action.payload if isinstance(action.payload, dict) else {}
    refundable = payload.get("refundable")
    if decision == "approve":
        amount = payload.get("amount")
        if is_number(amount) and is_number(refundable) and amount > refundable:
            raise Refused(_("Approving keeps the amount {amount}, above the refundable {refundable}; the refund "
                            "service would refuse it after the review. Edit the amount instead.").format(
                              amount=float(amount), refundable=float(refundable)))
        return {"type": "approve"}
    if value is None or (isinstance(value, str) and not value.strip()):
        raise Refused(_("An edit needs the new amount: type it in the amount field."))
    try:
        amount = parse_amount(value)
    except AmountError as exc:
        raise Refused(str(exc)) from None
    if is_number(refundable) and amount > refundable:
        raise Refused(_("The amount {amount} is above the refundable {refundable}; the refund service would "
                        "refuse it after the review.").format(amount=amount, refundable=float(refundable)))
    return {"type": "edit", "amount": amount}


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``json.loads``'s ``object_pairs_hook``: a key written twice in one object is refused."""
    seen: dict[str, Any] = {}
    for key, item in pairs:
        if key in seen:
            raise Refused(_("The edited argument text names {key} twice in one object; JSON keeps only the last "
                            "value, which may not be the one you read. Write each argument once.").format(
                              key=repr(about(key))))
        seen[key] = item
    return seen


def edited_args(action: ReviewAction, value: Any, tools: Mapping[str, BaseTool],
                agent_tools: Mapping[str, BaseTool]) -> dict:
    """The edited arguments of a HITL call as they will be sent, or :class:`Refused` with the reason.

    The checks, in order (each refusal names the argument):

    1. a JSON object (a dict, or JSON text of one; at most 100 levels deep; no key written twice);
    2. plain JSON (:func:`~helpers.widgets.text.json_problem`): no ``NaN``/``Infinity``, no function,
       set, ``Decimal`` or other Python object (the arguments travel as JSON and the checkpointer
       saves the resume); the JSON text is what is sent (a tuple becomes a list);
    3. the tool is one the agent has: the graph's ``tools`` node lists it (an edit naming a tool the
       agent does not have is accepted by ``HumanInTheLoopMiddleware`` and then fails in the tools
       node on every later resume), and its schema is known (``tools``);
    4. the tool's argument schema (:func:`schema_problems`), strictly;
    5. the refund amount rule: an argument named ``amount`` that the schema types as a number must
       pass :func:`~helpers.widgets.amounts.parse_amount` (above 0, whole cents); float noise
       (``0.1 + 0.2``) is sent as the cents value.

    Args:
        action: the call being edited (its ``tool`` is the name sent; the panel never renames a call).
        value: a dict, or JSON text of an object.
        tools: every tool whose schema the engine knows, by name.
        agent_tools: the tools of the graph's ``tools`` node (empty when the graph has none).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        raise Refused(_("An edit needs the new arguments: type them as a JSON object in the args field."))
    if isinstance(value, str):
        try:
            json.loads(value, object_pairs_hook=_no_duplicate_keys)
        except (ValueError, RecursionError):
            pass  # parse_json below says what is wrong
        try:
            args = parse_json(value)
        except JsonInputError as problem:
            raise Refused(_("The edited argument text {problem}.").format(problem=problem)) from None
    else:
        args = value
    if not isinstance(args, dict):
        raise Refused(_("The edited arguments are not a JSON object: tool arguments are an object, "
                        "e.g. {\"order_id\": \"A1024\", \"amount\": 120.0}."))
    problem = json_problem(args, "args")
    if problem:
        raise Refused(_("The edited arguments are not plain JSON: {problem}. Tool arguments travel as JSON and "
                        "the checkpointer must save them.").format(problem=problem))
    text = json.dumps(args, ensure_ascii=False, allow_nan=False)
    args = json.loads(text)  # exactly what is sent: the JSON a model could have written
    if agent_tools and action.tool not in agent_tools:
        raise Refused(_("The agent has no tool named {tool} (its tools node has: {tools}). "
                        "HumanInTheLoopMiddleware would accept an edit naming it, and the tools node would then "
                        "fail on every later resume: reject or respond instead.").format(
                          tool=repr(about(action.tool)), tools=", ".join(sorted(agent_tools))))
    tool = tools.get(action.tool)
    if tool is None:
        raise Refused(_("The panel cannot find the tool {tool} in the graph's tools node, so it cannot check "
                        "edited arguments against its schema; pass tools=[...] to the panel.").format(
                          tool=repr(about(action.tool))))
    try:
        problems = schema_problems(tool, args, text)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a schema whose validation itself fails
        problems = error_text(exc)
    if problems:
        raise Refused(_("The edited arguments do not fit {tool}'s schema ({problems}).").format(
            tool=about(action.tool), problems=problems))
    if "amount" in args and _number_property(_properties(tool).get("amount")):
        try:
            cents = parse_amount(args["amount"])
        except AmountError as exc:
            raise Refused(_("The edited amount is not a refund amount: {problem}").format(problem=exc)) from None
        if cents != args["amount"]:
            args["amount"] = cents
    return args


def same_refund(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Two calls' arguments ask for the same refund: the same idempotency key
    (:func:`helpers.domain.refund_key`: the order and the amount). Two partial refunds of one order
    (``A1024`` 100 and ``A1024`` 50) have different keys and are two requests."""
    from helpers.domain import refund_key

    if first.get("order_id") is None or first.get("order_id") != second.get("order_id"):
        return False
    return refund_key(first.get("order_id"), first.get("amount")) == \
        refund_key(second.get("order_id"), second.get("amount"))


def _one_request_per_key(action: ReviewAction, args: Mapping[str, Any], earlier: Sequence[ReviewAction],
                         staged: Sequence[dict]) -> None:
    """Refuse approving or editing a call into the same refund (same key) as a call this request already sends."""
    for before, noted in zip(earlier, staged):
        if noted["type"] not in ("approve", "edit") or before.tool != action.tool:
            continue
        before_args = noted["edited_action"]["args"] if noted["type"] == "edit" else (before.args or {})
        if same_refund(before_args, args):
            raise Refused(_("Calls {first} and {second} both ask {tool} for the same refund (order {order_id}, "
                            "amount {amount}: one idempotency key). The refund service merges the second into the "
                            "first, so approving both does not send two refunds. Keep one: reject or respond to "
                            "this call.").format(first=before.position, second=action.position,
                                                 tool=about(action.tool), order_id=about(args.get("order_id")),
                                                 amount=about(args.get("amount"))))


def build_decision(action: ReviewAction, decision: Decision, value: Any, *, earlier: Sequence[ReviewAction] = (),
                   staged: Sequence[dict] = (), tools: Mapping[str, BaseTool] | None = None,
                   agent_tools: Mapping[str, BaseTool] | None = None) -> dict:
    """The decision as the pause expects it, or :class:`Refused` with the reason.

    Args:
        action: the action decided (a plain payload when ``action.tool`` is ``None``).
        decision: ``approve``, ``edit``, ``reject`` or ``respond`` (already checked as allowed).
        value: the typed amount, arguments or message (``None`` for approve).
        earlier: the request's actions before this one; staged: their noted decisions (HITL).
        tools: the tools whose schemas are known; agent_tools: the graph's own tools.

    Returns:
        plain: ``{"type": "approve"}``, ``{"type": "edit", "amount": 120.0}``, ``{"type": "reject",
        "reason": ...}``; HITL: ``{"type": "approve"}``, ``{"type": "edit", "edited_action": {"name",
        "args"}}``, ``{"type": "reject"[, "message"]}``, ``{"type": "respond", "message": ...}``.
        Approve is refused for arguments longer than the panel shows whole (``MAX_WHOLE`` characters
        of JSON): they can be read in a cell and sent with edit.
    """
    plain = action.tool is None
    if decision in ("reject", "respond"):
        return _reason(decision, value, plain=plain)
    if plain:
        return _plain(action, decision, value)
    if decision == "approve":
        size = len(json_text(action.args, limit=None))
        if size > MAX_WHOLE:  # the panel shows arguments whole up to MAX_WHOLE: beyond, approve would send unread text
            raise Refused(_("Approve is off for {action}: its arguments are {size} characters of JSON, more than "
                            "the panel shows whole ({limit}), so approving would send text no one read here. Read "
                            "them in a cell (panel.engine.current.args) and send them with panel.edit(...) if they "
                            "are right, or reject.").format(action=action.label, size=f"{size:,}",
                                                            limit=f"{MAX_WHOLE:,}"))
        _one_request_per_key(action, action.args or {}, earlier, staged)
        return {"type": "approve"}
    args = edited_args(action, value, tools or {}, agent_tools or {})
    _one_request_per_key(action, args, earlier, staged)
    return {"type": "edit", "edited_action": {"name": action.tool, "args": args}}
