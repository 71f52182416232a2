"""The READMEs' set-up without ``make`` runs what ``make lab`` and ``make test`` run (issue 29).

``make -n -B`` prints every command of a target without running it; the recipe in ``README.md`` (English
edition) and in ``README.zh-CN.md`` (``COURSE_LANG=zh``: its own JupyterLab settings, the interface in
Chinese) must give the same commands, token for token after the shell's quoting, with ``$PWD`` for the
checkout. What the recipes leave out, on purpose: the venv stamp (``touch``), the quiet flags of pip,
the removal of an old ``-e .`` install (a fresh venv has none), the other edition's settings, and
``--allow-root``, which both READMEs tell a root user to add (``make lab`` adds it by itself).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The Makefile's PYTHONPATH (the checkout first) and the README's, as the shell writes it.
MAKE_PYTHONPATH = "export PYTHONPATH := $(CURDIR)$(if $(PYTHONPATH),:$(PYTHONPATH),)"
README_PYTHONPATH = 'export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"'
#: Flags of make's commands that change only what they print.
QUIET = {"--disable-pip-version-check", "-q"}

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make to print the targets' commands")


def _make_commands(*targets: str, **env: str) -> list[list[str]]:
    """The commands ``make -n -B TARGETS`` prints (nothing runs), as token lists."""
    # what a make above this test passed down (`make test JUNIT=suite.xml` exports JUNIT to its recipes) is not
    # what the README's reader types
    environ = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "MAKELEVEL", "COURSE_LANG", "JUNIT", "NB")}
    out = subprocess.run(["make", "--no-print-directory", "-n", "-B", "PYTHON=python3", *targets], cwd=ROOT,
                         env={**environ, **env}, capture_output=True, text=True, check=True, timeout=60).stdout
    return [_tokens(line) for line in out.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _tokens(line: str) -> list[str]:
    """A command's words after the shell's quoting, ``$PWD`` read as the checkout, trailing ``/`` of folders
    dropped, and consecutive ``env -u A env -u B`` written as one ``env -u A -u B``."""
    words = [word.rstrip("/") if word.endswith("/") and len(word) > 1 else word
             for word in shlex.split(line.replace("$PWD", str(ROOT)), comments=True)]
    merged: list[str] = []
    for word in words:
        if word == "env" and merged[-2:-1] == ["-u"]:
            continue
        merged.append(word)
    return merged


def _recipe(readme: str) -> list[list[str]]:
    """The commands of ``readme``'s bash blocks that set the course up without make (the blocks that call
    ``helpers.workspace lab`` or run pytest), ``export`` lines and comments left out."""
    commands = []
    for block in (ROOT / readme).read_text(encoding="utf-8").split("```bash\n")[1:]:
        body = block.split("```", 1)[0]
        if "helpers.workspace lab" in body or "-m pytest" in body:
            commands += [_tokens(line) for line in body.splitlines()
                         if line.strip() and not line.startswith(("export ", "#"))]
    return commands


def _settings_folder(words: list[str]) -> str | None:
    """The JupyterLab settings folder a command writes (``mkdir -p DIR`` or ``printf ... > DIR/overrides.json``)."""
    if words[:2] == ["mkdir", "-p"] and "/lab/settings" in words[-1]:
        return words[-1]
    if words[:1] == ["printf"] and words[-1].endswith("/overrides.json"):
        return str(Path(words[-1]).parent)
    return None


def _expected(make: list[list[str]], settings: str) -> list[list[str]]:
    """What a recipe must give of make's commands (see the module docstring for what it leaves out);
    ``settings``: the edition's JupyterLab settings folder."""
    kept = []
    for words in make:
        if words[:1] == ["touch"] or "uninstall" in words or _settings_folder(words) not in (None, settings):
            continue
        if words[:2] == ["test", "-x"]:  # `test -x .venv/bin/python || python3 -m venv .venv`
            words = words[words.index("||") + 1:]
        kept.append([w for w in words if w not in QUIET and w != "--allow-root"])
    return kept


@pytest.mark.parametrize(("readme", "edition", "settings"), [
    ("README.md", {}, ".venv/share/jupyter/lab/settings"),
    ("README.zh-CN.md", {"COURSE_LANG": "zh"}, ".venv/share/jupyter/lab/settings-zh"),
])
def test_the_recipe_without_make_is_what_make_lab_and_make_test_run(readme, edition, settings):
    expected = _expected(_make_commands("lab", "test", **edition), settings)
    assert any(_settings_folder(words) == settings for words in expected), "make lab writes its settings"
    recipe = _recipe(readme)
    # the Chinese recipe names its edition on the commands that read it (make has it in the environment)
    prefix = [f"{k}={v}" for k, v in edition.items()]
    for words in recipe:
        if "helpers.workspace" in words:
            assert words[:len(prefix)] == prefix, f"{readme}: {shlex.join(words)} needs {' '.join(prefix)}"
    recipe = [words[len(prefix):] if "helpers.workspace" in words else words for words in recipe]
    assert recipe == expected, f"{readme}: the recipe without make differs from `make lab test`"


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_the_recipe_sets_pythonpath_as_the_makefile_and_tells_root_what_to_add(readme):
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert MAKE_PYTHONPATH in makefile and "--allow-root" in makefile
    text = (ROOT / readme).read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```bash\n")[1:]]
    recipes = [b for b in blocks if "helpers.workspace lab" in b or "-m pytest" in b]
    assert len(recipes) == 2, f"{readme}: one block to open the course, one to test it"
    for block in recipes:
        assert README_PYTHONPATH in block, f"{readme}: every recipe block sets PYTHONPATH as the Makefile does"
    assert "`--allow-root`" in text, f"{readme}: say what a root user adds"


def test_the_shell_reads_the_pythonpath_line_as_make_does(tmp_path):
    """``$PWD${PYTHONPATH:+:$PYTHONPATH}``: the checkout, then whatever was there (nothing when unset)."""
    script = f'cd "{tmp_path}"; {README_PYTHONPATH}; printf %s "$PYTHONPATH"'
    unset = subprocess.run(["sh", "-c", script], env={"PATH": os.environ["PATH"]}, capture_output=True, text=True,
                           check=True)
    kept = subprocess.run(["sh", "-c", script], env={"PATH": os.environ["PATH"], "PYTHONPATH": "/x"},
                          capture_output=True, text=True, check=True)
    assert (unset.stdout, kept.stdout) == (str(tmp_path), f"{tmp_path}:/x")
