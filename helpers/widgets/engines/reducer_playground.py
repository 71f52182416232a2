"""The engine of the reducer playground (notebook 07): two parallel writes to one key, in both orders.

Plain Python, no ipywidgets: the reducers offered, the two typed writes, their validation and
the graph runs. :class:`helpers.widgets.ReducerPlayground` is its view; tests and notebook demos
drive this engine directly.
"""

from __future__ import annotations

import copy
import json
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from langgraph.errors import InvalidUpdateError

from ...i18n import N_, _
from ..outcomes import PlaygroundOutcome
from ..text import JsonInputError, error_text, parse_json, sendable, value_text

__all__ = ["DEFAULT_A", "DEFAULT_B", "DEFAULT_REDUCERS", "HISTORY_LENGTH", "NO_REDUCER", "Node", "PlaygroundResult",
           "ReducerPlaygroundEngine", "WriteOrderRun", "last_one_wins", "merge_audit", "merge_first_seen"]

Reducer = Callable[[Any, Any], Any]
#: The two writing nodes' values: ``"a"`` or ``"b"``.
Node = Literal["a", "b"]

#: The name of the "reducer" that is none (a plain key); shown translated (``_(name)``) like every reducer
#: name, which stays as given when the catalog has no entry for it (``operator.add``).
NO_REDUCER = N_("no reducer (plain key)")
#: How many of the learner's own runs the history keeps.
HISTORY_LENGTH = 5


def last_one_wins(current: Any, update: Any) -> Any:
    """Keep the update, drop the current value (notebook 07, section 5)."""
    return update


def merge_first_seen(current: list[dict], update: list[dict]) -> list[dict]:
    """One entry per ``"key"``, sorted by key; on a repeated key the entry seen first stays (section 4)."""
    by_key: dict[Any, dict] = {}
    for entry in current + update:
        by_key.setdefault(entry["key"], entry)
    return [by_key[key] for key in sorted(by_key)]


def _canonical(entry: dict) -> str:
    return json.dumps(entry, sort_keys=True)


def merge_audit(current: list[dict], update: list[dict]) -> list[dict]:
    """One entry per ``"key"``, sorted by key; of two different entries with one key, the one whose
    canonical JSON sorts first stays, so the result does not depend on the order (section 4)."""
    by_key: dict[Any, dict] = {}
    for entry in current + update:
        kept = by_key.get(entry["key"])
        if kept is None or _canonical(entry) < _canonical(kept):
            by_key[entry["key"]] = entry
    return [by_key[key] for key in sorted(by_key)]


#: The reducers offered when none are given: name -> reducer (``None`` = a plain key).
DEFAULT_REDUCERS: dict[str, Reducer | None] = {
    NO_REDUCER: None,
    "operator.add": operator.add,
    "last_one_wins": last_one_wins,
    "merge_first_seen": merge_first_seen,
    "merge_audit": merge_audit,
}

#: The two audit writes ``a`` and ``b`` of notebook 07, section 4.
DEFAULT_A = '[{"key": "refund-A1024", "event": "requested"}]'
DEFAULT_B = '[{"key": "refund-A1030", "event": "requested"}, {"key": "refund-A1024", "event": "approved"}]'

ORDERS: tuple[tuple[Node, Node], ...] = (("a", "b"), ("b", "a"))  # whose value node_1 writes, whose node_2 writes


def _same_text(value: Any) -> str:
    """The text the verdict compares: key-sorted JSON, else what :func:`value_text` shows.

    ``true`` and ``1``, ``1`` and ``1.0``, ``0`` and ``false`` are equal in Python but shown
    differently, so they must not "agree"; ``NaN`` and ``NaN`` are shown alike, so they do. The
    whole text is compared (``limit=None``): two values that differ only after the shown part differ.
    """
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return value_text(value, limit=None)


