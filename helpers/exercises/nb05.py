"""Exercises of notebook 05 (return values and ToolOutputMixin): predict, then run.

The learner writes the prediction as a function, ``predict(returns, called) -> label``: what comes out of
a call of a tool whose function returns ``returns`` (:data:`RETURNS`: ``"dict"``, ``"str"``,
``"RefundReceipt"``, ``"Command"``, ``"(content, artifact)"`` for a ``content_and_artifact`` tool, or a
list of the item names :data:`ITEMS` for a list of such items), called as ``called`` (:data:`CALLS`: a
full ToolCall, run by ``ToolNode``, a ToolCall dict without ``"type"``, plain arguments). The label is
``"ToolMessage"`` (a ToolMessage: the tool layer wrapped the return value), ``"raw"`` (a plain value that
is neither a ToolMessage nor a single Command: what the function returned, or part of it, unwrapped),
``"Command"`` (a single Command object) or ``"error"`` (an exception).

The named cases are the eight calls the notebook prints (:func:`show_cases`; four repeat situations the
notebook ran, with other tools; four are new: lists of ToolOutputMixin items and
``response_format="content_and_artifact"``): each runs for real on the pinned versions (langchain-core
1.8.3 ``BaseTool._format_output``, langgraph-prebuilt 1.1.3 ``ToolNode``) and explains a wrong prediction.
The generated inputs (issue 27) are every other point of the same grid, lists of up to four items
(the empty list included) in every order: :func:`real_outcome` runs each for real, and that is the
reference; :func:`reveal` prints the eight cases' outcomes with their reasons.

The code of each case is what :func:`show_cases` prints (``inspect.getsource``), including the
:func:`tool_node_run` helper that case c calls, so what the learner reads is exactly what runs.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Literal, get_args

from hypothesis import strategies as st

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.messages.tool import ToolOutputMixin
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command

from ..i18n import N_, _
from .core import Case, Exercise, Generated
from .results import clipped, shown

__all__ = ["CALLS", "CASES", "CASE_INPUTS", "ITEMS", "LABELS", "PREDICT_THEN_RUN", "Prediction", "RETURNS", "SPECS",
           "TITLES", "classify", "outcomes", "real_outcome", "reveal", "show_cases", "tool_node_run"]

#: The four possible predictions.
Prediction = Literal["ToolMessage", "raw", "Command", "error"]
LABELS: tuple[Prediction, ...] = get_args(Prediction)


# -- the tools the cases call -------------------------------------------------------------


class RefundReceipt(ToolOutputMixin):
    """A home-made result type that inherits the (empty) ToolOutputMixin marker."""

    def __init__(self, request_id: str):
        self.request_id = request_id

    def __repr__(self) -> str:
        return f"RefundReceipt({self.request_id!r})"


@tool
def order_summary(order_id: str) -> dict:
    """Return an order summary as a dict."""
    return {"order_id": order_id, "status": "delivered"}


@tool
def make_receipt(order_id: str) -> RefundReceipt:
    """Return a RefundReceipt object."""
    return RefundReceipt("RF-0001")


@tool
def quote_and_remember(order_id: str) -> list:
    """Return two Commands: set the stage, remember the order."""
    return [Command(update={"refund_stage": "quoted"}), Command(update={"last_order": order_id})]


@tool
def quote_with_note(order_id: str) -> list:
    """Return a Command and a note for the model in one list."""
    return [Command(update={"refund_stage": "quoted"}), f"quoted {order_id}"]


@tool(response_format="content_and_artifact")
def find_orders(user_id: str) -> tuple[str, list]:
    """Return (text for the model, full rows for the program)."""
    return "2 orders found", [{"order_id": "A1024"}, {"order_id": "A1025"}]


def tool_node_run(tool_obj, args):
    """Run one call of `tool_obj` with `args` through ToolNode (langgraph-prebuilt 1.1.3), as create_agent does.

    Returns the last message of the one-node graph's state; raises whatever ToolNode raises.
    """
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode([tool_obj]))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    call = {"name": tool_obj.name, "args": args, "id": "call_1", "type": "tool_call"}
    result = graph.compile().invoke({"messages": [AIMessage("", tool_calls=[call])]})
    return result["messages"][-1]


# -- the cases (their source is shown to the learner) -------------------------------------


def case_a():
    return order_summary.invoke({"name": "order_summary", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"})


def case_b():
    return make_receipt.invoke({"name": "make_receipt", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"})


def case_c():
    # ToolNode runs the call the way create_agent does (tool_node_run, printed above)
    return tool_node_run(make_receipt, {"order_id": "A1024"})


def case_d():
    # looks like a ToolCall, but the "type" key is missing
    return order_summary.invoke({"name": "order_summary", "args": {"order_id": "A1024"}, "id": "call_1"})


def case_e():
    return quote_and_remember.invoke({"name": "quote_and_remember", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"})


def case_f():
    return quote_with_note.invoke({"name": "quote_with_note", "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"})


def case_g():
    return find_orders.invoke({"name": "find_orders", "args": {"user_id": "user-42"}, "id": "call_1", "type": "tool_call"})


def case_h():
    return find_orders.invoke({"user_id": "user-42"})


_WHY = {
    "a": N_("a dict is no ToolOutputMixin and a tool_call_id is known, so it is serialised with json.dumps "
         "into ToolMessage.content."),
    "b": N_("RefundReceipt inherits ToolOutputMixin, so BaseTool hands it back untouched, even with a ToolCall."),
    "c": N_("BaseTool lets it through, but ToolNode accepts only ToolMessage, Command or lists of them: "
         "TypeError 'returned unexpected type'. The marker is not a contract with ToolNode."),
    "d": N_("without 'type': 'tool_call' the dict is treated as the arguments themselves; 'order_id' is not "
         "among its keys, so validation fails (ValidationError: order_id Field required)."),
    "e": N_("a non-empty list whose items are all ToolOutputMixin instances is returned unchanged: you get the list "
         "itself, not a Command. (ToolNode accepts such a list only when exactly one item carries the ToolMessage "
         "that answers the call; this one has none.)"),
    "f": N_("one item (the str) is no ToolOutputMixin, so the all-items rule does not apply: the whole list is "
         "wrapped, and since a Command is no content block it is stringified with str(). The Command is lost "
         "as text."),
    "g": N_("with response_format='content_and_artifact' the tool returns (content, artifact): the content goes "
         "into ToolMessage.content for the model, the artifact into ToolMessage.artifact for the program."),
    "h": N_("plain arguments, no tool_call_id: BaseTool returns only the content part ('2 orders found'); the "
         "artifact is dropped, not returned as a tuple."),
}

#: short titles shown in the check report
TITLES = {
    "a": "dict return, full ToolCall",
    "b": "RefundReceipt(ToolOutputMixin) return, full ToolCall",
    "c": "RefundReceipt(ToolOutputMixin) return, run by ToolNode",
    "d": "dict shaped like a ToolCall but without 'type'",
    "e": "list of two Commands, full ToolCall",
    "f": "list of a Command and a str, full ToolCall",
    "g": "content_and_artifact tuple, full ToolCall",
    "h": "content_and_artifact tuple, plain arguments",
}

#: case id -> (the function that runs it, why the outcome is what it is)
CASES: dict[str, tuple[Callable[[], Any], str]] = {
    cid: (globals()[f"case_{cid}"], _WHY[cid]) for cid in "abcdefgh"
}


def classify(run: Callable[[], Any]) -> tuple[str, str]:
    """Run one case and label what came out.

    Returns:
        ``(label, detail)``: label is one of :data:`LABELS`; detail is a short, deterministic
        description (the exception as ``Type: first line``, or the type and key fields).
    """
    try:
        result = run()
    except Exception as exc:  # noqa: BLE001 - an error is one of the outcomes
        first = str(exc).splitlines()[0] if str(exc) else ""
        return "error", f"{type(exc).__name__}: {first}"
    if isinstance(result, Command):
        return "Command", f"Command(update={result.update!r})"
    if isinstance(result, ToolMessage):
        artifact = "" if result.artifact is None else f", artifact={result.artifact!r}"
        return "ToolMessage", f"ToolMessage(content={result.content!r}, tool_call_id={result.tool_call_id!r}{artifact})"
    return "raw", f"{type(result).__name__}: {result!r}"


def outcomes() -> dict[str, tuple[str, str]]:
    """Run every case: ``{case_id: (label, detail)}``."""
    return {cid: classify(run) for cid, (run, _why) in CASES.items()}


def show_cases() -> None:
    """Print the tools and the code of every case (exactly what runs)."""
    parts = [inspect.getsource(RefundReceipt)]
    parts += [inspect.getsource(t.func) for t in (order_summary, make_receipt, quote_and_remember, quote_with_note,
                                                   find_orders)]
    parts.append(inspect.getsource(tool_node_run))
    print("\n".join(parts))
    for cid, (run, _why) in CASES.items():
        body = inspect.getsource(run).split("\n", 1)[1]
        lines = [line[4:] for line in body.rstrip().splitlines()]
        lines = ["result = " + line[len("return "):] if line.startswith("return ") else line for line in lines]
        returns, called = CASE_INPUTS[cid]
        print(f"# case {cid}: {TITLES[cid]}: predict({_shown_returns(returns)!r}, {called!r})\n" + "\n".join(lines))
        print()


def reveal() -> None:
    """Print every case's real outcome and the reason for it."""
    for cid, (label, detail) in outcomes().items():
        print(_("case {cid}: {label}\n    got: {detail}\n    why: {why}").format(cid=cid, label=label, detail=detail,
                                                                       why=_(CASES[cid][1])))


