"""Reference solutions, known-wrong and crashing answers for exercise 16.1 (flag tool descriptions)."""

from helpers.exercises.nb16 import INSTRUCTION_CUES
from helpers.exercises.registry import AnswerSet, KnownWrong


def flag_descriptions(tools):
    names = [t.name for t in tools]
    flagged = []
    for t in tools:
        text = t.description.lower()
        others = [n for n in names if n != t.name]
        if any(n.lower() in text for n in others) or any(cue in text for cue in INSTRUCTION_CUES):
            flagged.append(t.name)
    return flagged


def flag_with_sets(tools):
    names = {t.name.lower() for t in tools}
    return [t.name for t in tools
            if any(word in t.description.lower() for word in (names - {t.name.lower()}) | set(INSTRUCTION_CUES))]


def cues_only(tools):
    return [t.name for t in tools if any(cue in t.description.lower() for cue in INSTRUCTION_CUES)]


def case_sensitive(tools):
    names = [t.name for t in tools]
    return [t.name for t in tools
            if any(n in t.description for n in names if n != t.name) or any(c in t.description for c in INSTRUCTION_CUES)]


def any_tool_name(tools):
    names = [t.name for t in tools]
    return [t.name for t in tools
            if any(n in t.description for n in names) or any(c in t.description.lower() for c in INSTRUCTION_CUES)]


def other_names_as_written(tools):
    """Wrong (issue 27): lower-cases the description but not the other tools' names. Every hidden name was in
    lower case, so it passed them all; a tool named cancelOrder is never found."""
    names = [t.name for t in tools]
    return [t.name for t in tools
            if any(n in t.description.lower() for n in names if n != t.name)
            or any(c in t.description.lower() for c in INSTRUCTION_CUES)]


def sorted_names(tools):
    return sorted(flag_descriptions(tools))


def _answer_from(body):
    def answer(tools):
        return body()
    return answer


FLAG_DESCRIPTIONS = AnswerSet(
    solutions={"loops": flag_descriptions, "sets": flag_with_sets},
    wrong={
        "cue words only (the notebook's partner server passes)": KnownWrong(
            cues_only, fails=("a description that names another tool",), status="fail"),
        "case-sensitive": KnownWrong(case_sensitive, fails=("a cue in upper case",), status="fail"),
        "a tool naming itself is flagged": KnownWrong(any_tool_name, fails=("a tool that names itself",),
                                                      status="fail"),
        "other tools' names matched as written": KnownWrong(
            other_names_as_written, fails=("agrees with the reference on generated tool listings",), status="fail"),
        "sorted instead of the list's order": KnownWrong(sorted_names, fails=("clean tools and the list's order",),
                                                         status="fail"),
    },
    crashing={"subscripts a tool like a dict": lambda tools: [t["name"] for t in tools
                                                              if "ignore" in t["description"]]},
    answer_from=_answer_from,
)
