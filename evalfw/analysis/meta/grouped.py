"""Segment-level statistics grouped by item: the pairs of judged systems within each segment.

mt-metrics-eval's ``average_by='item'``: a statistic is computed on each segment's vector of
system scores (items without a human judgement left out), then averaged over the segments
(plain mean; a segment with fewer than two judged systems, or whose statistic is NaN, is left
out and not counted).

Tie calibration (``tau_optimization`` with every pair searched): the metric's tie threshold
epsilon is chosen among 0 and every pair's absolute metric difference, a pair counting as a
metric tie when its difference is at most epsilon; the chosen one maximises the average acc_eq
(the smallest such epsilon when several do). Pairs sorted once by their difference give the
statistic at every candidate as a running sum; a bootstrap resample only reweights the
segments, so it is searched again over the same sorted pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from evalfw.analysis.meta.kendall import VARIANTS

#: candidates within this distance of the best acc_eq count as equally good (the running
#: sums round differently than the exact per-segment fractions)
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True, eq=False)
class Pairs:
    """Every pair (first < second, by system order) of judged items within each segment.
    Items are the judged cells of a (systems, segments) mask, numbered in row-major order."""

    segments: int
    row: np.ndarray
    first: np.ndarray
    second: np.ndarray
    #: the segment of each item
    item_segment: np.ndarray
    #: judged items and pairs per segment
    items: np.ndarray
    pairs: np.ndarray

    @classmethod
    def of(cls, judged: np.ndarray) -> Pairs:
        """The pairs of a (systems, segments) mask of judged items."""
        systems, segments = judged.shape
        number = np.cumsum(judged.ravel()).reshape(judged.shape) - 1
        rows, firsts, seconds = [], [], []
        cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for r in range(segments):
            sys_ = np.flatnonzero(judged[:, r])
            k = len(sys_)
            if k < 2:
                continue
            a, b = cache.setdefault(k, np.triu_indices(k, 1))
            rows.append(np.full(len(a), r, dtype=np.int64))
            firsts.append(number[sys_[a], r])
            seconds.append(number[sys_[b], r])
        def cat(parts: list[np.ndarray]) -> np.ndarray:
            return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

        row = cat(rows)
        return cls(segments, row, cat(firsts), cat(seconds),
                   np.flatnonzero(judged.ravel()) % segments,
                   judged.sum(axis=0).astype(np.int64),
                   np.bincount(row, minlength=segments).astype(np.int64))

    @property
    def used(self) -> np.ndarray:
        """Segments with at least one pair."""
        return self.pairs > 0


@dataclass(frozen=True, eq=False)
class PairStatus:
    """How each pair compares under one metric: the metric's difference and the pair's
    status (concordant, discordant, tied in x, in y, in both)."""

    diff: np.ndarray  # |dx|
    con: np.ndarray
    dis: np.ndarray
    xtie: np.ndarray  # tied in x (alone or with y)
    ytie: np.ndarray  # tied in y (alone or with x)

    @classmethod
    def of(cls, pairs: Pairs, x: np.ndarray, y: np.ndarray) -> PairStatus:
        """``x``, ``y``: the items' scores (metric, human), higher is better."""
        dx = x[pairs.second] - x[pairs.first]
        dy = y[pairs.second] - y[pairs.first]
        prod = np.sign(dx) * np.sign(dy)
        return cls(np.abs(dx), prod > 0, prod < 0, dx == 0, dy == 0)


def _per_segment(pairs: Pairs, flags: np.ndarray) -> np.ndarray:
    return np.bincount(pairs.row, weights=flags, minlength=pairs.segments)


def _distinct(pairs: Pairs, tied: np.ndarray) -> np.ndarray:
    """Distinct values per segment: its items minus those equal to an earlier item."""
    repeat = np.zeros(len(pairs.item_segment), dtype=bool)
    repeat[pairs.second[tied]] = True
    per = np.bincount(pairs.item_segment[repeat], minlength=pairs.segments)
    return pairs.items - per


def segment_taus(pairs: Pairs, st: PairStatus, variant: str) -> np.ndarray:
    """Each segment's tau-b or tau-c (NaN where undefined or unused)."""
    if variant not in VARIANTS[:2]:
        raise ValueError(f"segment_taus computes tau-b and tau-c, not {variant!r}")
    con, dis = _per_segment(pairs, st.con), _per_segment(pairs, st.dis)
    xt, yt = _per_segment(pairs, st.xtie), _per_segment(pairs, st.ytie)
    total = pairs.pairs.astype(np.float64)
    undefined = ~pairs.used | (xt == total) | (yt == total)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            out = (con - dis) / np.sqrt(total - xt) / np.sqrt(total - yt)
        else:
            classes = np.minimum(_distinct(pairs, st.xtie),
                                 _distinct(pairs, st.ytie)).astype(np.float64)
            n = pairs.items.astype(np.float64)
            out = 2 * (con - dis) / (n ** 2 * (classes - 1) / classes)
    return np.where(undefined, np.nan, out)