# -- the grid the learner's predict() covers ----------------------------------------------------------------

#: What a tool's function returns, besides a list: the names ``predict`` gets as ``returns``.
RETURNS = ("dict", "str", "RefundReceipt", "Command", "(content, artifact)")
#: The items of a returned list (``predict`` gets a list of these names).
ITEMS = ("dict", "str", "RefundReceipt", "Command")
#: How the tool is called: ``.invoke`` with a full ToolCall, ``tool_node_run``, ``.invoke`` with a ToolCall
#: dict that lacks ``"type"``, ``.invoke`` with plain arguments.
CALLS = ("ToolCall", "ToolNode", "ToolCall without type", "plain arguments")
#: The eight cases as ``(returns, called)`` (a list as a tuple).
CASE_INPUTS: dict[str, tuple[Any, str]] = {
    "a": ("dict", "ToolCall"), "b": ("RefundReceipt", "ToolCall"), "c": ("RefundReceipt", "ToolNode"),
    "d": ("dict", "ToolCall without type"), "e": (("Command", "Command"), "ToolCall"),
    "f": (("Command", "str"), "ToolCall"), "g": ("(content, artifact)", "ToolCall"),
    "h": ("(content, artifact)", "plain arguments"),
}

_ITEM_VALUES: dict[str, Callable[[str], Any]] = {
    "dict": lambda order_id: {"order_id": order_id, "status": "delivered"},
    "str": lambda order_id: f"order {order_id} delivered",
    "RefundReceipt": lambda order_id: RefundReceipt("RF-0001"),
    "Command": lambda order_id: Command(update={"refund_stage": "quoted"}),
}


