"""Exercise 04.1 beyond the contract (tests/test_exercise_contract.py): feedback texts, warnings, an async answer."""

from __future__ import annotations

from langchain.tools import ToolRuntime, tool

from helpers.exercises import nb04
from tests.solutions import nb04 as sol


def test_specific_feedback():
    text = nb04.USER_SCOPED_LOOKUP.check(sol.wrong_user_id_from_model).text()
    assert "user_id is in the schema" in text
    text = nb04.USER_SCOPED_LOOKUP.check(sol.wrong_raises).text()
    assert "return exc.to_dict()" in text
    text = nb04.USER_SCOPED_LOOKUP.check(sol.wrong_hard_coded_user).text()
    assert "hard-coded" in text


def test_plain_function_gets_a_hint():
    def not_a_tool(order_id):
        return {}

    result = nb04.USER_SCOPED_LOOKUP.check(not_a_tool)
    assert not result.passed
    assert "@tool" in result.text()


def test_bare_runtime_fails_and_its_warnings_stay_out_of_the_cell():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = nb04.USER_SCOPED_LOOKUP.check(sol.wrong_bare_runtime)
    assert result.solved and not result.passed
    assert [r.name for r in result.failed] == [
        "the runtime is typed ToolRuntime[SupportContext] (no Pydantic warnings)"
    ], result.text()
    assert "annotate the runtime as ToolRuntime[SupportContext]" in result.text()
    assert not [w for w in caught if "Pydantic serializer" in str(w.message)], [str(w.message) for w in caught]


def test_solutions_emit_no_warnings():
    import warnings

    for answer in sol.USER_SCOPED_LOOKUP.solutions.values():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert nb04.USER_SCOPED_LOOKUP.check(answer).passed
        assert not caught, [str(w.message) for w in caught]


def test_kept_user_id_is_caught_by_the_schema_case():
    text = nb04.USER_SCOPED_LOOKUP.check(sol.wrong_keeps_user_id).text()
    assert "user_id is in the schema" in text, text


def test_an_async_tool_is_told_to_be_a_plain_def():
    @tool
    async def lookup_my_order(order_id: str, runtime: ToolRuntime[nb04.CheckContext]) -> dict:
        """Async."""
        return {}

    result = nb04.USER_SCOPED_LOOKUP.check(lookup_my_order)
    assert result.solved and not result.passed
    assert "this exercise wants a plain `def`: your tool wraps an `async def` function" in result.summary()
