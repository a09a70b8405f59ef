"""The optional compiled counting kernel (``evalfw/bleu/_clipcount.c``) behind the joined lane.

It is built by ``pip install`` when a C compiler is available and computes exactly what
:class:`evalfw.bleu.ngrams.NgramTables` computes with numpy (the tests compare the two, and
both against sacreBLEU and NLTK). Without it, or with ``EVALFW_NATIVE=0`` in the environment,
evalfw counts with numpy: same numbers, slower.
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from evalfw.bleu.ngrams import NgramTables


def kernel() -> ModuleType | None:
    """The compiled module, or None (not built, or switched off with ``EVALFW_NATIVE=0``)."""
    if os.environ.get("EVALFW_NATIVE", "1") == "0":
        return None
    try:
        from evalfw.bleu import _clipcount
    except ImportError:
        return None
    return _clipcount


def describe() -> str:
    """One line for ``evalfw plugins`` and run records: which counting code is in use."""
    if kernel() is not None:
        return "compiled kernel (evalfw.bleu._clipcount)"
    if os.environ.get("EVALFW_NATIVE", "1") == "0":
        return "numpy (compiled kernel switched off by EVALFW_NATIVE=0)"
    return "numpy (compiled kernel not built)"


class NativeTables:
    """The reference side of a test set indexed by the compiled kernel; the same interface as
    :class:`~evalfw.bleu.ngrams.NgramTables` (``ref_lens``, ``segments``, ``max_order``,
    ``count_joined``, ``count``)."""

    def __init__(self, index: object, texts: Sequence[str], lines: int, max_order: int,
                 unit: str) -> None:
        self._index = index
        self._texts = tuple(texts)
        self._unit = unit
        self._numpy: NgramTables | None = None
        self.segments = lines
        self.max_order = max_order
        self.ref_lens = np.frombuffer(index.ref_lens, np.int64).reshape(  # type: ignore[attr-defined]
            lines, len(self._texts))

    @classmethod
    def build(cls, texts: Sequence[str], lines: int, max_order: int, unit: str
              ) -> NativeTables | None:
        """Index joined reference texts; None without the kernel or for a malformed text."""
        k = kernel()
        if k is None or unit not in ("word", "char"):
            return None
        try:
            index = k.Index(list(texts), lines, max_order, unit == "char")
        except ValueError:  # not ``lines`` lines: the caller takes the list path
            return None
        return cls(index, texts, lines, max_order, unit)

    def count_joined(self, text: str, lines: int, unit: str = "word"
                     ) -> tuple[np.ndarray, np.ndarray] | None:
        if unit != self._unit or lines != self.segments:
            return None
        try:
            hyp_len, matches = self._index.count(text, lines)  # type: ignore[attr-defined]
        except ValueError:
            return None
        return (np.frombuffer(hyp_len, np.int64),
                np.frombuffer(matches, np.int64).reshape(lines, self.max_order))

    def count(self, hypotheses: Sequence[Sequence[Hashable]]) -> tuple[np.ndarray, np.ndarray]:
        """Token lists (the list path): counted by numpy tables of the same references."""
        if self._numpy is None:
            from evalfw.bleu.ngrams import NgramTables

            tables = NgramTables.from_joined(self._texts, self.segments, self.max_order,
                                             self._unit, native=False)
            assert tables is not None  # the kernel accepted these texts, so numpy does too
            self._numpy = tables
        return self._numpy.count(hypotheses)


def log(values: np.ndarray) -> np.ndarray:
    """``math.log`` of every (finite, positive) value, bit for bit: the kernel calls the same C
    library function; without the kernel, ``math.log`` itself is mapped."""
    k = kernel()
    if k is None:
        return np.array(list(map(math.log, values.tolist())), dtype=np.float64)
    return np.frombuffer(k.log(np.ascontiguousarray(values, dtype=np.float64)), np.float64)


def exp(values: np.ndarray) -> np.ndarray:
    """``math.exp`` of every (finite) value, bit for bit (see :func:`log`)."""
    k = kernel()
    if k is None:
        return np.array(list(map(math.exp, values.tolist())), dtype=np.float64)
    return np.frombuffer(k.exp(np.ascontiguousarray(values, dtype=np.float64)), np.float64)
