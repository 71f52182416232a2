"""Verifiers of notebook NN's self-check questions (``helpers/selfcheck/nbNN.py``): see
``tests/selfcheck_verifiers/__init__.py``."""

from tests.selfcheck_verifiers import pick
from tests.selfcheck_verifiers.snippets import context_namespace


def verify_nothing_has_run(q):
    namespace = context_namespace("NN")  # section 1's cell, run afresh
    assert namespace["reply"].tool_calls and namespace["runs"] == []
    return pick(q, "Never")
