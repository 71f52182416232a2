"""Reference solution and known-wrong answers for exercise 04.1 (a user-scoped order tool)."""

from __future__ import annotations

from dataclasses import dataclass

from langchain.tools import ToolRuntime, tool

from helpers.domain import DomainError, OrderStore
from helpers.exercises.registry import AnswerSet, KnownWrong

ORDERS = OrderStore()


@dataclass
class SupportContext:
    user_id: str


@tool
def solution(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """Look up one of the signed-in user's orders by its id."""
    try:
        return ORDERS.get_order(order_id, user_id=runtime.context.user_id).to_dict()
    except DomainError as exc:
        return exc.to_dict()


@tool
def solution_other_param_name(order_id: str, rt: ToolRuntime[SupportContext]) -> dict:
    """Same, with the runtime injected by its annotation under another name."""
    try:
        return ORDERS.get_order(order_id, user_id=rt.context.user_id).to_dict()
    except DomainError as exc:
        return exc.to_dict()


@tool
def wrong_user_id_from_model(order_id: str, user_id: str) -> dict:
    """The user id is a model argument: anyone can ask for anyone's order."""
    try:
        return ORDERS.get_order(order_id, user_id=user_id).to_dict()
    except DomainError as exc:
        return exc.to_dict()


@tool
def wrong_hard_coded_user(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """Ignores the runtime and always acts as user-42."""
    try:
        return ORDERS.get_order(order_id, user_id="user-42").to_dict()
    except DomainError as exc:
        return exc.to_dict()


@tool
def wrong_no_ownership_check(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """Reads the order without the ownership check."""
    order = ORDERS._orders.get(order_id)
    return order.to_dict() if order else {"error": "order_not_found"}


@tool
def wrong_raises(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """Lets PermissionDenied escape: inside an agent the run ends with an exception."""
    return ORDERS.get_order(order_id, user_id=runtime.context.user_id).to_dict()


@tool
def wrong_returns_text(order_id: str, runtime: ToolRuntime[SupportContext]) -> str:
    """Returns prose instead of a dict."""
    return f"order {order_id} looks fine"


@tool
def wrong_bare_runtime(order_id: str, runtime: ToolRuntime) -> dict:
    """Right logic, but a bare ToolRuntime: Pydantic warns 'Expected `none`' on every call."""
    try:
        return ORDERS.get_order(order_id, user_id=runtime.context.user_id).to_dict()
    except DomainError as exc:
        return exc.to_dict()


@tool
def wrong_keeps_user_id(order_id: str, user_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """Added the runtime but left user_id in the signature (and so in the model's schema)."""
    try:
        return ORDERS.get_order(order_id, user_id=runtime.context.user_id).to_dict()
    except DomainError as exc:
        return exc.to_dict()


@tool
def wrong_own_refusal_dicts(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """Wrong (issue 27): checks ownership itself and returns refusal dicts of its own ({"error": code}), not
    exc.to_dict(). The named checks read only the "error" key, so it passed them all; the model gets no message
    and no order id."""
    order = ORDERS._orders.get(order_id)
    if order is None:
        return {"error": "order_not_found"}
    if order.user_id != runtime.context.user_id:
        return {"error": "permission_denied"}
    return order.to_dict()


@tool
def crashing(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """A bug: raises KeyError."""
    return {}["missing"]


_DENIED = "user-7 asking for A1024 gets permission_denied (returned, not raised)"
_SCHEMA = "the model sees only order_id"

def answer_from(body):
    """A lookup tool whose body is ``body()`` (for the contract test's hostile answers)."""

    @tool
    def lookup_my_order(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
        """Look up one of the signed-in user's orders by its id."""
        return body()

    return lookup_my_order


USER_SCOPED_LOOKUP = AnswerSet(
    solutions={"runtime": solution, "another parameter name": solution_other_param_name},
    wrong={
        "user id from the model": KnownWrong(wrong_user_id_from_model, fails=(_SCHEMA,)),
        "hard-coded user": KnownWrong(wrong_hard_coded_user, fails=("user-7 gets their own order B2048",)),
        "no ownership check": KnownWrong(wrong_no_ownership_check, fails=(_DENIED,), status="fail"),
        "raises the refusal": KnownWrong(wrong_raises, fails=(_DENIED, "an unknown order gives order_not_found")),
        "returns text": KnownWrong(wrong_returns_text, fails=("user-42 gets their order A1024",)),
        "bare ToolRuntime": KnownWrong(
            wrong_bare_runtime, fails=("the runtime is typed ToolRuntime[SupportContext] (no Pydantic warnings)",)),
        "keeps user_id in the signature": KnownWrong(wrong_keeps_user_id, fails=(_SCHEMA,)),
        "refusal dicts of its own": KnownWrong(wrong_own_refusal_dicts,
                                               fails=("agrees with the reference on generated sessions",),
                                               status="fail"),
    },
    crashing={"KeyError": crashing},
    answer_from=answer_from,
)
