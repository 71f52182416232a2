"""The engine of "you are the model" (notebook 02): the learner's tool calls, run through ToolNode.

Plain Python, no ipywidgets: the state (chosen tool, typed arguments, the turns played), the
validation of the typed arguments and the graph run. :class:`helpers.widgets.YouAreTheModel`
is its view; tests and notebook demos drive this engine directly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.messages.tool import invalid_tool_call as make_invalid_tool_call
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from ...display import ADDRESS_PATTERN
from ...i18n import _
from ..graphs import tool_node_graph
from ..outcomes import TurnOutcome
from ..text import JsonInputError, error_text, json_text, parse_json, sendable, shorten, value_text

__all__ = ["HISTORY_LENGTH", "ModelTurn", "YouAreTheModelEngine"]

#: How many of the learner's own turns the history keeps.
HISTORY_LENGTH = 5


@dataclass
class ModelTurn:
    """One tool call played in :class:`YouAreTheModelEngine`.

    Attributes:
        call_id: the id given to the call (``call_1``, ``call_2``, ... since the last reset).
        tool: the tool chosen.
        arguments: the argument text as typed.
        outcome: a :class:`~helpers.widgets.outcomes.TurnOutcome`.
        ai_message: the ``AIMessage`` the "model" (the learner) produced: one tool call, or one
            *invalid* tool call when the text is not a JSON object; ``None`` when refused.
        tool_messages: what ``ToolNode`` answered (possibly ``status="error"``); empty when nothing ran.
        error: ``tool_raised``: the exception as ``Type: message``; ``refused``: why.
    """

    call_id: str
    tool: str
    arguments: str
    outcome: TurnOutcome
    ai_message: AIMessage | None = None
    tool_messages: list[ToolMessage] = field(default_factory=list)
    error: str = ""

    def summary(self) -> str:
        """Plain text: the tool call (or invalid call), then each ToolMessage with its status. Never raises.

        Every value in it is bounded (:mod:`helpers.widgets.text`): the typed arguments echoed in the
        ``AIMessage.tool_calls`` / ``invalid_tool_calls`` line, each ToolMessage content and the error
        are cut after :data:`~helpers.widgets.text.MAX_SHOWN` characters each.
        """
        lines = []
        if self.ai_message is not None:
            for call in self.ai_message.tool_calls:
                lines.append(f"AIMessage.tool_calls: {call['name']}({json_text(call['args'])}) id={call['id']}")
            for call in self.ai_message.invalid_tool_calls:
                lines.append(f"AIMessage.invalid_tool_calls: {call['name']} id={call['id']} "
                             f"args={value_text(call['args'], prefer_json=False)}")
        for message in self.tool_messages:
            content = message.content if isinstance(message.content, str) else json_text(message.content)
            lines.append(f"ToolMessage(tool_call_id={message.tool_call_id}, status={message.status}): "
                         f"{shorten(content)}")
        if self.outcome == TurnOutcome.INVALID_JSON:
            lines.append(_("No tool ran: a reply with only invalid tool calls has nothing to execute."))
        elif self.outcome == TurnOutcome.TOOL_RAISED:
            lines.append(_("The run stopped: {error}").format(error=shorten(self.error)))
        elif self.outcome == TurnOutcome.REFUSED:
            lines.append(_("Not sent: {error}").format(error=shorten(self.error)))
        # A tool returning an object: its str() holds a memory address, different in every run.
        return sendable(ADDRESS_PATTERN.sub("", "\n".join(lines)))

    def history_line(self) -> str:
        """One line for the history list, e.g. ``"call_2 quote_refund: ERROR RESULT"`` (the outcome's word in
        the edition's language)."""
        return f"{self.call_id} {self.tool}: {_(self.outcome.word)}"


def _template(schema: dict[str, Any]) -> str:
    """An argument skeleton from a tool's JSON schema: required keys with typed placeholders."""
    placeholders = {"string": "", "number": 0, "integer": 0, "boolean": False, "array": [], "object": {}}
    props = schema["function"]["parameters"].get("properties", {})
    required = schema["function"]["parameters"].get("required", list(props))
    return json.dumps({name: placeholders.get(props.get(name, {}).get("type"), None) for name in required})


class YouAreTheModelEngine:
    """Play the model: choose a bound tool, type its arguments, and see what the application does.

    :meth:`send` turns the choice into an ``AIMessage`` with one tool call (id ``call_1``,
    ``call_2``, ...), exactly what a provider integration builds from a model reply, and runs it
    through LangGraph's ``ToolNode`` (langgraph-prebuilt 1.1.3), the executor ``create_agent``
    uses (:func:`helpers.widgets.graphs.tool_node_graph`). Arguments that are not a JSON object
    become an *invalid* tool call, as langchain-core's parser makes them, and nothing runs.

    Args:
        tools: the bound tools (``BaseTool`` objects).
        question: the user message the learner answers (shown by the view).

    Attributes:
        tools: name -> tool, in the order given. schemas: name -> OpenAI tool schema (what the model sees).
        tool: the chosen tool's name. arguments: the typed argument text.
        turns: every :class:`ModelTurn` since the last :meth:`reset`, in order.

    Raises:
        ValueError: no tools given.
    """

    def __init__(self, tools: Sequence[BaseTool], *, question: str = "Where is my order A1024?"):
        if not tools:
            raise ValueError("YouAreTheModel needs at least one tool to bind")
        self.tools = {tool.name: tool for tool in tools}
        self.schemas = {name: convert_to_openai_tool(tool) for name, tool in self.tools.items()}
        self.question = sendable(question)
        self._graph = tool_node_graph(list(self.tools.values()))
        self.turns: list[ModelTurn] = []
        self.tool = next(iter(self.tools))
        self.arguments = self.skeleton()

    @property
    def history(self) -> list[ModelTurn]:
        """The learner's last :data:`HISTORY_LENGTH` turns, oldest first."""
        return self.turns[-HISTORY_LENGTH:]

    def skeleton(self, name: str | None = None) -> str:
        """The argument skeleton of a tool (default: the chosen one), e.g. ``{"order_id": ""}``."""
        return _template(self.schemas[name or self.tool])

    def schema_json(self, name: str | None = None) -> str:
        """What the model sees for a tool (default: the chosen one): its function schema, indented JSON."""
        return json.dumps(self.schemas[name or self.tool]["function"], indent=2)

    def choose(self, name: str) -> None:
        """Choose a bound tool and reset the arguments to its skeleton.

        Raises:
            ValueError: the name is not a bound tool (a real model can only call bound tools).
        """
        if name not in self.tools:
            raise ValueError(f"{name!r} is not bound; bound tools: {', '.join(self.tools)}")
        self.tool = name
        self.arguments = self.skeleton()

    def set_arguments(self, text: str) -> None:
        """Type the arguments (a JSON object, as a model writes it); lone surrogates are escaped."""
        self.arguments = sendable(str(text))

    def reset(self) -> None:
        """Forget every turn (ids start again at ``call_1``) and reset the arguments to the skeleton."""
        self.turns.clear()
        self.arguments = self.skeleton()

    def send(self, *, tool: str | None = None, arguments: str | None = None) -> ModelTurn:
        """Build the AIMessage from the current choice, run it through ToolNode, record and return the turn.

        Args:
            tool, arguments: the tool and the argument text the learner was shown when they sent
                (a click in the page carries both); given, they become the chosen tool and the
                typed arguments first, and the arguments are *not* reset to the tool's skeleton.
                ``None``: the current choice.

        Never raises for anything the tool or the input does (``SystemExit`` included); only
        ``KeyboardInterrupt`` passes, so a hanging tool can still be stopped.

        Raises:
            ValueError: ``tool`` is not a bound tool (nothing is sent).
        """
        if tool is not None:
            if tool not in self.tools:
                raise ValueError(f"{tool!r} is not bound; bound tools: {', '.join(self.tools)}")
            self.tool = tool
        if arguments is not None:
            self.set_arguments(arguments)
        call_id, name, raw = f"call_{len(self.turns) + 1}", self.tool, self.arguments
        try:
            args = parse_json(raw)
            if not isinstance(args, dict):
                raise JsonInputError(_("is not a JSON object: tool arguments are an object, "
                                       "e.g. {\"order_id\": \"A1024\"}"))
        except JsonInputError as problem:
            if problem.reason == "too_deep":
                turn = ModelTurn(call_id, name, raw, TurnOutcome.REFUSED,
                                 error=_("the argument text {problem}; this widget does not send such a "
                                         "reply.").format(problem=problem))
            else:
                error = _("the argument text {problem}").format(problem=problem)
                ai = AIMessage(content="", invalid_tool_calls=[
                    make_invalid_tool_call(name=name, args=raw, id=call_id, error=error)])
                turn = ModelTurn(call_id, name, raw, TurnOutcome.INVALID_JSON, ai)
        else:
            ai = AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])
            turn = self._run(ModelTurn(call_id, name, raw, TurnOutcome.RAN, ai))
        self.turns.append(turn)
        return turn

    def _run(self, turn: ModelTurn) -> ModelTurn:
        try:
            result = self._graph.invoke({"messages": [turn.ai_message]})
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - ToolNode re-raises tool exceptions; SystemExit too
            turn.outcome, turn.error = TurnOutcome.TOOL_RAISED, error_text(exc)
            return turn
        turn.tool_messages = [m for m in result["messages"] if isinstance(m, ToolMessage)]
        if any(m.status == "error" for m in turn.tool_messages):
            turn.outcome = TurnOutcome.ARGUMENT_ERROR
        return turn
