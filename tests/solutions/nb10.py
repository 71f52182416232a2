"""Reference solutions, known-wrong and crashing answers for exercise 10.1
(``helpers.exercises.nb10.CHECK_DECISIONS``: check a batched resume before you send it)."""

from __future__ import annotations

from helpers.exercises.registry import AnswerSet, KnownWrong


def check_decisions(request, decisions):
    """Reference: one decision per call, each allowed by its review config, an edit keeps its tool."""
    actions, configs = request["action_requests"], request["review_configs"]
    if not isinstance(decisions, list) or len(decisions) != len(actions):
        return [f"{len(actions)} gated call(s) need exactly {len(actions)} decision(s), in call order"]
    problems = []
    for number, (action, config, decision) in enumerate(zip(actions, configs, decisions), start=1):
        kind = decision.get("type") if isinstance(decision, dict) else None
        if kind not in config["allowed_decisions"]:
            problems.append(f"call {number}: {kind!r} is not one of {config['allowed_decisions']}")
        elif kind == "edit" and (decision.get("edited_action") or {}).get("name") != action["name"]:
            problems.append(f"call {number}: an edit must keep the tool {action['name']}")
    return problems


def check_decisions_by_name(request, decisions):
    """Reference: the review config looked up by the action's name (one config per gated tool)."""
    allowed = {c["action_name"]: set(c["allowed_decisions"]) for c in request["review_configs"]}
    actions = request["action_requests"]
    if len(decisions) != len(actions):
        return ["one decision per gated call"]
    bad = []
    for action, decision in zip(actions, decisions):
        if decision.get("type") not in allowed[action["name"]]:
            bad.append(f"{decision.get('type')} is not allowed for {action['name']}")
        elif decision["type"] == "edit" and decision["edited_action"]["name"] != action["name"]:
            bad.append("an edit may not change the tool")
    return bad


def wrong_counts_only(request, decisions):
    return [] if len(decisions) == len(request["action_requests"]) else ["wrong number of decisions"]


def wrong_any_known_type(request, decisions):
    """Wrong: accepts any of the four decision types, whatever the gate allows."""
    if len(decisions) != len(request["action_requests"]):
        return ["wrong number of decisions"]
    return [f"unknown {d['type']}" for d in decisions if d["type"] not in ("approve", "edit", "reject", "respond")]


def wrong_first_only(request, decisions):
    """Wrong: checks the number, then only the first decision."""
    if len(decisions) != len(request["action_requests"]):
        return ["wrong number of decisions"]
    if decisions[0]["type"] not in request["review_configs"][0]["allowed_decisions"]:
        return ["first decision not allowed"]
    return []


def wrong_trusts_edits(request, decisions):
    """Wrong: never looks at what an edit runs."""
    if len(decisions) != len(request["action_requests"]):
        return ["wrong number of decisions"]
    return [f"{d['type']} not allowed" for d, c in zip(decisions, request["review_configs"])
            if d["type"] not in c["allowed_decisions"]]


def wrong_refuses_edits(request, decisions):
    """Wrong: refuses every edit, even one that keeps the tool."""
    problems = check_decisions(request, decisions)
    return problems + [f"no edits: {d['type']}" for d in decisions if d.get("type") == "edit"]


def wrong_everything_is_a_problem(request, decisions):
    return ["not checked"]


def wrong_clears_the_decisions(request, decisions):
    """Wrong: empties the list it was given (the app would then send no decision at all)."""
    problems = check_decisions(request, decisions)
    decisions.clear()
    return problems


def crashing_reads_every_edit(request, decisions):
    return [d["edited_action"]["name"] for d in decisions]


CHECK_DECISIONS = AnswerSet(
    solutions={"review configs by position": check_decisions, "review configs by tool name": check_decisions_by_name},
    wrong={
        "counts only": KnownWrong(wrong_counts_only, fails=("a decision the gate does not allow is refused",
                                                             "a misspelt decision type is refused",
                                                             "an edit that changes the tool is refused"),
                                  status="fail"),
        "any known type": KnownWrong(wrong_any_known_type, fails=("a decision the gate does not allow is refused",
                                                                   "the second decision is checked too"),
                                     status="fail"),
        "first decision only": KnownWrong(wrong_first_only, fails=("the second decision is checked too",),
                                          status="fail"),
        "trusts edits": KnownWrong(wrong_trusts_edits, fails=("an edit that changes the tool is refused",),
                                   status="fail"),
        "refuses every edit": KnownWrong(wrong_refuses_edits, fails=("an edit that keeps the tool is safe",),
                                         status="fail"),
        "everything is a problem": KnownWrong(wrong_everything_is_a_problem,
                                              fails=("one approval for one call is safe",), status="fail"),
        "clears the decisions": KnownWrong(wrong_clears_the_decisions,
                                           fails=("one approval for one call is safe",), status="fail"),
    },
    crashing={"reads every decision's edited_action": crashing_reads_every_edit},
    answer_from=lambda body: lambda request, decisions: body(),
)
