"""Old home of the model factory; kept importable while notebooks and helpers move to :mod:`helpers.model`.

The environment variables and the DashScope recipe are documented in :mod:`helpers.model.factory`.
``chat_model`` is the old name of :func:`helpers.model.live.live_model`.
"""

from .model.factory import ModelConfig, ModelConfigError, describe_model, read_model_config, real_model_configured
from .model.live import chat_model