def _tool_returning(returns: Any):
    """A fresh tool whose function returns ``returns`` (a name of :data:`RETURNS`, or a tuple of :data:`ITEMS`)."""
    if returns == "(content, artifact)":
        @tool(response_format="content_and_artifact")
        def lookup_rows(order_id: str) -> tuple[str, list]:
            """Return (text for the model, full rows for the program)."""
            return f"order {order_id} found", [{"order_id": order_id}]
        return lookup_rows

    @tool
    def lookup(order_id: str) -> Any:
        """Return the value under test."""
        if isinstance(returns, tuple):
            return [_ITEM_VALUES[item](order_id) for item in returns]
        return _ITEM_VALUES[returns](order_id)
    return lookup


@functools.lru_cache(maxsize=2048)
def _real(returns: Any, called: str) -> tuple[str, str]:
    tool_obj = _tool_returning(returns)
    call = {"name": tool_obj.name, "args": {"order_id": "A1024"}, "id": "call_1", "type": "tool_call"}
    runs: dict[str, Callable[[], Any]] = {
        "ToolCall": lambda: tool_obj.invoke(call),
        "ToolNode": lambda: tool_node_run(tool_obj, {"order_id": "A1024"}),
        "ToolCall without type": lambda: tool_obj.invoke({k: v for k, v in call.items() if k != "type"}),
        "plain arguments": lambda: tool_obj.invoke({"order_id": "A1024"}),
    }
    return classify(runs[called])


