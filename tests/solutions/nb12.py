"""Reference solutions and known-wrong answers for exercise 12.1 (``helpers.exercises.nb12.POLICY_APPROVAL``)."""

from __future__ import annotations

from deepagents import FilesystemPermission, create_deep_agent
from deepagents.backends.utils import validate_path
from langchain.agents.middleware import InterruptOnConfig

from helpers.exercises.registry import AnswerSet, KnownWrong


def with_permissions(model, checkpointer):
    """Reference: an interrupt-mode permission rule; deepagents turns it into interrupt_on entries."""
    rule = FilesystemPermission(operations=["write"], paths=["/policies/**"], mode="interrupt")
    return create_deep_agent(model=model, permissions=[rule], checkpointer=checkpointer)


def _is_policy(request) -> bool:
    """The path as the file tools store it (validate_path), a leading '//' read as '/' (as deepagents'
    permission rules read it), tested for the /policies/ folder."""
    try:
        path = validate_path(str(request.tool_call["args"].get("file_path", "")))
    except ValueError:
        return False  # a traversal or a Windows path: the file tool refuses it and writes nothing
    return ("/" + path.lstrip("/")).startswith("/policies/")


def _starts_with_policies(request) -> bool:
    return str(request.tool_call["args"].get("file_path", "")).startswith("/policies/")


def _mentions_policies(request) -> bool:
    return "policies" in str(request.tool_call["args"].get("file_path", ""))


def _normpath_only(request) -> bool:
    import posixpath

    return posixpath.normpath(str(request.tool_call["args"].get("file_path", ""))).startswith("/policies/")


def with_when_predicate(model, checkpointer):
    """Reference: interrupt_on for both writing tools, with a `when` predicate on the path."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate}, checkpointer=checkpointer)


def wrong_subscripts_the_request(model, checkpointer):
    """Wrong: the `when` predicate treats the ToolCallRequest as the tool call dict (a TypeError at the pause)."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"],
                             when=lambda call: call["args"]["file_path"].startswith("/policies/"))
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate}, checkpointer=checkpointer)


def _gated_by(when):
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=when)
    return {"write_file": gate, "edit_file": gate}


def wrong_raw_prefix(model, checkpointer):
    """Wrong (the reference before issue 16): tests the raw path, so 'policies/returns.md' is written unseen."""
    return create_deep_agent(model=model, interrupt_on=_gated_by(_starts_with_policies), checkpointer=checkpointer)


def wrong_normpath_only(model, checkpointer):
    """Wrong: normalises with posixpath.normpath but adds no leading '/' (relative paths and '//' slip through)."""
    return create_deep_agent(model=model, interrupt_on=_gated_by(_normpath_only), checkpointer=checkpointer)


def wrong_substring(model, checkpointer):
    """Wrong: any path that mentions 'policies' pauses (drafts about policies too)."""
    return create_deep_agent(model=model, interrupt_on=_gated_by(_mentions_policies), checkpointer=checkpointer)


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


_PAUSE, _APPROVE, _REJECT, _EDIT, _READ, _DRAFT, _SPELLING, _LOOKALIKE = (
    "a write under /policies/ pauses before anything is written",
    "approved: the policy file is written",
    "rejected: the policy file is not written",
    "an edit of a policy file pauses too",
    "reading a policy file does not pause",
    "a write under /drafts/ does not pause",
    "a relative or non-canonical spelling of a policy path pauses too",
    "a path that only looks like a policy does not pause",
)

POLICY_APPROVAL = AnswerSet(
    solutions={"permissions": with_permissions, "interrupt_on with when": with_when_predicate},
    wrong={
        "no gate": KnownWrong(wrong_no_gate, fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _SPELLING), status="fail"),
        "every write": KnownWrong(wrong_every_write, fails=(_EDIT, _DRAFT, _SPELLING, _LOOKALIKE), status="fail"),
        "write_file only": KnownWrong(wrong_write_only, fails=(_EDIT, _SPELLING), status="fail"),
        "reads too": KnownWrong(wrong_reads_too, fails=(_READ,), status="fail"),
        "returns nothing": KnownWrong(wrong_returns_nothing, fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _READ, _DRAFT,
                                                                    _SPELLING, _LOOKALIKE), status="fail"),
        "no checkpointer": KnownWrong(wrong_no_checkpointer, fails=(_APPROVE, _REJECT), status="fail"),
        "subscripts the request": KnownWrong(wrong_subscripts_the_request,
                                             fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _DRAFT, _SPELLING, _LOOKALIKE),
                                             status="fail"),
        "raw path prefix": KnownWrong(wrong_raw_prefix, fails=(_SPELLING,), status="fail"),
        "normpath without a leading slash": KnownWrong(wrong_normpath_only, fails=(_SPELLING,), status="fail"),
        "mentions policies": KnownWrong(wrong_substring, fails=(_LOOKALIKE,), status="fail"),
    },
    crashing={"approve only": crashing_approve_only, "misspelt argument": crashing_bad_argument},
    answer_from=lambda body: lambda model, checkpointer: body(),
)
