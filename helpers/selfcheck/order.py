"""The order a question's choices are shown in, by its place in the self-check package.

It lives one floor down, in :mod:`helpers.selfcheck_order` (beside :mod:`helpers.selfcheck_format`),
so the widget's engine uses it without running this package's ``__init__``.
"""

from __future__ import annotations

from ..selfcheck_order import shown_choices

__all__ = ["shown_choices"]
