"""The direct dependencies, their newest releases on the package registry, and the drift venv.

What "newest" means: the newest final release that ``pip index versions NAME`` lists from the
registry pip is configured for (pre-releases excluded, as pip excludes them). A newest release that
cannot be installed beside the others (its own dependency is not served, or it conflicts with the
newest release of another direct dependency) is reported with pip's reason, and that package is
installed unpinned instead, so pip takes the newest release that fits.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DirectPin", "PackageMove", "Pip", "direct_pins", "normalise", "pinned_versions", "plan_moves", "resolve"]

_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)")
_DIRECT_HEADER = "# direct dependencies"
_NOISE = ("WARNING: Location", "ERROR: Ignored the following versions that require a different python version")
#: What ``python -m venv`` puts in every venv: never "moved with" the direct dependencies.
VENV_SEED = frozenset({"pip", "setuptools", "wheel"})


@dataclass(frozen=True)
class DirectPin:
    """One ``name==version`` line of the direct-dependency block of ``requirements.txt``."""

    name: str
    version: str


@dataclass
class PackageMove:
    """What drift did with one direct dependency.

    Attributes:
        name: the distribution name as pinned.
        pinned: the version in ``requirements.txt``.
        newest: the newest release the registry serves (``""`` when it could not be asked).
        installed: the version installed in the drift venv (``""`` when not installed).
        note: why ``installed`` is not ``newest`` (pip's reason, one line), or ``""``.
    """

    name: str
    pinned: str
    newest: str = ""
    installed: str = ""
    note: str = ""


def normalise(name: str) -> str:
    """A distribution name normalised as PEP 503 does (``langchain_core`` -> ``langchain-core``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def direct_pins(requirements: str) -> list[DirectPin]:
    """The pins in the block that starts at the ``# Direct dependencies`` comment and ends at the first
    blank line.

    Raises:
        ValueError: the file has no such block, or the block pins nothing.
    """
    lines = requirements.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip().lower() == _DIRECT_HEADER]
    if not starts:
        raise ValueError("requirements.txt has no '# Direct dependencies' block (drift upgrades only that block)")
    pins = []
    for line in lines[starts[0] + 1:]:
        if not line.strip():
            break
        match = _PIN.match(line)
        if match:
            pins.append(DirectPin(match.group(1), match.group(2)))
    if not pins:
        raise ValueError("the '# Direct dependencies' block of requirements.txt pins nothing")
    return pins


def pinned_versions(requirements: str) -> dict[str, str]:
    """Every ``name==version`` pin of the file, keyed by normalised name (``langchain-core``)."""
    return {normalise(m.group(1)): m.group(2) for line in requirements.splitlines() if (m := _PIN.match(line))}


def _one_line(text: str, limit: int = 400) -> str:
    """pip's reason in one line: the lines from 'ERROR' / 'The conflict is caused by' on, squeezed."""
    lines = [line.strip() for line in text.splitlines()  # pip's notes on an absent extra index and on
             if line.strip() and not line.startswith(_NOISE)]  # releases for other Pythons are no reason
    start = next((i for i, line in enumerate(lines) if line.startswith(("ERROR", "The conflict is caused by"))), 0)
    keep = [line for line in lines[start:] if not line.startswith(("To fix this", "1. ", "2. ", "3. ", "4. "))
            and "dependency-resolution" not in line and not line.startswith("Additionally, some packages")]
    text = " ".join(keep) or "pip gave no reason"
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Pip:
    """The drift venv's pip, run as ``python -m pip`` (a function so tests can replace the runner)."""

    python: Path
    run: Callable[..., subprocess.CompletedProcess] = subprocess.run

    def __call__(self, *args: str) -> subprocess.CompletedProcess:
        return self.run([str(self.python), "-m", "pip", "--disable-pip-version-check", *args],
                        capture_output=True, text=True, check=False)

    def newest(self, name: str) -> tuple[str, str]:
        """``(version, "")`` of the newest release served, or ``("", reason)``."""
        done = self("index", "versions", name)
        match = re.search(rf"^{re.escape(name)}\s*\(([^)]+)\)", done.stdout, re.IGNORECASE | re.MULTILINE)
        if done.returncode == 0 and match:
            return match.group(1), ""
        return "", "the registry could not be asked: " + _one_line(done.stderr or done.stdout)

    def can_install(self, requirements: Sequence[str]) -> tuple[bool, str]:
        """Whether pip resolves ``requirements`` together (``--dry-run``, installs nothing), and why not."""
        done = self("install", "--dry-run", "--quiet", *requirements)
        return done.returncode == 0, "" if done.returncode == 0 else _one_line(done.stderr or done.stdout)

    def installed(self) -> dict[str, str]:
        """Every distribution in the venv, ``{normalised name: version}``."""
        done = self("list", "--format", "json")
        return {normalise(d["name"]): d["version"] for d in json.loads(done.stdout or "[]")} if done.returncode == 0 else {}


def plan_moves(pins: Sequence[DirectPin], newest: dict[str, tuple[str, str]]) -> list[PackageMove]:
    """One :class:`PackageMove` per pin with the newest release filled in (or the reason it is unknown)."""
    return [PackageMove(p.name, p.version, newest.get(p.name, ("", "not asked"))[0],
                        note=newest.get(p.name, ("", "not asked"))[1]) for p in pins]


def resolve(moves: Sequence[PackageMove], pip: Pip) -> list[str]:
    """The requirement strings to install: ``name==newest`` where that release resolves, plain
    ``name`` (pip picks the newest release that fits) where it does not, with the reason in ``note``.

    When the newest releases do not resolve together, they are pinned one by one in the order of
    ``moves`` (the requirements file's order): a package's newest release is kept when it resolves
    beside the releases kept before it (the packages after it unpinned), otherwise the package is
    installed unpinned and its note gives pip's reason. So a release whose own dependency is not
    served is named, and so is the second of two newest releases that only conflict with each other
    (seen 2026-12-02: langchain-mcp-adapters 0.3.2 needs mcp<2, and mcp 2.3.0 is served), while
    every other package is still pinned to its newest release. One ``pip install --dry-run`` per
    package with a newest release, after the first try with all of them; when none was kept, one
    more with all of them unpinned: if that fails too (the registry serves nothing, say), no newest
    release is to blame and each note says pip cannot install them even unpinned, with pip's reason.
    """
    wanted = [f"{m.name}=={m.newest}" if m.newest else m.name for m in moves]
    ok, _ = pip.can_install(wanted)
    if ok:
        return wanted
    result = [move.name for move in moves]
    for i, move in enumerate(moves):
        if not move.newest:
            continue
        trial = [*result[:i], f"{move.name}=={move.newest}", *result[i + 1:]]
        ok, reason = pip.can_install(trial)
        if ok:
            result = trial
        else:
            move.note = f"{move.newest} cannot be installed beside the others: {reason}"
    if result == [move.name for move in moves] and any(move.newest for move in moves):
        ok, reason = pip.can_install(result)  # no newest release kept: is any release installable?
        if not ok:
            for move in moves:
                if move.newest:
                    move.note = (f"{move.newest} not pinned: pip cannot install the direct dependencies "
                                 f"even unpinned: {reason}")
    return result
