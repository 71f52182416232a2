"""The reducer playground of notebook 07.

Pick a reducer for one state key, edit the two values that two parallel nodes write, and run a real
``StateGraph`` in both write orders. Every control is also a plain method (``choose_reducer``,
``set_write``, ``run``), so tests drive it headless and the notebook can show a scripted run.
Handlers never ``print``.
"""

from __future__ import annotations

import copy
import html
import json
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

import ipywidgets as widgets
from langgraph.errors import InvalidUpdateError
from langgraph.graph import START, StateGraph

from ..display import _ADDRESS, format_error

__all__ = ["DEFAULT_REDUCERS", "MAX_DEPTH", "NO_REDUCER", "ReducerPlayground", "PlaygroundResult", "WriteOrderRun"]

Reducer = Callable[[Any, Any], Any]

NO_REDUCER = "no reducer (plain key)"


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

ORDERS = (("a", "b"), ("b", "a"))  # whose value node_1 writes, whose node_2 writes


#: Writes nested deeper than this are refused as ``invalid_json`` (deeper values hit Python's recursion limit).
MAX_DEPTH = 100


def _clean(text: str) -> str:
    """``text`` with lone surrogates (valid in JSON, e.g. ``"\\ud800"``) written as ``\\ud800``.

    A widget value must be encodable as UTF-8: jupyter_client's JSON packer fails on a lone
    surrogate, and the front end would silently never see the update.
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _show(value: Any) -> str:
    """JSON text of a value (``repr`` if a reducer returned something that is not JSON).

    The ``repr`` fallback drops memory addresses (``<Obj object at 0x7f...>`` becomes
    ``<Obj object>``), so the text is the same in every run. Never raises.
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except RecursionError:
        return "<a value nested too deeply to show>"
    except (TypeError, ValueError):
        try:
            text = _ADDRESS.sub("", repr(value))
        except RecursionError:
            return "<a value nested too deeply to show>"
        except Exception as exc:  # noqa: BLE001 - a broken __repr__ must not break the widget
            return f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"
    return _clean(text)


def _same_text(value: Any) -> str:
    """The text the verdict compares: key-sorted JSON, else what :func:`_show` displays.

    ``true`` and ``1``, ``1`` and ``1.0``, ``0`` and ``false`` are equal in Python but shown
    differently, so they must not "agree"; ``NaN`` and ``NaN`` are shown alike, so they do.
    """
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return _show(value)


def _depth(value: Any) -> int:
    """How deeply lists/dicts nest in a parsed JSON value (a scalar is 0); iterative, no recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, level) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


@dataclass
class WriteOrderRun:
    """One run of the two-node graph.

    Attributes:
        first: ``"a"`` or ``"b"``: whose value ``node_1`` writes. LangGraph applies a step's writes
            sorted by node name, so that write is applied first and the other one second.
        value: the key after the step (``None`` when the step failed).
        error: ``"Type: message"`` when the step raised (``InvalidUpdateError`` for a plain key, or
            whatever the reducer raised), else ``""``.
        calls: every reducer call in this run, as ``(current, update)`` pairs (copies taken at call
            time). The key starts empty, so the first write is stored as it is and the reducer is
            called once: ``reducer(first write, second write)``.
    """

    first: str
    value: Any = None
    error: str = ""
    calls: list[tuple[Any, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``"A first"`` or ``"B first"``."""
        return f"{self.first.upper()} first"

    @property
    def nodes(self) -> str:
        """Which value each node writes, e.g. ``"node_1 writes A, node_2 writes B"``."""
        second = "b" if self.first == "a" else "a"
        return f"node_1 writes {self.first.upper()}, node_2 writes {second.upper()}"


@dataclass
class PlaygroundResult:
    """What one press of "Run in parallel" produced.

    Attributes:
        reducer: the reducer's name (a key of the playground's ``reducers``).
        key: the state key both nodes write.
        outcome: ``"agree"`` (both orders give the same value, compared as the key-sorted JSON
            text the learner sees: ``true`` and ``1`` differ, ``NaN`` and ``NaN`` agree), ``"differ"``
            (the value depends on the order), ``"invalid_update"`` (a plain key: LangGraph refused the step with
            ``InvalidUpdateError``), ``"reducer_error"`` (the reducer raised in at least one order),
            or ``"invalid_json"`` (a write is not JSON, or nests deeper than :data:`MAX_DEPTH`: nothing ran).
        runs: the two :class:`WriteOrderRun` objects (A first, then B first); empty for ``"invalid_json"``.
        message: for ``"invalid_json"``, which write is wrong and why.
    """

    reducer: str
    key: str
    outcome: str
    runs: list[WriteOrderRun] = field(default_factory=list)
    message: str = ""

    HEADLINES = {
        "agree": "the two write orders agree",
        "differ": "the two write orders DIFFER",
        "invalid_update": "LangGraph refuses the step in both orders",
        "reducer_error": "the reducer raised",
        "invalid_json": "invalid JSON, nothing ran",
    }

    @property
    def headline(self) -> str:
        """A few words for the outcome, e.g. ``"the two write orders agree"``."""
        return self.HEADLINES[self.outcome]

    def summary(self) -> str:
        """Plain text: the reducer and outcome, then per order the key's value or the error."""
        lines = [f"{self.reducer}: {self.headline}"]
        if self.outcome == "invalid_json":
            lines.append(f"  {self.message}")
        for run in self.runs:
            text = run.error if run.error else f"{self.key} = {_show(run.value)}"
            lines.append(f"  {run.label} -> " + text.replace("\n", "\n    "))
        return _clean("\n".join(lines))


