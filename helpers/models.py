"""Choose the chat model: the scripted model by default, a real one only when configured.

Environment variables (a real model is opt-in):

* ``COURSE_MODEL``: the model name, e.g. ``gpt-4o-mini`` or ``qwen-plus``. Setting it opts in.
* ``OPENAI_API_KEY``: required once ``COURSE_MODEL`` is set. Never printed.
* ``OPENAI_BASE_URL``: optional, any OpenAI-compatible endpoint (e.g. DashScope's
  compatible mode for Qwen). Setting it without ``COURSE_MODEL`` is an error.

``OPENAI_API_KEY`` alone does not opt in: many machines have a key set for other work,
and the course must stay offline unless asked.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import PrivateAttr

from .scripted_model import RequestLog, ScriptedChatModel

__all__ = ["ModelConfigError", "chat_model", "describe_model", "real_model_configured"]


class ModelConfigError(RuntimeError):
    """The environment configures a real model only partly; the message names the missing variable."""


def real_model_configured(env: Mapping[str, str] | None = None) -> bool:
    """True when the environment opts in to a real model (``COURSE_MODEL`` or ``OPENAI_BASE_URL`` set).

    Args:
        env: a mapping to read instead of ``os.environ`` (for tests).
    """
    env = os.environ if env is None else env
    return bool(env.get("COURSE_MODEL", "").strip() or env.get("OPENAI_BASE_URL", "").strip())


def chat_model(script: Sequence[Any] = (), *, env: Mapping[str, str] | None = None, **scripted_kwargs: Any) -> BaseChatModel:
    """Return the chat model a notebook should use.

    Args:
        script: the replies for the offline :class:`ScriptedChatModel` (ignored by a real model).
        env: a mapping to read instead of ``os.environ`` (for tests).
        **scripted_kwargs: extra arguments for :class:`ScriptedChatModel` (e.g. ``strict_tool_names``).

    Returns:
        ``ScriptedChatModel(script=...)`` when no real model is configured; otherwise a
        ``langchain_openai.ChatOpenAI(model=COURSE_MODEL, base_url=OPENAI_BASE_URL or None,
        temperature=0)`` subclass that also records its requests (``.requests``,
        ``.last_request``), speaking the chat.completions API (langchain-openai 1.7.4).

    Raises:
        ModelConfigError: ``COURSE_MODEL`` set without ``OPENAI_API_KEY``, or
            ``OPENAI_BASE_URL`` set without ``COURSE_MODEL``. The key's value never
            appears in a message.
    """
    env = os.environ if env is None else env
    if not real_model_configured(env):
        return ScriptedChatModel(script=list(script), **scripted_kwargs)
    name = env.get("COURSE_MODEL", "").strip()
    key = env.get("OPENAI_API_KEY", "").strip()
    base_url = env.get("OPENAI_BASE_URL", "").strip() or None
    if not name:
        raise ModelConfigError(
            "OPENAI_BASE_URL is set but COURSE_MODEL is missing: set COURSE_MODEL to the model name "
            "(e.g. qwen-plus), or unset OPENAI_BASE_URL to stay on the offline scripted model"
        )
    if not key:
        raise ModelConfigError(
            f"COURSE_MODEL={name} is set but OPENAI_API_KEY is missing: set OPENAI_API_KEY, "
            "or unset COURSE_MODEL to stay on the offline scripted model"
        )
    return _recording_chat_openai()(model=name, api_key=key, base_url=base_url, temperature=0)


@functools.lru_cache(maxsize=1)
def _recording_chat_openai() -> type:
    """Build :class:`RecordingChatOpenAI` on first use (importing langchain_openai takes about 1.5 s)."""
    from langchain_openai import ChatOpenAI

    class RecordingChatOpenAI(RequestLog, ChatOpenAI):
        """``ChatOpenAI`` (langchain-openai 1.7.4) that records each request like the scripted model.

        ``requests`` / ``last_request`` hold :class:`~helpers.scripted_model.RecordedRequest`
        objects (messages and bound tool schemas), so notebook cells that show "what the model
        sees" work with a real model too. ``steps_left`` is ``None``: a real model has no script.
        """

        _requests: list = PrivateAttr(default_factory=list)

        @property
        def steps_left(self) -> None:
            """Always ``None``: a real model is not scripted."""
            return None

        def _log(self, messages: list, kwargs: dict) -> None:
            self._record(self._new_request(messages, kwargs.get("tools"), kwargs.get("tool_choice")))

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            self._log(messages, kwargs)
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

        async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs):
            self._log(messages, kwargs)
            return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)

        def _stream(self, messages, stop=None, run_manager=None, **kwargs):
            self._log(messages, kwargs)
            yield from super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs)

        async def _astream(self, messages, stop=None, run_manager=None, **kwargs):
            self._log(messages, kwargs)
            async for chunk in super()._astream(messages, stop=stop, run_manager=run_manager, **kwargs):
                yield chunk

    return RecordingChatOpenAI


def describe_model(model: BaseChatModel) -> str:
    """A one-line, secret-free description, e.g. ``scripted model (3 steps, offline)`` or ``ChatOpenAI gpt-4o-mini``."""
    if isinstance(model, ScriptedChatModel):
        steps = len(model.script)
        return f"scripted model ({steps} step{'' if steps == 1 else 's'}, offline)"
    name = getattr(model, "model_name", None) or getattr(model, "model", "?")
    endpoint = " via a custom OPENAI_BASE_URL" if getattr(model, "openai_api_base", None) else ""
    library_class = next((c for c in type(model).__mro__ if c.__module__.startswith("langchain")), type(model))
    return f"{library_class.__name__} {name}{endpoint}"
