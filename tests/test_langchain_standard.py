"""LangChain's own conformance suite against the scripted model (langchain-tests 1.1.9).

``ChatModelUnitTests`` runs in full. ``ChatModelIntegrationTests`` runs against a *generic scripted
policy*: one callable step, repeated, that answers any request plausibly (a bound tool called with
arguments that fit its JSON schema when tools are bound and the user just spoke or ``tool_choice``
forces a call; text after a tool result; text otherwise). Integration tests that need a model that
understands the prompt are not run, each with the reason (:data:`NEEDS_UNDERSTANDING`; marked
``xfail(run=False)``, the only override the suite accepts); tests of capabilities the scripted model
does not claim (images, audio, PDF, JSON mode, token usage, VCR cassettes) skip themselves through
the suite's own capability flags.

Issue 12 counted four integration tests that need a model that understands the prompt;
:data:`NEEDS_UNDERSTANDING` lists three. The fourth, ``test_bind_runnables_as_tools``, runs and
passes: its prompt asks for a "Pirate greeting", but it asserts only that the call's ``answer_style``
argument is not empty, and the generic policy's schema-fitting string (``"example"``) is not empty.
So no test was dropped quietly: the three are listed with their reasons and every other one runs.
(The issue did not name the four; these are the integration tests whose assertions depend on what
the prompt asks for. ``test_tool_calling_with_no_arguments`` is not among them: its one tool takes
no arguments, so any call of it passes.)

The suite's async tests run under pytest-asyncio with ``asyncio_mode = "auto"`` (``pyproject.toml``;
no other test in the suite is async, so the mode changes nothing else).
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_tests.integration_tests import ChatModelIntegrationTests
from langchain_tests.unit_tests import ChatModelUnitTests

from helpers import ScriptedChatModel, tool_call
from helpers.model.recording import RecordedRequest
from tests.schema_values import arguments_for

#: Integration tests not run because they check *what* the model answers to a prompt, which a script
#: cannot know; everything else in the suite runs.
NEEDS_UNDERSTANDING = {
    "test_tool_calling": "checks that 'magic_function(3)' in the prompt becomes the argument input=3",
    "test_tool_calling_async": "checks that 'magic_function(3)' in the prompt becomes the argument input=3",
    "test_unicode_tool_call_integration": "checks that the customer name '你好啊集团' from the prompt reaches the arguments",
}


def generic_policy(request: RecordedRequest) -> Any:
    """A script step for any request: call a bound tool with schema-fitting arguments, or answer in text.

    * the last message is a ToolMessage -> text that quotes the result;
    * tools are bound, ``tool_choice`` is not ``"none"``, and the last message is from the user or
      ``tool_choice`` forces a call -> one call of the tool ``tool_choice`` names (else the first),
      with :func:`tests.schema_values.arguments_for` arguments;
    * otherwise -> a short text reply.
    """
    last = request.last_message
    if isinstance(last, ToolMessage):
        return f"The tool answered: {last.text}"
    choice = request.tool_choice
    names = request.tool_names
    forced = choice in ("any", "required", True) or (isinstance(choice, str) and choice in names) or isinstance(choice, dict)
    if names and choice != "none" and (forced or isinstance(last, HumanMessage)):
        if isinstance(choice, dict):
            wanted = (choice.get("function") or {}).get("name")
        else:
            wanted = choice if isinstance(choice, str) and choice in names else names[0]
        schema = next(t for t in request.tools if t["function"]["name"] == wanted)
        return [tool_call(wanted, arguments_for(schema["function"].get("parameters")))]
    return "Hello! This is the scripted model."


POLICY_SCRIPT = [generic_policy] * 50


class _ScriptedParams:
    @property
    def chat_model_class(self) -> type[ScriptedChatModel]:
        return ScriptedChatModel

    @property
    def chat_model_params(self) -> dict[str, Any]:
        return {"script": POLICY_SCRIPT}

    @property
    def returns_usage_metadata(self) -> bool:
        return False  # the scripted model reports no token usage

    @property
    def model_override_value(self) -> str:
        return "scripted-override"


class TestScriptedChatModelUnit(_ScriptedParams, ChatModelUnitTests):
    """``ChatModelUnitTests`` in full."""


class TestScriptedChatModelIntegration(_ScriptedParams, ChatModelIntegrationTests):
    """``ChatModelIntegrationTests`` with the generic policy; see :data:`NEEDS_UNDERSTANDING`."""


def _not_run(name: str, reason: str) -> Any:
    """A stand-in for a suite test that is not run; langchain-tests accepts an override only as xfail with a reason."""
    def test(self: Any, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("not run")

    test.__name__ = name
    return pytest.mark.xfail(reason=f"not run: needs a model that understands the prompt: {reason}", run=False)(test)


for _name, _reason in NEEDS_UNDERSTANDING.items():
    setattr(TestScriptedChatModelIntegration, _name, _not_run(_name, _reason))
