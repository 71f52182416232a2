"""``make new-notebook NN=12 TITLE="Streaming tool calls"``: a new notebook's skeleton that passes every test.

Writes, for notebook ``NN`` (nothing is overwritten: an existing file stops the command first):

* ``notebooks/NN_topic.ipynb``: the ``# NN · Title`` cell and "what you will learn", a protocol case
  (``scripted_model``), a live cell that binds a tool (``live_model`` + ``live_verdict``), exercise
  NN.1's stub and check, the "Check yourself" cell, the Recap, and ``metadata.course`` (title,
  summary); then executes it (offline, :mod:`tooling.notebooks`) so its outputs are committed;
* ``helpers/exercises/nbNN.py``: exercise ``NN.1`` with one case;
* ``tests/solutions/nbNN.py``: its reference solution, two known-wrong answers, a crashing answer;
* ``helpers/selfcheck/nbNN.py``: three questions (two "predict the output" snippets run after its
  ``CODE_CONTEXT``, one proven by a verifier);
* ``tests/selfcheck_verifiers/nbNN.py``: that verifier;
* and runs :mod:`tooling.coursemap`: the times, 00's course map, the README's table, every "Next" cell.

Every registration is the file name (CONTRIBUTING, "One registry: files named nbNN.py"), so there
is no list to edit. Replace the skeleton's lesson with yours, keeping each part's shape.
``tests/test_scaffold.py`` runs this in a scratch copy of the repository and then the tests that
cover the new files.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["ScaffoldError", "main", "new_notebook", "planned_files", "slug"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SUMMARY = "to be written: one line on what the learner gets from this notebook"


class ScaffoldError(ValueError):
    """Bad arguments or a file that already exists; the message says which and what to do."""


def slug(title: str) -> str:
    """``"streaming_tool_calls"`` for ``"Streaming tool calls!"`` (lower case, ``_`` between words).

    Raises:
        ScaffoldError: the title has no letter or digit.
    """
    words = re.findall(r"[a-z0-9]+", title.lower())
    if not words:
        raise ScaffoldError(f"the title {title!r} has no letters or digits to name the file with")
    return "_".join(words)[:48].rstrip("_")


def planned_files(root: Path, number: str, title: str) -> dict[str, Path]:
    """``{part: path}`` of the files :func:`new_notebook` writes under ``root``."""
    return {
        "notebook": root / "notebooks" / f"{number}_{slug(title)}.ipynb",
        "exercise": root / "helpers" / "exercises" / f"nb{number}.py",
        "answers": root / "tests" / "solutions" / f"nb{number}.py",
        "questions": root / "helpers" / "selfcheck" / f"nb{number}.py",
        "verifiers": root / "tests" / "selfcheck_verifiers" / f"nb{number}.py",
    }


# -- the templates (``NN`` and ``TITLE`` are filled in) ---------------------------------------------

_PROTOCOL_CASE = '''from langchain.tools import tool

from helpers import scripted_model, tool_call

runs = []  # the order ids lookup_order was run with


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    runs.append(order_id)
    return f"Order {order_id}: wireless headphones, delivered."


# protocol case: the model asks for one tool call, whatever model is configured
model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})]])
reply = model.bind_tools([lookup_order]).invoke("Where is my order A1024?")
print("tool calls:", [(call["name"], call["args"], call["id"]) for call in reply.tool_calls])
print("lookup_order ran for:", runs)'''

_LIVE_CELL = '''from langchain.agents import create_agent

from helpers import live_model, live_verdict

# live cell: your configured model, or offline this script; nothing below depends on its answer
script = [[tool_call("lookup_order", {"order_id": "A1024"})], "Your order A1024 was delivered."]
model = live_model(script)
agent = create_agent(model, tools=[lookup_order])
result = agent.invoke({"messages": [{"role": "user", "content": "Where is my order A1024?"}]})
live_verdict(result, model, expect_tools=["lookup_order"], expect_text=True)'''

_EXERCISE_CELL = '''from helpers.exercises import nbNN


def tool_names(ai_message):
    """Return the names of the tools an AIMessage asks to run, in call order."""
    raise NotImplementedError("return a list of tool names")


nbNN.TOOL_NAMES.check(tool_names)'''

_EXERCISE_MODULE = '''"""Exercises of notebook NN (TITLE).

The skeleton's exercise NN.1 (from ``make new-notebook``): replace it with the lesson's own, keeping
the shape: a module-level ``NAME = Exercise("NN.k", "title", [Case(...), ...])`` is registered by
this file's name; its answers are ``NAME`` in ``tests/solutions/nbNN.py``.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage

from .core import Case, Exercise
from .results import shown

__all__ = ["TOOL_NAMES"]


