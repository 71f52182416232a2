"""Every pytest run in this checkout imports ``helpers/`` and ``tooling/`` from here, and so does every
kernel and process it starts (strict nbval's kernels, the tests' subprocesses).

Nothing is installed from the checkout (no ``pip install -e .``), so several clones can share one venv:
this file, loaded for any test path (it sits in pytest's rootdir), puts its own folder first on
``PYTHONPATH`` before anything starts. ``tests/conftest.py`` (the offline guard) adds its folder in front
of that.
"""

from __future__ import annotations

import os

from tooling.kernel_env import checkout_first

os.environ["PYTHONPATH"] = checkout_first(os.environ.get("PYTHONPATH"))
