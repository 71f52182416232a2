"""Notebook 13's self-check beyond the shared proof: every choice of a "predict the output" question is a line its
code could print (issue 29: question 2 offered two that it never could)."""

from __future__ import annotations

import ast

from helpers.selfcheck.nb13 import QUESTIONS


def test_every_choice_of_the_delta_question_is_something_its_print_could_show():
    (question,) = [q for q in QUESTIONS if q.id == "one-delta-alone"]
    for choice in question.choices:
        tool_calls, invalid, names = choice.split(" ", 2)
        names = ast.literal_eval(names)
        # the code prints len(tool_calls), len(invalid_tool_calls) and the name of each invalid call
        assert int(invalid) == len(names), choice
        assert all(name is None or isinstance(name, str) for name in names), choice
