"""The two kinds of model cell: a *protocol case* and a *live* cell.

* :func:`scripted_model` is for a **protocol case**: the model's move is the lesson's fixture
  ("suppose the model writes broken JSON", "two calls in one reply"), so it is always the
  offline :class:`~helpers.model.scripted.ScriptedChatModel`, whatever the environment says.
* :func:`live_model` is for a **live** cell: it asks the configured real model (see
  :mod:`helpers.model.factory` for the environment variables) and offline falls back to the
  scripted stand-in it is given, so the committed output stays deterministic.
* :func:`live_verdict` ends a live cell: one line saying what the model really did and
  whether that is what the prose around the cell expects, e.g. ``your model answered in text
  instead of calling the tool: ...``. Cells below a live cell never depend on its result, so a
  surprising live answer is reported, not crashed on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage

from ..display import markdown_text
from ..i18n import _
from .factory import describe_model, model_from_env
from .scripted import ScriptedChatModel

__all__ = ["LiveVerdict", "is_live", "live_model", "live_verdict", "scripted_model"]


def scripted_model(script: Sequence[Any] = (), **scripted_kwargs: Any) -> ScriptedChatModel:
    """The model for a protocol case: always scripted, also when a real model is configured.

    Args:
        script: the steps, as for :class:`~helpers.model.scripted.ScriptedChatModel` (a list or
            tuple; a bare string is refused).
        **scripted_kwargs: e.g. ``strict_tool_names=False``.

    Returns:
        a new ``ScriptedChatModel``.

    Raises:
        helpers.model.script.ScriptError: the script is malformed (named with its step number).
    """
    return ScriptedChatModel(script=script, **scripted_kwargs)


def live_model(offline_script: Sequence[Any] = (), *, env: Mapping[str, str] | None = None,
               **scripted_kwargs: Any) -> BaseChatModel:
    """The model for a live cell: the configured real model, or offline the scripted stand-in.

    Args:
        offline_script: the replies the scripted stand-in plays when no real model is configured.
        env: a mapping to read instead of ``os.environ`` (for tests).
        **scripted_kwargs: extra arguments for the offline ``ScriptedChatModel``.

    Returns:
        a recording ``ChatOpenAI`` subclass when ``COURSE_MODEL`` (and a key) are set,
        otherwise ``ScriptedChatModel(script=offline_script)``.

    Raises:
        helpers.model.factory.ModelConfigError: the environment configures a real model wrongly
            or only partly (the message names the variable, never its value).
        helpers.model.script.ScriptError: the offline script is malformed.
    """
    return model_from_env(offline_script, env=env, **scripted_kwargs)




def is_live(model: Any) -> bool:
    """True when ``model`` (or the model inside a ``bind_tools`` binding) is a real, non-scripted model."""
    inner = getattr(model, "bound", model)
    return isinstance(inner, BaseChatModel) and not isinstance(inner, ScriptedChatModel)


@dataclass(frozen=True)
class LiveVerdict:
    """What a live cell's model did, in one line.

    Attributes:
        live: True when a real model answered (False: the offline scripted stand-in).
        as_expected: True when the model did what the surrounding prose expects.
        line: the sentence shown in the notebook, as plain text: the model's own words in it have
            their control characters (ANSI colour codes, lone surrogates) written as escapes.

    ``repr`` is ``line``; in Jupyter it renders as Markdown escaped with
    :func:`helpers.display.markdown_text`, so a reply holding ``<!--``, ``<b>``, ``**`` or
    ``![x](http://...)`` shows as those characters (nothing hidden, no remote image fetched).
    """

    live: bool
    as_expected: bool
    line: str

    def __repr__(self) -> str:
        return self.line

    def _repr_markdown_(self) -> str:
        return markdown_text(self.line)


def _ai_messages(result: Any) -> list[AIMessage]:
    if isinstance(result, AIMessage):
        return [result]
    if isinstance(result, Mapping) and "messages" in result:
        result = result["messages"]
    if hasattr(result, "value") and isinstance(getattr(result, "value"), Mapping):  # GraphOutput (version="v2")
        result = result.value.get("messages", [])
    if isinstance(result, Sequence) and not isinstance(result, (str, bytes)):
        return [m for m in result if isinstance(m, AIMessage)]
    raise TypeError(
        f"live_verdict wants an AIMessage, a list of messages or a graph result with 'messages', "
        f"got {type(result).__name__}"
    )


def _visible(text: str) -> str:
    """``text`` with characters a terminal or Jupyter would act on (ESC, BEL, a lone surrogate) as escapes."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in text)


def _text_of(message: AIMessage, limit: int = 120) -> str:
    text = message.text if isinstance(message.text, str) else str(message.content)
    text = _visible(" ".join(text.split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tool_names(expect_tools: Any) -> list[str]:
    """``expect_tools`` as a list of names: a str is one name, ``None`` none; anything else is refused."""
    if expect_tools is None:
        return []
    if isinstance(expect_tools, str):
        return [expect_tools]
    if isinstance(expect_tools, (list, tuple, set, frozenset)) and all(isinstance(n, str) for n in expect_tools):
        return list(expect_tools)
    raise TypeError(
        "live_verdict(expect_tools=...) wants the names of the tools the prose expects the model to call, "
        f'e.g. expect_tools=["lookup_order"]; got {type(expect_tools).__name__}'
    )


def live_verdict(result: Any, model: Any, *, expect_tools: Sequence[str] | str | None = (),
                 expect_text: bool = False) -> LiveVerdict:
    """Say in one line what the model of a live cell did, and whether the prose expects it.

    Args:
        result: an ``AIMessage``, a list of messages, or a graph result (dict or ``GraphOutput``)
            holding ``messages``.
        model: the model the cell used (from :func:`live_model`); decides "live" vs "offline".
        expect_tools: tool names the prose expects the model to call (each at least once); a
            single str is one name (``"lookup_order"``), ``None`` the same as ``[]``.
        expect_text: True when the prose expects a final text answer.

    Returns:
        a :class:`LiveVerdict` that renders as its line. It never raises for a surprising
        answer: that is the point of a live cell.

    Raises:
        TypeError: ``result`` holds no messages, or ``expect_tools`` is not a name or a list of
            names (a programming error in the cell).
    """
    expected_names = _tool_names(expect_tools)
    messages = _ai_messages(result)
    called = [_visible(str(c["name"])) for m in messages for c in m.tool_calls]
    invalid = [_visible(str(c.get("name") or "?")) for m in messages for c in m.invalid_tool_calls]
    live = is_live(model)
    if live:
        who = _("live ({model})").format(model=describe_model(getattr(model, "bound", model)))
    else:
        who = _("offline (scripted stand-in)")
    problems = []
    missing = [name for name in expected_names if name not in called]
    if missing:
        if invalid:
            problems.append(_("your model wrote invalid arguments for {tools} instead of a valid call").format(
                tools=", ".join(invalid)))
        elif not called:
            last = messages[-1] if messages else None
            if last is not None and _text_of(last):
                problems.append(_('your model answered in text instead of calling {tools}: "{text}"').format(
                    tools=", ".join(missing), text=_text_of(last)))
            else:
                problems.append(_("your model answered in text instead of calling {tools}").format(
                    tools=", ".join(missing)))
        else:
            problems.append(_("your model called {called} but not {missing}").format(
                called=", ".join(dict.fromkeys(called)), missing=", ".join(missing)))
    if expect_text and (not messages or messages[-1].tool_calls or not _text_of(messages[-1])):
        problems.append(_("your model did not end with a text answer"))
    if problems:
        return LiveVerdict(live, False, _("{who}: {problems} (the lesson's cells below do not depend on this "
                                          "answer)").format(who=who, problems="; ".join(problems)))
    tools = ", ".join(dict.fromkeys(called))
    answer = _text_of(messages[-1]) if messages and not messages[-1].tool_calls else ""
    if called and answer:
        line = _('{who}: the model called {tools} and answered: "{answer}", as expected')
    elif called:
        line = _("{who}: the model called {tools}, as expected")
    elif answer:
        line = _('{who}: the model answered: "{answer}", as expected')
    else:
        line = _("{who}: the model gave an empty reply, as expected")
    return LiveVerdict(live, True, line.format(who=who, tools=tools, answer=answer))
