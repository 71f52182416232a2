"""Reference predictions and known-wrong predictions for exercise 05.1 (predict, then run)."""

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

WRONG = [WRONG_ALWAYS_TOOLMESSAGE, WRONG_MIXIN_IS_A_CONTRACT, WRONG_LIST_IS_A_COMMAND, WRONG_MIXED_LIST_PASSES,
         WRONG_ARTIFACT_TUPLE, WRONG_UNKNOWN_LABEL]


class CrashingPredictions(dict):
    """A dict whose lookups raise: the check must report an error, not raise."""

    def __getitem__(self, key):
        raise RuntimeError("prediction lookup failed")


def crashing():
    return CrashingPredictions(SOLUTION)
