"""Reference solutions and known-wrong answers for exercise 11.1 (``helpers.exercises.nb11.POLICY_APPROVAL``)."""

from __future__ import annotations

from deepagents import FilesystemPermission, create_deep_agent
from langchain.agents.middleware import InterruptOnConfig

from helpers.exercises.registry import AnswerSet, KnownWrong


def with_permissions(model, checkpointer):
    """Reference: an interrupt-mode permission rule; deepagents turns it into interrupt_on entries."""
    rule = FilesystemPermission(operations=["write"], paths=["/policies/**"], mode="interrupt")
    return create_deep_agent(model=model, permissions=[rule], checkpointer=checkpointer)


def _is_policy(request) -> bool:
    return str(request.tool_call["args"].get("file_path", "")).startswith("/policies/")


def with_when_predicate(model, checkpointer):
    """Reference: interrupt_on for both writing tools, with a `when` predicate on the path."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate}, checkpointer=checkpointer)


def wrong_subscripts_the_request(model, checkpointer):
    """Wrong: the `when` predicate treats the ToolCallRequest as the tool call dict (a TypeError at the pause)."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"],
                             when=lambda call: call["args"]["file_path"].startswith("/policies/"))
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate}, checkpointer=checkpointer)


def wrong_no_gate(model, checkpointer):
    """Wrong: nothing is gated."""
    return create_deep_agent(model=model, checkpointer=checkpointer)


def wrong_every_write(model, checkpointer):
    """Wrong: every write_file pauses (drafts too) and edit_file is not gated."""
    return create_deep_agent(model=model, interrupt_on={"write_file": True}, checkpointer=checkpointer)


def wrong_write_only(model, checkpointer):
    """Wrong: the path is checked, but edit_file is forgotten."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate}, checkpointer=checkpointer)


def wrong_reads_too(model, checkpointer):
    """Wrong: reads of policy files pause as well."""
    rule = FilesystemPermission(operations=["read", "write"], paths=["/policies/**"], mode="interrupt")
    return create_deep_agent(model=model, permissions=[rule], checkpointer=checkpointer)


def wrong_returns_nothing(model, checkpointer):
    """Wrong: builds the agent but forgets to return it."""
    create_deep_agent(model=model, interrupt_on={"write_file": True}, checkpointer=checkpointer)


def wrong_no_checkpointer(model, checkpointer):
    """Wrong: no checkpointer, so the pause can never be resumed (the check says so before resuming)."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate})


def crashing_approve_only(model, checkpointer):
    """Crashes on reject: only 'approve' is allowed, so HumanInTheLoopMiddleware raises ValueError."""
    gate = InterruptOnConfig(allowed_decisions=["approve"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate}, checkpointer=checkpointer)


def crashing_bad_argument(model, checkpointer):
    """Crashes at once: a misspelt create_deep_agent argument."""
    return create_deep_agent(model=model, interupt_on={"write_file": True}, checkpointer=checkpointer)


_PAUSE, _APPROVE, _REJECT, _EDIT, _READ, _DRAFT = (
    "a write under /policies/ pauses before anything is written",
    "approved: the policy file is written",
    "rejected: the policy file is not written",
    "an edit of a policy file pauses too",
    "reading a policy file does not pause",
    "a write under /drafts/ does not pause",
)

POLICY_APPROVAL = AnswerSet(
    solutions={"permissions": with_permissions, "interrupt_on with when": with_when_predicate},
    wrong={
        "no gate": KnownWrong(wrong_no_gate, fails=(_PAUSE, _APPROVE, _REJECT, _EDIT), status="fail"),
        "every write": KnownWrong(wrong_every_write, fails=(_EDIT, _DRAFT), status="fail"),
        "write_file only": KnownWrong(wrong_write_only, fails=(_EDIT,), status="fail"),
        "reads too": KnownWrong(wrong_reads_too, fails=(_READ,), status="fail"),
        "returns nothing": KnownWrong(wrong_returns_nothing, fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _READ, _DRAFT),
                                      status="fail"),
        "no checkpointer": KnownWrong(wrong_no_checkpointer, fails=(_APPROVE, _REJECT), status="fail"),
        "subscripts the request": KnownWrong(wrong_subscripts_the_request,
                                             fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _DRAFT), status="fail"),
    },
    crashing={"approve only": crashing_approve_only, "misspelt argument": crashing_bad_argument},
    answer_from=lambda body: lambda model, checkpointer: body(),
)
