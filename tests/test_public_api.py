"""The public modules show their names to type checkers: ``__all__`` lists exactly the names
the module imports (at its top, under ``TYPE_CHECKING`` or in its stub ``__init__.pyi``) or
declares, each resolves at run time to the object the type checker sees, and ``import evalfw``
imports none of the package's modules (it hands its names out on first use)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PUBLIC = ["evalfw", "evalfw.compat.sacrebleu", "evalfw.compat.sacrebleu.metrics"]


def _type_checking_names(module: str) -> dict[str, tuple[str, str] | None]:
    """Name -> (module, attribute) imported at the top of the module (or of its stub
    ``__init__.pyi``) or under ``if TYPE_CHECKING:`` (None: declared with an annotation)."""
    path = Path(importlib.import_module(module).__file__ or "")
    stub = path.with_suffix(".pyi")
    tree = ast.parse((stub if stub.is_file() else path).read_text("utf-8"))
    blocks = [tree.body] + [node.body for node in tree.body if isinstance(node, ast.If)
                            and getattr(node.test, "id", "") == "TYPE_CHECKING"]
    out: dict[str, tuple[str, str] | None] = {}
    for item in (item for body in blocks for item in body):
        if isinstance(item, ast.ImportFrom) and item.module and item.module != "__future__":
            for alias in item.names:
                out[alias.asname or alias.name] = (item.module, alias.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out[item.target.id] = None
    return out


@pytest.mark.parametrize("module", PUBLIC)
def test_all_is_what_type_checkers_see(module: str) -> None:
    seen = _type_checking_names(module)
    mod = importlib.import_module(module)
    assert set(mod.__all__) <= set(seen), set(mod.__all__) - set(seen)
    assert set(seen) - set(mod.__all__) <= {"__version__"}
    for name, origin in seen.items():
        value = getattr(mod, name)
        if origin is not None and name != "__version__":
            assert value == getattr(importlib.import_module(origin[0]), origin[1]), name


def test_import_evalfw_imports_none_of_its_modules() -> None:
    code = ("import sys, evalfw; print(sorted(m for m in sys.modules if m.startswith('evalfw.')"
            " or m == 'pluggy'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