def _message() -> AIMessage:
    """Two tool calls and one invalid tool call (a fresh message for every check)."""
    return AIMessage(
        content="",
        tool_calls=[{"name": "quote_refund", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"},
                    {"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_2", "type": "tool_call"}],
        invalid_tool_calls=[{"name": "submit_refund", "args": "{bad", "id": "call_3", "error": None,
                             "type": "invalid_tool_call"}])


def _names_in_call_order(answer) -> None:
    got = answer(_message())
    assert isinstance(got, list), f"return a list, got {type(got).__name__}"
    assert got == ["quote_refund", "lookup_order"], (
        f"expected ['quote_refund', 'lookup_order'], got {shown(got)}. Read ai_message.tool_calls, in its order; "
        "each call is a dict with a 'name' key, and invalid_tool_calls are not calls to run.")


TOOL_NAMES = Exercise(
    "NN.1",
    "the names of the tools an AIMessage asks to run",
    [Case("two calls and an invalid one", _names_in_call_order)],
    probe=lambda answer: answer(_message()),
)
'''

_ANSWERS_MODULE = '''"""Reference solution, known-wrong and crashing answers for exercise NN.1 (the skeleton's tool names)."""

from helpers.exercises.registry import AnswerSet, KnownWrong


def tool_names(ai_message):
    return [call["name"] for call in ai_message.tool_calls]


TOOL_NAMES = AnswerSet(
    solutions={"list comprehension": tool_names},
    wrong={
        "returns the ids": KnownWrong(lambda m: [c["id"] for c in m.tool_calls],
                                      fails=("two calls and an invalid one",), status="fail"),
        "includes invalid calls": KnownWrong(lambda m: [c["name"] for c in m.tool_calls + m.invalid_tool_calls],
                                             fails=("two calls and an invalid one",), status="fail"),
    },
    crashing={"attribute access": lambda m: [call.name for call in m.tool_calls]},
    answer_from=lambda body: lambda ai_message: body(),
)
'''

_QUESTIONS_MODULE = '''"""Self-check questions for notebook NN (TITLE): the skeleton's protocol case.

The "predict the output" questions run after :data:`CODE_CONTEXT` (section 1's cell) and must print
their answer; "nothing-has-run" is proven by ``verify_nothing_has_run`` in
``tests/selfcheck_verifiers/nbNN.py``. Replace them with questions on the lesson (3 to 5).
"""

from __future__ import annotations

from .format import Question

CODE_CONTEXT = \'\'\'
PROTOCOL_CASE
\'\'\'

QUESTIONS = (
    Question(
        id="the-call-id",
        prompt="Section 1's scripted model wrote one tool call. What id does it carry?",
        code='print(reply.tool_calls[0]["id"])',
        choices=("call_1", "lookup_order", "A1024", "None"),
        answer="call_1",
        explanation="Every tool call carries an id; the ToolMessage that answers it repeats it as tool_call_id.",
        section="section 1, A protocol case",
        why_not={"lookup_order": "That is the call's name: the tool it asks for."},
    ),
    Question(
        id="the-reply-text",
        prompt="What text does the reply that asks for the tool call carry?",
        code="print(repr(reply.content))",
        choices=("\'\'", "\'lookup_order\'", "None", "\'Where is my order A1024?\'"),
        answer="\'\'",
        explanation="A reply that only asks for tools has empty content; the request is in tool_calls.",
        section="section 1, A protocol case",
    ),
    Question(
        id="nothing-has-run",
        prompt="When `invoke` has returned the reply of section 1, how often has `lookup_order` run?",
        choices=("Never: a tool call is a request; the application decides whether to run it",
                 "Once: bind_tools runs the tools the model asks for",
                 "Once per tool bound to the model"),
        answer="Never: a tool call is a request; the application decides whether to run it",
        explanation="The model only writes tool calls; nothing runs until your code (or an agent loop) runs them.",
        section="section 1, A protocol case",
    ),
)
'''

_VERIFIERS_MODULE = '''"""Verifiers of notebook NN's self-check questions (``helpers/selfcheck/nbNN.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def verify_nothing_has_run(q):
    namespace = context_namespace("NN")  # section 1's cell, run afresh
    assert namespace["reply"].tool_calls and namespace["runs"] == []
    return pick(q, "Never")
'''


def _fill(template: str, number: str, title: str) -> str:
    return template.replace("PROTOCOL_CASE", _PROTOCOL_CASE).replace("nbNN", f"nb{number}") \
        .replace("NN", number).replace("TITLE", title)


def _cell(kind: str, source: str) -> dict:
    cell = {"cell_type": kind, "id": "", "metadata": {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook_json(number: str, title: str, summary: str) -> dict:
    """The skeleton notebook (not executed) as nbformat 4 JSON."""
    cells = [
        _cell("markdown", f"# {number} · {title}\n\n"
                          "One paragraph: what this notebook is about and why it matters (to be written).\n\n"
                          "**What you will learn**\n\n"
                          "1. A protocol case: a tool call is a request, and nothing has run yet.\n"
                          "2. A live cell: the same request from your configured model.\n"
                          "3. Exercise: read the tool calls of an `AIMessage`."),
        _cell("markdown", "## 1. A protocol case\n\n"
                          "A *protocol case* uses `scripted_model`: the model's move is the lesson's fixture, the "
                          "same whatever model\nis configured. Here it asks for one tool call, and the tool has "
                          "not run."),
        _cell("code", _PROTOCOL_CASE),
        _cell("markdown", "## 2. A live cell\n\n"
                          "A *live cell* uses `live_model`: your configured model, or offline the script it is "
                          "given. It binds a tool\nand ends with `live_verdict`, one line on what the model did."),
        _cell("code", _LIVE_CELL),
        _cell("markdown", f"## 3. Exercise {number}.1\n\n"
                          "Write `tool_names(ai_message)`: the names of the tools the message asks to run, in "
                          "call order. Replace the\n`raise NotImplementedError`, run the cell, and read the check's "
                          "feedback."),
        _cell("code", _fill(_EXERCISE_CELL, number, title)),
        _cell("markdown", "## Check yourself\n\nThree questions on section 1; your first answer is the one "
                          "scored."),
        _cell("code", f'from helpers.selfcheck import self_check\n\nself_check("{number}")'),
        _cell("markdown", "## Recap\n\n"
                          "- A tool call is a request with a name, arguments and an id; nothing runs until the "
                          "application runs it.\n"
                          "- A protocol case is always scripted; a live cell asks your model and says what it "
                          "did."),
    ]
    for index, cell in enumerate(cells, start=1):
        cell["id"] = f"cell-{index:03d}"
    return {
        "cells": cells,
        "metadata": {
            "course": {"title": title, "summary": summary},
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _check(root: Path, number: str, title: str) -> dict[str, Path]:
    if not re.fullmatch(r"\d\d", number or ""):
        raise ScaffoldError(f"NN is a two-digit notebook number, e.g. NN=12, got {number!r}")
    if not title or not title.strip() or "\n" in title:
        raise ScaffoldError('say the title: make new-notebook NN=12 TITLE="Streaming tool calls"')
    taken = sorted(p.name for p in (root / "notebooks").glob(f"{number}_*.ipynb"))
    if taken:
        raise ScaffoldError(f"notebook {number} exists already ({', '.join(taken)}): choose another NN")
    files = planned_files(root, number, title.strip())
    existing = [str(p.relative_to(root)) for p in files.values() if p.exists()]
    if existing:
        raise ScaffoldError(f"these files exist already, nothing was written: {', '.join(existing)}")
    return files


def new_notebook(number: str, title: str, *, summary: str = DEFAULT_SUMMARY, root: Path = ROOT,
                 execute: bool = True) -> list[Path]:
    """Write notebook ``number``'s skeleton under ``root`` (see the module docstring).

    Args:
        number: two digits, e.g. ``"12"``; no notebook may have it yet.
        title: the notebook's title (one line), e.g. ``"Streaming tool calls"``.
        summary: its one-line summary for the course map.
        root: the course checkout.
        execute: run the new notebook (offline, with ``root`` first on ``PYTHONPATH``) so its outputs
            are committed; ``False`` leaves it unexecuted (strict nbval then has nothing to compare).

    Returns:
        the files written (the notebook first); what :mod:`tooling.coursemap` updated (00, the
        README, the previous notebook's Next cell) is not listed.

    Raises:
        ScaffoldError: a bad number or title, or a file that exists (nothing is written then).
        tooling.notebooks.NotebookFailure: the skeleton failed to execute (its files stay, to look at).
    """
    from tooling import coursemap

    title = title.strip()
    files = _check(root, number, title)
    files["notebook"].write_text(coursemap._dumps(notebook_json(number, title, summary)), encoding="utf-8")
    for part, template in (("exercise", _EXERCISE_MODULE), ("answers", _ANSWERS_MODULE),
                           ("questions", _QUESTIONS_MODULE), ("verifiers", _VERIFIERS_MODULE)):
        files[part].parent.mkdir(parents=True, exist_ok=True)
        files[part].write_text(_fill(template, number, title), encoding="utf-8")
    if execute:
        from tooling.notebooks import execute_notebook

        path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
        execute_notebook(files["notebook"], env={"PYTHONPATH": path})
    coursemap.apply(root)
    return list(files.values())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tooling.scaffold NN "Title" [--summary TEXT] [--root DIR] [--no-execute]``."""
    parser = argparse.ArgumentParser(prog="python -m tooling.scaffold", description=__doc__.splitlines()[0])
    parser.add_argument("number", help="two digits, e.g. 12")
    parser.add_argument("title", help='the title, e.g. "Streaming tool calls"')
    parser.add_argument("--summary", default=DEFAULT_SUMMARY, help="one line for the course map")
    parser.add_argument("--root", type=Path, default=ROOT, help="the course checkout (default: this one)")
    parser.add_argument("--no-execute", action="store_true", help="do not execute the new notebook")
    args = parser.parse_args(argv)
    try:
        written = new_notebook(args.number, args.title, summary=args.summary, root=args.root.resolve(),
                               execute=not args.no_execute)
    except ScaffoldError as exc:
        print(f"new-notebook: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(args.root.resolve())}")
    print("updated the course map, the README's table and the Next cells (python -m tooling.coursemap)")
    print("next: write the lesson, then python -m tooling.notebooks " + str(written[0].relative_to(args.root.resolve()))
          + " and the tests (CONTRIBUTING.md, 'Adding a notebook')")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
