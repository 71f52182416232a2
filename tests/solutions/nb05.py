"""Reference predictions and known-wrong predictions for exercise 05.1 (predict, then run)."""

SOLUTION = {
    "a": "ToolMessage",
    "b": "raw",
    "c": "ToolMessage",
    "d": "Command",
    "e": "raw",
    "f": "error",
    "g": "error",
    "h": "raw",
}

#: "everything a tool returns becomes a ToolMessage"
WRONG_ALWAYS_TOOLMESSAGE = {cid: "ToolMessage" for cid in SOLUTION}

#: the marker is taken for a contract with ToolNode, and the look-alike dict for a ToolCall
WRONG_MIXIN_IS_A_CONTRACT = {**SOLUTION, "f": "raw", "g": "ToolMessage"}

#: "a Command comes back as text" and plain-args calls still get wrapped
WRONG_COMMAND_AS_TEXT = {**SOLUTION, "d": "ToolMessage", "b": "ToolMessage", "h": "ToolMessage"}

#: a label that does not exist
WRONG_UNKNOWN_LABEL = {**SOLUTION, "c": "json"}

WRONG = [WRONG_ALWAYS_TOOLMESSAGE, WRONG_MIXIN_IS_A_CONTRACT, WRONG_COMMAND_AS_TEXT, WRONG_UNKNOWN_LABEL]


class CrashingPredictions(dict):
    """A dict whose lookups raise: the check must report an error, not raise."""

    def __getitem__(self, key):
        raise RuntimeError("prediction lookup failed")


def crashing():
    return CrashingPredictions(SOLUTION)
