"""Running a notebook's code for the self-check verifiers: snippets, their context, notebook cells.

Used by the verifiers (``tests/selfcheck_verifiers/nbNN.py``) and by
``tests/test_selfcheck_questions.py``, which runs every "predict the output" snippet.
"""

import ast
import asyncio
import contextlib
import importlib
import inspect
import io
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
NOTEBOOKS = ROOT / "notebooks"


# -- running code ------------------------------------------------------------------------------


def run_snippet(source: str, namespace: dict, name: str) -> str:
    """Execute ``source`` in ``namespace`` (top-level ``await`` allowed); return what it printed."""
    code = compile(source, f"<{name}>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = eval(code, namespace)
        if inspect.iscoroutine(result):
            asyncio.run(result)
    return out.getvalue()


#: Contexts for the question modules written before ``CODE_CONTEXT`` existed (notebook 02's setup).
FALLBACK_CONTEXT = {
    "02": '''
from langchain.tools import tool
from helpers import scripted_model, tool_call
from helpers.domain import DomainError, OrderStore, RefundService

USER = "user-42"
runs = {"lookup_order": 0, "quote_refund": 0, "submit_refund_request": 0}
store = OrderStore()
refunds = RefundService(store)


@tool
def lookup_order(order_id: str) -> dict:
    """Look up one order of the current customer by id (e.g. A1024): product, status, amounts."""
    runs["lookup_order"] += 1
    return store.get_order(order_id, user_id=USER).to_dict()


@tool
def quote_refund(order_id: str) -> dict:
    """Read-only: how much of an order can be refunded today, and under which policy."""
    runs["quote_refund"] += 1
    return {"order_id": order_id}


@tool
def submit_refund_request(order_id: str, amount: float) -> dict:
    """Create a refund REQUEST (it does not send money). Quote first: amount must not exceed the quote."""
    runs["submit_refund_request"] += 1
    request = refunds.submit(order_id, amount, user_id=USER, idempotency_key=f"{order_id}:{amount}")
    return {"request_id": request.request_id, "status": request.status, "amount": request.amount}


TOOLS = [lookup_order, quote_refund, submit_refund_request]
''',
}


def context_of(number: str) -> str | None:
    """The Python source a notebook's snippets run after (``CODE_CONTEXT`` or a fallback here)."""
    module = importlib.import_module(f"helpers.selfcheck.nb{number}")
    return getattr(module, "CODE_CONTEXT", None) or FALLBACK_CONTEXT.get(number)


def context_namespace(number: str) -> dict:
    """A fresh namespace holding notebook ``number``'s snippet context."""
    namespace = {"__name__": f"selfcheck_nb{number}"}
    run_snippet(context_of(number) or "", namespace, f"nb{number} context")
    return namespace


def notebook_path(number: str) -> Path:
    found = sorted(NOTEBOOKS.glob(f"{number}_*.ipynb"))
    assert len(found) == 1, f"expected one notebook {number}_*.ipynb, found {[p.name for p in found]}"
    return found[0]


def cells(number: str) -> list[dict]:
    return json.loads(notebook_path(number).read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def notebook_cells_namespace(number: str, *markers: str) -> dict:
    """Execute, in notebook order, the code cells of notebook ``number`` that contain one of
    ``markers`` (the notebook's own definitions); return the namespace. Output is discarded."""
    namespace = {"__name__": f"notebook_{number}"}
    chosen = [c for c in cells(number) if c["cell_type"] == "code" and any(m in source(c) for m in markers)]
    assert len(chosen) >= len(markers), f"notebook {number}: not every marker of {markers} found"
    for cell in chosen:
        run_snippet(source(cell), namespace, f"notebook {number} cell")
    return namespace
