"""Tables of what a model was sent: the tools offered on each request, the history before and after an edit.

Notebook 19 shows two things a person would rather see as a table than as JSON:

* :func:`offered_tools_markdown`: one row per model request (of one model or several, e.g. the agent's model and
  ``LLMToolSelectorMiddleware``'s selection model), in the order they were made: who was asked, how many
  messages it got and which tools were offered (bound) to it;
* :func:`history_markdown`: one row per message, what the agent's state holds next to what the provider
  received in one request, so a message that ``ContextEditingMiddleware`` cleared (langchain 1.5.2,
  ``ClearToolUsesEdit``: the content becomes a placeholder, ids stay) or that a summary replaced stands out.

Both return Markdown text (tested directly in ``tests/test_request_views.py``); ``helpers.show`` renders it.
Message text is escaped with :func:`helpers.display.text.markdown_text`, so a tool result cannot change the
table (no links, images, HTML or extra columns), and cut to a fixed width; no message ids are shown (LangGraph
fills them with random UUIDs), tool call ids are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from .display.text import _short, markdown_text
from .i18n import _

__all__ = ["history_markdown", "message_summary", "offered_tools_markdown"]

#: Characters of a message's text shown in a table cell.
TEXT_LIMIT = 48


def message_summary(message: BaseMessage, *, limit: int = TEXT_LIMIT) -> str:
    """One line for a message: its type, its tool calls or the call it answers, and its text, cut to ``limit``.

    Args:
        message: any LangChain message.
        limit: characters of text kept (a longer text ends with ``…``).

    Returns:
        plain text (not escaped), e.g. ``ai -> lookup_order(A1024) [call_1]`` or
        ``tool [call_1] error: Error order_not_found: ...``.
    """
    if isinstance(message, AIMessage) and message.tool_calls:
        calls = ", ".join(f"{c['name']}({_short(_args(c['args']), 24)}) [{c.get('id')}]" for c in message.tool_calls)
        text = f" {_short(message.text, limit)}" if message.text else ""
        return f"ai -> {calls}{text}"
    if isinstance(message, ToolMessage):
        status = " error:" if message.status == "error" else ""
        return f"tool [{message.tool_call_id}]{status} {_short(message.text, limit)}"
    return f"{message.type} {_short(message.text, limit)}"


def _args(args: Any) -> str:
    if isinstance(args, dict):
        return ", ".join(str(value) for value in args.values())
    return str(args)


def offered_tools_markdown(rows: Sequence[tuple[str, Any]]) -> str:
    """A Markdown table: one row per model request, with the tools offered to it.

    Args:
        rows: ``(who, request)`` pairs in the order the requests were made; ``who`` names the model
            (``"agent"``, ``"selector"``), ``request`` is a :class:`helpers.model.RecordedRequest` (anything with
            ``messages`` and ``tool_names``).

    Returns:
        the table's Markdown (a header row and one row per request; ``(none)`` when no tool was bound).
    """
    lines = [
        "| # | " + _("model") + " | " + _("messages sent") + " | " + _("tools offered") + " |",
        "|---|---|---|---|",
    ]
    for number, (who, request) in enumerate(rows, start=1):
        names = ", ".join(request.tool_names) or _("(none)")
        last = message_summary(request.messages[-1]) if request.messages else ""
        sent = _("{count}, the last: {last}").format(count=len(request.messages), last=last)
        lines.append(f"| {number} | {markdown_text(who, cell=True)} | {markdown_text(sent, cell=True)} | "
                     f"{markdown_text(names, cell=True)} |")
    return "\n".join(lines)


def history_markdown(state: Sequence[BaseMessage], sent: Sequence[BaseMessage]) -> str:
    """A Markdown table: the messages the state holds next to the messages one request carried.

    The two lists are lined up by position, so use it where an edit keeps the number of messages
    (``ContextEditingMiddleware``) and read a shorter ``sent`` (a summary, a trimmed window) row by row.
    A row whose two sides differ is marked ``edited``; a message on one side only ``not sent`` or
    ``not in the state``.

    Args:
        state: the agent's messages (``result["messages"]`` or the checkpoint).
        sent: the messages of one model request (``RecordedRequest.messages``), without the system prompt.

    Returns:
        the table's Markdown.
    """
    lines = [
        "| # | " + _("the state holds") + " | " + _("the provider receives") + " | |",
        "|---|---|---|---|",
    ]
    for index in range(max(len(state), len(sent))):
        held = message_summary(state[index]) if index < len(state) else ""
        received = message_summary(sent[index]) if index < len(sent) else ""
        if index >= len(sent):
            mark = _("not sent")
        elif index >= len(state):
            mark = _("not in the state")
        else:
            mark = _("edited") if held != received else ""
        lines.append(f"| {index} | {markdown_text(held, cell=True) or ' '} | "
                     f"{markdown_text(received, cell=True) or ' '} | {mark} |")
    return "\n".join(lines)
