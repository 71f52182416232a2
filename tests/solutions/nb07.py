"""Reference solution and known-wrong answers for exercise 07.1 (``helpers.exercises.nb07.MERGE_QUOTES``)."""

from __future__ import annotations

from helpers.exercises.registry import AnswerSet, KnownWrong


def merge_quotes(current: dict[str, float], update: dict[str, float]) -> dict[str, float]:
    """Reference: union of both dicts; on a shared order id keep the smaller amount."""
    merged = dict(current)
    for order_id, amount in update.items():
        merged[order_id] = min(merged[order_id], amount) if order_id in merged else amount
    return merged


def merge_quotes_comprehension(current: dict[str, float], update: dict[str, float]) -> dict[str, float]:
    """Reference, second style: one comprehension over the union of keys."""
    keys = set(current) | set(update)
    return {k: min(v for v in (current.get(k), update.get(k)) if v is not None) for k in keys}


def wrong_last_wins(current, update):
    """Wrong: ``{**current, **update}`` lets the later write win, so the result depends on order."""
    return {**current, **update}


def wrong_mutates(current, update):
    """Wrong: right values, but changes ``current`` in place and returns it."""
    for order_id, amount in update.items():
        current[order_id] = min(current.get(order_id, amount), amount)
    return current


def wrong_keeps_larger(current, update):
    """Wrong: keeps the larger amount on a conflict."""
    merged = dict(current)
    for order_id, amount in update.items():
        merged[order_id] = max(merged.get(order_id, amount), amount)
    return merged


def wrong_only_update(current, update):
    """Wrong: returns the update alone, dropping earlier orders (what a plain last-value channel keeps)."""
    return dict(update)


def wrong_forgets_return(current, update):
    """Wrong: builds the right dict on a copy, then forgets to return it (returns None)."""
    merged = dict(current)
    for order_id, amount in update.items():
        merged[order_id] = min(merged.get(order_id, amount), amount)


def wrong_truthy_amount(current, update):
    """Wrong (issue 27): tests whether the amount is truthy instead of whether the id is in the dict, so 0.0 (nothing
    left to refund) is taken for 'no quote yet' and the larger amount wins. No named amount is 0.0."""
    merged = dict(current)
    for order_id, amount in update.items():
        merged[order_id] = min(merged[order_id], amount) if merged.get(order_id) else amount
    return merged


def crashing(current, update):
    """Crashes with KeyError for an order id that is not yet in ``current``."""
    return {**current, **{k: min(current[k], v) for k, v in update.items()}}


_CONFLICT = "a conflict keeps the smaller amount, whichever write comes first"
_MERGED = "different orders are merged; empty sides change nothing"

MERGE_QUOTES = AnswerSet(
    solutions={"loop": merge_quotes, "comprehension": merge_quotes_comprehension},
    wrong={
        "last write wins": KnownWrong(wrong_last_wins, fails=(_CONFLICT, "two parallel nodes in a StateGraph, in both orders"),
                                      status="fail"),
        "mutates its argument": KnownWrong(wrong_mutates, fails=("the arguments are not modified",), status="fail"),
        "keeps the larger amount": KnownWrong(wrong_keeps_larger, fails=(_CONFLICT,), status="fail"),
        "drops earlier orders": KnownWrong(wrong_only_update, fails=(_MERGED,), status="fail"),
        "forgets to return": KnownWrong(wrong_forgets_return, fails=(_MERGED, _CONFLICT, "the arguments are not modified"),
                                        status="fail"),
        "a truthy amount means a quote": KnownWrong(wrong_truthy_amount,
                                                    fails=("agrees with the reference on generated steps",),
                                                    status="fail"),
    },
    crashing={"KeyError": crashing},
    answer_from=lambda body: lambda current, update: body(),
)
