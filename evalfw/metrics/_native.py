"""Optional compiled kernels: a metric's C extension, used when it was built and not switched
off with ``EVALFW_NATIVE=0``. The switch is read on every call, so tests and users can flip it
at any time; the import is tried once."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["CompiledKernel"]


class CompiledKernel:
    """The compiled module ``name`` and a one-line description of what computes instead
    (``fallback``: "numpy", "Python") for ``evalfw plugins`` and run records."""

    def __init__(self, name: str, fallback: str) -> None:
        self.name = name
        self.fallback = fallback

    @staticmethod
    def switched_off() -> bool:
        return os.environ.get("EVALFW_NATIVE", "1") == "0"

    def module(self) -> ModuleType | None:
        """The compiled module, or None (not built, or switched off)."""
        return None if self.switched_off() else self.built()

    def built(self) -> ModuleType | None:
        """The compiled module whatever the switch says (for objects it already made)."""
        return _import(self.name)

    def describe(self) -> str:
        if self.module() is not None:
            return f"compiled kernel ({self.name})"
        if self.switched_off():
            return f"{self.fallback} (compiled kernel switched off by EVALFW_NATIVE=0)"
        return f"{self.fallback} (compiled kernel not built)"


#: modules imported (None: not built), by name: a dict, not functools.cache, which the drop-in
#: command line would import for this alone
_IMPORTED: dict[str, ModuleType | None] = {}


def _import(name: str) -> ModuleType | None:
    if name not in _IMPORTED:
        try:
            _IMPORTED[name] = importlib.import_module(name)
        except ImportError:
            _IMPORTED[name] = None
    return _IMPORTED[name]