@dataclass
class WriteOrderRun:
    """One run of the two-node graph.

    Attributes:
        first: ``"a"`` or ``"b"``: whose value ``node_1`` writes. LangGraph applies a step's writes
            sorted by node name, so that write is applied first and the other one second.
        value: the key after the step (``None`` when the step failed).
        error: ``"Type: message"`` when the step raised (``InvalidUpdateError`` for a plain key, or
            whatever the reducer raised, ``SystemExit`` included), else ``""``.
        calls: every reducer call in this run, as ``(current, update)`` pairs (copies taken at call
            time). The key starts empty, so the first write is stored as it is and the reducer is
            called once: ``reducer(first write, second write)``.
    """

    first: Node
    value: Any = None
    error: str = ""
    calls: list[tuple[Any, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``"A first"`` or ``"B first"`` (in the edition's language)."""
        return _("{node} first").format(node=self.first.upper())

    @property
    def nodes(self) -> str:
        """Which value each node writes, e.g. ``"node_1 writes A, node_2 writes B"``."""
        second = "b" if self.first == "a" else "a"
        return _("node_1 writes {first}, node_2 writes {second}").format(first=self.first.upper(),
                                                                           second=second.upper())


@dataclass
class PlaygroundResult:
    """What one run of the playground produced.

    Attributes:
        reducer: the reducer's name (a key of the engine's ``reducers``).
        key: the state key both nodes write.
        outcome: a :class:`~helpers.widgets.outcomes.PlaygroundOutcome` (``agree`` compares the
            key-sorted JSON text the learner sees: ``true`` and ``1`` differ, ``NaN`` and ``NaN`` agree).
        runs: the two :class:`WriteOrderRun` objects (A first, then B first); empty for ``invalid_json``.
        message: for ``invalid_json``, which write is wrong and why.
    """

    reducer: str
    key: str
    outcome: PlaygroundOutcome
    runs: list[WriteOrderRun] = field(default_factory=list)
    message: str = ""

    HEADLINES = {
        "agree": N_("the two write orders agree"),
        "differ": N_("the two write orders DIFFER"),
        "invalid_update": N_("LangGraph refuses the step in both orders"),
        "reducer_error": N_("the reducer raised"),
        "invalid_json": N_("invalid JSON, nothing ran"),
    }

    @property
    def headline(self) -> str:
        """A few words for the outcome, e.g. ``"the two write orders agree"`` (in the edition's language)."""
        return _(self.HEADLINES[self.outcome])

    def summary(self) -> str:
        """Plain text: the reducer and outcome, then per order the key's value or the error.

        Each value and error is cut after :data:`~helpers.widgets.text.MAX_SHOWN` characters
        (:func:`~helpers.widgets.text.value_text`, :func:`~helpers.widgets.text.error_text`).
        """
        lines = [f"{_(self.reducer)}: {self.headline}"]
        if self.outcome == PlaygroundOutcome.INVALID_JSON:
            lines.append(f"  {self.message}")
        for run in self.runs:
            text = run.error if run.error else f"{self.key} = {value_text(run.value)}"
            lines.append(f"  {run.label} -> " + text.replace("\n", "\n    "))
        return sendable("\n".join(lines))

    def history_line(self) -> str:
        """One line for the history list, e.g. ``"merge_audit: ORDERS AGREE"`` (in the edition's language)."""
        return f"{_(self.reducer)}: {_(self.outcome.word)}"


class ReducerPlaygroundEngine:
    """Two parallel nodes write one key: pick its reducer and run both write orders.

    Each :meth:`run` builds a real ``StateGraph`` (langgraph 1.2.24) whose state has one key,
    declared ``key: Annotated[Any, reducer]`` (or ``key: Any`` for "no reducer"), and two nodes
    ``node_1`` and ``node_2`` that both start at ``START``, so they run in the same step. It
    invokes the graph with an empty state, then swaps which node writes which value and invokes a
    second graph. LangGraph applies a step's writes sorted by task path, here the node name
    (``langgraph.pregel._algo.apply_writes``), so the two runs apply the writes in the two orders.

    What the library does with the writes, unchanged:

    * a plain key is a ``LastValue`` channel: two writes in one step raise ``InvalidUpdateError``
      (``INVALID_CONCURRENT_GRAPH_UPDATE``), whatever the values;
    * an ``Annotated`` key is a ``BinaryOperatorAggregate`` channel: starting empty (``Any`` has no
      default value), it stores the first write as it is and folds the second in with
      ``reducer(current, update)``. An exception from the reducer stops the run.

    Args:
        reducers: name -> reducer offered; ``None`` as the reducer means a plain key. Default
            :data:`DEFAULT_REDUCERS` (the functions of notebook 07). A notebook passes its own
            functions so the playground runs exactly those.
        key: the state key's name (default ``"audit"``).
        a, b: the starting JSON text of the two writes (default: the audit writes of section 4).

    Attributes:
        reducer: the chosen reducer's name. writes: ``{"a": text, "b": text}``.
        results: every :class:`PlaygroundResult` since the last :meth:`reset`, in order.

    Raises:
        ValueError: no reducers, ``key`` is not a Python identifier, or it starts with ``__``
            (LangGraph reserves such names for its own channels: ``__start__``, ``__pregel_tasks``, ...).
    """

    def __init__(self, reducers: Mapping[str, Reducer | None] | None = None, *, key: str = "audit",
                 a: str = DEFAULT_A, b: str = DEFAULT_B):
        self.reducers = dict(DEFAULT_REDUCERS if reducers is None else reducers)
        if not self.reducers:
            raise ValueError("ReducerPlayground needs at least one reducer to offer")
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"key must be a Python identifier, got {key!r}")
        if key.startswith("__"):
            raise ValueError(f"key must not start with '__': LangGraph reserves such names for its own channels "
                             f"(__start__, __pregel_tasks, ...), got {key!r}")
        self.key = key
        self._start = {"a": sendable(a), "b": sendable(b)}
        self.results: list[PlaygroundResult] = []
        self.reducer = next(iter(self.reducers))
        self.writes: dict[Node, str] = dict(self._start)

    @property
    def reducer_names(self) -> list[str]:
        """The reducer names offered, in order."""
        return list(self.reducers)

    @property
    def history(self) -> list[PlaygroundResult]:
        """The learner's last :data:`HISTORY_LENGTH` runs, oldest first."""
        return self.results[-HISTORY_LENGTH:]

    def declaration(self, name: str | None = None) -> str:
        """The state class the graph is built from, for a reducer (default: the chosen one)."""
        name = self.reducer if name is None else name
        if self.reducers[name] is None:
            line = f"{self.key}: Any          # " + _("plain key: one value per step")
        else:
            line = f"{self.key}: Annotated[Any, {name}]"
        return sendable(f"class PlaygroundState(TypedDict, total=False):\n    {line}")

    def choose_reducer(self, name: str) -> None:
        """Select the reducer for the key by its name.

        Raises:
            ValueError: the name is not offered.
        """
        if name not in self.reducers:
            raise ValueError(f"unknown reducer {name!r}; offered: {', '.join(self.reducers)}")
        self.reducer = name

    def set_write(self, node: str, text: str) -> None:
        """Type the JSON value that node ``"a"`` or ``"b"`` writes (a lone surrogate is stored escaped).

        Raises:
            ValueError: ``node`` is not ``"a"`` or ``"b"``.
        """
        chosen = node.lower() if isinstance(node, str) else node
        if chosen not in ("a", "b"):
            raise ValueError(f"node must be 'a' or 'b', got {node!r}")
        self.writes[chosen] = sendable(str(text))

    def reset(self) -> None:
        """Back to the start: the first reducer, the starting writes, no results."""
        self.results.clear()
        self.reducer = next(iter(self.reducers))
        self.writes = dict(self._start)

    def run(self) -> PlaygroundResult:
        """Run the graph in both write orders; record and return the :class:`PlaygroundResult`.

        A write that is empty, not JSON, or nested deeper than 100 levels gives outcome
        ``invalid_json``: nothing runs and the typed text stays. Anything the graph or the reducer
        raises (``InvalidUpdateError``, ``SystemExit`` from a reducer that calls ``exit()``) is
        caught and reported; only ``KeyboardInterrupt`` passes.
        """
        name = self.reducer
        values: dict[Node, Any] = {}
        for node in ("a", "b"):
            try:
                values[node] = parse_json(self.writes[node])
            except JsonInputError as problem:
                result = PlaygroundResult(name, self.key, PlaygroundOutcome.INVALID_JSON,
                                          message=_("Write {node} {problem}: fix it and run again.").format(
                                              node=node.upper(), problem=problem))
                break
        else:
            runs = [self._run_once(self.reducers[name], values[first], values[second], first)
                    for first, second in ORDERS]
            result = PlaygroundResult(name, self.key, self._outcome(runs), runs)
        self.results.append(result)
        return result

    def _run_once(self, reducer: Reducer | None, value_1: Any, value_2: Any, first: Node) -> WriteOrderRun:
        """Build and invoke the two-node graph once; ``node_1`` writes ``value_1``, ``node_2`` ``value_2``."""
        from langgraph.graph import START, StateGraph

        run = WriteOrderRun(first)
        if reducer is None:
            annotation: Any = Any
        else:
            def recorded(current: Any, update: Any) -> Any:
                run.calls.append((copy.deepcopy(current), copy.deepcopy(update)))
                return reducer(current, update)

            annotation = Annotated[Any, recorded]
        try:
            state = TypedDict("PlaygroundState", {self.key: annotation}, total=False)  # type: ignore[misc]
            builder = StateGraph(state)
            # Fresh copies: a reducer that modifies its arguments must not leak into the other run.
            builder.add_node("node_1", lambda _state, v=copy.deepcopy(value_1): {self.key: v})
            builder.add_node("node_2", lambda _state, v=copy.deepcopy(value_2): {self.key: v})
            builder.add_edge(START, "node_1")
            builder.add_edge(START, "node_2")
            run.value = builder.compile().invoke({}).get(self.key)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - shown to the learner, SystemExit included
            run.error = error_text(exc)
            run.value = None
        return run

    @staticmethod
    def _outcome(runs: list[WriteOrderRun]) -> PlaygroundOutcome:
        if any(run.error for run in runs):
            if all(run.error.startswith(f"{InvalidUpdateError.__name__}:") for run in runs):
                return PlaygroundOutcome.INVALID_UPDATE
            return PlaygroundOutcome.REDUCER_ERROR
        same = _same_text(runs[0].value) == _same_text(runs[1].value)
        return PlaygroundOutcome.AGREE if same else PlaygroundOutcome.DIFFER
