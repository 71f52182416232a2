"""The exercise registry: every exercise of the course, found by its file name.

A notebook ``NN``'s parts live in files named after it (one mechanism for the whole course, see
CONTRIBUTING, "One registry: files named nbNN.py"):

* its checkers in ``helpers/exercises/nbNN.py``: every module-level ``NAME = Exercise("NN.k",
  "title", [...])`` is an exercise of notebook ``NN``;
* their answers in ``tests/solutions/nbNN.py``, under the same ``NAME``: an :class:`AnswerSet`
  (reference solutions, known-wrong answers with the case each must fail, crashing answers,
  ``answer_from``);
* the notebook itself is the one ``notebooks/NN_*.ipynb``.

:data:`EXERCISES` is read from the checker modules' source (:mod:`ast`, no import), so the progress
table lists every exercise without importing a checker. There is no list to edit: adding
``helpers/exercises/nb13.py`` and ``tests/solutions/nb13.py`` registers notebook 13's exercises.

The contract test (``tests/test_exercise_contract.py``) then checks that the references pass, each
wrong answer fails its case, each crashing answer becomes feedback, hostile answers leave no thread
and the references still pass after them, the notebook's own stub says "not solved yet", the
notebook calls the exercise, and no notebook calls an exercise that is not here.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..progress.store import notebook_key  # how the progress file keys a notebook

if TYPE_CHECKING:  # annotations only: the progress table reads this registry without the checkers
    from .core import Exercise
    from .results import Verdict

__all__ = ["EXERCISES", "AnswerSet", "ExerciseEntry", "KnownWrong", "discover", "entry", "get", "notebook_key"]


@dataclass(frozen=True)
class ExerciseEntry:
    """One registered exercise.

    Attributes:
        id: ``"NN.k"``, the same as the checker's ``Exercise.id``.
        notebook: the notebook file that holds it, e.g. ``"03_toolmessage_pairing.ipynb"``.
        title: the same as the checker's ``Exercise.title`` (shown in the progress table).
        checker: ``"module:ATTRIBUTE"`` of the :class:`~helpers.exercises.core.Exercise`.
        answers: ``"module:ATTRIBUTE"`` of its :class:`AnswerSet` (in ``tests/solutions``).
    """

    id: str
    notebook: str
    title: str
    checker: str
    answers: str

    @property
    def notebook_key(self) -> str:
        """The notebook's two-digit number, e.g. ``"03"``."""
        return notebook_key(self.notebook)

    @property
    def attribute(self) -> str:
        """The checker's attribute name, e.g. ``"RUN_TOOL_CALLS"`` (``nb03.RUN_TOOL_CALLS`` in the notebook)."""
        return self.checker.rsplit(":", 1)[1]

    @property
    def module_name(self) -> str:
        """The checker module's short name, e.g. ``"nb03"``."""
        return self.checker.rsplit(":", 1)[0].rsplit(".", 1)[-1]

    def exercise(self) -> Exercise:
        """Import and return the checker."""
        return _load(self.checker)

    def answer_set(self) -> AnswerSet:
        """Import and return the answers (needs the repository's ``tests`` package on the path).

        Raises:
            LookupError: the answers module or its attribute does not exist; the message names the
                file and the :class:`AnswerSet` to add.
        """
        module, _, attribute = self.answers.partition(":")
        path = module.replace(".", "/") + ".py"
        try:
            return _load(self.answers)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise
            raise LookupError(f"exercise {self.id} has no answers: {path} does not exist; create it with "
                              f"{attribute} = AnswerSet(solutions=..., wrong=..., crashing=..., answer_from=...) "
                              "(CONTRIBUTING.md, 'Adding an exercise')") from None
        except AttributeError:
            raise LookupError(f"exercise {self.id} has no answers: {path} defines no {attribute}; add "
                              f"{attribute} = AnswerSet(...) named like the checker") from None


def _load(target: str) -> Any:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class KnownWrong:
    """A known-wrong answer and the case(s) it exists to catch.

    Attributes:
        answer: the answer, as a learner would pass it to ``check``.
        fails: names of the cases it must not pass (each must be a case of the exercise).
        status: if set, every case it does not pass must have this verdict (e.g. ``"fail"``:
            a hidden check catches it, it does not crash).
    """

    answer: Any
    fails: tuple[str, ...]
    status: Verdict | None = None


