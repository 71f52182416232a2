"""The "you are the model" widget of notebook 02.

Every control is also a plain method (``choose``, ``set_arguments``, ``send``), so tests drive it
headless and the notebook can show a scripted run. Handlers never ``print``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.messages.tool import invalid_tool_call as make_invalid_tool_call
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from ..display import ADDRESS_PATTERN, format_error

__all__ = ["ModelTurn", "YouAreTheModel"]


@dataclass
class ModelTurn:
    """One turn played in :class:`YouAreTheModel`.

    Attributes:
        ai_message: the ``AIMessage`` the "model" (the learner) produced.
        tool_messages: what the application answered (``ToolMessage`` objects, possibly with
            ``status="error"``); empty when nothing could run.
        outcome: ``"ran"`` (every call ran), ``"argument_error"`` (the tool rejected the
            arguments and the model got an error result), ``"tool_raised"`` (the tool raised
            another exception: ToolNode's default handler re-raises it, so the run stops and the
            model gets no answer), or ``"invalid_json"`` (the arguments were not JSON: the reply
            holds only an invalid tool call and nothing runs).
        error: for ``"tool_raised"``, the exception as ``Type: message``.
    """

    ai_message: AIMessage
    tool_messages: list[ToolMessage] = field(default_factory=list)
    outcome: str = "ran"
    error: str = ""

    def summary(self) -> str:
        """Plain text: the tool call (or invalid call), then each ToolMessage with its status."""
        lines = []
        for call in self.ai_message.tool_calls:
            lines.append(f"AIMessage.tool_calls: {call['name']}({json.dumps(call['args'])}) id={call['id']}")
        for call in self.ai_message.invalid_tool_calls:
            lines.append(f"AIMessage.invalid_tool_calls: {call['name']} id={call['id']} args={call['args']!r}")
        for message in self.tool_messages:
            lines.append(f"ToolMessage(tool_call_id={message.tool_call_id}, status={message.status}): {message.content}")
        if self.outcome == "invalid_json":
            lines.append("No tool ran: a reply with only invalid tool calls has nothing to execute.")
        if self.outcome == "tool_raised":
            lines.append(f"The run stopped: {self.error}")
        return ADDRESS_PATTERN.sub("", "\n".join(lines))  # a tool returning an object: str() holds its address


def _sendable(text: str) -> str:
    """Text that can travel to the browser: lone surrogates (valid in JSON, invalid in UTF-8) escaped."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _template(schema: dict[str, Any]) -> str:
    """An argument skeleton from a JSON schema: required keys with typed placeholders."""
    placeholders = {"string": "", "number": 0, "integer": 0, "boolean": False, "array": [], "object": {}}
    props = schema["function"]["parameters"].get("properties", {})
    required = schema["function"]["parameters"].get("required", list(props))
    return json.dumps({name: placeholders.get(props[name].get("type"), None) for name in required})