class ReducerPlayground:
    """Two parallel nodes write one key: pick its reducer and see both write orders side by side.

    Each press of "Run in parallel" builds a real ``StateGraph`` (langgraph 1.2.24) whose state has
    one key, declared ``key: Annotated[Any, reducer]`` (or ``key: Any`` for "no reducer"), and two
    nodes ``node_1`` and ``node_2`` that both start at ``START``, so they run in the same step. It
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
        reducers: name -> reducer offered in the dropdown; ``None`` as the reducer means a plain
            key. Default :data:`DEFAULT_REDUCERS` (no reducer, ``operator.add``, ``last_one_wins``,
            ``merge_first_seen``, ``merge_audit``: the functions of notebook 07). A notebook passes
            its own functions so the widget runs exactly those.
        key: the state key's name (default ``"audit"``).
        a, b: the starting JSON text of the two writes (default: the audit writes of section 4).

    Attributes:
        results: every :class:`PlaygroundResult`, in order.
        view: the ``ipywidgets.VBox`` (displayed when the object is a cell's value).

    Raises:
        ValueError: no reducers, ``key`` is not a Python identifier, or it starts with ``__``
            (LangGraph reserves such names for its own channels: ``__start__``, ``__pregel_tasks``, ...).
    """

    def __init__(self, reducers: Mapping[str, Reducer | None] | None = None, *, key: str = "audit",
                 a: str = DEFAULT_A, b: str = DEFAULT_B):
        self.reducers = dict(DEFAULT_REDUCERS if reducers is None else reducers)
        if not self.reducers:
            raise ValueError("ReducerPlayground needs at least one reducer to offer")
        if not key.isidentifier():
            raise ValueError(f"key must be a Python identifier, got {key!r}")
        if key.startswith("__"):
            raise ValueError(f"key must not start with '__': LangGraph reserves such names for its own channels "
                             f"(__start__, __pregel_tasks, ...), got {key!r}")
        self.key = key
        self.results: list[PlaygroundResult] = []
        first = next(iter(self.reducers))
        self.reducer_picker = widgets.Dropdown(options=list(self.reducers), value=first, description="reducer:")
        self.declaration = widgets.HTML(_clean(self._declaration_html(first)))
        box = widgets.Layout(width="95%", height="4.5em")
        self.write_a = widgets.Textarea(value=a, description="write A (JSON):", layout=box,
                                        style={"description_width": "initial"})
        self.write_b = widgets.Textarea(value=b, description="write B (JSON):", layout=box,
                                        style={"description_width": "initial"})
        self.run_button = widgets.Button(description="Run in parallel", button_style="primary")
        self.result_view = widgets.HTML("<i>Not run yet: press Run in parallel.</i>")
        self.reducer_picker.observe(self._on_pick, names="value")
        self.run_button.on_click(lambda _button: self.run())
        self.view = widgets.VBox([
            widgets.HTML(_clean(f"<b>Reducer playground:</b> two parallel nodes write the key "
                                f"<code>{html.escape(key)}</code> in the same step")),
            self.reducer_picker, self.declaration, self.write_a, self.write_b, self.run_button, self.result_view,
        ])

    # -- plain methods: what the mouse does ---------------------------------------------------

    @property
    def reducer_names(self) -> list[str]:
        """The reducer names offered, in dropdown order."""
        return list(self.reducers)

    def choose_reducer(self, name: str) -> None:
        """Select the reducer for the key by its name.

        Raises:
            ValueError: the name is not offered.
        """
        if name not in self.reducers:
            raise ValueError(f"unknown reducer {name!r}; offered: {', '.join(self.reducers)}")
        self.reducer_picker.value = name  # triggers _on_pick

    def set_write(self, node: str, text: str) -> None:
        """Type the JSON value that node ``"a"`` or ``"b"`` writes.

        A lone surrogate character in ``text`` is stored as its escape (``\\ud800``) so the widget
        can still sync with the front end.

        Raises:
            ValueError: ``node`` is not ``"a"`` or ``"b"``.
        """
        box = {"a": self.write_a, "b": self.write_b}.get(node.lower() if isinstance(node, str) else node)
        if box is None:
            raise ValueError(f"node must be 'a' or 'b', got {node!r}")
        box.value = _clean(text)

    def run(self) -> PlaygroundResult:
        """Run the graph in both write orders; show and return the :class:`PlaygroundResult`.

        Invalid JSON in either box, or JSON nested deeper than :data:`MAX_DEPTH` levels, gives
        outcome ``"invalid_json"``: nothing runs and the typed text stays. Errors from the graph
        (``InvalidUpdateError``, a reducer's exception) are caught and reported. Never raises.
        """
        name = self.reducer_picker.value
        values = {}
        for node, box in (("a", self.write_a), ("b", self.write_b)):
            problem = ""
            try:
                values[node] = json.loads(box.value)
            except RecursionError:
                problem = f"nests deeper than {MAX_DEPTH} levels"
            except ValueError as exc:
                problem = "is empty" if not box.value.strip() else f"is not valid JSON ({exc})"
            else:
                if _depth(values[node]) > MAX_DEPTH:
                    problem = f"nests deeper than {MAX_DEPTH} levels"
            if problem:
                result = PlaygroundResult(name, self.key, "invalid_json",
                                          message=f"Write {node.upper()} {problem}: fix it and run again.")
                break
        else:
            runs = [self._run_once(self.reducers[name], values[first], values[second], first)
                    for first, second in ORDERS]
            result = PlaygroundResult(name, self.key, self._outcome(runs), runs)
        self.results.append(result)
        self.result_view.value = _clean(self._result_html(result))
        return result

    # -- the graph ------------------------------------------------------------------------------

    def _run_once(self, reducer: Reducer | None, value_1: Any, value_2: Any, first: str) -> WriteOrderRun:
        """Build and invoke the two-node graph once; ``node_1`` writes ``value_1``, ``node_2`` ``value_2``."""
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
        except Exception as exc:  # noqa: BLE001 - shown to the learner, as show_error does
            run.error = format_error(exc)
            run.value = None
        return run

    @staticmethod
    def _outcome(runs: list[WriteOrderRun]) -> str:
        if any(run.error for run in runs):
            return "invalid_update" if all(run.error.startswith(f"{InvalidUpdateError.__name__}:") for run in runs) \
                else "reducer_error"
        return "agree" if _same_text(runs[0].value) == _same_text(runs[1].value) else "differ"

    # -- rendering ------------------------------------------------------------------------------

    def _on_pick(self, change: dict) -> None:
        self.declaration.value = _clean(self._declaration_html(change["new"]))

    def _declaration_html(self, name: str) -> str:
        reducer = self.reducers[name]
        if reducer is None:
            line = f"{self.key}: Any          # plain key: one value per step"
        else:
            line = f"{self.key}: Annotated[Any, {name}]"
        code = f"class PlaygroundState(TypedDict, total=False):\n    {line}"
        return f"<pre class='course-declaration'>{html.escape(code)}</pre>"

    @staticmethod
    def _result_html(result: PlaygroundResult) -> str:
        notes = {
            "agree": "Both write orders give the same value, so for these two writes the result does not "
                     "depend on which node's write LangGraph applies first.",
            "differ": "The value depends on which write is applied first. LangGraph's order is fixed (node "
                      "names here, tool-call positions in an agent), so a run is repeatable, but the result is "
                      "an accident of naming, not a rule (sections 2 and 5).",
            "invalid_update": "A plain key takes one value per step. Two writes in one step fail the whole step "
                              "with InvalidUpdateError, in both orders and even for equal values (section 1).",
            "reducer_error": "The reducer raised: these values do not fit it (for example operator.add on two "
                             "JSON objects, or merge_audit on entries without a \"key\"). The run stopped.",
            "invalid_json": "Your text is still in the box.",
        }
        parts = [f"<p class='course-verdict' data-outcome='{result.outcome}'><b>{html.escape(result.reducer)}: "
                 f"{html.escape(result.headline)}.</b> {html.escape(notes[result.outcome])}</p>"]
        if result.outcome == "invalid_json":
            parts.append(f"<p class='course-message'>{html.escape(result.message)}</p>")
        else:
            cells = []
            for run in result.runs:
                calls = "".join(
                    f"<div><code>{html.escape(result.reducer)}(current={html.escape(_show(c))}, "
                    f"update={html.escape(_show(u))})</code></div>" for c, u in run.calls) or "<i>none</i>"
                outcome = (f"<pre class='course-error' style='white-space: pre-wrap'>{html.escape(run.error)}</pre>"
                           if run.error else
                           f"<pre class='course-value' style='white-space: pre-wrap'>{html.escape(result.key)} = "
                           f"{html.escape(_show(run.value))}</pre>")
                cells.append(f"<td style='vertical-align: top; padding: 4px 12px; width: 50%'>"
                             f"<b>{run.label}</b><br><small>{run.nodes}</small>"
                             f"<div><small>reducer calls:</small> {calls}</div>{outcome}</td>")
            parts.append(f"<table class='course-orders' style='width: 100%'><tr>{''.join(cells)}</tr></table>")
        return "".join(parts)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.view)
