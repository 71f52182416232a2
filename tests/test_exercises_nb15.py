"""Exercise 15.1's generated histories are what ``create_agent(..., response_format=ToolStrategy(...))``
really produces (langchain 1.5.2): each built history equals a real run on the scripted model, message by
message, so the generated check judges answers on the histories a learner's monitor would read."""

from __future__ import annotations

from typing import Union

import pytest

from helpers.exercises import nb15
from helpers.model.script import tool_call

SPECS = [
    (("RefundDecision",), ("lookup_order fails", "rejected 1", "two responses"), "accepted"),
    (("RefundVerdict",), ("refund_window says Error", "three responses", "rejected 2"), "accepted"),
    (("RefundDecision", "EscalateCase"), ("two tools in one turn", "rejected 2", "two responses"), "accepted"),
    (("RefundDecision", "EscalateCase"), ("lookup_order answers", "three responses"), "answers in text"),
    (("RefundDecision",), (), "accepted"),
]


def _steps(spec: tuple) -> list:
    """The scripted model's steps that make a real run of ``spec``."""
    names, turns, ending = spec
    steps = []
    for turn in turns:
        if turn in nb15._TOOL_TURNS:
            steps.append([tool_call(name, {"order_id": order}) for name, order in nb15._TOOL_TURNS[turn]])
        elif turn.startswith("rejected"):
            name = names[(int(turn[-1]) - 1) % len(names)]
            steps.append([tool_call(name, nb15._INVALID[name])])
        else:
            count = 2 if turn == "two responses" else 3
            steps.append([tool_call(names[i % len(names)], nb15._VALID[names[i % len(names)]]) for i in range(count)])
    steps.append([tool_call(names[0], nb15._VALID[names[0]])] if ending == "accepted"
                 else "I would refund the 49.50 on A1024.")
    return steps


def _shape(message) -> tuple:
    calls = [(c["name"], c["args"], c["id"]) for c in getattr(message, "tool_calls", [])]
    return (message.type, message.text, getattr(message, "name", None), getattr(message, "tool_call_id", None),
            getattr(message, "status", None), calls)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: f"{'+'.join(spec[0])}: {', '.join(spec[1])}, {spec[2]}")
def test_a_built_history_equals_a_real_run(spec):
    names = spec[0]
    schema = Union[tuple(nb15._SCHEMAS[n] for n in names)] if len(names) > 1 else nb15._SCHEMAS[names[0]]
    real = nb15.refund_desk_history(*_steps(spec), schema=schema)
    built = nb15.built_history(spec)
    assert [_shape(m) for m in built] == [_shape(m) for m in real]


def test_a_run_still_retrying_is_a_real_run_cut_after_its_last_step():
    spec = (("RefundDecision",), ("rejected 1", "lookup_order fails", "rejected 1"), "still retrying")
    real = nb15.refund_desk_history(*_steps((spec[0], spec[1], "accepted")))
    built = nb15.built_history(spec)
    assert [_shape(m) for m in built] == [_shape(m) for m in real[: len(built)]] and len(real) == len(built) + 2
    assert nb15.structured_retries(built, {"RefundDecision"}) == 2
