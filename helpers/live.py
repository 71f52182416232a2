"""Old home of the live-cell API; kept importable while notebooks and helpers move to :mod:`helpers.model`.

See :mod:`helpers.model.live`: ``scripted_model`` (a protocol case), ``live_model`` (a live cell),
``is_live``, ``LiveVerdict`` and ``live_verdict``.
"""

from .model.live import LiveVerdict, chat_model, is_live, live_model, live_verdict, scripted_model
