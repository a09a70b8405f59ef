"""The package's structure, as docs/architecture.md describes it: no import
cycles, no import from a lower layer up to a higher one, a docstring in every module, and
``__all__`` in every public module (internal ones start with an underscore).

Every import counts: at module level, inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "evalfw"

#: top-level subpackages (and modules) from the lowest layer to the highest; a module may
#: import its own subpackage and anything in a lower layer, never a higher or equal one
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "version", "names"),
    ("limits", "kernels"),
    ("io", "plugin"),
    ("tokenizers",),
    ("metrics",),
    ("analysis", "reports", "executors", "checks"),
    ("host",),
    ("records",),
    ("config",),
    ("runner",),
    ("api", "compat"),
    ("cli",),
    ("__main__",),
)
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _target(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text("utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES
                     else node.module for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name.split(".")[0] == "evalfw":
                target = _target(name)
                if target and target != module:
                    found.add(target)
    return found


GRAPH = {module: _imports(module) for module in MODULES}


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "(root)"


def test_every_subpackage_has_a_layer() -> None:
    assert {_top(m) for m in MODULES} - {"(root)"} <= set(LAYER)


def test_no_import_cycles() -> None:
    seen: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles = []

    def visit(module: str, path: list[str]) -> None:
        seen[module] = 1
        for target in sorted(GRAPH[module]):
            if seen.get(target) == 1:
                cycles.append(path[path.index(target):] + [target])
            elif target not in seen:
                visit(target, [*path, target])
        seen[module] = 2

    for module in sorted(GRAPH):
        if module not in seen:
            visit(module, [module])
    assert cycles == []


def test_no_import_from_a_lower_layer_up() -> None:
    upward = []
    for module, targets in GRAPH.items():
        if _top(module) == "(root)":
            continue  # evalfw/__init__ only re-exports (lazily) and imports the plugin marker
        for target in targets:
            if _top(target) == "(root)":
                upward.append(f"{module} -> {target}")
            elif _top(target) != _top(module) and LAYER[_top(target)] >= LAYER[_top(module)]:
                upward.append(f"{module} -> {target}")
    assert upward == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_has_a_docstring_and_declares_its_api(module: str) -> None:
    path = MODULES[module]
    tree = ast.parse(path.read_text("utf-8"))
    assert ast.get_docstring(tree), f"{path} has no module docstring"
    internal = path.name.startswith("_") and path.name != "__init__.py"
    defines = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    if not internal and defines and path.name != "__main__.py":
        assigned = {t.id for n in tree.body if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)}
        assert "__all__" in assigned, f"{path} is public and declares no __all__"
