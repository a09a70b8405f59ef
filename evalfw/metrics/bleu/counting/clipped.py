"""Built-in n-gram counter: clipped (modified) n-gram precision statistics.

For every hypothesis n-gram, matches are clipped to its largest count in any single reference
(the maximum, not the sum). ``total_floor`` = 1 reproduces NLTK, whose per-segment totals are
max(1, len - n + 1); sacreBLEU and Moses use the raw count (0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import InputError
from evalfw.metrics.bleu.components import NgramCounter
from evalfw.metrics.bleu.counting.kernel import Counted, NativeTables
from evalfw.metrics.bleu.counting.kernel_stats import KernelStats, floor_totals
from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats
from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.counting._tables import NgramTables

# numpy (and evalfw.metrics.bleu.counting._tables, the numpy counter) are imported where the compiled kernel is
# absent or declines: a corpus counted by the kernel is scored without importing numpy.


class ClippedIndex(ReferenceIndex):
    """A test set's references as n-gram tables (see :mod:`evalfw.metrics.bleu.counting._tables`)."""

    def __init__(self, tables: NgramTables | NativeTables) -> None:
        self.tables = tables
        self.segments = tables.segments
        self.max_order = tables.max_order

    @property
    def ref_lens(self) -> np.ndarray:  # type: ignore[override]
        return self.tables.ref_lens


class Clipped(NgramCounter):
    """Clipped n-gram matches per order against the per-n-gram maximum over references."""

    name = "clipped"
    version = "1"
    description = "modified n-gram precision counts (Papineni et al. 2002); max over references"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "total_floor": {
                "type": "integer", "enum": [0, 1], "default": 0,
                "description": "per-segment minimum of each order's total (NLTK: 1)",
            }
        },
        "additionalProperties": False,
    }

    def index_references(
        self, references: Sequence[Sequence[Sequence[Hashable] | None]], max_order: int
    ) -> ClippedIndex:
        if not references:
            raise InputError("no references given; pass at least one reference stream")
        n_seg = len(references[0])
        for k, stream in enumerate(references):
            if len(stream) != n_seg:
                raise InputError(
                    f"reference stream {k + 1} has {len(stream)} segments but stream 1 has {n_seg}; "
                    "every reference stream needs one line per segment"
                )
        # the compiled kernel for token lists of str, else numpy (any hashable tokens)
        native = NativeTables.from_lists(references, max_order)
        if native is not None:
            return ClippedIndex(native)
        from evalfw.metrics.bleu.counting._tables import NgramTables

        return ClippedIndex(NgramTables(references, max_order))

    def count(self, hypotheses: Sequence[Sequence[Hashable]], index: ReferenceIndex) -> SegmentStats:
        assert isinstance(index, ClippedIndex)
        if len(hypotheses) != index.segments:
            raise InputError(
                f"{len(hypotheses)} hypotheses but {index.segments} reference segments; "
                "hypotheses and references must have one line per segment"
            )
        tables = index.tables
        if isinstance(tables, NativeTables):
            counted = tables.count_raw(hypotheses)
            if counted is not None:
                return self._kernel_stats(tables, counted)
            # a token the kernel declines (not a plain str): numpy, without a second try
            return self._stats(index, *tables.numpy_tables().count(hypotheses))
        return self._stats(index, *tables.count(hypotheses))

    # The fast lane (engine + built-in tokenizers only): token texts instead of token lists.
    joined = True

    def index_joined(self, texts: Sequence[str], lines: int, max_order: int, unit: str = "word"
                     ) -> ClippedIndex | None:
        """``index_references`` of complete reference streams given as joined token texts
        (``BatchTokenizer.tokenize_joined``, tokens of kind ``unit``); None: use the list
        path."""
        if not texts:
            return None
        # the compiled kernel when it is built (evalfw.metrics.bleu.counting.kernel), else numpy: same numbers
        native = NativeTables.build(texts, lines, max_order, unit)
        if native is not None:
            return ClippedIndex(native)
        from evalfw.metrics.bleu.counting._tables import NgramTables

        tables = NgramTables.from_joined(texts, lines, max_order, unit)
        return None if tables is None else ClippedIndex(tables)

    def count_joined(self, text: str, lines: int, index: ReferenceIndex, unit: str = "word"
                     ) -> SegmentStats | None:
        """``count`` of hypotheses given as one joined token text; None: use ``count``."""
        if not isinstance(index, ClippedIndex) or lines != index.segments:
            return None
        tables = index.tables
        if isinstance(tables, NativeTables):
            raw = tables.count_joined_raw(text, lines, unit)
            return None if raw is None else self._kernel_stats(tables, raw)
        counted = tables.count_joined(text, lines, unit)
        return None if counted is None else self._stats(index, *counted)

    def _stats(self, index: ClippedIndex, hyp_len: np.ndarray, matches: np.ndarray
               ) -> SegmentStats:
        totals = floor_totals(hyp_len, index.max_order, self.options["total_floor"])
        return SegmentStats(hyp_len, index.ref_lens, matches, totals)

    def _kernel_stats(self, tables: NativeTables, counted: Counted) -> KernelStats:
        return KernelStats(tables.kernel, *counted, tables.ref_lens_raw, tables.segments,
                           tables.refs, tables.max_order, self.options["total_floor"])


__all__ = ["Clipped", "ClippedIndex"]


@hookimpl
def evalfw_register_counters() -> list[type[NgramCounter]]:
    return [Clipped]
