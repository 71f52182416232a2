"""``pytest --notebook 13``: only the tests about one notebook, both editions (``make check NB=13``, issue 28).

The inner loop of changing one notebook: its strict nbval run (``notebooks/13_*.ipynb`` and
``notebooks/zh/13_*.ipynb``), its exercise contract, its exercise and self-check tests, its
self-check verifiers, the freshness of its Chinese edition, its hygiene, its live-track runs (``13``
and ``zh-13``) and its browser tests, in one pytest run. A test is about notebook ``NN`` when
(:func:`about`):

* it is a cell of ``notebooks/NN_*.ipynb`` or ``notebooks/zh/NN_*.ipynb`` under strict nbval;
* its file is named after the notebook (``test_exercises_nb13.py``, ``test_selfcheck_nb13.py``,
  ``test_lab_browser_13.py``, ``test_exercises_nb00_nb01.py`` for 00 and 01);
* one of its parameters names the notebook, as the course's parametrised tests do
  (``[13]``, ``[zh-13]``, ``[13.1-...]``, ``[13-question-id]``, ``[13_streaming_tool_calls.ipynb]``,
  ``[zh/13_...]``, ``[notebooks/13_...]``);
* or it says so: ``@pytest.mark.notebook("00", "02")`` on a test whose name and parameters do not,
  or ``pytestmark = pytest.mark.notebook("13")`` in a module that tests what a notebook uses (its
  widget's engine, notebook 18's PostgreSQL helpers).

Everything else is deselected (pytest reports how many). Files named after another notebook and
the other notebooks are not even collected, which saves most of a worker's collection time.
``--notebook`` may be given more than once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

_FILE_NUMBERS = re.compile(r"(?:nb|_)(\d\d)(?=_|$)")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--notebook", action="append", default=[], metavar="NN",
                     help="run only the tests about notebook NN (both editions); may be repeated (make check NB=13)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "notebook(*numbers): the test is about these notebooks (\"00\", \"02\"): "
                                       "pytest --notebook NN selects it")
    for number in config.getoption("--notebook"):
        if not re.fullmatch(r"\d\d", number):
            raise pytest.UsageError(f"--notebook {number!r}: give a notebook's two-digit number, e.g. --notebook 03")


def file_numbers(path: Path) -> set[str]:
    """The notebook numbers a file is named after: ``{"13"}`` for ``test_exercises_nb13.py`` or
    ``13_streaming.ipynb``, ``{"00", "01"}`` for ``test_exercises_nb00_nb01.py``, empty for others."""
    stem = path.stem
    numbers = set(_FILE_NUMBERS.findall(stem))
    if re.match(r"\d\d_", stem):
        numbers.add(stem[:2])
    return numbers


def about(item: pytest.Item, number: str) -> bool:
    """Whether ``item`` is about notebook ``number`` (see the module docstring)."""
    path = Path(item.path)
    if path.suffix == ".ipynb":
        return path.name.startswith(f"{number}_")
    if number in file_numbers(path):
        return True
    marker = item.get_closest_marker("notebook")
    if marker is not None and number in marker.args:
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return False
    pattern = re.compile(rf"^(?:notebooks/)?(?:zh[-/])?{number}(?:[-._]|$)")
    return bool(pattern.match(callspec.id))


@pytest.hookimpl(tryfirst=True)
def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--notebook``: do not collect a notebook or a test file named after another notebook."""
    wanted = set(config.getoption("--notebook"))
    if not wanted or collection_path.is_dir():
        return None
    if collection_path.suffix not in (".ipynb", ".py"):
        return None
    named = file_numbers(collection_path)
    if collection_path.suffix == ".ipynb":
        return True if not (named & wanted) else None
    return True if named and not (named & wanted) else None


@pytest.hookimpl(tryfirst=True)  # before tests/conftest.py orders the items and looks for the offline proof
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--notebook``: deselect every test that is not about one of the notebooks named (the
    offline proof too: it would execute every notebook this run did not)."""
    wanted = config.getoption("--notebook")
    if not wanted:
        return
    keep, drop = [], []
    for item in items:
        (keep if any(about(item, number) for number in wanted) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
