"""Scores of many summed statistic rows at once, equal to ``engine.score_counts`` bit for bit.

:class:`BatchScorer` scores rows laid out as in :mod:`evalfw.analysis.resampling`. The
general path builds a ``Counts`` per row and calls ``engine.score_counts`` (any plugin works).
For the built-in sacreBLEU family (its smoothers, its mean, a sacreBLEU-formula brevity
penalty, uniform weights) a vectorized path does the same float64 operations in the same
order; ``log`` and ``exp`` stay Python's ``math`` functions because numpy's may differ in the
last bit. Python >= 3.12 sums floats with compensation, so there the general path is used.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from evalfw.bleu import engine
from evalfw.bleu.spec import BleuSpec
from evalfw.builtin import brevity, sacrebleu_family as sbf
from evalfw.components import Counts

_FAST_SMOOTHERS = (sbf.NoSmoothing, sbf.Floor, sbf.AddK, sbf.Exp)
_FAST_PENALTIES = (brevity.Closest, brevity.ClosestFirst, brevity.Shortest)


def counts_of(spec: BleuSpec, row: Any, last: Any, segments: int) -> Counts:
    """A ``Counts`` from one summed row (``last``: the last segment's row, or None)."""
    n = spec.max_order
    vals = [int(v) for v in row]
    k = spec.smoothing.needs_orders
    lastv = [int(v) for v in last] if last is not None else [0]
    return Counts(
        matches=tuple(vals[2:2 + n]), totals=tuple(vals[2 + n:2 + 2 * n]),
        hyp_len=vals[0], ref_len=vals[1], segments=segments,
        last_matches=tuple(lastv[1:1 + k]), last_totals=tuple(lastv[1 + k:1 + 2 * k]),
        last_hyp_len=lastv[0],
    )


def fast_path_applies(spec: BleuSpec) -> bool:
    """Whether the vectorized sacreBLEU-family path reproduces this spec exactly."""
    return (
        sys.version_info < (3, 12)
        and type(spec.smoothing) in _FAST_SMOOTHERS
        and type(spec.mean) is sbf.SacreMean
        and type(spec.brevity_penalty) in _FAST_PENALTIES
        and spec.brevity_penalty.options["formula"] == "sacrebleu"
        and spec.weights is None
    )


class BatchScorer:
    """Scores of summed rows under one spec (``fast=None``: use the fast path when exact)."""

    def __init__(self, spec: BleuSpec, fast: bool | None = None) -> None:
        self.spec = spec
        self.fast = fast_path_applies(spec) if fast is None else fast
        if self.fast and not fast_path_applies(spec):
            raise ValueError("the vectorized path does not reproduce this spec")

    def scores(self, sums: np.ndarray, last: np.ndarray | None = None,
               segments: int = 1) -> np.ndarray:
        """float64 score per row of ``sums`` (m, 2+2N) int64."""
        if self.fast:
            return self._fast(np.asarray(sums, dtype=np.int64))
        spec = self.spec
        out = np.empty(len(sums), dtype=np.float64)
        for i, row in enumerate(sums):
            counts = counts_of(spec, row, None if last is None else last[i], segments)
            out[i] = engine.score_counts(spec, counts).score
        return out

    def _fast(self, sums: np.ndarray) -> np.ndarray:
        spec = self.spec
        n = spec.max_order
        hyp, ref = sums[:, 0], sums[:, 1]
        raw = sums[:, 2:2 + n]
        correct = raw.astype(np.float64)
        total = sums[:, 2 + n:2 + 2 * n].astype(np.float64)
        smoothing = spec.smoothing
        if type(smoothing) is sbf.AddK:
            correct[:, 1:] += smoothing.options["value"]
            total[:, 1:] += smoothing.options["value"]
        alive = np.cumprod(total > 0, axis=1).astype(bool)  # orders before the first empty one
        zero = alive & (correct == 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            prec = 100.0 * correct / total
            if type(smoothing) is sbf.Exp:
                prec = np.where(zero, 100.0 / (2.0 ** np.cumsum(zero, axis=1) * total), prec)
            elif type(smoothing) is sbf.Floor:
                prec = np.where(zero, 100.0 * smoothing.options["value"] / total, prec)
            else:
                prec = np.where(zero, 0.0, prec)
        prec = np.where(alive, prec, 0.0)
        eff = np.full(len(sums), n, dtype=np.int64)
        if spec.mean.options["effective_order"]:
            reached = alive.sum(axis=1)
            eff = np.where(reached > 0, reached, n)
        flat = prec.ravel()
        nonzero = flat != 0
        logs = np.full(flat.shape, float(sbf.LOG_ZERO))
        logs[nonzero] = np.fromiter(map(math.log, flat[nonzero].tolist()), float,
                                    int(nonzero.sum()))
        logs = logs.reshape(prec.shape)
        acc = logs[:, 0].copy()  # Python's sum: left to right (0 + x is x exactly)
        for k in range(1, n):
            acc = np.where(k < eff, acc + logs[:, k], acc)
        geo = np.fromiter(map(math.exp, (acc / eff).tolist()), float, len(sums))
        short = (hyp < ref) & (hyp > 0)
        bp = np.where(hyp < ref, 0.0, 1.0)
        bp[short] = np.fromiter(
            (math.exp(1 - r / h) for r, h in zip(ref[short].tolist(), hyp[short].tolist())),
            float, int(short.sum()))
        score = bp * geo
        return np.where(raw.any(axis=1), score, 0.0)


def sacrebleu_float32_score(spec: BleuSpec, row32: np.ndarray, segments: int) -> float:
    """sacreBLEU's bootstrap score of one float32 sum row.

    sacreBLEU sums resampled statistics in float32 and feeds the float32 matches and totals
    to its BLEU formula (NumPy 2 keeps them float32 through ``100. * c / t``); the lengths are
    converted with ``int()``. The sacreBLEU-family components perform those operations in the
    same order, so they are called directly with numpy float32 scalars.
    """
    n = spec.max_order
    counts = Counts(
        matches=tuple(row32[2:2 + n]), totals=tuple(row32[2 + n:2 + 2 * n]),
        hyp_len=int(row32[0]), ref_len=int(row32[1]), segments=segments,
    )
    bp = spec.brevity_penalty.penalty(counts.hyp_len, counts.ref_len)
    smoothed = spec.smoothing.smooth(counts)
    return float(spec.mean.combine(smoothed, counts, bp, spec.weights)[0])
