"""Reference predictions and known-wrong predictions for exercise 05.1 (predict, then run).

Each answer is ``predict(returns, called) -> label`` (``helpers.exercises.nb05``: ``returns`` is a name of
``RETURNS`` or a list of names of ``ITEMS``; ``called`` a name of ``CALLS``).
"""

from helpers.exercises import nb05
from helpers.exercises.registry import AnswerSet, KnownWrong

#: The labels of the eight cases on the pinned versions.
SOLUTION = {
    "a": "ToolMessage",
    "b": "raw",
    "c": "error",
    "d": "error",
    "e": "raw",
    "f": "ToolMessage",
    "g": "ToolMessage",
    "h": "raw",
}

MIXINS = ("Command", "RefundReceipt")  # the ToolOutputMixin subclasses among the names


def predict(returns, called):
    """The rules of notebook 05, sections 3 and 5."""
    if called == "ToolCall without type":
        return "error"  # the dict is taken for the arguments: validation fails
    if called == "plain arguments":
        return "Command" if returns == "Command" else "raw"  # the value itself (a tuple tool: its content)
    if isinstance(returns, list):
        passes = bool(returns) and all(item in MIXINS for item in returns)
    else:
        passes = returns in MIXINS
    if called == "ToolCall":
        if not passes:
            return "ToolMessage"
        return "Command" if returns == "Command" else "raw"
    return "error" if passes else "ToolMessage"  # ToolNode: only a ToolMessage it can pair with the call


def predict_by_table(returns, called):
    """The same rules as a table, one row per way of calling."""
    mixin = (isinstance(returns, list) and returns != [] and set(returns) <= set(MIXINS)) or returns in MIXINS
    row = {
        "ToolCall": ("Command" if returns == "Command" else "raw") if mixin else "ToolMessage",
        "ToolNode": "error" if mixin else "ToolMessage",
        "ToolCall without type": "error",
        "plain arguments": "Command" if returns == "Command" else "raw",
    }
    return row[called]


def _with(**changes):
    """``predict`` with the labels of some cases changed (each a mistake the case's explanation corrects)."""
    def answer(returns, called):
        for cid, label in changes.items():
            if nb05.CASE_INPUTS[cid] == (tuple(returns) if isinstance(returns, list) else returns, called):
                return label
        return predict(returns, called)
    return answer


#: "everything a tool returns becomes a ToolMessage"
def wrong_always_toolmessage(returns, called):
    return "ToolMessage"


#: the marker is taken for a contract with ToolNode, and the look-alike dict for a ToolCall
WRONG_MIXIN_IS_A_CONTRACT = _with(c="raw", d="ToolMessage")
#: a list of Commands is taken for a Command
WRONG_LIST_IS_A_COMMAND = _with(e="Command")
#: "a list that starts with a Command passes through too" (the all-items rule is missed)
WRONG_MIXED_LIST_PASSES = _with(f="raw")
#: "(content, artifact) comes back as the tuple" / "plain args still build a ToolMessage with the artifact"
WRONG_ARTIFACT_TUPLE = _with(g="raw", h="ToolMessage")
#: a label that does not exist
WRONG_UNKNOWN_LABEL = _with(a="json")


def wrong_eight_answers(returns, called):
    """Issue 27: the eight cases learnt by heart, "ToolMessage" for anything else."""
    key = (tuple(returns) if isinstance(returns, list) else returns, called)
    for cid, case in nb05.CASE_INPUTS.items():
        if case == key:
            return SOLUTION[cid]
    return "ToolMessage"


def wrong_empty_list_passes(returns, called):
    """``all()`` of an empty list is True: an empty list is taken to pass through (BaseTool wants a non-empty one)."""
    if isinstance(returns, list) and not returns and called == "ToolCall":
        return "raw"
    return predict(returns, called)


def wrong_plain_command_raw(returns, called):
    """With plain arguments "nothing is wrapped, so it is raw": a Command returned alone is still a Command."""
    return "raw" if called == "plain arguments" else predict(returns, called)


def crashing(returns, called):
    return {"ToolCall": "ToolMessage"}[called]  # KeyError for any other way of calling


def _cases(ids: str) -> tuple[str, ...]:
    """The case names of case ids ``"cd"``: ``("case c (...)", "case d (...)")``."""
    return tuple(f"case {cid} ({nb05.TITLES[cid]})" for cid in ids)


GENERATED = "agrees with the real run on generated calls"

PREDICT_THEN_RUN = AnswerSet(
    solutions={"the rules of sections 3 and 5": predict, "one row per way of calling": predict_by_table},
    wrong={
        "always ToolMessage": KnownWrong(wrong_always_toolmessage, fails=_cases("bcdeh"), status="fail"),
        "the mixin is a contract": KnownWrong(WRONG_MIXIN_IS_A_CONTRACT, fails=_cases("cd"), status="fail"),
        "a list of Commands is a Command": KnownWrong(WRONG_LIST_IS_A_COMMAND, fails=_cases("e"), status="fail"),
        "a mixed list passes through": KnownWrong(WRONG_MIXED_LIST_PASSES, fails=_cases("f"), status="fail"),
        "the artifact tuple comes back": KnownWrong(WRONG_ARTIFACT_TUPLE, fails=_cases("gh"), status="fail"),
        "a label that does not exist": KnownWrong(WRONG_UNKNOWN_LABEL, fails=_cases("a"), status="fail"),
        # each passes every named case; only the generated calls catch it
        "the eight cases by heart": KnownWrong(wrong_eight_answers, fails=(GENERATED,), status="fail"),
        "an empty list passes through": KnownWrong(wrong_empty_list_passes, fails=(GENERATED,), status="fail"),
        "plain arguments: a Command is raw too": KnownWrong(wrong_plain_command_raw, fails=(GENERATED,),
                                                            status="fail"),
    },
    crashing={"a lookup that raises": crashing},
    answer_from=lambda body: lambda returns, called: body(),
)
