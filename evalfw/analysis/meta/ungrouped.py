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
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from evalfw.analysis.meta.kendall import PairCounts, tau

#: rows of the pair matrix visited at once (rows x items differences)
BLOCK_ROWS = 256
#: bucket = the difference's bit pattern shifted right by this much (2^-10 relative width)
BUCKET_SHIFT = np.uint64(42)


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
class _Block:
    dx: np.ndarray
    dy: np.ndarray
    code: np.ndarray  # segment pair, min * segments + max


def _blocks(items: Items, codes: bool) -> Iterator[_Block]:
    """Every pair (i < j) of sorted items, a block of rows at a time."""
    n, r = len(items.x), items.segments
    for a in range(0, n - 1, BLOCK_ROWS):
        b = min(n - 1, a + BLOCK_ROWS)
        cols = np.arange(a + 1, n)
        keep = cols[None, :] > np.arange(a, b)[:, None]
        dx = (items.x[None, a + 1:] - items.x[a:b, None])[keep]
        dy = (items.y[None, a + 1:] - items.y[a:b, None])[keep]
        code = np.zeros(0, dtype=np.int64)
        if codes:
            si = np.broadcast_to(items.segment[a:b, None], keep.shape)[keep]
            sj = np.broadcast_to(items.segment[None, a + 1:], keep.shape)[keep]
            code = np.minimum(si, sj) * r + np.maximum(si, sj)
        yield _Block(dx, dy, code)


def _key(dx: np.ndarray) -> np.ndarray:
    """The bucket of each difference (>= 0; abs turns a -0.0 into 0.0)."""
    return (np.abs(dx).view(np.uint64) >> BUCKET_SHIFT).astype(np.intp)


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
    top = _key(np.asarray([max(float(s.x[-1] - s.x[0]), 0.0)]))[0] + 1 if len(s.x) else 1
    gain = np.zeros(top)
    rise = np.zeros(top)
    totals = np.zeros(5, dtype=np.int64)  # con, dis, xt, yt, both
    zero_gain = 0
    mats = [np.zeros(r * r) for _ in range(4)] if resampling else []
    for blk in _blocks(s, resampling):
        xt, yt = blk.dx == 0, blk.dy == 0
        con, dis = (blk.dx > 0) & (blk.dy > 0), (blk.dx > 0) & (blk.dy < 0)
        both = xt & yt
        totals += [con.sum(), dis.sum(), xt.sum(), yt.sum(), both.sum()]
        g = yt.astype(np.int8) - con.astype(np.int8)
        zero_gain += int(g[xt].sum())
        key = _key(blk.dx)
        gain += np.bincount(key, weights=g, minlength=top)
        rise += np.bincount(key, weights=yt, minlength=top)
        if resampling:
            for m, w in zip(mats, (con.astype(np.int8) - dis.astype(np.int8), xt, yt, both)):
                m += np.bincount(blk.code, weights=w, minlength=r * r)
    con, dis, xt, yt, both = (int(v) for v in totals)
    counts = PairCounts(con, dis, xt - both, yt - both, both)
    classes = min(len(np.unique(s.x)), len(np.unique(s.y)))
    n = len(s.x)
    epsilon, agree_count = _calibrate(s, con, zero_gain, gain, rise)
    total = counts.total
    acc = agree_count / total if total else math.nan
    pairs = SegmentPairs(*mats) if resampling else None
    agree = _agree_matrix(s, pairs, epsilon) if pairs is not None else None
    return Ungrouped(
        counts, n, classes, tau(counts, "b"), tau(counts, "c", n, classes), acc, epsilon,
        pairs, agree,
        np.unique(s.x, return_inverse=True)[1] if resampling else None,
        np.unique(s.y, return_inverse=True)[1] if resampling else None,
        s.segment if resampling else None)


def _calibrate(s: Items, con: int, zero_gain: int, gain: np.ndarray,
               rise: np.ndarray) -> tuple[float, int]:
    """The best threshold and its number of agreeing pairs (see the module docstring)."""
    at_zero = con + zero_gain  # threshold 0: exact metric ties only
    ends = con + np.cumsum(gain)
    before = ends - gain
    filled = (gain != 0) | (rise != 0)
    lower = max(at_zero, int(ends[filled].max(initial=at_zero)))
    candidates = filled & (before + rise >= lower)
    found: list[tuple[float, int]] = [(0.0, at_zero)]
    if candidates.any():
        diffs, gains = [], []
        for blk in _blocks(s, False):
            pick = candidates[_key(blk.dx)]
            if pick.any():
                dx, dy = blk.dx[pick], blk.dy[pick]
                diffs.append(dx)
                gains.append((dy == 0).astype(np.int64) - ((dx > 0) & (dy > 0)))
        d, g = np.concatenate(diffs), np.concatenate(gains)
        order = np.argsort(d, kind="stable")
        d, g = d[order], g[order]
        k = _key(d)
        # running sums restart at each bucket, from the value before it
        starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
        run = np.cumsum(g)
        group = np.cumsum(np.r_[True, k[1:] != k[:-1]]) - 1
        within = run - np.r_[0, run][starts][group]
        values = before[k].astype(np.int64) + within
        last = np.r_[d[1:] != d[:-1], True]
        keep = last & (d > 0)
        found += list(zip(d[keep].tolist(), values[keep].tolist()))
    top = max(v for _, v in found)
    return min(t for t, v in found if v == top), int(top)


def _agree_matrix(s: Items, pairs: SegmentPairs, epsilon: float) -> np.ndarray:
    """Per segment pair, the pairs that agree at ``epsilon``: concordant pairs beyond it,
    pairs tied in y within it."""
    r = s.segments
    size = np.outer(s.sizes, s.sizes)
    size[np.diag_indices(r)] = s.sizes * (s.sizes - 1) / 2
    size = np.triu(size).ravel()
    con = (pairs.sign + size - pairs.xtie - pairs.ytie + pairs.both) / 2
    band_con, band_y = np.zeros(r * r), np.zeros(r * r)
    if epsilon > 0:
        for blk in _blocks(s, True):
            band = blk.dx <= epsilon
            if band.any():
                code = blk.code[band]
                band_con += np.bincount(code, weights=(blk.dx[band] > 0) & (blk.dy[band] > 0),
                                        minlength=r * r)
                band_y += np.bincount(code, weights=blk.dy[band] == 0, minlength=r * r)
        return con - band_con + band_y
    return con + pairs.both  # ties in x are ties; in both: agreement


def resampled(u: Ungrouped, weights: np.ndarray) -> dict[str, np.ndarray]:
    """tau-b, tau-c and acc_eq (at the full data's threshold) on every resample
    (``weights``: resamples x segments, how often each segment was drawn)."""
    if u.pairs is None or u.agree is None or u.segment is None:
        raise ValueError("analyse(..., resampling=True) keeps what resampling needs")
    r = weights.shape[1]
    sizes = np.bincount(u.segment, minlength=r).astype(np.float64)

    def form(flat: np.ndarray) -> np.ndarray:
        return ((weights @ flat.reshape(r, r)) * weights).sum(axis=1)

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
    return np.maximum.reduceat(drawn, starts, axis=1).sum(axis=1).astype(np.float64)


__all__ = ["analyse", "BLOCK_ROWS", "Items", "resampled", "SegmentPairs", "Ungrouped"]
