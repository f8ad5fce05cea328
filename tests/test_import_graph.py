"""varroom's import graph, read from the source with ast: every import, module level or inside a
function, as Python would run it (importing `a.b.c` runs the packages `a.b` too).

Imports under `if TYPE_CHECKING:` never run: they count for what a layer may know of, not for
cycles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
# Where the test scaffolding lives: the library must run without it.
NOT_THE_LIBRARY = {"tests", "bench"} | {
    path.stem for folder in ("tests", "bench") for path in (ROOT / folder).glob("*.py")
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted((SRC / "varroom").rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, runtime: bool = True) -> Iterator[tuple[ast.AST, bool]]:
    """Every import statement below `node`, and whether it runs (not under TYPE_CHECKING)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, runtime
        elif isinstance(child, ast.If) and _is_type_checking(child):
            for inner in child.body:
                yield from _imports_in(inner, False)
            for inner in child.orelse:
                yield from _imports_in(inner, runtime)
        else:
            yield from _imports(child, runtime)


def _imports_in(node: ast.AST, runtime: bool) -> Iterator[tuple[ast.AST, bool]]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node, runtime
    else:
        yield from _imports(node, runtime)


def _targets(module: str, node: ast.AST) -> Iterator[str]:
    """The modules an import statement names (a name imported from a package that is a
    submodule counts as that submodule)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    yield base
    for alias in node.names:
        if f"{base}.{alias.name}" in MODULES:
            yield f"{base}.{alias.name}"


def _runs(module: str, target: str) -> Iterator[str]:
    """The varroom modules importing `target` runs: it and its packages, but for the packages
    `module` is inside (already running when it runs)."""
    parts = target.split(".")
    for end in range(1, len(parts) + 1):
        name = ".".join(parts[:end])
        if name in MODULES and not (module == name or module.startswith(name + ".")):
            yield name


def _graph(runtime_only: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges: set[str] = set()
        for node, runtime in _imports(tree):
            if runtime or not runtime_only:
                for target in _targets(module, node):
                    edges.update(_runs(module, target) if runtime_only else [target])
        graph[module] = edges
    return graph


RUNTIME = _graph(runtime_only=True)
ALL = _graph(runtime_only=False)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
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
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def _importers(graph: dict[str, set[str]], prefix: str) -> dict[str, set[str]]:
    """Each module that imports something under `prefix`, with what it imports there."""
    return {
        module: hits
        for module, targets in graph.items()
        if (hits := {t for t in targets if t == prefix or t.startswith(prefix + ".")})
    }


def test_the_graph_sees_function_level_and_relative_imports() -> None:
    # audit_match imports the tracking audit inside the function: an edge all the same.
    assert "varroom.audit.tracking" in RUNTIME["varroom.audit.run"]
    # Importing a module runs its package first.
    assert "varroom.match" in RUNTIME["varroom.audit.tracking"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert _cycles(RUNTIME) == []


def test_only_the_synthetic_package_its_shim_and_its_command_import_it() -> None:
    # `varroom synthetic` writes seeded matches for a season's test run: the one command that
    # is about synthetic data. Nothing on the judging path may import it.
    allowed = {"varroom.audit.synthetic", "varroom.cli.synthetic"}
    importers = {
        module
        for module in _importers(ALL, "varroom.synthetic")
        if module not in allowed and not module.startswith("varroom.synthetic")
    }
    assert importers == set()


@pytest.mark.parametrize("package", sorted(NOT_THE_LIBRARY))
def test_the_library_imports_no_test_or_bench_module(package: str) -> None:
    assert _importers(ALL, package) == {}


def test_law_knows_only_the_model() -> None:
    for module, targets in ALL.items():
        if module.startswith("varroom.law."):
            outside = {
                t
                for t in targets
                if t.startswith("varroom.") and not t.startswith(("varroom.law", "varroom.model"))
            }
            assert outside == set(), module


def test_the_model_imports_only_the_model() -> None:
    # The domain types know no reader, engine or law: a reader (formats/) builds them.
    for module, targets in ALL.items():
        if module.startswith("varroom.model."):
            outside = {
                t for t in targets if t.startswith("varroom.") and not t.startswith("varroom.model")
            }
            assert outside == set(), module
