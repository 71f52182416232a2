"""Loaded by every pytest run in the course, ``pytest notebooks/03_x.ipynb`` too (which never reads
``tests/conftest.py``, where the rest of the set-up is). Its plugins:

* ``tests/nbval_report.py``: strict nbval's failure report names the cell id and its position among
  all cells, and shows the diff the way ``git diff`` does (``-`` committed, ``+`` this run).
"""

pytest_plugins = ("tests.nbval_report",)