class YouAreTheModel:
    """"You are the model": pick a bound tool, write its arguments, and see what the application does.

    The learner plays the model's part of the protocol: the widget turns the choice into an
    ``AIMessage`` with one tool call (id ``call_1``, ``call_2``, ...), exactly what a provider
    integration builds from a model reply, and runs it through LangGraph's ``ToolNode``
    (langgraph-prebuilt 1.1.3), the executor ``create_agent`` uses. Arguments that are not JSON
    become an *invalid* tool call, as langchain-core's parser makes them, and nothing runs.

    Args:
        tools: the bound tools (``BaseTool`` objects).
        question: the user message shown above the controls.

    Attributes:
        turns: every :class:`ModelTurn` played, in order.
        view: the ``ipywidgets.VBox`` (displayed when the object is a cell's value).

    Raises:
        ValueError: no tools given.
    """

    def __init__(self, tools: Sequence[BaseTool], *, question: str = "Where is my order A1024?"):
        if not tools:
            raise ValueError("YouAreTheModel needs at least one tool to bind")
        self.tools = {tool.name: tool for tool in tools}
        self.schemas = {name: convert_to_openai_tool(tool) for name, tool in self.tools.items()}
        self.turns: list[ModelTurn] = []
        graph = StateGraph(MessagesState)  # ToolNode needs a graph's runtime: the smallest graph around it
        graph.add_node("tools", ToolNode(list(tools)))
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        self._executor = graph.compile()
        first = next(iter(self.tools))
        self.tool_picker = widgets.Dropdown(options=list(self.tools), value=first, description="tool:")
        self.arguments = widgets.Textarea(value=_template(self.schemas[first]), description="args (JSON):",
                                          layout=widgets.Layout(width="95%", height="4em"))
        self.schema_view = widgets.HTML(self._schema_html(first))
        self.send_button = widgets.Button(description="Send tool call", button_style="primary")
        self.reply_view = widgets.HTML("<i>No tool call sent yet.</i>")
        self.tool_picker.observe(self._on_pick, names="value")
        self.send_button.on_click(lambda _button: self.send())
        self.view = widgets.VBox([
            widgets.HTML(f"<b>User:</b> {html.escape(question)}"),
            self.tool_picker, self.schema_view, self.arguments, self.send_button, self.reply_view,
        ])

    # -- plain methods: what the mouse does ---------------------------------------------------

    def choose(self, name: str) -> None:
        """Select a bound tool by name and reset the arguments to its skeleton.

        Raises:
            ValueError: the name is not a bound tool (a real model can only call bound tools).
        """
        if name not in self.tools:
            raise ValueError(f"{name!r} is not bound; bound tools: {', '.join(self.tools)}")
        self.tool_picker.value = name  # triggers _on_pick

    def set_arguments(self, text: str) -> None:
        """Type the arguments (a JSON object, as a model writes it)."""
        self.arguments.value = text

    def send(self) -> ModelTurn:
        """Build the AIMessage from the current choice, run it through ToolNode, show and return the turn."""
        call_id = f"call_{len(self.turns) + 1}"
        name, raw = self.tool_picker.value, self.arguments.value
        try:
            args = json.loads(raw)
            if not isinstance(args, dict):
                raise ValueError("tool arguments must be a JSON object")
        except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
            ai = AIMessage(content="", invalid_tool_calls=[make_invalid_tool_call(name=name, args=raw, id=call_id,
                                                                                  error=f"not a JSON object: {exc}")])
            turn = ModelTurn(ai, [], "invalid_json")
        else:
            ai = AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])
            try:
                result = self._executor.invoke({"messages": [ai]})
            except Exception as exc:  # noqa: BLE001 - ToolNode re-raises tool exceptions by default
                turn = ModelTurn(ai, [], "tool_raised", error=format_error(exc))
            else:
                tool_messages = [m for m in result["messages"] if isinstance(m, ToolMessage)]
                outcome = "argument_error" if any(m.status == "error" for m in tool_messages) else "ran"
                turn = ModelTurn(ai, tool_messages, outcome)
        self.turns.append(turn)
        self.reply_view.value = _sendable(self._turn_html(turn))
        return turn

    # -- rendering ------------------------------------------------------------------------------

    def _on_pick(self, change: dict) -> None:
        self.arguments.value = _template(self.schemas[change["new"]])
        self.schema_view.value = self._schema_html(change["new"])

    def _schema_html(self, name: str) -> str:
        schema = json.dumps(self.schemas[name]["function"], indent=2)
        return f"<details><summary>what the model sees for <code>{html.escape(name)}</code></summary><pre>{html.escape(schema)}</pre></details>"

    @staticmethod
    def _turn_html(turn: ModelTurn) -> str:
        notes = {
            "ran": "The application ran the tool and answered with a ToolMessage carrying the same id.",
            "argument_error": "The tool rejected the arguments; ToolNode answered with an error ToolMessage "
                              "(same id), so the model can fix its call.",
            "invalid_json": "Not a JSON object: the reply holds an invalid tool call. Nothing ran, and "
                            "create_agent would end the run here (section 5).",
            "tool_raised": "The tool raised. ToolNode's default error handler re-raises everything except "
                           "argument errors, so the whole run stops and the call stays unanswered (notebook 09).",
        }
        return (f"<pre class='course-turn'>{html.escape(turn.summary())}</pre>"
                f"<p class='course-outcome' data-outcome='{turn.outcome}'>{notes[turn.outcome]}</p>")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.view)
