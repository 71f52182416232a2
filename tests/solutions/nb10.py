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


def wrong_first_config_for_all(request, decisions):
    """Wrong (issue 27): the first call's review config read for every call. Every named pause gates one tool,
    so each call's config is the same; a store-credit call after a refund call is allowed an edit."""
    allowed = request["review_configs"][0]["allowed_decisions"]
    actions = request["action_requests"]
    if len(decisions) != len(actions):
        return ["one decision per gated call"]
    return [f"{d['type']} is not allowed" for d in decisions if d["type"] not in allowed] + \
        [f"an edit must keep the tool {a['name']}" for a, d in zip(actions, decisions)
         if d["type"] == "edit" and d["edited_action"]["name"] != a["name"]]


def wrong_edit_names_any_gated_tool(request, decisions):
    """Wrong (issue 27): an edit may name any tool of the pause, not only its own call's. In every named pause
    the gated calls are one tool, so it passed; an edit of the refund into a store credit that is also paused
    runs the credit unreviewed."""
    actions, configs = request["action_requests"], request["review_configs"]
    if len(decisions) != len(actions):
        return ["one decision per gated call"]
    gated = {action["name"] for action in actions}
    return [f"{d['type']} is not allowed" for d, c in zip(decisions, configs) if d["type"] not in c["allowed_decisions"]] + \
        [f"an edit must name a gated tool" for d in decisions if d["type"] == "edit" and d["edited_action"]["name"] not in gated]


def wrong_too_many_decisions_pass(request, decisions):
    """Wrong (issue 27): 'one decision per call' read as 'at least one': the named cases send too few, never too
    many."""
    actions, configs = request["action_requests"], request["review_configs"]
    if len(decisions) < len(actions):
        return ["a decision is missing"]
    return [f"{d['type']} is not allowed" for d, c in zip(decisions, configs) if d["type"] not in c["allowed_decisions"]] + \
        [f"an edit must keep the tool" for a, d in zip(actions, decisions)
         if d["type"] == "edit" and d["edited_action"]["name"] != a["name"]]


def wrong_type_in_any_case(request, decisions):
    """Wrong (issue 27): the type compared in lower case, so 'Approve' passes; the middleware compares it as written
    and raises. The named cases misspell a type, never change its case."""
    actions, configs = request["action_requests"], request["review_configs"]
    if len(decisions) != len(actions):
        return ["one decision per gated call"]
    return [f"{d['type']} is not allowed" for d, c in zip(decisions, configs)
            if d["type"].lower() not in c["allowed_decisions"]] + \
        [f"an edit must keep the tool" for a, d in zip(actions, decisions)
         if d["type"] == "edit" and d["edited_action"]["name"] != a["name"]]


def crashing_reads_every_edit(request, decisions):
    return [d["edited_action"]["name"] for d in decisions]


_GENERATED = "agrees with the reference on generated pauses"

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
        "the first call's config for every call": KnownWrong(wrong_first_config_for_all, fails=(_GENERATED,),
                                                            status="fail"),
        "an edit may name any gated tool": KnownWrong(wrong_edit_names_any_gated_tool, fails=(_GENERATED,),
                                                      status="fail"),
        "too many decisions pass": KnownWrong(wrong_too_many_decisions_pass, fails=(_GENERATED,), status="fail"),
        "the type in any case": KnownWrong(wrong_type_in_any_case, fails=(_GENERATED,), status="fail"),
    },
    crashing={"reads every decision's edited_action": crashing_reads_every_edit},
    answer_from=lambda body: lambda request, decisions: body(),
)
