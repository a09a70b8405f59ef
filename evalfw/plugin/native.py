"""Optional compiled kernels: a component's C extension (counting, statistics, tokenizer
rules), used when it was built and not switched off with ``EVALFW_NATIVE=0``. The switch is
read on every call, so tests and users can flip it at any time; the import is tried once."""

from __future__ import annotations

import functools
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


@functools.cache
def _import(name: str) -> ModuleType | None:
    try:  # by name: a compiled module is not a module of the package's source
        return importlib.import_module(name)
    except ImportError:
        return None
