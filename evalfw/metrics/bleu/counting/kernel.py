"""The optional compiled counting kernel (``evalfw/bleu/_clipcount.c``) behind the joined lane.

It is built by ``pip install`` when a C compiler is available and computes exactly what
:class:`evalfw.metrics.bleu.counting._tables.NgramTables` computes with numpy (the tests compare the two, and
both against sacreBLEU and NLTK). Without it, or with ``EVALFW_NATIVE=0`` in the environment,
evalfw counts with numpy: same numbers, slower.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from evalfw.plugin.native import CompiledKernel

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.counting._tables import NgramTables

#: (hyp_len, matches) as the kernel returns them: int64 bytes, [lines] and [lines][max_order]
Counted = tuple[bytes, bytes]


#: the optional C extension (built by ``pip install``)
COMPILED = CompiledKernel("evalfw.metrics.bleu.counting._clipcount", "numpy")


def kernel() -> ModuleType | None:
    """The compiled module, or None (not built, or switched off with ``EVALFW_NATIVE=0``)."""
    return COMPILED.module()


def describe() -> str:
    """One line for ``evalfw plugins`` and run records: which code computes."""
    return COMPILED.describe()


class NativeTables:
    """The reference side of a test set indexed by the compiled kernel; the same interface as
    :class:`~evalfw.metrics.bleu.counting._tables.NgramTables` (``ref_lens``, ``segments``, ``max_order``,
    ``count_joined``, ``count``)."""

    def __init__(self, index: Any, lines: int, max_order: int, unit: str | None,
                 source: tuple[Any, ...]) -> None:
        self._index = index
        self._unit = unit  # None: built from token lists
        #: what numpy tables are built from if a count needs them (see ``numpy_tables``)
        self._source = source
        self._numpy: NgramTables | None = None
        self.segments = lines
        self.max_order = max_order
        self.refs = len(source)
        self.ref_lens_raw: bytes = index.ref_lens  # int64 [lines][refs]; -1: no reference
        self.kernel: ModuleType = COMPILED.built()  # type: ignore[assignment]

    @functools.cached_property
    def ref_lens(self) -> np.ndarray:
        import numpy as np

        return np.frombuffer(self.ref_lens_raw, np.int64).reshape(self.segments, self.refs)

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
        return cls(index, lines, max_order, unit, tuple(texts))

    @classmethod
    def from_lists(cls, streams: Sequence[Sequence[Sequence[Hashable] | None]], max_order: int
                   ) -> NativeTables | None:
        """Index reference token lists (None: no such reference); None without the kernel or
        when a token is not a plain ``str`` (other types keep Python's ``==``: numpy path)."""
        k = kernel()
        if k is None or not streams:
            return None
        lines = len(streams[0])
        try:
            index = k.Index.from_lists(streams, lines, max_order)
        except (TypeError, ValueError):
            return None
        # The tokens for a fallback count come back from the kernel's own copy (index.tokens),
        # so later changes to the caller's lists cannot reach it.
        return cls(index, lines, max_order, None, (None,) * len(streams))

    def count_joined(self, text: str, lines: int, unit: str = "word"
                     ) -> tuple[np.ndarray, np.ndarray] | None:
        counted = self.count_joined_raw(text, lines, unit)
        return None if counted is None else self._arrays(counted, lines)

    def count_joined_raw(self, text: str, lines: int, unit: str = "word") -> Counted | None:
        """``count_joined`` as the kernel's buffers; None: the caller takes the list path."""
        if unit != self._unit or lines != self.segments:
            return None
        try:
            return self._index.count(text, lines)  # type: ignore[no-any-return]
        except ValueError:
            return None

    def count(self, hypotheses: Sequence[Sequence[Hashable]]) -> tuple[np.ndarray, np.ndarray]:
        """Token lists; by the kernel when every token is a ``str`` (an index of joined texts
        holds the same tokens), else by numpy tables of the same references."""
        counted = self.count_raw(hypotheses)
        if counted is None:
            return self.numpy_tables().count(hypotheses)
        return self._arrays(counted, len(hypotheses))

    def count_raw(self, hypotheses: Sequence[Sequence[Hashable]]) -> Counted | None:
        """``count`` as the kernel's buffers; None when a token is not a plain ``str``."""
        try:
            return self._index.count(hypotheses, len(hypotheses), lists=True)  # type: ignore
        except (TypeError, ValueError):
            return None

    def _arrays(self, counted: Counted, lines: int) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        hyp_len, matches = counted
        return (np.frombuffer(hyp_len, np.int64),
                np.frombuffer(matches, np.int64).reshape(lines, self.max_order))

    def numpy_tables(self) -> NgramTables:
        if self._numpy is None:
            from evalfw.metrics.bleu.counting._tables import NgramTables

            if self._unit is None:
                streams = self._index.tokens()
            else:  # the tokens of the joined texts (numpy's own joined reader may decline some)
                streams = [_joined_tokens(text, self._unit) for text in self._source]
            self._numpy = NgramTables(streams, self.max_order)
        return self._numpy


def _joined_tokens(text: str, unit: str) -> list[list[str]]:
    """The token lists of a joined text: whitespace-separated words, or with ``unit="char"``
    every non-whitespace character."""
    lines = text.split("\n")[1:-1]
    if unit == "char":
        return [[c for c in line if not c.isspace()] for line in lines]
    return [line.split() for line in lines]


__all__ = ["Counted", "describe", "kernel", "NativeTables"]
