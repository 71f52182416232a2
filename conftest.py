"""Every pytest run in this checkout imports ``helpers/`` and ``tooling/`` from here, and so does every
kernel and process it starts (strict nbval's kernels, the tests' subprocesses).

Nothing is installed from the checkout (no ``pip install -e .``), so several clones can share one venv:
this file, loaded for any test path (it sits in pytest's rootdir), puts its own folder first on
``PYTHONPATH`` before anything starts. ``tests/conftest.py`` (the offline guard) adds its folder in front
of that.

Its plugins:

* ``tests/nbval_report.py``: strict nbval's failure report names the cell id and its position among
  all cells, and shows the diff the way ``git diff`` does (``-`` committed, ``+`` this run);
* ``tests/lab_server.py``: one JupyterLab per test process for the browser tests (a session-scoped
  fixture must be defined once, not imported into each module, to be one server);
* ``tests/notebook_selection.py``: ``pytest --notebook 13`` runs only the tests about notebook 13,
  both editions (``make check NB=13``).
"""

from __future__ import annotations

import os

from tooling.kernel_env import checkout_first

os.environ["PYTHONPATH"] = checkout_first(os.environ.get("PYTHONPATH"))

pytest_plugins = ("tests.nbval_report", "tests.lab_server", "tests.notebook_selection")
