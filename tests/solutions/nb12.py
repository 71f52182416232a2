"""Reference solutions and known-wrong answers for exercise 12.1 (``helpers.exercises.nb12.POLICY_APPROVAL``)."""

from __future__ import annotations

from pathlib import PurePosixPath

from deepagents import FilesystemPermission, create_deep_agent
from deepagents.backends.utils import validate_path
from langchain.agents.middleware import InterruptOnConfig

from helpers.exercises.registry import AnswerSet, KnownWrong


def _deletes_policies(request) -> bool:
    """A delete removes a folder with everything in it: the root, /policies and anything under it hold policies."""
    try:
        path = PurePosixPath("/" + validate_path(str(request.tool_call["args"].get("file_path", ""))).lstrip("/"))
    except ValueError:
        return False
    return path.parts[1:2] in ((), ("policies",))


def with_permissions(model, checkpointer):
    """Reference: an interrupt-mode permission rule (deepagents turns it into interrupt_on entries), and a gate of
    its own for delete: the rule's delete gate does not read a leading '//' as '/', so delete('//') would wipe
    every file unseen (an interrupt_on entry wins over the one the rule makes)."""
    rule = FilesystemPermission(operations=["write"], paths=["/policies/**"], mode="interrupt")
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_deletes_policies)
    return create_deep_agent(model=model, permissions=[rule], interrupt_on={"delete": gate}, checkpointer=checkpointer)


def _is_policy(request) -> bool:
    """The path as the file tools store it (validate_path), a leading '//' read as '/' (as deepagents'
    permission rules read it), tested for the /policies/ folder; a delete removes a folder with everything in
    it, so deleting /policies or the root changes the policies too."""
    if request.tool_call["name"] == "delete":
        return _deletes_policies(request)
    try:
        parts = PurePosixPath("/" + validate_path(str(request.tool_call["args"].get("file_path", ""))).lstrip("/")).parts
    except ValueError:
        return False  # a traversal or a Windows path: the file tool refuses it and writes nothing
    return len(parts) > 2 and parts[1] == "policies"


def _starts_with_policies(request) -> bool:
    return str(request.tool_call["args"].get("file_path", "")).startswith("/policies/")


def _mentions_policies(request) -> bool:
    return "policies" in str(request.tool_call["args"].get("file_path", ""))


def _normpath_only(request) -> bool:
    import posixpath

    return posixpath.normpath(str(request.tool_call["args"].get("file_path", ""))).startswith("/policies/")


def with_when_predicate(model, checkpointer):
    """Reference: interrupt_on for the three tools that change files, with a `when` predicate on the path."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate, "delete": gate},
                             checkpointer=checkpointer)


def wrong_permissions_alone(model, checkpointer):
    """Wrong (issue 27; the notebook's reference before): deepagents' permission rule alone. Its delete gate reads
    '//' as a path of its own, and delete('//') removes every file, the policies too, with no pause. It passes
    every named case (they delete '/policies/refunds.md')."""
    rule = FilesystemPermission(operations=["write"], paths=["/policies/**"], mode="interrupt")
    return create_deep_agent(model=model, permissions=[rule], checkpointer=checkpointer)


def wrong_one_level(model, checkpointer):
    """Wrong (issue 27): '/policies/*' matches only files directly in /policies/, so a policy in a subfolder
    (/policies/archive/2025.md) is written unseen. The named cases use files directly in /policies/ only."""
    rule = FilesystemPermission(operations=["write"], paths=["/policies/*"], mode="interrupt")
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_deletes_policies)
    return create_deep_agent(model=model, permissions=[rule], interrupt_on={"delete": gate}, checkpointer=checkpointer)


def wrong_every_edit(model, checkpointer):
    """Wrong (issue 27): writes and deletes are gated by path, every edit pauses (a draft's too). No named case
    edits a file outside /policies/."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": True, "delete": gate},
                             checkpointer=checkpointer)


def wrong_own_saver(model, checkpointer):
    """Wrong (issue 27): a saver of its own instead of the one given. The same agent resumes its pause (every
    named case), but an agent built again on the given checkpointer (a restarted app) has no paused thread."""
    from langgraph.checkpoint.memory import InMemorySaver

    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate, "delete": gate},
                             checkpointer=InMemorySaver())


