"""The real model: ``langchain_openai.ChatOpenAI`` that records its requests like the scripted model.

Built on first use (importing langchain_openai takes about 0.5-1.5 s), so an offline kernel
never pays for it.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import PrivateAttr

from .factory import HIDDEN_NAME, looks_like_model_name, redact_url
from .recording import RequestLog

__all__ = ["recording_chat_openai"]


@functools.lru_cache(maxsize=1)
def recording_chat_openai() -> type:
    """The class ``RecordingChatOpenAI``: a ``ChatOpenAI`` (langchain-openai 1.7.4) with a request log.

    Returns:
        a ``ChatOpenAI`` subclass whose ``requests`` / ``last_request`` hold
        :class:`~helpers.model.recording.RecordedRequest` objects (messages, bound tool schemas,
        and in ``body`` the exact JSON body ``ChatOpenAI`` sent); ``steps_left`` is ``None``;
        its ``repr`` shows no user name, password, query or fragment of the base URL or proxy.
    """
    from langchain_openai import ChatOpenAI

    class RecordingChatOpenAI(RequestLog, ChatOpenAI):
        """``ChatOpenAI`` (langchain-openai 1.7.4) that records each request like the scripted model.

        Every request path (``invoke``, ``stream``, their async forms) builds its body once with
        ``_get_request_payload``; this subclass records that body with the messages and tools,
        so notebook cells that show "what the model sees" work with a real model too.
        """

        _requests: list = PrivateAttr(default_factory=list)

        def __repr_args__(self) -> Any:
            """Pydantic's ``repr`` fields, with the base URL and proxy redacted (:func:`redact_url`) and
            a model name that does not pass :func:`looks_like_model_name` hidden; ``str`` uses them too."""
            for name, value in super().__repr_args__():
                if name in ("openai_api_base", "openai_proxy") and isinstance(value, str):
                    value = redact_url(value)
                elif name == "model_name" and not looks_like_model_name(value):
                    value = HIDDEN_NAME
                yield name, value

        @property
        def steps_left(self) -> None:
            """Always ``None``: a real model is not scripted."""
            return None

        def _get_request_payload(self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any) -> dict:
            payload = super()._get_request_payload(input_, stop=stop, **kwargs)
            messages = self._convert_input(input_).to_messages()
            self._record(self._new_request(messages, {**kwargs, **({"stop": stop} if stop else {})},
                                           model_name=str(payload.get("model", self.model_name)),
                                           streamed=bool(payload.get("stream")), body=payload))
            return payload

    return RecordingChatOpenAI
