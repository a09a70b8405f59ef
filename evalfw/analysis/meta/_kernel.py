"""The hot loops of the meta-evaluation, in numpy, or in the compiled kernel
(``evalfw/analysis/meta/_metakernel.c``) when it is built and not switched off with
``EVALFW_NATIVE=0``. Both do the same arithmetic in the same order, so they give the same
bits (the tests compare them):

- :func:`all_pairs`, :func:`collect`, :func:`band`: the passes over every pair of judged
  items of :mod:`evalfw.analysis.meta.ungrouped` (items sorted by metric score);
- :func:`sweep_max`: the tie threshold searched again on every bootstrap resample of
  :mod:`evalfw.analysis.meta.grouped`;
- :func:`mixed_grouped`: tau-b, tau-c and acc_eq grouped by item of the two mixed metrics of
  every permutation trial.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from evalfw import kernels

#: the compiled module (listed in :data:`evalfw.kernels.KERNELS`)
KERNEL = "evalfw.analysis.meta._metakernel"

#: rows of the pair matrix visited at once by the numpy passes (rows x items differences)
BLOCK_ROWS = 256


def _c(a: np.ndarray, dtype: type) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=dtype)


# ----------------------------------------------------------------------------- every pair


@dataclass(frozen=True, eq=False)
class _Block:
    dx: np.ndarray
    dy: np.ndarray
    code: np.ndarray  # segment pair, min * segments + max


def _blocks(x: np.ndarray, y: np.ndarray, seg: np.ndarray | None, segments: int
            ) -> Iterator[_Block]:
    """Every pair (i < j) of items sorted by x, a block of rows at a time."""
    n = len(x)
    for a in range(0, n - 1, BLOCK_ROWS):
        b = min(n - 1, a + BLOCK_ROWS)
        keep = np.arange(a + 1, n)[None, :] > np.arange(a, b)[:, None]
        dx = (x[None, a + 1:] - x[a:b, None])[keep]
        dy = (y[None, a + 1:] - y[a:b, None])[keep]
        code = np.zeros(0, dtype=np.int64)
        if seg is not None:
            si = np.broadcast_to(seg[a:b, None], keep.shape)[keep]
            sj = np.broadcast_to(seg[None, a + 1:], keep.shape)[keep]
            code = np.minimum(si, sj) * segments + np.maximum(si, sj)
        yield _Block(dx, dy, code)


def bucket(dx: np.ndarray, shift: int) -> np.ndarray:
    """The bucket of each difference (>= 0; abs turns a -0.0 into 0.0): its float64 bit
    pattern shifted right, which orders buckets as the numbers."""
    return np.asarray((np.abs(dx).view(np.uint64) >> np.uint64(shift)).astype(np.intp))


@dataclass(frozen=True, eq=False)
class AllPairs:
    """What one pass over every pair gives: ``totals`` (concordant, discordant, tied in x,
    tied in y, tied in both, and the gain of pairs with difference 0), per bucket the pairs'
    gain (tied in y - concordant), rise (tied in y) and count, and per segment pair
    (flattened r * segments + s, r <= s) the counts ``sign`` (concordant - discordant),
    ``xtie``, ``ytie``, ``both`` (empty unless asked for)."""

    totals: np.ndarray
    gain: np.ndarray
    rise: np.ndarray
    count: np.ndarray
    matrices: np.ndarray  # (4, segments * segments)


def all_pairs(x: np.ndarray, y: np.ndarray, seg: np.ndarray, segments: int, shift: int,
              buckets: int, matrices: bool) -> AllPairs:
    """One pass over every pair of items sorted by ``x`` (see :class:`AllPairs`)."""
    totals = np.zeros(6, dtype=np.int64)
    gain, rise, count = (np.zeros(buckets, dtype=np.int64) for _ in range(3))
    mats = np.zeros((4, segments * segments if matrices else 0), dtype=np.int64)
    native = kernels.load(KERNEL)
    if native is not None:
        native.all_pairs(_c(x, np.float64), _c(y, np.float64), _c(seg, np.int64), segments,
                         shift, totals, gain, rise, count, mats)
        return AllPairs(totals, gain, rise, count, mats)
    size = segments * segments
    for blk in _blocks(x, y, seg if matrices else None, segments):
        xt, yt = blk.dx == 0, blk.dy == 0
        con, dis = (blk.dx > 0) & (blk.dy > 0), (blk.dx > 0) & (blk.dy < 0)
        both = xt & yt
        g = yt.astype(np.int64) - con
        totals += [con.sum(), dis.sum(), xt.sum(), yt.sum(), both.sum(), g[xt].sum()]
        key = bucket(blk.dx, shift)
        gain += np.bincount(key, weights=g, minlength=buckets).astype(np.int64)
        rise += np.bincount(key, weights=yt, minlength=buckets).astype(np.int64)
        count += np.bincount(key, minlength=buckets)
        if matrices:
            for k, w in enumerate((con.astype(np.int64) - dis, xt, yt, both)):
                mats[k] += np.bincount(blk.code, weights=w, minlength=size).astype(np.int64)
    return AllPairs(totals, gain, rise, count, mats)


def collect(x: np.ndarray, y: np.ndarray, shift: int, candidates: np.ndarray,
            size: int) -> tuple[np.ndarray, np.ndarray]:
    """The difference and gain of every pair whose bucket is a candidate (``size`` of
    them), in pass order."""
    diff, gain = np.empty(size), np.empty(size, dtype=np.int64)
    native = kernels.load(KERNEL)
    if native is not None:
        got = native.collect(_c(x, np.float64), _c(y, np.float64), shift,
                             _c(candidates, np.uint8), diff, gain)
        assert got == size
        return diff, gain
    at = 0
    for blk in _blocks(x, y, None, 0):
        pick = candidates[bucket(blk.dx, shift)].astype(bool)
        dx, dy = blk.dx[pick], blk.dy[pick]
        diff[at:at + len(dx)] = dx
        gain[at:at + len(dx)] = (dy == 0).astype(np.int64) - ((dx > 0) & (dy > 0))
        at += len(dx)
    return diff, gain


def band(x: np.ndarray, y: np.ndarray, seg: np.ndarray, segments: int,
         epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """Per segment pair, the pairs with difference at most ``epsilon`` that are concordant,
    and that are tied in y."""
    size = segments * segments
    con, tied = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    native = kernels.load(KERNEL)
    if native is not None:
        native.band(_c(x, np.float64), _c(y, np.float64), _c(seg, np.int64), segments,
                    float(epsilon), con, tied)
        return con, tied
    for blk in _blocks(x, y, seg, segments):
        inside = blk.dx <= epsilon
        if inside.any():
            code, dx, dy = blk.code[inside], blk.dx[inside], blk.dy[inside]
            con += np.bincount(code, weights=(dx > 0) & (dy > 0), minlength=size).astype(
                np.int64)
            tied += np.bincount(code, weights=dy == 0, minlength=size).astype(np.int64)
    return con, tied


# ----------------------------------------------------------------------------- grouped


def multipliers(denominators: np.ndarray, bound: int) -> np.ndarray:
    """``L / d`` for each denominator d, L their least common multiple, when a score of at
    most ``bound`` numerator units stays within int64 (else empty: the kernel compares the
    values themselves)."""
    dens = [int(d) for d in denominators]
    lcm = math.lcm(*dens) if dens else 1
    if lcm * max(bound, 1) >= 2 ** 62:
        return np.zeros(0, dtype=np.int64)
    return np.array([lcm // d for d in dens], dtype=np.int64)


def sweep_max(gain: np.ndarray, row: np.ndarray, ends: np.ndarray, starts_at_zero: bool,
              group: np.ndarray, denominators: np.ndarray, base: np.ndarray,
              weights: np.ndarray, used: np.ndarray) -> np.ndarray | None:
    """The best acc_eq over every threshold of a sweep (see
    :class:`evalfw.analysis.meta.grouped.Sweep`) for each row of ``weights`` (resamples x
    segments, int64), divided by ``used``; NaN where ``used`` is 0. None without the
    compiled kernel (the caller computes it with numpy)."""
    native = kernels.load(KERNEL)
    if native is None:
        return None
    out = np.full(len(weights), np.nan)
    bound = int(np.abs(weights).max(initial=0)) * (len(gain) + int(base.sum()))
    native.sweep_max(_c(gain, np.int64), _c(row, np.int64), _c(ends, np.int64),
                     int(starts_at_zero), _c(group, np.int64), _c(denominators, np.float64),
                     multipliers(denominators, bound), _c(base, np.int64),
                     _c(weights, np.int64), _c(used, np.float64), out)
    return out


@dataclass(frozen=True, eq=False)
class Options:
    """A pair's four ways under a permutation trial: option ``2 a + b`` takes the first
    item's score from metric a's mix when ``a`` and the second's when ``b``. Per option the
    pair's status bits (1 concordant, 2 discordant, 4 tied in x) and, sorted by absolute
    difference, the candidates of the threshold search: the options whose tie changes the
    count of agreeing pairs (gain ``ytie - concordant`` not 0; the others never move a
    value), with their pair, option, gain, segment group and where a run of equal
    differences ends."""

    status: np.ndarray  # (pairs, 4) uint8
    pair: np.ndarray  # candidates (int32)
    option: np.ndarray  # uint8
    gain: np.ndarray  # int8
    group: np.ndarray  # int32
    end: np.ndarray  # uint8
    starts_at_zero: bool

    @classmethod
    def of(cls, first: np.ndarray, second: np.ndarray, row: np.ndarray, a: np.ndarray,
           b: np.ndarray, ytie: np.ndarray, dy: np.ndarray, group: np.ndarray) -> Options:
        """The options of the pairs (first, second) in segments ``row`` under metrics a, b;
        ``group``: each segment's denominator group."""
        status = np.zeros((len(row), 4), dtype=np.uint8)
        diffs = np.zeros((len(row), 4))
        for o in range(4):
            xi = a[first] if o >> 1 else b[first]
            xj = a[second] if o & 1 else b[second]
            dx = xj - xi
            prod = np.sign(dx) * np.sign(dy)
            status[:, o] = (prod > 0) + 2 * (prod < 0) + 4 * (dx == 0)
            diffs[:, o] = np.abs(dx)
        gains = ytie[:, None].astype(np.int8) - (status & 1).astype(np.int8)
        moves = np.flatnonzero(gains.ravel() != 0)
        flat = diffs.ravel()[moves]
        order = moves[np.argsort(flat, kind="stable")]
        d = diffs.ravel()[order]
        end = np.r_[d[1:] != d[:-1], True].astype(np.uint8) if len(d) else \
            np.zeros(0, dtype=np.uint8)
        pair = order // 4
        return cls(status, pair.astype(np.int32), (order % 4).astype(np.uint8),
                   gains.ravel()[order].astype(np.int8),
                   group[row[pair]].astype(np.int32), end,
                   bool(len(d)) and d[0] == 0)


