"""Segment-level statistics without grouping: every pair of judged items, whichever segments
and systems they belong to (mt-metrics-eval's ``average_by='none'``).

n judged items make n (n - 1) / 2 pairs (23.6 million for 13 systems x 529 segments), so the
pairs are visited in blocks of rows, items sorted by metric score so that each pair's
difference is ``x_j - x_i >= 0``, and nothing of size n^2 is kept:

- the five Kendall counts (tau-b, tau-c);
- tie calibration, exact: the pairs' gains are summed per bucket of the difference's float64
  bit pattern (its order is the number's), which gives the statistic at every bucket's end
  and a bound within each bucket; only the buckets whose bound reaches the best value found
  are visited again, their pairs sorted and searched threshold by threshold;
- per pair of segments (r <= s), the counts a bootstrap needs: a resample that draws segment
  r m_r times holds m_r m_s copies of every pair between r and s (m_r^2 within r) and
  n_r m_r (m_r - 1) / 2 pairs of an item with its own copy, tied on both sides, so every count
  of the resample is a quadratic form in the draw counts. The bootstrap of acc_eq keeps the
  threshold chosen on the full data (searching it again would visit every pair per resample).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from evalfw.analysis.meta import _kernel
from evalfw.analysis.meta.kendall import PairCounts, tau

#: bucket = the difference's bit pattern shifted right by this much (2^-10 relative width)
BUCKET_SHIFT = 42


@dataclass(frozen=True, eq=False)
class Items:
    """Judged items: metric score x, human score y (both higher-is-better) and segment."""

    x: np.ndarray
    y: np.ndarray
    segment: np.ndarray
    segments: int

    def sorted(self) -> Items:
        order = np.argsort(self.x, kind="stable")
        return Items(self.x[order], self.y[order], self.segment[order], self.segments)

    @property
    def sizes(self) -> np.ndarray:
        return np.bincount(self.segment, minlength=self.segments).astype(np.float64)


@dataclass(frozen=True, eq=False)
class SegmentPairs:
    """Counts per pair of segments (upper triangle, r <= s, flattened r * segments + s)."""

    sign: np.ndarray  # concordant - discordant
    xtie: np.ndarray  # tied in x
    ytie: np.ndarray  # tied in y
    both: np.ndarray


@dataclass(frozen=True, eq=False)
class Ungrouped:
    """The ungrouped statistics of one metric (see the module docstring)."""

    counts: PairCounts
    items: int
    classes: int
    tau_b: float
    tau_c: float
    acc_eq: float
    epsilon: float
    #: the share of pairs that are metric ties at epsilon
    ties: float
    #: for the bootstrap (None when not asked for)
    pairs: SegmentPairs | None
    agree: np.ndarray | None  # per segment pair: pairs agreeing at epsilon
    x_ranks: np.ndarray | None
    y_ranks: np.ndarray | None
    segment: np.ndarray | None


def analyse(items: Items, resampling: bool = True) -> Ungrouped:
    """Kendall counts, tau-b, tau-c and calibrated acc_eq of every pair of ``items``; with
    ``resampling`` also what :func:`resampled` needs."""
    s = items.sorted()
    r = s.segments
    span = np.array([max(float(s.x[-1] - s.x[0]), 0.0)]) if len(s.x) else np.zeros(1)
    passed = _kernel.all_pairs(s.x, s.y, s.segment, r, BUCKET_SHIFT,
                               int(_kernel.bucket(span, BUCKET_SHIFT)[0]) + 1, resampling)
    con, dis, xt, yt, both, _ = (int(v) for v in passed.totals)
    counts = PairCounts(con, dis, xt - both, yt - both, both)
    classes = min(len(np.unique(s.x)), len(np.unique(s.y)))
    n = len(s.x)
    epsilon, agree_count, tied = _calibrate(s, passed)
    total = counts.total
    acc = agree_count / total if total else math.nan
    pairs = SegmentPairs(*(m.astype(np.float64) for m in passed.matrices)) \
        if resampling else None
    agree = _agree_matrix(s, pairs, epsilon) if pairs is not None else None
    return Ungrouped(
        counts, n, classes, tau(counts, "b"), tau(counts, "c", n, classes), acc, epsilon,
        tied / total if total else math.nan, pairs, agree,
        np.unique(s.x, return_inverse=True)[1] if resampling else None,
        np.unique(s.y, return_inverse=True)[1] if resampling else None,
        s.segment if resampling else None)


def _calibrate(s: Items, passed: _kernel.AllPairs) -> tuple[float, int, int]:
    """The best threshold, its number of agreeing pairs and of metric ties (see the module
    docstring)."""
    con, zero_gain = int(passed.totals[0]), int(passed.totals[5])
    at_zero = con + zero_gain  # threshold 0: exact metric ties only
    ends = con + np.cumsum(passed.gain)
    before = ends - passed.gain
    filled = passed.count > 0
    lower = max(at_zero, int(ends[filled].max(initial=at_zero)))
    candidates = filled & (before + passed.rise >= lower)
    found: list[tuple[float, int]] = [(0.0, at_zero)]
    d = np.zeros(0)
    if candidates.any():
        d, g = _kernel.collect(s.x, s.y, BUCKET_SHIFT, candidates,
                               int(passed.count[candidates].sum()))
        order = np.argsort(d, kind="stable")
        d, g = d[order], g[order]
        k = _kernel.bucket(d, BUCKET_SHIFT)
        # running sums restart at each bucket, from the value before it
        new = np.r_[True, k[1:] != k[:-1]]
        run = np.cumsum(g)
        within = run - np.r_[0, run][np.flatnonzero(new)][np.cumsum(new) - 1]
        values = before[k] + within
        last = np.r_[d[1:] != d[:-1], True] & (d > 0)
        found += list(zip(d[last].tolist(), values[last].tolist()))
    best = max(v for _, v in found)
    epsilon = min(t for t, v in found if v == best)
    if epsilon == 0:
        return epsilon, int(best), int(passed.totals[2])
    at = int(_kernel.bucket(np.array([epsilon]), BUCKET_SHIFT)[0])
    tied = int(passed.count[:at].sum()) + int((d[_kernel.bucket(d, BUCKET_SHIFT) == at]
                                               <= epsilon).sum())
    return epsilon, int(best), tied


def _agree_matrix(s: Items, pairs: SegmentPairs, epsilon: float) -> np.ndarray:
    """Per segment pair, the pairs that agree at ``epsilon``: concordant pairs beyond it,
    pairs tied in y within it."""
    r = s.segments
    size = np.outer(s.sizes, s.sizes)
    size[np.diag_indices(r)] = s.sizes * (s.sizes - 1) / 2
    size = np.triu(size).ravel()
    con = (pairs.sign + size - pairs.xtie - pairs.ytie + pairs.both) / 2
    if epsilon > 0:
        band_con, band_y = _kernel.band(s.x, s.y, s.segment, r, epsilon)
        return np.asarray(con - band_con + band_y)
    return np.asarray(con + pairs.both)  # differences of 0 are ties; tied in both: agreement


def resampled(u: Ungrouped, weights: np.ndarray) -> dict[str, np.ndarray]:
    """tau-b, tau-c and acc_eq (at the full data's threshold) on every resample
    (``weights``: resamples x segments, how often each segment was drawn)."""
    if u.pairs is None or u.agree is None or u.segment is None:
        raise ValueError("analyse(..., resampling=True) keeps what resampling needs")
    r = weights.shape[1]
    sizes = np.bincount(u.segment, minlength=r).astype(np.float64)

    def form(flat: np.ndarray) -> np.ndarray:
        return np.asarray(((weights @ flat.reshape(r, r)) * weights).sum(axis=1))

    copies = (weights * (weights - 1) / 2) @ sizes  # an item and its own copy: tied in both
    n = weights @ sizes
    total = n * (n - 1) / 2
    sign = form(u.pairs.sign)
    xt = form(u.pairs.xtie) + copies
    yt = form(u.pairs.ytie) + copies
    agree = form(u.agree) + copies
    with np.errstate(invalid="ignore", divide="ignore"):
        tau_b = np.where((xt == total) | (yt == total), np.nan,
                         sign / np.sqrt(total - xt) / np.sqrt(total - yt))
        classes = np.minimum(_classes(u.x_ranks, u.segment, weights),
                             _classes(u.y_ranks, u.segment, weights))
        tau_c = np.where((xt == total) | (yt == total), np.nan,
                         2 * sign / (n ** 2 * (classes - 1) / classes))
        acc = np.where(total > 0, agree / total, np.nan)
    return {"tau_b": tau_b, "tau_c": tau_c, "acc_eq": acc}


def _classes(ranks: np.ndarray | None, segment: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Distinct values among the items of the drawn segments, per resample."""
    assert ranks is not None
    pairs = np.unique(ranks.astype(np.int64) * weights.shape[1] + segment)
    value, seg = pairs // weights.shape[1], pairs % weights.shape[1]
    starts = np.flatnonzero(np.r_[True, value[1:] != value[:-1]])
    drawn = weights[:, seg] > 0
    return np.asarray(np.maximum.reduceat(drawn, starts, axis=1).sum(axis=1).astype(np.float64))


__all__ = ["analyse", "BUCKET_SHIFT", "Items", "resampled", "SegmentPairs", "Ungrouped"]
