"""The exercise registry: every exercise of the course, listed once.

Each :class:`ExerciseEntry` says where an exercise lives: its id, its notebook, its title, the
checker (an :class:`~helpers.exercises.core.Exercise` in ``helpers/exercises/nbNN.py``) and its
answers (an :class:`AnswerSet` in ``tests/solutions/nbNN.py``: reference solutions, known-wrong
answers with the case each must fail, crashing answers). The contract test
(``tests/test_exercise_contract.py``) runs over this list; the progress table
(:mod:`helpers.progress`) reads it without importing any checker.

Adding an exercise (e.g. for notebook 09) takes three steps:

1. the checker: ``helpers/exercises/nb09.py`` defines ``RETRY_SAFELY = Exercise("09.1", "title", [...])``
   and notebook 09 calls ``nb09.RETRY_SAFELY.check(answer_name)`` on the stub the learner edits;
2. the answers: ``tests/solutions/nb09.py`` defines ``RETRY_SAFELY = AnswerSet(solutions={...},
   wrong={"name": KnownWrong(answer, fails=("case name",))}, crashing={...}, stub_names={...},
   answer_from=lambda body: lambda request, handler: body())``;
3. one line below: ``entry("09.1", "09_errors_and_high_risk_tools.ipynb", "title", "RETRY_SAFELY")``.

The contract test then checks that the references pass, each wrong answer fails its case, each
crashing answer becomes feedback, hostile answers leave no thread and the references still pass
after them, the notebook's own stub says "not solved yet", the notebook calls the exercise, and
no notebook calls an exercise that is not here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..progress_store import notebook_key  # how the progress file keys a notebook

if TYPE_CHECKING:  # annotations only: the progress table reads this registry without the checkers
    from .core import Exercise
    from .results import Verdict

__all__ = ["EXERCISES", "AnswerSet", "ExerciseEntry", "KnownWrong", "entry", "get", "notebook_key"]


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
        """Import and return the answers (needs the repository's ``tests`` package on the path)."""
        return _load(self.answers)


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


#: Every exercise of the course, in course order.
EXERCISES: tuple[ExerciseEntry, ...] = (
    entry("00.1", "00_start_here.ipynb", "ids of the tool calls in an AIMessage", "TOOL_CALL_IDS"),
    entry("01.1", "01_function_to_tool.ipynb", "a refund-request tool with a safe schema", "REFUND_TOOL"),
    entry("02.1", "02_tool_calls_are_requests.ipynb", "execute the tool calls of one AIMessage", "EXECUTE_CALLS"),
    entry("03.1", "03_toolmessage_pairing.ipynb", "run_tool_calls: answer every call with its own id", "RUN_TOOL_CALLS"),
    entry("04.1", "04_tool_runtime.ipynb", "a user-scoped order tool", "USER_SCOPED_LOOKUP"),
    entry("05.1", "05_return_values_and_tooloutputmixin.ipynb", "predict what comes out", "PREDICT_THEN_RUN"),
    entry("06.1", "06_command_state_updates.ipynb", "mark_refund_submitted serves program state and the model",
          "MARK_SUBMITTED"),
    entry("07.1", "07_reducers_and_parallel_writes.ipynb", "a reducer for parallel refund quotes", "MERGE_QUOTES"),
    entry("08.1", "08_interrupt_and_resume.ipynb", "answer the approval interrupts and finish the run", "FINISH_REFUND"),
    entry("09.1", "09_errors_and_high_risk_tools.ipynb", "map domain errors to error ToolMessages", "MAP_ERRORS"),
    entry("09.2", "09_errors_and_high_risk_tools.ipynb", "a key for refunds per order line", "CHOOSE_KEY"),
    entry("10.1", "10_capstone_refund_agent.ipynb", "the write waits for the customer's confirmation", "CONFIRMATION_GUARD"),
    entry("11.1", "11_deep_agents_control_plane.ipynb", "policy writes need a person's approval", "POLICY_APPROVAL"),
)


def get(exercise_id: str) -> ExerciseEntry:
    """The entry of ``exercise_id``.

    Raises:
        KeyError: no exercise has this id (the message lists the known ids).
    """
    for item in EXERCISES:
        if item.id == exercise_id:
            return item
    raise KeyError(f"no exercise {exercise_id!r} is registered (known: {', '.join(e.id for e in EXERCISES)})")