def mixed_grouped(first: np.ndarray, second: np.ndarray, row: np.ndarray, items: np.ndarray,
                  pairs: np.ndarray, item_count: int, ytie: np.ndarray, yclasses: np.ndarray,
                  options: Options, group: np.ndarray, denominators: np.ndarray,
                  masks: np.ndarray) -> np.ndarray | None:
    """(trials, 6): tau-b, tau-c, acc_eq of the mix of metric a, then of the mix of b, per
    trial (``masks``: where a's score is taken for a's mix); ``items``, ``pairs``: judged
    items and pairs per segment. None without the compiled kernel (the caller computes the
    trials row by row)."""
    native = kernels.load(KERNEL)
    if native is None:
        return None
    out = np.empty((len(masks), 6))
    native.mixed_grouped(
        _c(first, np.int64), _c(second, np.int64), _c(row, np.int64), _c(ytie, np.uint8),
        _c(items, np.int64), _c(pairs, np.int64), _c(yclasses, np.int64),
        _c(options.status, np.uint8), _c(options.pair, np.int32), _c(options.option, np.uint8),
        _c(options.gain, np.int8), _c(options.group, np.int32), _c(options.end, np.uint8),
        int(options.starts_at_zero), _c(group, np.int64), _c(denominators, np.float64),
        multipliers(denominators, 2 * len(row)), _c(masks, np.uint8), item_count, out)
    return out


__all__ = ["all_pairs", "AllPairs", "band", "BLOCK_ROWS", "bucket", "collect", "KERNEL",
           "mixed_grouped", "multipliers", "Options", "sweep_max"]
