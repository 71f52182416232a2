"""Verifiers of notebook 04's self-check questions (``helpers/selfcheck/nb04.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

import json

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def verify_entry_point_decides(q):
    ns = context_namespace("04")
    body = {"user_id": "user-42", "text": "Where is my order A1024?"}   # written by user-7's client
    answer = json.loads(ns["ask_as"](body["user_id"], body["text"])[2].content)
    assert answer["user_id"] == "user-42" and "product" in answer
    return pick(q, "user-42's order")
