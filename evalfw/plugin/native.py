"""Optional compiled kernels of components: a metric's or tokenizer's C extension, used when it
was built and not switched off (see :mod:`evalfw.kernels`, which loads every kernel and reads
the switches)."""

from __future__ import annotations

from types import ModuleType

from evalfw import kernels

__all__ = ["CompiledKernel"]


class CompiledKernel:
    """The compiled module ``name`` and a one-line description of what computes instead
    (``fallback``: "numpy", "Python") for ``evalfw plugins`` and run records."""

    def __init__(self, name: str, fallback: str) -> None:
        self.name = name
        self.fallback = fallback

    @staticmethod
    def switched_off() -> bool:
        return kernels.switched_off()

    def module(self) -> ModuleType | None:
        """The compiled module, or None (not built, or switched off)."""
        return kernels.load(self.name)

    def built(self) -> ModuleType | None:
        """The compiled module whatever the switch says (for objects it already made)."""
        return kernels.built(self.name)

    def describe(self) -> str:
        if self.module() is not None:
            return f"compiled kernel ({self.name})"
        if self.switched_off():
            return f"{self.fallback} (compiled kernel switched off by EVALFW_NATIVE=0)"
        return f"{self.fallback} (compiled kernel not built)"
