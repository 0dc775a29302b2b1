"""Imports run one way: the layers of pyproject.toml's [tool.cupcake.layers] (drawn in
docs/architecture.md), and no circle between modules. Deferred imports count (they run one day);
imports under ``if TYPE_CHECKING:`` do not (they never run)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def contract(pyproject: Path = REPO / "pyproject.toml") -> tuple[list[list[str]], set[tuple[str, ...]]]:
    table = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["cupcake"]["layers"]
    layers = [[name.strip() for name in line.split("|")] for line in table["layers"]]
    exceptions = {tuple(part.strip() for part in entry.split("->")) for entry in table["exceptions"]}
    return layers, exceptions


def imports(package: Path) -> dict[str, dict[str, int]]:
    """module -> {the module it imports: line}."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    found: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges = found.setdefault(name, {})
        for node in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:  # `from cupcake.x import name`: the module cupcake.x
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.setdefault(target, node.lineno)
    return found


def _nodes(tree):
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                stack.extend(child.orelse)
                continue
            yield child
            stack.append(child)


def layer_of(module: str, layers: list[list[str]]) -> tuple[int, str]:
    """(the layer's number from the top, the package that places it): the longest name that fits. A
    name fits its module and everything under it, but the root package's name only itself: a new
    package must be placed, not land in the base layer unnoticed."""
    best = (-1, "")
    for number, names in enumerate(layers):
        for name in names:
            under = module.startswith(name + ".") and "." in name
            if (module == name or under) and len(name) > len(best[1]):
                best = (number, name)
    return best


def wrong_way(graph, layers, exceptions) -> list[str]:
    found = []
    for module, edges in sorted(graph.items()):
        here, _ = layer_of(module, layers)
        if here < 0:
            found.append(f"{module}: in no layer of [tool.cupcake.layers]")
            continue
        for target, line in sorted(edges.items()):
            there, package = layer_of(target, layers)
            if there < here and (module, target) not in exceptions:
                found.append(f"{module}:{line} imports {target}, a layer above ({package})")
    return found


def circles(graph, exceptions) -> list[str]:
    """Every strongly connected set of modules (Tarjan), each as the modules in it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, ()):
            if (module, target) in exceptions:
                continue
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            members = []
            while True:
                member = stack.pop()
                members.append(member)
                if member == module:
                    break
            if len(members) > 1:
                found.append(" <-> ".join(sorted(members)))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_imports_run_down_the_layers():
    layers, exceptions = contract()
    offences = wrong_way(imports(REPO / "cupcake"), layers, exceptions)
    assert offences == [], "\n".join(offences)


def test_no_circle_between_modules():
    _, exceptions = contract()
    found = circles(imports(REPO / "cupcake"), exceptions)
    assert found == [], "\n".join(found)


def test_every_exception_is_still_needed():
    _, exceptions = contract()
    graph = imports(REPO / "cupcake")
    stale = [f"{a} -> {b}" for a, b in sorted(exceptions) if b not in graph.get(a, {})]
    assert stale == [], "exceptions the code no longer needs (remove them): " + ", ".join(stale)


def test_the_checks_can_fail(tmp_path):
    package = tmp_path / "cupcake"
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("")
    (package / "high.py").write_text("from cupcake.low import a\n")
    (package / "low" / "a.py").write_text("def f():\n    from cupcake import high\n")
    (package / "low" / "b.py").write_text("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from cupcake import high\n")
    (package / "stray.py").write_text("")
    graph = imports(package)
    layers = [["cupcake.high"], ["cupcake.low", "cupcake"]]
    assert wrong_way(graph, layers, set()) == [
        "cupcake.low.a:2 imports cupcake.high, a layer above (cupcake.high)",
        "cupcake.stray: in no layer of [tool.cupcake.layers]",
    ]
    assert circles(graph, set()) == ["cupcake.high <-> cupcake.low.a"]
    assert circles(graph, {("cupcake.low.a", "cupcake.high")}) == []
    assert "cupcake.high" not in graph["cupcake.low.b"]
