"""The optional compiled kernels: which exist, whether each was built, and the switches.

``pip install`` compiles each kernel with the machine's C compiler; with none, the install still
succeeds and evalfw computes the same numbers in Python or numpy, more slowly. Every kernel is
loaded through :func:`load`, so two environment variables act on all of them alike:

- ``EVALFW_NATIVE=0`` switches the kernels off (read on every call, so a test can flip it);
- ``EVALFW_NO_KERNELS=1`` makes evalfw behave exactly as an install whose kernels were not
  built: kernels look absent even where ``EVALFW_NATIVE=1`` asks for them. The test suite runs
  once this way to prove the fallback path.

:data:`KERNELS` is the one list of kernels: ``setup.py`` builds an extension for each (a test
compares the two), and ``evalfw plugins`` lists each as compiled or fallback.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


class Kernel:
    """One compiled module: its import name, what it computes and what computes without it."""

    __slots__ = ("computes", "fallback", "module")

    def __init__(self, module: str, computes: str, fallback: str) -> None:
        self.module = module
        self.computes = computes
        self.fallback = fallback

    def __repr__(self) -> str:
        return f"Kernel({self.module!r}, {self.computes!r}, {self.fallback!r})"


#: every compiled kernel, as setup.py builds them
KERNELS: tuple[Kernel, ...] = (
    Kernel("evalfw.metrics.bleu.counting._clipcount", "BLEU n-gram counting", "numpy"),
    Kernel("evalfw.metrics.chrf._chrf", "chrF statistics", "Python"),
    Kernel("evalfw.metrics.ter._ter", "TER edit distance and shifts", "Python"),
    Kernel("evalfw.analysis.meta._metakernel", "meta-evaluation pair loops and permutation "
           "trials", "numpy"),
    Kernel("evalfw.tokenizers._mteval_rules", "13a tokenizer rules", "Python"),
    Kernel("evalfw.tokenizers._intl_rules", "intl tokenizer rules", "Python"),
)

#: modules imported once (None: not built), by name
_IMPORTED: dict[str, ModuleType | None] = {}


def switched_off() -> bool:
    """Whether ``EVALFW_NATIVE=0`` switches the kernels off."""
    return os.environ.get("EVALFW_NATIVE", "1") == "0"


def hidden() -> bool:
    """Whether ``EVALFW_NO_KERNELS=1`` makes every kernel look not built."""
    return os.environ.get("EVALFW_NO_KERNELS", "0") == "1"


def built(name: str) -> ModuleType | None:
    """The compiled module ``name`` whatever ``EVALFW_NATIVE`` says, or None when it was not
    built (or ``EVALFW_NO_KERNELS=1``)."""
    if hidden():
        return None
    if name not in _IMPORTED:
        try:
            _IMPORTED[name] = importlib.import_module(name)
        except ImportError:
            _IMPORTED[name] = None
    return _IMPORTED[name]


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` to compute with, or None: not built, or switched off."""
    return None if switched_off() else built(name)


def status(kernel: Kernel) -> str:
    """``compiled``, or which fallback computes and why, in one line."""
    if load(kernel.module) is not None:
        return "compiled"
    if switched_off() and built(kernel.module) is not None:
        return f"fallback: {kernel.fallback} (switched off by EVALFW_NATIVE=0)"
    if hidden():
        return f"fallback: {kernel.fallback} (hidden by EVALFW_NO_KERNELS=1)"
    return f"fallback: {kernel.fallback} (not built: no C compiler when evalfw was installed?)"


def missing() -> list[Kernel]:
    """The kernels that were not built (whatever the switches say)."""
    if hidden():
        return []  # asked for: not a broken install
    return [k for k in KERNELS if built(k.module) is None]


__all__ = ["KERNELS", "Kernel", "built", "hidden", "load", "missing", "status", "switched_off"]
