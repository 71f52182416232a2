"""Protocol cases stay scripted; live cells use the configured model and report surprises in one line."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from helpers import ScriptedChatModel, is_live, live_model, live_verdict, scripted_model, tool_call

REAL = {"COURSE_MODEL": "qwen-plus", "OPENAI_API_KEY": "sk-test-0123456789abcdefghij",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}


def test_scripted_model_ignores_a_configured_real_model(monkeypatch):
    for name, value in REAL.items():
        monkeypatch.setenv(name, value)
    model = scripted_model(["hi"])
    assert isinstance(model, ScriptedChatModel) and not is_live(model)


def test_live_model_is_scripted_offline_and_real_when_configured():
    assert isinstance(live_model(["hi"], env={}), ScriptedChatModel)
    real = live_model(["hi"], env=REAL)
    assert is_live(real) and not isinstance(real, ScriptedChatModel)
    assert is_live(real.bind_tools([])), "a bind_tools binding of a real model is live too"


def _call(name: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": {}, "id": "call_1", "type": "tool_call"}])


def test_verdict_offline_as_expected():
    verdict = live_verdict(_call("lookup_order"), scripted_model(), expect_tools=["lookup_order"])
    assert verdict.as_expected and not verdict.live
    assert repr(verdict) == "offline (scripted stand-in): the model called lookup_order, as expected"


def test_verdict_live_text_instead_of_tool_call_says_so():
    verdict = live_verdict([HumanMessage("where is A1024?"), AIMessage("It was delivered.")],
                           live_model(env=REAL), expect_tools=["lookup_order"])
    assert verdict.live and not verdict.as_expected
    assert "your model answered in text instead of calling lookup_order: \"It was delivered.\"" in verdict.line
    assert "sk-test" not in verdict.line


def test_verdict_names_the_wrong_tool_and_invalid_arguments():
    model = live_model(env=REAL)
    assert "called quote_refund but not lookup_order" in live_verdict(_call("quote_refund"), model,
                                                                      expect_tools=["lookup_order"]).line
    broken = AIMessage(content="", invalid_tool_calls=[{"name": "lookup_order", "args": "{", "id": "c",
                                                         "error": None, "type": "invalid_tool_call"}])
    assert "invalid arguments for lookup_order" in live_verdict(broken, model, expect_tools=["lookup_order"]).line


def test_verdict_accepts_graph_results_and_rejects_other_shapes():
    result = {"messages": [HumanMessage("x"), _call("lookup_order"), AIMessage("done")]}
    verdict = live_verdict(result, scripted_model(), expect_tools=["lookup_order"], expect_text=True)
    assert verdict.as_expected and 'answered: "done"' in verdict.line
    with pytest.raises(TypeError, match="live_verdict wants"):
        live_verdict(42, scripted_model())


def test_the_package_keeps_the_function_names_after_the_old_modules_are_imported():
    import importlib

    import helpers

    for name in ("helpers.scripted_model", "helpers.live", "helpers.models"):
        importlib.import_module(name)
    from helpers import scripted_model as function

    assert callable(function) and isinstance(function(["hi"]), ScriptedChatModel)
    from helpers.scripted_model import tool_call as old_tool_call  # the old module still imports by name

    assert old_tool_call is tool_call and helpers.chat_model is live_model
