"""The project builds a wheel that holds every subpackage of ``helpers`` (not only the editable install).

``pyproject.toml`` uses package discovery (``[tool.setuptools.packages.find] include = ["helpers*"]``),
so a new subpackage (a folder with ``__init__.py``, e.g. ``helpers/model/``) is in the wheel without
editing the list. The test builds the wheel offline from a copy of the sources with the venv's own
setuptools (``pip wheel --no-deps --no-build-isolation --no-index``), then imports every module from
the wheel file in a fresh interpreter whose ``sys.path`` starts with the wheel (zipimport), and checks
that each one was loaded from the wheel, not from this checkout.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _source_modules() -> list[str]:
    """Dotted names of every module and package under helpers/ in this checkout."""
    names = []
    for path in sorted((ROOT / "helpers").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if all((ROOT.joinpath(*parts[:i]) / "__init__.py").exists() for i in range(1, len(parts))):
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    shutil.copy(ROOT / "pyproject.toml", src)
    shutil.copy(ROOT / "README.md", src)
    shutil.copytree(ROOT / "helpers", src / "helpers", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "-q", "-w", str(dist), str(src)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"pip wheel failed (setuptools >= 70.1 is pinned in requirements.txt):\n{proc.stderr[-2000:]}"
    wheels = list(dist.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_every_subpackage_and_module_is_in_the_wheel(wheel):
    files = set(zipfile.ZipFile(wheel).namelist())
    packages = sorted({p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "helpers").rglob("__init__.py")})
    assert "helpers/exercises" in packages and "helpers/widgets" in packages
    for package in packages:
        assert f"{package}/__init__.py" in files, f"{package} is missing from the wheel"
    for path in (ROOT / "helpers").rglob("*.py"):
        if (path.parent / "__init__.py").exists():
            assert path.relative_to(ROOT).as_posix() in files, f"{path.relative_to(ROOT)} is missing from the wheel"


def test_every_module_imports_from_the_wheel(wheel, tmp_path):
    modules = _source_modules()
    script = (
        "import importlib, json, sys\n"
        f"names = {modules!r}\n"
        "where = {n: importlib.import_module(n).__file__ for n in names}\n"
        "print(json.dumps(where))\n"
    )
    # An empty working directory and PYTHONPATH = the wheel only: neither this checkout nor the
    # editable install (whose finder comes after the path finder) can answer first.
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(wheel), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    where = json.loads(proc.stdout.strip().splitlines()[-1])
    assert sorted(where) == sorted(modules)
    outside = {name: file for name, file in where.items() if not file.startswith(str(wheel) + "/")}
    assert not outside, f"imported from outside the wheel: {outside}"


def test_the_compiled_message_catalogs_are_in_the_wheel(wheel):
    """Kernels that import ``helpers`` from the wheel speak the Chinese edition too (helpers/i18n.py)."""
    files = set(zipfile.ZipFile(wheel).namelist())
    catalogs = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "helpers" / "locale").rglob("*.mo"))
    assert catalogs and set(catalogs) <= files


def test_the_widgets_page_code_is_in_the_wheel_and_loads_from_it(wheel, tmp_path):
    """helpers/widgets/page_clicks.js (package data) is what PageClicks sends to the page, from the wheel."""
    assert "helpers/widgets/page_clicks.js" in set(zipfile.ZipFile(wheel).namelist())
    script = ("from helpers.widgets.page_clicks import PageClicks\n"
              "print(PageClicks._esm.splitlines()[0])\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(wheel), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    first = (ROOT / "helpers" / "widgets" / "page_clicks.js").read_text().splitlines()[0]
    assert proc.stdout.strip() == first
