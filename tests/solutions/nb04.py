"""Reference solution and known-wrong answers for exercise 04.1 (a user-scoped order tool)."""

from __future__ import annotations

from dataclasses import dataclass

from langchain.tools import ToolRuntime, tool

from helpers.domain import DomainError, OrderStore

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
def stub(order_id: str, user_id: str) -> dict:
    """The shipped stub: the unsafe signature, to be migrated."""
    raise NotImplementedError("move user_id from the model's arguments to runtime.context")


@tool
def crashing(order_id: str, runtime: ToolRuntime[SupportContext]) -> dict:
    """A bug: raises KeyError."""
    return {}["missing"]


SOLUTIONS = [solution, solution_other_param_name]
WRONG = [wrong_user_id_from_model, wrong_hard_coded_user, wrong_no_ownership_check, wrong_raises, wrong_returns_text,
         wrong_bare_runtime, wrong_keeps_user_id]
