"""What both exercises of notebook 09 run: the check context, the learner's middleware as an
``AgentMiddleware``, the refund tool and one scripted ``create_agent`` turn.

The cases live in :mod:`helpers.exercises.nb09_errors` (09.1) and :mod:`helpers.exercises.nb09_keys`
(09.2); the exercises themselves in :mod:`helpers.exercises.nb09`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import (
    AgentMiddleware,
    wrap_tool_call,
)
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import HumanMessage, ToolMessage

from ..domain import (
    refund_key,
)
from ..i18n import _
from ..model import scripted_model

__all__ = ["CheckContext", "as_middleware"]



@dataclass(frozen=True)
class CheckContext:
    """The context the hidden checks pass: the trusted, signed-in ``user_id``."""

    user_id: str


_CUSTOMER = CheckContext("user-42")


def as_middleware(answer: Any) -> Any:
    """The learner's answer as an ``AgentMiddleware``.

    Args:
        answer: an ``AgentMiddleware`` (e.g. from ``@wrap_tool_call``) or a plain function
            ``(request, handler) -> ToolMessage | Command``.

    Returns:
        the middleware instance to pass to ``create_agent(middleware=[...])``.

    Raises:
        AssertionError: the answer is neither (with a hint).
    """
    if isinstance(answer, AgentMiddleware):
        return answer
    if callable(answer):
        return wrap_tool_call(answer)
    raise AssertionError(
        _("expected a function (request, handler) or a @wrap_tool_call middleware, got {type}").format(
            type=type(answer).__name__)
    )


# -- the refund tool the checks run ---------------------------------------------------------


def _submit_tool(service: Any, key: Callable[[str, float, Any], str]):
    """A refund tool on ``service`` whose idempotency key is ``key(order_id, amount, runtime)``."""

    @tool
    def submit_refund_request(order_id: str, amount: float, runtime: ToolRuntime[CheckContext]) -> str:
        """Create a refund REQUEST (not money sent) for one of the signed-in customer's orders."""
        request = service.submit(order_id, amount, user_id=runtime.context.user_id,
                                 idempotency_key=key(order_id, amount, runtime))
        return f"refund request {request.request_id} registered for {order_id} ({request.amount:.2f})"

    return submit_refund_request


def _facts_key(order_id: str, amount: Any, runtime: Any) -> str:
    return refund_key(order_id, amount)


def _run(tools: Sequence[Any], script: Sequence[Any], middleware: Sequence[Any], *, checkpointer: Any = None,
         config: dict | None = None) -> Any:
    """One user turn through ``create_agent`` with a scripted model, on thread ``"check"`` unless ``config``
    names another; returns the ``GraphOutput`` (v2)."""
    agent = create_agent(scripted_model(script), list(tools), context_schema=CheckContext,
                         middleware=list(middleware), checkpointer=checkpointer)
    return agent.invoke({"messages": [HumanMessage("Please refund my order.")]},
                        config or {"configurable": {"thread_id": "check"}}, context=_CUSTOMER, version="v2")


def _answer_of(output: Any, call_id: str) -> Any:
    answers = [m for m in output.value["messages"] if isinstance(m, ToolMessage) and m.tool_call_id == call_id]
    assert answers, (
        _("no ToolMessage answers tool call {call_id!r}: return a ToolMessage with "
          "tool_call_id=request.tool_call['id']").format(call_id=call_id)
    )
    assert len(answers) == 1, _("tool call {call_id!r} got {count} ToolMessages; answer each call once").format(
        call_id=call_id, count=len(answers))
    return answers[0]
