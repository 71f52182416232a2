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


def test_the_old_model_names_are_retired():
    """``chat_model`` and the modules ``helpers.scripted_model``/``helpers.models``/``helpers.live`` are gone:
    a cell says which kind it is by calling ``scripted_model`` or ``live_model``."""
    import importlib

    import helpers

    assert not hasattr(helpers, "chat_model")
    for name in ("helpers.models", "helpers.live"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(name)
    assert callable(helpers.scripted_model) and isinstance(helpers.scripted_model(["hi"]), ScriptedChatModel)


# -- hostile test 1, item 6: the model's text is shown escaped; expect_tools shapes ------------

HOSTILE_REPLY = "<!-- hides the rest --> <b>bold</b> **strong** ![x](http://evil.example/a.png) \x1b[31mred\x1b[0m"


def test_the_verdict_renders_the_model_text_as_text():
    from markdown_it import MarkdownIt

    verdict = live_verdict(AIMessage(HOSTILE_REPLY), scripted_model(), expect_text=True)
    rendered = MarkdownIt("commonmark").render(verdict._repr_markdown_())
    for tag in ("<!--", "<b>", "<strong>", "<img", "<a "):
        assert tag not in rendered
    assert "&lt;!-- hides the rest --&gt; &lt;b&gt;bold&lt;/b&gt; **strong** ![x](http://evil.example/a.png)" in rendered
    assert "\x1b" not in repr(verdict) and "\\x1b[31mred\\x1b[0m" in repr(verdict), "no terminal escapes in plain text"


def test_the_verdict_of_a_wrong_answer_escapes_the_text_too():
    verdict = live_verdict(AIMessage("<!-- x --> ![i](http://evil.example/i.png)"), live_model(env=REAL),
                           expect_tools=["lookup_order"])
    from markdown_it import MarkdownIt

    assert not verdict.as_expected
    rendered = MarkdownIt("commonmark").render(verdict._repr_markdown_())
    assert "<!--" not in rendered and "<img" not in rendered and "&lt;!-- x --&gt; ![i](http://evil.example/i.png)" in rendered


def test_expect_tools_as_a_str_is_one_tool_name_and_none_is_no_tools():
    model = scripted_model()
    verdict = live_verdict(_call("lookup_order"), model, expect_tools="lookup_order")
    assert verdict.as_expected and verdict.line == "offline (scripted stand-in): the model called lookup_order, as expected"
    assert "but not" not in live_verdict(_call("lookup_order"), model, expect_tools="lookup_order").line
    missing = live_verdict(_call("quote_refund"), model, expect_tools="lookup_order")
    assert "called quote_refund but not lookup_order (" in missing.line
    assert live_verdict(AIMessage("hi"), model, expect_tools=None).as_expected


@pytest.mark.parametrize("bad", [5, [1], {"lookup_order": True}])
def test_expect_tools_of_another_shape_is_refused_clearly(bad):
    with pytest.raises(TypeError, match=r'live_verdict\(expect_tools=\.\.\.\) wants the names .* e\.g\. expect_tools=\["lookup_order"\]'):
        live_verdict(_call("lookup_order"), scripted_model(), expect_tools=bad)
