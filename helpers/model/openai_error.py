"""OpenAI's HTTP 400 answer, the shape both loopback endpoints (chat.completions and Responses) send.

``{"error": {"message", "type": "invalid_request_error", "param", "code"}}``, as OpenAI's error bodies
are quoted in public bug reports (see :mod:`helpers.model.rules` and :mod:`helpers.model.loopback_responses`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["OpenAIError"]


@dataclass(frozen=True)
class OpenAIError:
    """An HTTP 400 answer in OpenAI's shape.

    Attributes:
        message: the error's text, in OpenAI's wording.
        param: the request field it names (``"messages.[3].role"``, ``"input"``), or ``None``.
        code: OpenAI's error code (``"empty_array"``), or ``None`` (OpenAI sends ``null``).
    """

    message: str
    param: str | None
    code: str | None = None

    def body(self) -> dict[str, Any]:
        """``{"error": {"message", "type": "invalid_request_error", "param", "code"}}``."""
        return {"error": {"message": self.message, "type": "invalid_request_error", "param": self.param,
                          "code": self.code}}
