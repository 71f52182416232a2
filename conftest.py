"""Loaded by every pytest run in the course, ``pytest notebooks/03_x.ipynb`` too (which never reads
``tests/conftest.py``, where the rest of the set-up is). Its plugins:

* ``tests/nbval_report.py``: strict nbval's failure report names the cell id and its position among
  all cells, and shows the diff the way ``git diff`` does (``-`` committed, ``+`` this run);
* ``tests/lab_server.py``: one JupyterLab per test process for the browser tests (a session-scoped
  fixture must be defined once, not imported into each module, to be one server);
* ``tests/notebook_selection.py``: ``pytest --notebook 13`` runs only the tests about notebook 13,
  both editions (``make check NB=13``).
"""

pytest_plugins = ("tests.nbval_report", "tests.lab_server", "tests.notebook_selection")
