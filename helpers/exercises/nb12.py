"""Exercises of notebook 12 (the Deep Agents control plane): a deep agent whose policy writes need approval.

``POLICY_APPROVAL`` (12.1) takes the learner's ``build_policy_agent(model, checkpointer)``, which
returns a deep agent (``deepagents.create_deep_agent``, deepagents 0.7.32) configured so that
every change to a file under ``/policies/`` (``write_file``, ``edit_file`` and ``delete``, which
removes a folder with everything in it) waits for a person's approval, while reads and changes
elsewhere run at once. :func:`build_policy_agent` is the reference (the specification).

Each hidden check builds a fresh agent with a fresh :class:`~helpers.model.ScriptedChatModel`
(the model's move is the check's fixture: one tool call, then a closing text) and a fresh
``InMemorySaver``, starts a thread with one policy file already in the ``files`` state, and then
looks at what happened: did the run pause (``GraphOutput.interrupts``, ``invoke(...,
version="v2")``), which action was put up for review, and what ``state["files"]`` holds after
``Command(resume={"decisions": [{"type": "approve"}]})`` or a ``reject`` decision (the resume
shape of ``langchain.agents.middleware.HumanInTheLoopMiddleware``, langchain 1.5.2).
The checks read the default ``StateBackend``'s ``files`` state, so the agent must keep it.

The model may spell a policy path in other ways: the file tools store a path as
``deepagents.backends.utils.validate_path`` gives it (``os.path.normpath``, backslashes made
``/``, a leading ``/`` added), so ``policies/returns.md`` and ``/./policies/returns.md`` write
``/policies/returns.md``. ``//policies/returns.md`` keeps its two slashes (POSIX ``normpath``
does), but deepagents' own permission rules count it as under ``/policies/`` (and a disk
backend writes it there). The hidden checks send such spellings, and paths that only look like
a policy (``/drafts/policies/...``, ``/policies-old/...``), which must not pause.

The generated check (:data:`RUNS`, :func:`generated_outcome`) compares the answer's agent with the
reference's on runs where the scripted model makes one to five file-tool calls in one turn (from
:data:`CALLS`: policies at any depth and in any spelling, ``delete`` of ``/policies``, ``/`` and
``//``, reads, other folders, lookalikes), the reviewer approves or rejects each pause, and the
thread is resumed by the same agent or by a new one built on the same checkpointer (an app that
restarted). deepagents' own ``FilesystemPermission`` rule fails one of them: its ``delete`` gate
does not read ``//`` as ``/``, and ``StateBackend.delete("//")`` removes every file.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ..i18n import N_, _
from ..model import tool_call
from .core import Case, Exercise, Generated
from .results import clipped, shown

__all__ = ["CALLS", "CURRENT_POLICY", "LOOKALIKES", "POLICY_APPROVAL", "POLICY_FILE", "POLICY_SPELLINGS", "RUNS",
           "START_FILES", "build_policy_agent", "changes_a_policy", "generated_outcome", "start_thread"]

#: The policy file every check starts with (in the ``files`` state), and its content.
POLICY_FILE = "/policies/refunds.md"
CURRENT_POLICY = "Refunds within 30 days of delivery.\n"
_NEW_POLICY = "/policies/returns.md"
_NEW_TEXT = "Returns are free for faulty items.\n"
_DRAFT = "/drafts/returns-idea.md"
_CLOSING = "Done."
#: Spellings of a policy path that the file tools write under /policies/ (or that deepagents' own
#: permission rules put there), most telling first.
POLICY_SPELLINGS = ("policies/returns.md", "./policies/returns.md", "/./policies/returns.md",
                    "//policies/returns.md", "\\policies\\returns.md")
#: Paths that only look like a policy: they must not pause.
LOOKALIKES = ("/drafts/policies/returns.md", "/policies-old/returns.md", "/policies.md")
_NORMALISE = N_(
    "the file tools store a path as deepagents.backends.utils.validate_path gives it (os.path.normpath, "
    "backslashes made '/', a leading '/' added; deepagents' permission rules also read a leading '//' as '/'), "
    "so normalise the path that way before you test it"
)


def _initial_files() -> dict[str, Any]:
    from deepagents.backends.utils import create_file_data

    return {POLICY_FILE: create_file_data(CURRENT_POLICY)}


def _invoke(agent: Any, *args: Any, **kwargs: Any) -> Any:
    """``agent.invoke(...)``, with the usual slip in a ``when`` predicate turned into a hint.

    ``InterruptOnConfig(when=...)`` receives a ``ToolCallRequest`` (langchain 1.5.2), not the tool
    call dict, so ``call["args"]`` raises ``TypeError: 'ToolCallRequest' object is not subscriptable``.
    """
    try:
        return agent.invoke(*args, **kwargs)
    except TypeError as exc:
        if "ToolCallRequest" in str(exc) and "subscriptable" in str(exc):
            raise AssertionError(
                _("your `when` predicate raised TypeError: {exc}: it receives a ToolCallRequest, not the tool call; "
                  "read the call's arguments as request.tool_call['args']").format(exc=clipped(exc, 300))
            ) from None
        raise


def _built(agent: Any) -> Any:
    assert hasattr(agent, "invoke"), (
        _("build_policy_agent must return the agent that create_deep_agent(...) builds, got {type}").format(
            type=type(agent).__name__)
    )
    return agent


def start_thread(answer: Any, call: dict[str, Any], thread: str) -> tuple[Any, dict, Any]:
    """Build the learner's agent on a scripted model that makes ``call`` and then says "Done.", and start it.

    Args:
        answer: the learner's ``build_policy_agent(model, checkpointer)``.
        call: the tool call the scripted model makes first (from :func:`helpers.tool_call`).
        thread: the ``thread_id`` to run on.

    Returns:
        ``(agent, config, out)`` where ``out`` is the ``GraphOutput`` of the first ``invoke``
        (``version="v2"``), started with the policy file of :data:`POLICY_FILE` in ``files``.

    Raises:
        AssertionError: the answer did not return something with ``invoke``.
    """
    from langgraph.checkpoint.memory import InMemorySaver

    from ..model import scripted_model

    model = scripted_model([[call], _CLOSING])
    agent = _built(answer(model, InMemorySaver()))
    config = {"configurable": {"thread_id": thread}}
    request = {"messages": [{"role": "user", "content": f"Please handle {call['args'].get('file_path')}."}],
               "files": _initial_files()}
    out = _invoke(agent, request, config, version="v2")
    return agent, config, out


def _files(out: Any) -> dict[str, str]:
    return {path: data.get("content") for path, data in (out.value.get("files") or {}).items()}


def _gated_actions(out: Any) -> list[tuple[str, Any]]:
    actions = []
    for pending in out.interrupts:
        value = pending.value if isinstance(pending.value, dict) else {}
        actions += [(a.get("name"), (a.get("args") or {}).get("file_path")) for a in value.get("action_requests", [])]
    return actions


def _assert_paused_for(out: Any, name: str, path: str) -> None:
    assert out.interrupts, (
        _("the {name} of {path} ran without a pause: gate {name} for paths under /policies/ (interrupt_on=... "
          "with a `when` predicate, or permissions=[FilesystemPermission(..., mode='interrupt')])").format(
              name=name, path=path)
    )
    assert _gated_actions(out) == [(name, path)], (
        _("the pause should put up one action, {name} on {path}; it put up {gated_actions}").format(
            name=name, path=path, gated_actions=shown(_gated_actions(out)))
    )


def _assert_ran_without_pause(out: Any, name: str, path: str) -> None:
    assert not out.interrupts, (
        _("the {name} of {path} paused for approval ({gated_actions}), but only changes under /policies/ need "
          "a person: gate by path, not every call of the tool").format(
              name=name, path=path, gated_actions=shown(_gated_actions(out)))
    )


def _assert_can_resume(agent: Any) -> None:
    assert getattr(agent, "checkpointer", None) is not None, (
        _("the agent has no checkpointer, so the pause cannot be resumed: pass checkpointer=checkpointer to create_deep_agent")
    )


def _resume(agent: Any, config: dict, decision: dict) -> Any:
    from langgraph.types import Command

    return _invoke(agent, Command(resume={"decisions": [decision]}), config, version="v2")


def _write_pauses(answer) -> None:
    _agent, _config, out = start_thread(answer, tool_call("write_file", {"file_path": _NEW_POLICY, "content": _NEW_TEXT}), "check-pause")
    _assert_paused_for(out, "write_file", _NEW_POLICY)
    assert _NEW_POLICY not in _files(out), _("the file was written before anyone approved it")


def _approve_writes(answer) -> None:
    agent, config, out = start_thread(answer, tool_call("write_file", {"file_path": _NEW_POLICY, "content": _NEW_TEXT}),
                                      "check-approve")
    _assert_paused_for(out, "write_file", _NEW_POLICY)
    _assert_can_resume(agent)
    out = _resume(agent, config, {"type": "approve"})
    assert not out.interrupts, _("after the approval the run paused again: {gated_actions}").format(
        gated_actions=shown(_gated_actions(out)))
    files = _files(out)
    assert files.get(_NEW_POLICY) == _NEW_TEXT, (
        _("after the approval {path} should hold {text!r}; files are {files}").format(
            path=_NEW_POLICY, text=_NEW_TEXT, files=shown(files))
    )


def _reject_keeps_out(answer) -> None:
    agent, config, out = start_thread(answer, tool_call("write_file", {"file_path": _NEW_POLICY, "content": _NEW_TEXT}),
                                      "check-reject")
    _assert_paused_for(out, "write_file", _NEW_POLICY)
    _assert_can_resume(agent)
    out = _resume(agent, config, {"type": "reject", "message": "Not approved by the refund lead."})
    files = _files(out)
    assert _NEW_POLICY not in files, _("the reviewer rejected the write, yet {path} exists: {files}").format(
        path=_NEW_POLICY, files=shown(files))
    answers = [m for m in out.value["messages"] if getattr(m, "type", "") == "tool"]
    assert answers and answers[-1].status == "error", (
        _("a rejected call is answered with an error ToolMessage; the last ToolMessage is {status}").format(
            status=clipped(answers[-1].status) if answers else _('missing'))
    )


def _change_pauses(answer: Any, call: dict, thread: str, ran_unpaused: str, changed_early: str) -> None:
    """``call`` changes :data:`POLICY_FILE`: the run must pause for it and leave the file as it was."""
    _agent, _config, out = start_thread(answer, call, thread)
    assert out.interrupts, ran_unpaused
    _assert_paused_for(out, call["name"], POLICY_FILE)
    assert _files(out).get(POLICY_FILE) == CURRENT_POLICY, changed_early


def _edit_pauses(answer) -> None:
    _change_pauses(
        answer, tool_call("edit_file", {"file_path": POLICY_FILE, "old_string": "30 days", "new_string": "14 days"}),
        "check-edit",
        _("the edit_file of {policy_file} ran without a pause: edit_file changes a policy as much as "
          "write_file does, so gate it too (by path)").format(policy_file=POLICY_FILE),
        _("the policy was edited before anyone approved it"))


def _delete_pauses(answer) -> None:
    _change_pauses(
        answer, tool_call("delete", {"file_path": POLICY_FILE}), "check-delete",
        _("the delete of {policy_file} ran without a pause: deleting a policy changes it as much as writing it, so "
          "gate delete too (by path)").format(policy_file=POLICY_FILE),
        _("the policy was deleted before anyone approved it"))


def _read_runs(answer) -> None:
    _agent, _config, out = start_thread(answer, tool_call("read_file", {"file_path": POLICY_FILE}), "check-read")
    _assert_ran_without_pause(out, "read_file", POLICY_FILE)
    answers = [m for m in out.value["messages"] if getattr(m, "type", "") == "tool"]
    assert answers and "30 days" in str(answers[-1].content), (
        _("read_file should return the policy text; the ToolMessage says {content}").format(
            content=shown(answers[-1].content if answers else 'nothing'))
    )


def _draft_runs(answer) -> None:
    _agent, _config, out = start_thread(answer, tool_call("write_file", {"file_path": _DRAFT, "content": "idea\n"}), "check-draft")
    _assert_ran_without_pause(out, "write_file", _DRAFT)
    assert _files(out).get(_DRAFT) == "idea\n", _("the draft should be written at once; files are {files}").format(
        files=shown(_files(out)))


def _spellings_pause(answer) -> None:
    for number, spelling in enumerate(POLICY_SPELLINGS):
        _agent, _config, out = start_thread(answer, tool_call("write_file", {"file_path": spelling, "content": _NEW_TEXT}),
                                 f"check-spelling-{number}")
        written = sorted(set(_files(out)) - {POLICY_FILE})
        assert out.interrupts, (
            _("write_file with file_path {spelling} ran without a pause and wrote {written}: {advice}").format(
                spelling=shown(spelling), written=shown(written), advice=_(_NORMALISE))
        )
        assert not written, _("with file_path {spelling} a file was written before anyone approved it").format(
            spelling=shown(spelling))
    edit = tool_call("edit_file", {"file_path": POLICY_FILE.lstrip("/"), "old_string": "30 days",
                                   "new_string": "14 days"})
    _agent, _config, out = start_thread(answer, edit, "check-spelling-edit")
    assert out.interrupts and _files(out).get(POLICY_FILE) == CURRENT_POLICY, (
        _("edit_file with file_path {spelling!r} changed {policy_file} without a pause; {advice}").format(
            spelling=POLICY_FILE.lstrip('/'), policy_file=POLICY_FILE, advice=_(_NORMALISE))
    )


def _lookalikes_run(answer) -> None:
    for number, path in enumerate(LOOKALIKES):
        _agent, _config, out = start_thread(answer, tool_call("write_file", {"file_path": path, "content": "idea\n"}),
                                 f"check-lookalike-{number}")
        assert not out.interrupts, (
            _("the write_file of {path} paused for approval, but it is not under /policies/: test the folder (the "
              "normalised path starts with '/policies/'), not whether the word 'policies' appears").format(path=path)
        )
        assert _files(out).get(path) == "idea\n", _("{path} should be written at once; files are {files}").format(
            path=path, files=shown(_files(out)))


# -- the reference and the generated runs ---------------------------------------------------------------------------


def changes_a_policy(request: Any) -> bool:
    """The reference's ``when`` predicate: does this file-tool call change something under ``/policies/``?

    Args:
        request: the ``ToolCallRequest`` that ``HumanInTheLoopMiddleware`` passes (langchain 1.5.2); its
            ``tool_call`` holds the tool's ``name`` and ``args["file_path"]``.

    Returns:
        True when the path, as the file tools store it (``deepagents.backends.utils.validate_path``, a leading
        ``//`` read as ``/`` like deepagents' permission rules and a disk backend read it), is under
        ``/policies/``; for ``delete``, which removes a folder with everything in it, also when it is
        ``/policies`` itself or a folder above it (the root). False for a path the tools refuse (``..``).
    """
    from deepagents.backends.utils import validate_path

    try:
        path = validate_path(str(request.tool_call["args"].get("file_path", "")))
    except ValueError:
        return False  # a traversal or a Windows path: the tool refuses it and changes nothing
    path = "/" + path.lstrip("/")
    if request.tool_call["name"] == "delete" and "/policies/".startswith(path.rstrip("/") + "/"):
        return True
    return path.startswith("/policies/")


def build_policy_agent(model: Any, checkpointer: Any) -> Any:
    """The reference answer of 12.1 (the specification): ``write_file``, ``edit_file`` and ``delete`` pause
    when :func:`changes_a_policy` says so; reads and every other path run at once.

    Args:
        model: the chat model the agent calls.
        checkpointer: the saver that keeps a paused thread (an agent built later on it resumes the pause).

    Returns:
        the compiled deep agent (``create_deep_agent``, deepagents 0.7.32; files in the default
        ``StateBackend``).
    """
    from deepagents import create_deep_agent
    from langchain.agents.middleware import InterruptOnConfig

    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=changes_a_policy)
    return create_deep_agent(model=model, interrupt_on={"write_file": gate, "edit_file": gate, "delete": gate},
                             checkpointer=checkpointer)


#: The files every generated run starts with (``files`` state), each holding :data:`_START_TEXT`.
START_FILES = ("/policies/refunds.md", "/policies/archive/2024.md", "/drafts/refunds.md",
               "/drafts/policies/refunds.md", "/policies-old/refunds.md")
#: ``(tool, path as the model spells it)`` of a generated call: under /policies/ at any depth and in any spelling,
#: a delete of /policies or of the root (``/``, ``//``: a delete removes a folder with everything in it), reads,
#: and paths elsewhere or that only look like a policy. The shrinker goes towards the first.
CALLS = (
    ("write_file", "/policies/returns.md"), ("delete", "//"), ("edit_file", "/drafts/refunds.md"),
    ("write_file", "/policies/archive/2025.md"), ("read_file", "/policies/refunds.md"),
    ("edit_file", "/policies/refunds.md"), ("delete", "/policies/refunds.md"), ("write_file", "/drafts/returns.md"),
    ("delete", "/policies"), ("delete", "/drafts/refunds.md"), ("edit_file", "policies/archive/2024.md"),
    ("delete", "/"), ("write_file", "/drafts/policies/returns.md"), ("delete", "./policies/"),
    ("edit_file", "drafts/policies/refunds.md"), ("write_file", "\\policies\\archive\\2025.md"),
    ("delete", "/drafts"), ("edit_file", "/./policies/refunds.md"), ("write_file", "/policies-old/returns.md"),
    ("delete", "/policies-old"), ("write_file", "/policies.md"), ("read_file", "/drafts/refunds.md"),
    ("edit_file", "//policies/archive/2024.md"),
)
_NEW_RULE = "new\n"
_START_TEXT = "30 days\n"


def _arguments(tool: str, path: str) -> dict[str, str]:
    if tool == "write_file":
        return {"file_path": path, "content": _NEW_RULE}
    if tool == "edit_file":
        return {"file_path": path, "old_string": "30", "new_string": "14"}
    return {"file_path": path}


#: A generated run: ``(calls, resumed by a new agent)``; ``calls``: one to four ``((tool, path), decision)`` the
#: model makes in one turn, ``decision`` the reviewer's answer if that call pauses.
RUNS = st.tuples(
    st.lists(st.tuples(st.sampled_from(CALLS), st.sampled_from(("approve", "reject"))), min_size=1, max_size=5,
             unique_by=lambda call: call[0]).map(tuple),
    st.booleans())


def _changes(out: Any) -> dict[str, str | None]:
    """What the run changed in ``files``: ``{path: content now, or None when deleted}``."""
    files = _files(out)
    changed: dict[str, str | None] = {path: None for path in START_FILES if path not in files}
    changed.update({path: content for path, content in files.items() if path not in START_FILES or
                    content != _START_TEXT})
    return dict(sorted(changed.items()))


def _decisions(out: Any, calls: tuple, made: list[dict]) -> list[dict]:
    """One decision per action put up: the spec's decision of the call it names (approve when none does)."""
    left = list(zip(made, calls))
    decisions = []
    for pending in out.interrupts:
        value = pending.value if isinstance(pending.value, dict) else {}
        for action in value.get("action_requests", []):
            match = next((pair for pair in left if (pair[0]["name"], pair[0]["args"]) ==
                          (action.get("name"), action.get("args"))), None)
            decision = match[1][1] if match else "approve"
            if match:
                left.remove(match)
            decisions.append({"type": "approve"} if decision == "approve" else
                             {"type": "reject", "message": "Not approved by the refund lead."})
    return decisions


def generated_outcome(answer: Any, spec: tuple) -> dict[str, Any]:
    """Run one generated spec (:data:`RUNS`) on a fresh agent built by ``answer``.

    The scripted model makes the spec's calls in one turn, then says "Done."; the thread starts with
    :data:`START_FILES`. Each action a pause puts up gets the spec's decision; the thread is resumed by the
    same agent or by a new one that ``answer`` builds on the same checkpointer (a restarted app).

    Returns:
        ``{"paused_for": [], "changed": {path: content, or None when deleted}}`` when nothing paused, else
        ``{"paused_for": [(tool, path as sent), ...], "changed_at_pause": {...}, "changed_after": {...},
        "paused_again": [...]}``.

    Raises:
        AssertionError: the answer returned no agent, or a new agent on the same checkpointer does not see
            the paused thread.
    """
    from deepagents.backends.utils import create_file_data
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from ..model import scripted_model

    calls, new_agent = spec
    made = [tool_call(tool, _arguments(tool, path), f"call_{number}")
            for number, ((tool, path), _decision) in enumerate(calls, 1)]
    checkpointer = InMemorySaver()
    agent = _built(answer(scripted_model([made, _CLOSING]), checkpointer))
    config = {"configurable": {"thread_id": "generated"}}
    start = {"messages": [{"role": "user", "content": "Please tidy up the refund rules."}],
             "files": {path: create_file_data(_START_TEXT) for path in START_FILES}}
    out = _invoke(agent, start, config, version="v2")
    if not out.interrupts:
        return {"paused_for": [], "changed": _changes(out)}
    outcome = {"paused_for": _gated_actions(out), "changed_at_pause": _changes(out)}
    decisions = _decisions(out, calls, made)
    if new_agent:
        agent = _built(answer(scripted_model([_CLOSING]), checkpointer))
        assert agent.get_state(config).next, (
            _("a new agent that your function built on the same checkpointer does not see the paused thread: "
              "pass checkpointer=checkpointer to create_deep_agent (an agent of its own saver loses every "
              "pause when the app restarts)"))
    out = _invoke(agent, Command(resume={"decisions": decisions}), config, version="v2")
    return {**outcome, "changed_after": _changes(out), "paused_again": _gated_actions(out)}


def _describe_run(spec: tuple) -> str:
    calls, new_agent = spec
    made = ", ".join(f"{tool}({path!r}): {decision}" for (tool, path), decision in calls)
    who = _("a new agent, built by your function on the same checkpointer,") if new_agent else _("the same agent")
    return _("the model calls, in one turn, {calls} (each with the reviewer's answer if it pauses), on a thread "
             "that starts with five files ({policies} among them); {who} resumes the thread").format(
                 calls=made, policies=", ".join(path for path in START_FILES if path.startswith("/policies/")),
                 who=who)


def _probe(answer) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from ..model import scripted_model

    answer(scripted_model([]), InMemorySaver())


POLICY_APPROVAL = Exercise(
    "12.1",
    "policy writes need a person's approval",
    [
        Case("a write under /policies/ pauses before anything is written", _write_pauses),
        Case("approved: the policy file is written", _approve_writes),
        Case("rejected: the policy file is not written", _reject_keeps_out),
        Case("an edit of a policy file pauses too", _edit_pauses),
        Case("reading a policy file does not pause", _read_runs),
        Case("a write under /drafts/ does not pause", _draft_runs),
        Case("a relative or non-canonical spelling of a policy path pauses too", _spellings_pause),
        Case("a path that only looks like a policy does not pause", _lookalikes_run),
        Case("deleting a policy file pauses too", _delete_pauses),
    ],
    probe=_probe,
    # A case builds up to six deep agents (the spelling case); on a loaded 2-core machine one build can take
    # seconds, so the deadline (which only ever matters for an endless loop) is longer than the default 5 s.
    timeout=30,
    generated=Generated(
        "agrees with the reference on generated runs", RUNS, generated_outcome, build_policy_agent, _describe_run,
        hint=N_("gate write_file, edit_file and delete by the path the tool will change (as validate_path gives it, "
                "a leading '//' read as '/'): a file under /policies/ at any depth pauses, and so does a delete of "
                "/policies itself or of a folder above it; reads and other folders run at once. Pass on the "
                "checkpointer you are given, so that an agent built later on it can resume the pause"),
        examples=8, shrinks=12),
)
