"""Scores of many summed statistic rows at once, equal to ``engine.score_counts`` bit for bit.

Rows are BLEU's statistics rows (:mod:`evalfw.metrics.bleu.metric`)::

    [hyp_len, ref_len, matches_1 .. matches_W, totals_1 .. totals_W]

with W the orders counted (``spec.count_orders``), each row the sums of some segments (a
resample). :class:`BatchScorer` builds a ``Counts`` per row and calls ``engine.score_counts``
(any plugin works), or, when the spec's components offer row methods
(:mod:`evalfw.metrics.bleu._rows`), scores all rows in one go with the same float64
operations in the same order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evalfw.metrics.bleu import _rows as fast
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.spec import BleuSpec


def counts_of(spec: BleuSpec, row: Any, last: Any, segments: int) -> Counts:
    """A ``Counts`` from one summed row (``last``: the resample's last segment's row, in the
    same layout, or None)."""
    n, width = spec.max_order, spec.count_orders
    vals = [int(v) for v in row]
    k = spec.smoothing.needs_orders
    lastv = [int(v) for v in last] if last is not None else [0] * (2 + 2 * width)
    return Counts(
        matches=tuple(vals[2:2 + n]), totals=tuple(vals[2 + width:2 + width + n]),
        hyp_len=vals[0], ref_len=vals[1], segments=segments,
        last_matches=tuple(lastv[2:2 + k]), last_totals=tuple(lastv[2 + width:2 + width + k]),
        last_hyp_len=lastv[0],
    )


def fast_path_applies(spec: BleuSpec) -> bool:
    """Whether the components' row methods score this spec (exactly, by their promise)."""
    return fast.supports(spec)


class BatchScorer:
    """Scores of summed rows under one spec (``fast=None``: use the row methods when the
    components offer them)."""

    def __init__(self, spec: BleuSpec, fast: bool | None = None) -> None:
        self.spec = spec
        self.fast = fast_path_applies(spec) if fast is None else fast
        if self.fast and not fast_path_applies(spec):
            raise ValueError("the components of this spec offer no row methods")

    def scores(self, sums: np.ndarray, last: np.ndarray | None = None,
               segments: int = 1) -> np.ndarray:
        """float64 score per row of ``sums`` (m, 2+2W) int64."""
        if self.fast:
            return self._fast(np.asarray(sums, dtype=np.int64))
        spec = self.spec
        out = np.empty(len(sums), dtype=np.float64)
        for i, row in enumerate(sums):
            counts = counts_of(spec, row, None if last is None else last[i], segments)
            out[i] = engine.score_counts(spec, counts).score
        return out

    def _fast(self, sums: np.ndarray) -> np.ndarray:
        n, width = self.spec.max_order, self.spec.count_orders
        out = fast.row_scores(self.spec, sums[:, 0], sums[:, 1], sums[:, 2:2 + n],
                              sums[:, 2 + width:2 + width + n])
        assert out is not None  # supports() probed that the components accept rows
        return out[0]


def sacrebleu_float32_score(spec: BleuSpec, row32: np.ndarray) -> float:
    """sacreBLEU's bootstrap score of one float32 sum row.

    sacreBLEU sums resampled statistics in float32 and feeds the float32 matches and totals
    to its BLEU formula (NumPy 2 keeps them float32 through ``100. * c / t``); the lengths are
    converted with ``int()``. The sacreBLEU-family components perform those operations in the
    same order, so they are called directly with numpy float32 scalars.
    """
    n, width = spec.max_order, spec.count_orders
    counts = Counts(
        matches=tuple(row32[2:2 + n]), totals=tuple(row32[2 + width:2 + width + n]),
        hyp_len=int(row32[0]), ref_len=int(row32[1]),
    )
    bp = spec.brevity_penalty.penalty(counts.hyp_len, counts.ref_len)
    smoothed = spec.smoothing.smooth(counts)
    return float(spec.mean.combine(smoothed, counts, bp, spec.weights)[0])
