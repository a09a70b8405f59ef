"""Scores of many summed statistic rows at once, equal to ``engine.score_counts`` bit for bit.

Rows are BLEU's statistics rows (:mod:`evalfw.metrics.bleu.metric`)::

    [hyp_len, ref_len, matches_1 .. matches_W, totals_1 .. totals_W]

with W the orders counted (``spec.count_orders``), each row the sums of some segments (a
resample). :class:`BatchScorer` builds a ``Counts`` per row and calls ``engine.score_counts``
(any plugin works), or, for the built-in sacreBLEU components, scores all rows in one call of
the compiled formula (:mod:`evalfw.metrics.bleu._rows`), which gives the same floats.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evalfw.metrics.bleu import _rows, engine
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


class BatchScorer:
    """Scores of summed rows under one spec (``fast=None``: use the compiled formula where it
    applies; ``fast=False``: ``engine.score_counts`` row by row)."""

    def __init__(self, spec: BleuSpec, fast: bool | None = None) -> None:
        self.spec = spec
        self.fast = _rows.applies(spec) if fast is None else fast
        if self.fast and not _rows.applies(spec):
            raise ValueError("the compiled formula does not score this spec")

    def scores(self, sums: np.ndarray, last: np.ndarray | None = None,
               segments: int = 1) -> np.ndarray:
        """float64 score per row of ``sums`` (m, 2+2W) int64."""
        spec = self.spec
        if self.fast:
            n, width = spec.max_order, spec.count_orders
            rows = _rows.row_scores(spec, sums[:, 0], sums[:, 1], sums[:, 2:2 + n],
                                    sums[:, 2 + width:2 + width + n])
            if rows is not None:
                return rows.scores
        out = np.empty(len(sums), dtype=np.float64)
        for i, row in enumerate(sums):
            counts = counts_of(spec, row, None if last is None else last[i], segments)
            out[i] = engine.score_counts(spec, counts).score
        return out


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