def real_outcome(returns: Any, called: str) -> str:
    """The reference: the label of what really comes out (the call runs on the pinned versions, once per process).

    Args:
        returns: a name of :data:`RETURNS`, or a list (or tuple) of names of :data:`ITEMS`.
        called: a name of :data:`CALLS`.

    Returns:
        one of :data:`LABELS`.
    """
    return _real(tuple(returns) if isinstance(returns, list) else returns, called)[0]


#: Every point of the grid: a kind of return value (a list: 0 to 4 items, in any order), and a way of calling.
SPECS = st.tuples(st.one_of(st.sampled_from(RETURNS), st.lists(st.sampled_from(ITEMS), max_size=4).map(tuple)),
                  st.sampled_from(CALLS))


def _shown_returns(returns: Any) -> Any:
    """``returns`` as ``predict`` gets it: a fresh list for a list."""
    return list(returns) if isinstance(returns, tuple) else returns


def _predicted(answer: Any, spec: tuple) -> Any:
    """``answer``'s prediction for ``spec`` (a fresh list for a list).

    Raises:
        AssertionError: ``answer`` is not a function (a dict of predictions, as an older copy of 05 held)."""
    returns, called = spec
    assert callable(answer), _("pass your function, nb05.PREDICT_THEN_RUN.check(predict), got a {type}: the "
                               "predictions are a function predict(returns, called) now (a copy of notebook 05 from "
                               "before held a dict `predictions`)").format(type=type(answer).__name__)
    return answer(_shown_returns(returns), called)


def _describe(spec: tuple) -> str:
    returns, called = spec
    return _("predict({returns!r}, {called!r}); the real call gives {detail}").format(
        returns=_shown_returns(returns), called=called, detail=_real(returns, called)[1])


def _probe(answer: Any) -> None:
    answer("dict", "ToolCall")


def _make_case(cid: str) -> Case:
    run, why = CASES[cid]
    returns, called = CASE_INPUTS[cid]

    def check(answer: Any) -> None:
        guess = _predicted(answer, (returns, called))
        assert guess in LABELS, _("case {cid}: predict returned {guess}, which is not one of {labels}").format(
            cid=cid, guess=shown(guess), labels=', '.join(LABELS))
        label, detail = classify(run)
        assert guess == label, _("case {cid}, predict({returns!r}, {called!r}): you predicted {guess}, the real outcome "
                                 "is {label} ({detail}). Why: {why}").format(
            cid=cid, returns=_shown_returns(returns), called=called, guess=clipped(guess, 40), label=label,
            detail=detail, why=_(why))

    return Case(f"case {cid} ({TITLES[cid]})", check)


PREDICT_THEN_RUN = Exercise(
    "05.1",
    "predict what comes out",
    [_make_case(cid) for cid in CASES],
    probe=_probe,
    generated=Generated(
        "agrees with the real run on generated calls", SPECS, _predicted, real_outcome, _describe,
        hint=N_("BaseTool hands back a ToolOutputMixin value (a Command, a RefundReceipt, or a non-empty list whose "
                "items all are) untouched and wraps anything else in a ToolMessage; a dict without 'type' is "
                "arguments; plain arguments get the value itself; ToolNode accepts only what carries the "
                "ToolMessage")),
)
