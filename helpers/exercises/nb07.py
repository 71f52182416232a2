"""Exercises for notebook 07 · reducers and parallel writes.

``MERGE_QUOTES`` (07.1): write the reducer for a ``refundable`` field, a dict
``{order_id: refundable amount}`` that parallel lookups write to in the same step.
On a conflict (two writes report the same order) the reducer keeps the smaller,
more conservative amount. The hidden checks call the reducer directly and run it in a
real LangGraph ``StateGraph`` where two or three parallel nodes write in every order.

The graph checks mirror LangGraph 1.2's ``BinaryOperatorAggregate`` channel: the channel
starts from ``dict()``, the input is merged first, then every write of a step is merged
with ``reducer(current, update)``, one write at a time, in task order.

:func:`merge_quotes` is the reference. The generated check (:data:`STEPS`) draws an input and one to three
parallel writes over three order ids, amounts ``0.0`` (nothing left to refund) included, and compares the
direct merge of the first write and the graph's result.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from hypothesis import strategies as st

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import shown

__all__ = ["MERGE_QUOTES", "STEPS", "merge_quotes", "run_parallel_writes", "step_outcome"]

Reducer = Callable[[dict[str, float], dict[str, float]], dict[str, float]]


def run_parallel_writes(reducer: Reducer, initial: dict[str, float], writes: list[dict[str, float]]) -> dict[str, float]:
    """Run one LangGraph step in which ``len(writes)`` parallel nodes each write one update.

    Args:
        reducer: the reducer under test, used as ``Annotated[dict, reducer]``.
        initial: the graph input for the field (merged into ``{}`` with the reducer first).
        writes: one update dict per parallel node; node ``write_1`` writes ``writes[0]``, ...

    Returns:
        the field's final value (``graph.invoke(...)["refundable"]``).

    Raises:
        whatever the reducer raises (LangGraph re-raises it from ``invoke``).
    """
    from langgraph.graph import START, StateGraph

    # functional TypedDict: the reducer is a local value (this module uses postponed annotations)
    QuoteState = TypedDict("QuoteState", {"refundable": Annotated[dict, reducer]})
    graph = StateGraph(QuoteState)
    for number, update in enumerate(writes, start=1):
        snapshot = copy.deepcopy(update)
        graph.add_node(f"write_{number}", lambda state, value=snapshot: {"refundable": copy.deepcopy(value)})
        graph.add_edge(START, f"write_{number}")
    return graph.compile().invoke({"refundable": copy.deepcopy(initial)})["refundable"]


def _expect(label: str, got: Any, want: dict[str, float]) -> None:
    _returned_dict(label, got)
    assert got == want, _("{label}: expected {want}, got {got}").format(label=label, want=_fmt(want), got=_fmt(got))


def _returned_dict(label: str, got: Any) -> None:
    assert got is not None, _("{label}: the reducer must return a dict, it returned None (did you forget `return`?)").format(
        
        label=label)
    assert isinstance(got, dict), _("{label}: the reducer must return a dict, it returned {type}").format(
        label=label, type=type(got).__name__)


def _fmt(value: Any) -> str:
    """A dict with its keys sorted (bounded with :func:`shown`; a large one is shown as it is)."""
    if isinstance(value, dict) and len(value) <= 20:
        return "{" + ", ".join(f"{shown(k)}: {shown(value[k])}" for k in sorted(value, key=str)) + "}"
    return shown(value)


def _disjoint(reducer: Reducer) -> None:
    _expect(_("two different orders"), reducer({"A1024": 499.0}, {"A1030": 120.0}), {"A1024": 499.0, "A1030": 120.0})
    _expect(_("empty update"), reducer({"A1024": 499.0}, {}), {"A1024": 499.0})
    _expect(_("empty state"), reducer({}, {"A1029": 2899.0}), {"A1029": 2899.0})


def _conflict_both_orders(reducer: Reducer) -> None:
    first = reducer({"A1024": 499.0}, {"A1024": 450.0})
    second = reducer({"A1024": 450.0}, {"A1024": 499.0})
    _expect(_("A1024 reported as 499.0 then 450.0"), first, {"A1024": 450.0})
    _expect(_("A1024 reported as 450.0 then 499.0"), second, {"A1024": 450.0})


def _no_mutation(reducer: Reducer) -> None:
    current = {"A1024": 499.0, "A1030": 120.0}
    update = {"A1024": 450.0, "A1029": 2899.0}
    before = (dict(current), dict(update))
    result = reducer(current, update)
    _returned_dict(_("merging two dicts"), result)
    assert (current, update) == before, (
        _("the reducer changed its arguments in place; build and return a new dict "
        "(the old value may still be held by a checkpoint)")
    )
    assert result is not current and result is not update, _("return a new dict, not one of the arguments")


def _graph_two_orders(reducer: Reducer) -> None:
    # a reducer that returns None would crash inside LangGraph on the next write: report it plainly first
    _returned_dict(_("merging two dicts"), reducer({"A1030": 120.0}, {"A1024": 450.0}))
    a = {"A1024": 499.0, "A1029": 2899.0}
    b = {"A1024": 450.0}
    want = {"A1024": 450.0, "A1029": 2899.0, "A1030": 120.0}
    _expect(_("graph, write_1 then write_2"), run_parallel_writes(reducer, {"A1030": 120.0}, [a, b]), want)
    _expect(_("graph, writes swapped"), run_parallel_writes(reducer, {"A1030": 120.0}, [b, a]), want)


def _graph_three_writes(reducer: Reducer) -> None:
    writes = [{"A1024": 499.0}, {"A1024": 480.0, "A1030": 120.0}, {"A1030": 100.0, "A1029": 2899.0}]
    want = {"A1024": 480.0, "A1029": 2899.0, "A1030": 100.0}
    _returned_dict(_("merging two dicts"), reducer({"A1024": 499.0}, {"A1030": 120.0}))
    for order in itertools.permutations(writes):
        label = _("graph, writes in the order {orders}").format(orders=" / ".join(_fmt(w) for w in order))
        _expect(label, run_parallel_writes(reducer, {}, list(order)), want)


# -- the reference and the generated steps -------------------------------------------------------------------


def merge_quotes(current: dict[str, float], update: dict[str, float]) -> dict[str, float]:
    """The reference of 07.1 (the specification): a new dict with every order id of both; for an id in both, the
    smaller amount (``0.0``, an order with nothing left to refund, included)."""
    merged = dict(current)
    for order_id, amount in update.items():
        merged[order_id] = min(merged[order_id], amount) if order_id in merged else amount
    return merged


#: The order ids and amounts of the generated dicts (0.0: nothing left to refund on that order).
ORDERS = ("A1024", "A1030", "A1029")
AMOUNTS = (450.0, 499.0, 0.0, 120.0, 20.0, 2899.0)
_QUOTES = st.lists(st.tuples(st.sampled_from(ORDERS), st.sampled_from(AMOUNTS)), max_size=3,
                   unique_by=lambda pair: pair[0]).map(tuple)
#: A generated step: ``(the input, the writes of one to three parallel nodes)``, each a dict as ``(id, amount)``
#: pairs.
STEPS = st.tuples(_QUOTES, st.lists(_QUOTES, min_size=1, max_size=3).map(tuple))


def step_outcome(answer: Reducer, spec: tuple) -> dict[str, Any]:
    """The answer on the step of ``spec`` (:data:`STEPS`): called directly on the input and the first write
    (neither may change), and as the field's reducer in a real ``StateGraph`` step with every write.

    Returns:
        ``{"direct": the merged dict, "graph": the field's value after the step}``.
    """
    initial, writes = spec
    current, update = dict(initial), dict(writes[0])
    direct = answer(current, update)
    _returned_dict(_("merging two dicts"), direct)
    assert (current, update) == (dict(initial), dict(writes[0])), (
        _("the reducer changed its arguments in place; build and return a new dict "
          "(the old value may still be held by a checkpoint)"))
    return {"direct": direct, "graph": run_parallel_writes(answer, dict(initial), [dict(w) for w in writes])}


def _describe_step(spec: tuple) -> str:
    initial, writes = spec
    return _("the input {initial}, then parallel writes {writes}").format(
        initial=_fmt(dict(initial)), writes=" / ".join(_fmt(dict(w)) for w in writes))


MERGE_QUOTES = Exercise(
    "07.1",
    "a reducer for parallel refund quotes",
    [
        Case("different orders are merged; empty sides change nothing", _disjoint,
             N_("keep every order id from both dicts")),
        Case("a conflict keeps the smaller amount, whichever write comes first", _conflict_both_orders,
             N_("for an order id in both dicts, keep min(old, new)")),
        Case("the arguments are not modified", _no_mutation, N_("copy `current` before changing it")),
        Case("two parallel nodes in a StateGraph, in both orders", _graph_two_orders),
        Case("three parallel nodes, all six orders", _graph_three_writes),
    ],
    generated=Generated(
        "agrees with the reference on generated steps", STEPS, step_outcome, merge_quotes, _describe_step,
        hint=N_("test whether an order id is in the dict (`in`), not whether its amount is truthy: 0.0 is an "
                "amount too, and the smallest one"),
        examples=60),
    # The generated check compiles a graph for each input; on a loaded 2-core machine 60 inputs (and the
    # reference's, on the first check) can take seconds, so the deadline (which only ever matters for an
    # endless loop) is longer than the default 5 s.
    timeout=30,
)
