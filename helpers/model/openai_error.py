"""OpenAI's error answer, the shape both loopback endpoints (chat.completions and Responses) send.

``{"error": {"message", "type", "param", "code"}}``: ``type`` is ``"invalid_request_error"`` for an HTTP 400
and ``"server_error"`` for an overloaded model's 503, as OpenAI's error bodies are quoted in public bug reports
(see :mod:`helpers.model.loopback_openai` and :mod:`helpers.model.responses_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["OpenAIError"]


@dataclass(frozen=True)
class OpenAIError:
    """An error answer in OpenAI's shape (HTTP 400 unless ``type`` says otherwise).

    Attributes:
        message: the error's text, in OpenAI's wording.
        param: the request field it names (``"messages.[3].role"``, ``"input"``), or ``None``.
        code: OpenAI's error code (``"empty_array"``), or ``None`` (OpenAI sends ``null``).
        type: ``"invalid_request_error"`` (a 400, the default) or ``"server_error"`` (a 503).
    """

    message: str
    param: str | None
    code: str | None = None
    type: Literal["invalid_request_error", "server_error"] = "invalid_request_error"

    def body(self) -> dict[str, Any]:
        """``{"error": {"message", "type", "param", "code"}}``."""
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}
