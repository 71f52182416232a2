"""Old home of the scripted chat model; kept importable while notebooks and helpers move to :mod:`helpers.model`.

Every name is re-exported unchanged from the package (``ScriptedChatModel`` from
:mod:`helpers.model.scripted`, the rules from :mod:`helpers.model.rules`, the script builders from
:mod:`helpers.model.script`, recording from :mod:`helpers.model.recording`).
"""

from .model.recording import RecordedRequest, RequestLog
from .model.rules import ProviderRule, ProviderRuleError, check_history
from .model.script import ScriptError, Step, invalid_tool_call, reply, tool_call
from .model.scripted import InterleavedConversationsError, ScriptedChatModel, ScriptExhaustedError