def average(values: np.ndarray) -> tuple[float, int]:
    """The mean of the defined per-segment values and how many there are."""
    keep = ~np.isnan(values)
    n = int(keep.sum())
    return (math.fsum(values[keep].tolist()) / n if n else math.nan), n


def running_mean(values: np.ndarray) -> float:
    """The mean of the defined values, summed left to right (the compiled kernel's order)."""
    keep = values[~np.isnan(values)]
    return float(np.cumsum(keep)[-1] / len(keep)) if len(keep) else math.nan


def resampled_averages(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The average of per-segment values on every resample (``weights``: resamples x
    segments, how often each segment was drawn); NaN where no defined segment was drawn."""
    keep = ~np.isnan(values)
    # sums of products, not a BLAS product: the same bits however many BLAS threads run
    num = (weights * np.where(keep, values, 0.0)).sum(axis=1)
    den = (weights * keep).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)


# ----------------------------------------------------------------------------- tie calibration


@dataclass(frozen=True)
class Calibrated:
    """acc_eq at its best tie threshold ``epsilon``, over ``segments`` segments; ``ties``:
    the share of pairs that the threshold makes (or leaves) metric ties."""

    value: float
    epsilon: float
    segments: int
    ties: float = math.nan


@dataclass(frozen=True, eq=False)
class Sweep:
    """A metric's pairs sorted by difference, ready for the threshold search.

    A pair adds ``(tied in y) - (concordant)`` to its segment's agreeing pairs when it becomes
    a metric tie. Segments are grouped by their number of pairs (``denominators``), so every
    sum is an integer count per group and a value is ``sum_k count_k / pairs_k / segments``,
    added in group order: the same arithmetic wherever it runs (numpy or the compiled
    kernel), so the same bits."""

    diff: np.ndarray  # sorted
    ends: np.ndarray  # the last position of each run of equal differences
    gain: np.ndarray  # per sorted pair: ytie - con
    row: np.ndarray  # per sorted pair: its segment
    base: np.ndarray  # per segment: concordant pairs (no metric ties added)
    group: np.ndarray  # per segment: the index of its number of pairs in denominators
    denominators: np.ndarray

    @classmethod
    def of(cls, pairs: Pairs, st: PairStatus) -> Sweep:
        order = np.argsort(st.diff, kind="stable")
        diff = st.diff[order]
        ends = np.flatnonzero(np.r_[diff[1:] != diff[:-1], True]) if len(diff) else \
            np.zeros(0, dtype=np.int64)
        # a pair already tied in x is a tie at every threshold: it counts from the start
        gain = st.ytie.astype(np.int64) - st.con.astype(np.int64)
        denominators, group = np.unique(np.maximum(pairs.pairs, 1), return_inverse=True)
        return cls(diff, ends, gain[order], pairs.row[order],
                   np.bincount(pairs.row, weights=st.con, minlength=pairs.segments)
                   .astype(np.int64), group.astype(np.int64), denominators.astype(np.float64))

    @property
    def starts_at_zero(self) -> bool:
        """Whether the first run of differences is 0 (else threshold 0 adds no tie)."""
        return bool(len(self.ends)) and self.diff[self.ends[0]] == 0

    def thresholds(self) -> np.ndarray:
        """0, then every distinct difference above 0."""
        run = self.diff[self.ends]
        return np.asarray(run if self.starts_at_zero else np.r_[0.0, run])

    def values(self, weights: np.ndarray, used: np.ndarray) -> np.ndarray:
        """acc_eq at every threshold of :meth:`thresholds` for each row of ``weights``
        (resamples x segments: how often each segment is drawn; a used segment drawn 0 times
        is left out), divided by ``used`` (per row: drawn used segments)."""
        weights = np.atleast_2d(weights).astype(np.int64)
        out = np.zeros((len(weights), len(self.ends) + (0 if self.starts_at_zero else 1)))
        for k, denominator in enumerate(self.denominators):
            in_k = self.group == k
            start = weights[:, in_k] @ self.base[in_k]
            steps = np.cumsum(weights[:, self.row] * (self.gain * in_k[self.row]),
                              axis=1)[:, self.ends]
            counts = start[:, None] + steps
            if not self.starts_at_zero:
                counts = np.concatenate([start[:, None], counts], axis=1)
            out = out + counts / denominator
        return out / np.asarray(used, dtype=np.float64).reshape(-1, 1)


def best(values: np.ndarray, thresholds: np.ndarray) -> tuple[int, float]:
    """The first threshold whose value is within :data:`TIE_TOLERANCE` of the largest."""
    top = float(np.nanmax(values))
    k = int(np.flatnonzero(values >= top - TIE_TOLERANCE)[0])
    return k, float(thresholds[k])


def agreeing(st: PairStatus, epsilon: float) -> np.ndarray:
    """Pairs that count as agreement when differences up to ``epsilon`` are metric ties."""
    tie = st.diff <= epsilon
    return np.where(tie, st.ytie, st.con)


def calibrate(pairs: Pairs, st: PairStatus) -> Calibrated:
    """acc_eq with the tie threshold searched over every pair (see the module docstring)."""
    used = int(pairs.used.sum())
    if not used:
        return Calibrated(math.nan, 0.0, 0, math.nan)
    sweep = Sweep.of(pairs, st)
    ones = pairs.used.astype(np.int64)
    _, epsilon = best(sweep.values(ones, np.array([used]))[0], sweep.thresholds())
    # the value itself exactly: each segment's fraction of agreeing pairs, averaged
    agree = _per_segment(pairs, agreeing(st, epsilon))
    fractions = agree[pairs.used] / pairs.pairs[pairs.used]
    return Calibrated(math.fsum(fractions.tolist()) / used, epsilon, used,
                      float((st.diff <= epsilon).mean()))


def resampled_calibration(pairs: Pairs, st: PairStatus, weights: np.ndarray,
                          block: int = 64) -> np.ndarray:
    """acc_eq with its threshold searched again on every resample (``weights``: resamples x
    segments, integer draw counts); NaN where no segment with pairs was drawn."""
    from evalfw.analysis.meta import _kernel

    sweep = Sweep.of(pairs, st)
    w = (np.asarray(weights) * pairs.used).astype(np.int64)
    used = w.sum(axis=1).astype(np.float64)
    out = _kernel.sweep_max(sweep.gain, sweep.row, sweep.ends, sweep.starts_at_zero,
                            sweep.group, sweep.denominators, sweep.base, w, used)
    if out is not None:
        return out
    out = np.full(len(w), np.nan)
    for start in range(0, len(w), block):
        part, u = w[start:start + block], used[start:start + block]
        ok = u > 0
        if ok.any():
            out[start:start + block][ok] = sweep.values(part[ok], u[ok]).max(axis=1)
    return out


class GroupedStatistics:
    """tau-b, tau-c and calibrated acc_eq grouped by item, of rows of metric scores (one row
    per mixed metric of a permutation test): the statistic function of
    :func:`evalfw.analysis.meta.permute.permutation_tests`. :meth:`mixed` computes every
    trial's two mixed metrics at once in the compiled kernel."""

    STATISTICS = ("tau_b", "tau_c", "acc_eq")

    def __init__(self, pairs: Pairs, human: np.ndarray) -> None:
        self.pairs = pairs
        self.human = human
        self.ones = pairs.used.astype(np.int64)
        self.used = np.array([float(pairs.used.sum())])
        self.dy = human[pairs.second] - human[pairs.first]
        self.ytie = self.dy == 0
        self.yclasses = _distinct(pairs, self.ytie)
        denominators, group = np.unique(np.maximum(pairs.pairs, 1), return_inverse=True)
        self.denominators = denominators.astype(np.float64)
        self.group = group.astype(np.int64)

    def __call__(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        out = {k: np.empty(len(rows)) for k in self.STATISTICS}
        for k, row in enumerate(rows):
            st = PairStatus.of(self.pairs, row, self.human)
            out["tau_b"][k] = running_mean(segment_taus(self.pairs, st, "b"))
            out["tau_c"][k] = running_mean(segment_taus(self.pairs, st, "c"))
            out["acc_eq"][k] = float(Sweep.of(self.pairs, st).values(self.ones,
                                                                     self.used).max())
        return out

    def mixed(self, better: np.ndarray, worse: np.ndarray, masks: np.ndarray
              ) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
        """Per statistic, every trial's value for the mix of ``better`` (its score where the
        mask is set) and for the mix of ``worse``; None without the compiled kernel."""
        from evalfw import kernels
        from evalfw.analysis.meta import _kernel

        if kernels.load(_kernel.KERNEL) is None or not len(self.pairs.row):
            return None
        p = self.pairs
        options = _kernel.Options.of(p.first, p.second, p.row, better, worse, self.ytie,
                                     self.dy, self.group)
        out = _kernel.mixed_grouped(p.first, p.second, p.row, p.items, p.pairs,
                                    len(p.item_segment), self.ytie, self.yclasses, options,
                                    self.group, self.denominators, masks)
        if out is None:
            return None
        return {k: (out[:, 2 * i], out[:, 2 * i + 1]) for i, k in enumerate(self.STATISTICS)}


__all__ = [
    "agreeing", "average", "best", "calibrate", "Calibrated", "GroupedStatistics", "PairStatus",
    "Pairs", "resampled_averages", "resampled_calibration", "running_mean", "segment_taus",
    "Sweep", "TIE_TOLERANCE",
]
