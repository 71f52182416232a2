"""Reference predictions and known-wrong predictions for exercise 05.1 (predict, then run)."""

from helpers.exercises import nb05
from helpers.exercises.registry import AnswerSet, KnownWrong

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

#: "everything a tool returns becomes a ToolMessage"
WRONG_ALWAYS_TOOLMESSAGE = {cid: "ToolMessage" for cid in SOLUTION}

#: the marker is taken for a contract with ToolNode, and the look-alike dict for a ToolCall
WRONG_MIXIN_IS_A_CONTRACT = {**SOLUTION, "c": "raw", "d": "ToolMessage"}

#: a list of Commands is taken for a Command
WRONG_LIST_IS_A_COMMAND = {**SOLUTION, "e": "Command"}

#: "a list that starts with a Command passes through too" (the all-items rule is missed)
WRONG_MIXED_LIST_PASSES = {**SOLUTION, "f": "raw"}

#: "(content, artifact) comes back as the tuple" / "plain args still build a ToolMessage with the artifact"
WRONG_ARTIFACT_TUPLE = {**SOLUTION, "g": "raw", "h": "ToolMessage"}

#: a label that does not exist
WRONG_UNKNOWN_LABEL = {**SOLUTION, "a": "json"}

class CrashingPredictions(dict):
    """A dict whose lookups raise: the check must report an error, not raise."""

    def __getitem__(self, key):
        raise RuntimeError("prediction lookup failed")


def crashing():
    return CrashingPredictions(SOLUTION)


def _cases(ids: str) -> tuple[str, ...]:
    """The case names of case ids ``"cd"``: ``("case c (...)", "case d (...)")``."""
    return tuple(f"case {cid} ({nb05.TITLES[cid]})" for cid in ids)


class _Predictions(dict):
    """Predictions whose every lookup runs ``body()``."""

    def __init__(self, body):
        super().__init__({cid: "raw" for cid in nb05.CASES})  # filled in: not the stub
        self.body = body

    def __getitem__(self, key):
        return self.body()

    def get(self, key, default=None):
        return self.body()


def answer_from(body):
    """A dict of predictions whose lookups run ``body()`` (for the contract test's hostile answers)."""
    return _Predictions(body)


PREDICT_THEN_RUN = AnswerSet(
    solutions={"the pinned versions' outcomes": SOLUTION},
    wrong={
        "always ToolMessage": KnownWrong(WRONG_ALWAYS_TOOLMESSAGE, fails=_cases("bcdeh"), status="fail"),
        "the mixin is a contract": KnownWrong(WRONG_MIXIN_IS_A_CONTRACT, fails=_cases("cd"), status="fail"),
        "a list of Commands is a Command": KnownWrong(WRONG_LIST_IS_A_COMMAND, fails=_cases("e"), status="fail"),
        "a mixed list passes through": KnownWrong(WRONG_MIXED_LIST_PASSES, fails=_cases("f"), status="fail"),
        "the artifact tuple comes back": KnownWrong(WRONG_ARTIFACT_TUPLE, fails=_cases("gh"), status="fail"),
        "a label that does not exist": KnownWrong(WRONG_UNKNOWN_LABEL, fails=_cases("a"), status="fail"),
    },
    crashing={"lookups raise": crashing()},
    answer_from=answer_from,
)
