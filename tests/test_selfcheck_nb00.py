"""Notebook 00's "predict the output" questions print their answer, in the notebook's own context.

The context is built from ``notebooks/00_start_here.ipynb`` itself: every import of its code cells and
the cell's definition of ``lookup_order`` (so a change of the notebook's tool is a change of the
question's context). Nothing else of the notebook runs.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json

import pytest

from helpers.selfcheck import questions_for
from helpers.workspace import NOTEBOOK_DIR

NOTEBOOK = NOTEBOOK_DIR / "00_start_here.ipynb"
PREDICT = [q for q in questions_for("00") if q.kind == "predict"]


def _notebook_context() -> dict:
    """A fresh namespace holding the notebook's imports and its ``lookup_order`` tool."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    kept: list[ast.stmt] = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        kept += [node for node in tree.body
                 if isinstance(node, (ast.Import, ast.ImportFrom))
                 or (isinstance(node, ast.FunctionDef) and node.name == "lookup_order")]
    assert any(isinstance(node, ast.FunctionDef) for node in kept), "notebook 00 no longer defines lookup_order"
    namespace: dict = {}
    exec(compile(ast.Module(body=kept, type_ignores=[]), str(NOTEBOOK.name), "exec"), namespace)
    return namespace


def test_notebook_00_has_a_predict_question():
    assert PREDICT, "notebook 00 should keep one 'predict the output' question"


@pytest.mark.parametrize("question", PREDICT, ids=lambda q: q.id)
def test_the_snippet_prints_the_answer(question):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(question.code, f"<question {question.id}>", "exec"), _notebook_context())
    assert printed.getvalue().strip() == question.answer
