"""No import cycles among the modules of ``helpers/`` and ``tooling/`` (issue 18, "A house with rooms"),
and ``helpers/`` never imports ``tooling/`` (issue 28: the course's own tooling stays apart from what a
learner's notebook imports; the helpers wheel holds no tooling).

The graph is read from the source with :mod:`ast`, never by importing. What counts as an edge
``a -> b`` ("importing ``a`` can run ``b``"):

* ``import b`` and ``from b import name`` anywhere in ``a``: at module level **and inside
  functions**. The cycles of issue 18 were "broken at run time by deferred imports"; a deferred
  import that closes a cycle is still a cycle (the two modules still need each other), so it counts.
* relative imports (``from .x import y``, ``from .. import z``) resolved against ``a``'s package.
* ``from pkg import name`` where ``name`` is a submodule of ``pkg``: the edge goes to the submodule.
  Where ``pkg`` is a lazy package (PEP 562: a module-level ``dict`` maps a name to the module it is
  loaded from, e.g. ``helpers._LAZY`` or ``helpers.progress._EXPORTS``; :mod:`helpers.lazy`), the edge
  goes to that module, since that is what the name runs; otherwise to ``pkg`` itself. A lazy package's
  ``__init__`` imports none of its modules, so it has no edge to them.
* importing ``p.q.m`` also runs the packages ``p`` and ``p.q`` (their ``__init__``): an edge to each
  of them, unless it is a package ``a`` itself lies in (a module inside ``p.q`` runs only once
  ``p.q`` has started, so a package that imports its own submodules is no cycle with them). This is
  how the cycle selfcheck -> widgets.self_check_view -> engines.self_check -> selfcheck closed:
  the engine imported ``helpers.selfcheck.format``, which runs ``helpers/selfcheck/__init__.py``,
  which built the widget (now the view builds it, and the package names it lazily).
* not counted: imports under ``if TYPE_CHECKING:`` (they never run); imports built from strings at
  run time (``importlib.import_module(f"...nb{number}")``, the registries' one mechanism), except
  the lazy maps above.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "helpers"
#: The top-level packages read: what notebooks import, and the course's own tooling.
PACKAGES = ("helpers", "tooling")


def modules() -> dict[str, Path]:
    """Every module under ``helpers/`` and ``tooling/`` by dotted name (a package by its name, not
    ``.__init__``); a file in a folder that is not a package (the scaffold's templates) is no module."""
    found = {}
    for path in sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if not all((ROOT.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts))):
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _package(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _absolute(module: str | None, level: int, package: str) -> str:
    if not level:
        return module or ""
    parts = package.split(".")
    base = parts[: len(parts) - level + 1]
    return ".".join(base + ([module] if module else []))


def _typing_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (its body, not its ``else``)."""
    return {id(node) for branch in ast.walk(tree)
            if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
            for stmt in branch.body for node in ast.walk(stmt)}


def lazy_names(name: str, path: Path) -> dict[str, str]:
    """A lazy package's map: name -> the module that name is loaded from (absolute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package(name, path)
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            for key, value in zip(node.value.keys, node.value.values):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant) \
                        and isinstance(value.value, str) \
                        and value.value.startswith((".", *PACKAGES)):
                    text = value.value
                    level = len(text) - len(text.lstrip("."))
                    found[key.value] = _absolute(text[level:] or None, level, package)
    return found


def _ancestors(name: str, mods: dict[str, Path]) -> set[str]:
    """The packages ``name`` lies in, itself included when it is a package."""
    parts = name.split(".")
    own = {".".join(parts[:i]) for i in range(1, len(parts))}
    return own | ({name} if mods[name].name == "__init__.py" else set())


def import_graph() -> dict[str, set[str]]:
    """``{module: the helpers and tooling modules it imports}`` under the rules of this file's docstring."""
    mods = modules()
    lazy = {name: lazy_names(name, path) for name, path in mods.items() if path.name == "__init__.py"}
    graph = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _typing_only(tree)
        package = _package(name, path)
        targets = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node.module, node.level, package)
                for alias in node.names:
                    if f"{base}.{alias.name}" in mods:
                        targets.add(f"{base}.{alias.name}")
                    elif alias.name in lazy.get(base, {}):
                        targets.add(lazy[base][alias.name])
                    else:
                        targets.add(base)
        ran = set()
        for target in targets:
            parts = target.split(".")
            ran |= {".".join(parts[:i]) for i in range(1, len(parts))} - _ancestors(name, mods)
            ran.add(target)
        graph[name] = {t for t in ran if t in mods and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted, each
    given as one cycle through it (``a -> b -> ... -> a``) so a failure names the modules."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(_one_cycle(sorted(component), graph))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _one_cycle(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    start, members = component[0], set(component)
    paths, seen = {start: [start]}, {start}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in seen:
                seen.add(nxt)
                paths[nxt] = [*paths[node], nxt]
                todo.append(nxt)
    return component


def test_no_module_under_helpers_or_tooling_is_in_an_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles in helpers/ or tooling/:\n" + "\n".join(" -> ".join(c) for c in found)


def test_helpers_never_imports_tooling():
    """What a learner's kernel imports (and the helpers wheel) never needs the course's tooling."""
    wrong = sorted(f"{name} -> {target}" for name, targets in import_graph().items() if name.split(".")[0] == "helpers"
                   for target in targets if target.split(".")[0] == "tooling")
    assert not wrong, "helpers/ imports tooling/ (move the shared piece into helpers/):\n" + "\n".join(wrong)


def test_the_graph_reader_sees_deferred_relative_and_lazy_imports():
    """The reader finds a cycle closed by an import inside a function, through relative imports and
    a lazy package's map; and none once the deferred import is gone."""
    graph = {"a": {"b"}, "b": {"c"}, "c": set()}
    assert cycles(graph) == []
    graph["c"] = {"a"}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    # the real reader on the real tree: notebook 08's checker imports the domain inside a function,
    # the scaffold the notebook runner
    graph = import_graph()
    assert "helpers.domain" in graph["helpers.exercises.nb08"]
    assert "tooling.notebooks" in graph["tooling.scaffold"]
    # a relative import: ``from .format import Question`` in helpers/selfcheck/nb02.py
    assert "helpers.selfcheck.format" in graph["helpers.selfcheck.nb02"]
    # importing ``helpers.selfcheck.format`` from outside the package runs the package too
    assert "helpers.selfcheck" in graph["helpers.widgets.engines.self_check"]
    # a lazy map: ``helpers.selfcheck._EXPORTS["self_check"]`` is the view's module, and so is the edge of
    # ``from helpers.selfcheck import self_check``; the lazy package itself imports nothing of it
    assert lazy_names("helpers.selfcheck", HELPERS / "selfcheck" / "__init__.py")["self_check"] == \
        "helpers.widgets.self_check_view"
    assert lazy_names("helpers.progress", HELPERS / "progress" / "__init__.py")["progress_report"] == \
        "helpers.progress.report"
    assert "helpers.widgets.self_check_view" not in graph["helpers.selfcheck"]
    assert graph["helpers.progress"] == {"helpers.lazy"}
    # a package does not run itself again through its own submodules
    assert "helpers.selfcheck" not in graph["helpers.selfcheck.nb02"]
    # tooling imports helpers, so the edges cross the two trees
    assert "helpers.i18n" in graph["tooling.translation.build"]