def wrong_subscripts_the_request(model, checkpointer):
    """Wrong: the `when` predicate treats the ToolCallRequest as the tool call dict (a TypeError at the pause)."""
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"],
                             when=lambda call: call["args"]["file_path"].startswith("/policies/"))
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate, "delete": gate},
                             checkpointer=checkpointer)


def _gated_by(when):
    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=when)
    return {"write_file": gate, "edit_file": gate, "delete": gate}


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
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate, "delete": gate})


def crashing_approve_only(model, checkpointer):
    """Crashes on reject: only 'approve' is allowed, so HumanInTheLoopMiddleware raises ValueError."""
    gate = InterruptOnConfig(allowed_decisions=["approve"], when=_is_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate}, checkpointer=checkpointer)


def crashing_bad_argument(model, checkpointer):
    """Crashes at once: a misspelt create_deep_agent argument."""
    return create_deep_agent(model=model, interupt_on={"write_file": True}, checkpointer=checkpointer)


_PAUSE, _APPROVE, _REJECT, _EDIT, _READ, _DRAFT, _SPELLING, _LOOKALIKE, _DELETE, _GENERATED = (
    "a write under /policies/ pauses before anything is written",
    "approved: the policy file is written",
    "rejected: the policy file is not written",
    "an edit of a policy file pauses too",
    "reading a policy file does not pause",
    "a write under /drafts/ does not pause",
    "a relative or non-canonical spelling of a policy path pauses too",
    "a path that only looks like a policy does not pause",
    "deleting a policy file pauses too",
    "agrees with the reference on generated runs",
)

POLICY_APPROVAL = AnswerSet(
    # One solution: each is compared with the checker's reference (the interrupt_on-with-when approach,
    # helpers.exercises.nb12.build_policy_agent) on 250 generated runs of a deep agent, about 20 s of CPU each;
    # with_when_predicate, the same approach written again, is exercised by tests/test_exercises_nb12.py.
    solutions={"permissions, delete gated by hand": with_permissions},
    wrong={
        "no gate": KnownWrong(wrong_no_gate, fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _SPELLING, _DELETE),
                              status="fail"),
        "every write": KnownWrong(wrong_every_write, fails=(_EDIT, _DRAFT, _SPELLING, _LOOKALIKE, _DELETE), status="fail"),
        "write_file only": KnownWrong(wrong_write_only, fails=(_EDIT, _SPELLING, _DELETE), status="fail"),
        "reads too": KnownWrong(wrong_reads_too, fails=(_READ,), status="fail"),
        "returns nothing": KnownWrong(wrong_returns_nothing, fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _READ, _DRAFT,
                                                                    _SPELLING, _LOOKALIKE), status="fail"),
        "no checkpointer": KnownWrong(wrong_no_checkpointer, fails=(_APPROVE, _REJECT), status="fail"),
        "subscripts the request": KnownWrong(wrong_subscripts_the_request,
                                             fails=(_PAUSE, _APPROVE, _REJECT, _EDIT, _DRAFT, _SPELLING, _LOOKALIKE,
                                                    _DELETE),
                                             status="fail"),
        "raw path prefix": KnownWrong(wrong_raw_prefix, fails=(_SPELLING,), status="fail"),
        "normpath without a leading slash": KnownWrong(wrong_normpath_only, fails=(_SPELLING,), status="fail"),
        "mentions policies": KnownWrong(wrong_substring, fails=(_LOOKALIKE,), status="fail"),
        "permission rule alone": KnownWrong(wrong_permissions_alone, fails=(_GENERATED,), status="fail"),
        "files directly in /policies/ only": KnownWrong(wrong_one_level, fails=(_GENERATED,), status="fail"),
        "every edit pauses": KnownWrong(wrong_every_edit, fails=(_GENERATED,), status="fail"),
        "a saver of its own": KnownWrong(wrong_own_saver, fails=(_GENERATED,), status="fail"),
    },
    crashing={"approve only": crashing_approve_only, "misspelt argument": crashing_bad_argument},
    answer_from=lambda body: lambda model, checkpointer: body(),
)