@dataclass(frozen=True)
class AnswerSet:
    """Reference solutions, known-wrong answers and crashing answers of one exercise.

    Attributes:
        solutions: ``{name: answer}``, each must pass every case.
        wrong: ``{name: KnownWrong}``, each must fail the cases it names.
        crashing: ``{name: answer}`` whose code raises: each must become ERROR feedback, never an exception.
        stub_names: names (other than the notebook's imports) that the notebook's stub needs when
            its definition is run on its own, e.g. ``{"SupportContext": CheckContext}`` for a
            ``ToolRuntime[SupportContext]`` annotation.
        answer_from: ``answer_from(body) -> answer``: an answer of this exercise's shape (a
            function with its parameters, a tool, a dict of predictions) whose code calls
            ``body()`` and returns its value. The contract test builds hostile answers with it (an
            endless loop, a thread left running, an exception whose ``__str__`` loops, a check
            started from inside the answer) and proves each leaves no thread and spoils nothing.
    """

    solutions: Mapping[str, Any]
    wrong: Mapping[str, KnownWrong]
    crashing: Mapping[str, Any]
    stub_names: Mapping[str, Any] = field(default_factory=dict)
    answer_from: Callable[[Callable[[], Any]], Any] | None = None


def entry(id: str, notebook: str, title: str, attribute: str, *, module: str | None = None) -> ExerciseEntry:
    """An :class:`ExerciseEntry` by the course's convention: checker ``helpers.exercises.nbNN:ATTRIBUTE``,
    answers ``tests.solutions.nbNN:ATTRIBUTE`` (``NN`` from the id, or ``module`` if given)."""
    name = module or f"nb{id.split('.', 1)[0]}"
    return ExerciseEntry(id, notebook, title, f"helpers.exercises.{name}:{attribute}", f"tests.solutions.{name}:{attribute}")


_ROOT = Path(__file__).resolve().parent.parent.parent
_MODULE = re.compile(r"nb(\d\d)")


def _notebook_file(number: str, notebooks: Path) -> str:
    """The file name of notebook ``number`` in ``notebooks`` (``"NN.ipynb"`` when there is not exactly one)."""
    found = sorted(p.name for p in notebooks.glob(f"{number}_*.ipynb"))
    return found[0] if len(found) == 1 else f"{number}.ipynb"


def _declared(path: Path) -> list[tuple[str, str, str]]:
    """``(ATTRIBUTE, id, title)`` of every module-level ``ATTRIBUTE = Exercise("id", "title", ...)`` in ``path``.

    Raises:
        ValueError: an ``Exercise(...)`` whose id or title is not a string literal (the registry
            reads them without importing the module), naming the file and line.
    """
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "Exercise"):
            continue
        call = node.value
        given = dict(zip(("id", "title"), call.args)) | {k.arg: k.value for k in call.keywords if k.arg}
        values = [given.get(name) for name in ("id", "title")]
        if not all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in values):
            raise ValueError(f"{path.name}, line {node.lineno}: write the exercise's id and title as string "
                             "literals, Exercise(\"NN.k\", \"title\", [...]): the registry reads them without "
                             "importing the module")
        for target in node.targets:
            if isinstance(target, ast.Name):
                found.append((target.id, values[0].value, values[1].value))
    return found


def discover(root: Path = _ROOT) -> tuple[ExerciseEntry, ...]:
    """Every exercise under ``root`` (a course checkout), in course order (by id).

    Args:
        root: the folder holding ``helpers/exercises/nbNN.py`` and ``notebooks/``.

    Returns:
        one :class:`ExerciseEntry` per module-level ``Exercise(...)`` in ``helpers/exercises/nbNN.py``;
        its answers are ``tests.solutions.nbNN:ATTRIBUTE`` and its notebook ``notebooks/NN_*.ipynb``.

    Raises:
        ValueError: as :func:`_declared`.
    """
    entries = []
    for path in sorted((root / "helpers" / "exercises").glob("nb[0-9][0-9].py")):
        number = _MODULE.fullmatch(path.stem).group(1)
        notebook = _notebook_file(number, root / "notebooks")
        for attribute, exercise_id, title in _declared(path):
            entries.append(entry(exercise_id, notebook, title, attribute, module=path.stem))
    return tuple(sorted(entries, key=lambda e: tuple(int(part) for part in e.id.split(".") if part.isdigit())))


#: Every exercise of the course, in course order (:func:`discover` on this checkout).
EXERCISES: tuple[ExerciseEntry, ...] = discover()


def get(exercise_id: str) -> ExerciseEntry:
    """The entry of ``exercise_id``.

    Raises:
        KeyError: no exercise has this id (the message lists the known ids).
    """
    for item in EXERCISES:
        if item.id == exercise_id:
            return item
    raise KeyError(f"no exercise {exercise_id!r} is registered (known: {', '.join(e.id for e in EXERCISES)})")
