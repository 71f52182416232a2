"""Reference solution, known-wrong and crashing answers for exercise 17.1 (refuse writes after untrusted text)."""

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import ToolMessage

from helpers.exercises.registry import AnswerSet, KnownWrong


def make_guard(write_tools, untrusted_tools):
    class BlockWritesAfterUntrustedRead(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            tainted = any(m.type == "tool" and m.name in untrusted_tools for m in request.state["messages"])
            if request.tool_call["name"] in write_tools and tainted:
                return ToolMessage("Blocked: no writes after reading untrusted data.",
                                   tool_call_id=request.tool_call["id"], name=request.tool_call["name"],
                                   status="error")
            return handler(request)

    return BlockWritesAfterUntrustedRead()


def _model_call_only(write_tools, untrusted_tools):
    class HideWrites(AgentMiddleware):
        def wrap_model_call(self, request, handler):
            if any(m.type == "tool" and m.name in untrusted_tools for m in request.messages):
                request = request.override(tools=[t for t in request.tools if t.name not in write_tools])
            return handler(request)

    return HideWrites()


def _by_wording(write_tools, untrusted_tools):
    class BlockIgnoreInstructions(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            tainted = any("ignore previous instructions" in str(m.content).lower()
                          for m in request.state["messages"] if m.type == "tool")
            if request.tool_call["name"] in write_tools and tainted:
                return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")
            return handler(request)

    return BlockIgnoreInstructions()


def _hard_coded(write_tools, untrusted_tools):
    return make_guard({"refund"}, {"lookup_order"})


def _every_write(write_tools, untrusted_tools):
    class BlockWrites(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            if request.tool_call["name"] in write_tools:
                return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")
            return handler(request)

    return BlockWrites()


def _every_call(write_tools, untrusted_tools):
    class BlockAfterRead(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            if any(m.type == "tool" and m.name in untrusted_tools for m in request.state["messages"]):
                return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")
            return handler(request)

    return BlockAfterRead()


def _previous_turn_only(write_tools, untrusted_tools):
    """Wrong (issue 27): reads only the results of the turn before the current call. The named runs write right
    after the untrusted read, so it passed them all; one more tool in between and the injected refund runs."""
    class BlockAfterLastTurn(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            messages = request.state["messages"]
            calls = [i for i, m in enumerate(messages) if m.type == "ai"]
            previous = messages[calls[-2] + 1:calls[-1]] if len(calls) > 1 else []
            tainted = any(m.type == "tool" and m.name in untrusted_tools for m in previous)
            if request.tool_call["name"] in write_tools and tainted:
                return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")
            return handler(request)

    return BlockAfterLastTurn()


def _taint_in_the_object(write_tools, untrusted_tools):
    """Wrong (issue 27): remembers the untrusted read in the middleware object, not in the thread. The named runs
    use one agent, so it passed them all; an agent rebuilt on the same thread gets a clean guard."""
    class RememberTheRead(AgentMiddleware):
        tainted = False

        def wrap_tool_call(self, request, handler):
            if request.tool_call["name"] in write_tools and self.tainted:
                return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")
            result = handler(request)
            self.tainted = self.tainted or request.tool_call["name"] in untrusted_tools
            return result

    return RememberTheRead()


def _any_tool_result(write_tools, untrusted_tools):
    """Wrong (issue 27): any tool result taints, trusted or not. The named runs read only untrusted tools, so it
    passed them all; a trusted read then blocks a legitimate refund."""
    class BlockAfterAnyResult(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            tainted = any(m.type == "tool" for m in request.state["messages"])
            if request.tool_call["name"] in write_tools and tainted:
                return ToolMessage("Blocked.", tool_call_id=request.tool_call["id"], status="error")
            return handler(request)

    return BlockAfterAnyResult()


def _crashes(write_tools, untrusted_tools):
    class ReadsMessages(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            if any(m.type == "tool" for m in request.messages):  # ToolCallRequest has no .messages
                raise RuntimeError("unreachable")
            return handler(request)

    return ReadsMessages()


GENERATED = "agrees with the reference on generated runs"

GUARD_WRITES = AnswerSet(
    solutions={"wrap_tool_call on the state's messages": make_guard},
    wrong={
        "filter in wrap_model_call only": KnownWrong(_model_call_only, fails=("the injection shown",),
                                                     status="fail"),
        "matches the injection's wording": KnownWrong(_by_wording, fails=("another phrasing of the injection",),
                                                      status="fail"),
        "hard-coded tool names": KnownWrong(_hard_coded, fails=("tools named differently",), status="fail"),
        "any tool result taints": KnownWrong(_any_tool_result, fails=(GENERATED,), status="fail"),
        "only the previous turn": KnownWrong(_previous_turn_only, fails=(GENERATED,), status="fail"),
        "taint kept in the middleware object": KnownWrong(_taint_in_the_object, fails=(GENERATED,), status="fail"),
        "blocks every write": KnownWrong(_every_write, fails=("a write before any untrusted read runs",),
                                         status="fail"),
        "blocks every call after the read": KnownWrong(_every_call,
                                                       fails=("other reads still run after the untrusted read",),
                                                       status="fail"),
    },
    crashing={"request.messages in wrap_tool_call": _crashes},
    answer_from=lambda body: lambda write_tools, untrusted_tools: body(),
)
