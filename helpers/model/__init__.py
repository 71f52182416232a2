"""The course's chat models: the scripted player, the provider rules, request recording, the factory.

One job per module:

* :mod:`helpers.model.script`: script steps (``tool_call``, ``invalid_tool_call``, ``reply``) and
  their validation (``ScriptError``);
* :mod:`helpers.model.rules`: the provider rules (``ProviderRule``, ``ProviderRuleError``,
  ``check_history``) with OpenAI's wording for each;
* :mod:`helpers.model.recording`: ``RecordedRequest`` / ``RequestLog``, shared by the scripted and
  the real model; ``payload()`` is the body ``ChatOpenAI`` sends;
* :mod:`helpers.model.scripted`: the player, ``ScriptedChatModel``;
* :mod:`helpers.model.redact`: what is never shown (keys in model names, base URLs and errors),
  shared by the factory and the real model;
* :mod:`helpers.model.deadline`: an overall deadline per HTTP request of the real model;
* :mod:`helpers.model.real`: the real model, a ``ChatOpenAI`` that records its requests, hides the
  keys in its errors and names a reply that is not an OpenAI reply (``NotAnOpenAIReplyError``);
* :mod:`helpers.model.address`: where an endpoint really is (the host the HTTP client connects to:
  loopback, private or public);
* :mod:`helpers.model.config`: the real-model configuration read from the environment and checked
  (``read_model_config``, ``ModelConfig``, ``ModelConfigError``), without LangChain;
* :mod:`helpers.model.sdk_environment`: every environment variable the pinned SDKs read for an
  endpoint, a proxy, headers, a key or tracing, and where;
* :mod:`helpers.model.client_check`: the real model's clients checked once built (the configured
  URL and key only, no header from the environment, no key through a proxy in clear text);
* :mod:`helpers.model.factory`: environment -> model (``model_from_env``, ``describe_model``, the
  environment variables and the DashScope recipe; re-exports :mod:`helpers.model.config`);
* :mod:`helpers.model.live`: the two kinds of model cell: ``scripted_model`` (a protocol case),
  ``live_model`` (a live cell) and ``live_verdict``;
* :mod:`helpers.model.loopback_openai`: a local stand-in provider on 127.0.0.1 that speaks OpenAI's
  wire format (the live track's tests, and notebook 03's real ``openai.BadRequestError``), with
  :mod:`helpers.model.schema_values` for the arguments it sends.
* :mod:`helpers.model.loopback_anthropic`: a stand-in for Anthropic's Messages API that checks only
  the ``tool_use`` / ``tool_result`` pairing (notebook 14's real ``anthropic.BadRequestError``).
"""

from .factory import (
    ModelConfig,
    ModelConfigError,
    describe_model,
    read_model_config,
    real_model_configured,
)
from .live import LiveVerdict, is_live, live_model, live_verdict, scripted_model
from .real import NotAnOpenAIReplyError
from .recording import RecordedRequest, RequestLog
from .rules import ProviderRule, ProviderRuleError, check_history
from .script import ScriptError, Step, invalid_tool_call, reply, tool_call, validate_script
from .scripted import InterleavedConversationsError, ScriptedChatModel, ScriptExhaustedError

__all__ = [
    "InterleavedConversationsError",
    "LiveVerdict",
    "ModelConfig",
    "ModelConfigError",
    "NotAnOpenAIReplyError",
    "ProviderRule",
    "ProviderRuleError",
    "RecordedRequest",
    "RequestLog",
    "ScriptError",
    "ScriptExhaustedError",
    "ScriptedChatModel",
    "Step",
    "check_history",
    "describe_model",
    "invalid_tool_call",
    "is_live",
    "live_model",
    "live_verdict",
    "read_model_config",
    "real_model_configured",
    "reply",
    "scripted_model",
    "tool_call",
    "validate_script",
]
