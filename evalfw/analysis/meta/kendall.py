"""Kendall-type statistics from counts of item pairs, and the vector statistics of the system
level (Pearson, Spearman, Kendall's tau-b, pairwise accuracy), row-wise on matrices.

A pair of items (i, j) compares the metric difference ``dx`` with the human difference ``dy``:
concordant when both have the same strict sign, discordant when strictly opposite, tied in x
only, in y only, or in both. From those five counts (as mt-metrics-eval's ``KendallVariants``
defines them, x being the metric and y the human score):

- tau-b = (C - D) / sqrt((T - Xt) (T - Yt)), Xt and Yt all pairs tied in x (resp. y), T all
  pairs; NaN when every pair is tied on one side;
- tau-c = 2 (C - D) / (n^2 (m - 1) / m), n items, m the smaller number of distinct values of
  x and of y; NaN as tau-b;
- acc23 (acc_eq) = (C + ties in both) / T.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: the Kendall variants evalfw computes, by mt-metrics-eval's names
VARIANTS = ("b", "c", "acc23")


@dataclass(frozen=True)
class PairCounts:
    """The five pair counts of one set of items (see the module docstring)."""

    con: int
    dis: int
    xtie: int  # tied in x (the metric) only
    ytie: int  # tied in y (the human score) only
    both: int

    @property
    def total(self) -> int:
        return self.con + self.dis + self.xtie + self.ytie + self.both


def tau(counts: PairCounts, variant: str, items: int = 0, classes: int = 0) -> float:
    """A Kendall variant from pair counts; tau-c needs the number of ``items`` and
    ``classes``, the smaller number of distinct values of x and of y."""
    total = counts.total
    xtie, ytie = counts.xtie + counts.both, counts.ytie + counts.both
    if variant == "acc23":
        return (counts.con + counts.both) / total if total else math.nan
    if xtie == total or ytie == total:
        return math.nan
    if variant == "b":
        return (counts.con - counts.dis) / math.sqrt(total - xtie) / math.sqrt(total - ytie)
    if variant == "c":
        return 2 * (counts.con - counts.dis) / (items ** 2 * (classes - 1) / classes)
    raise ValueError(f"unknown Kendall variant {variant!r}; choose one of {', '.join(VARIANTS)}")


def pair_counts(x: np.ndarray, y: np.ndarray) -> PairCounts:
    """The pair counts of the items (x[k], y[k]), over every pair (O(n^2) memory in blocks of
    rows: meant for the small sets of one segment or one system level)."""
    i, j = np.triu_indices(len(x), 1)
    sx, sy = np.sign(x[j] - x[i]), np.sign(y[j] - y[i])
    prod = sx * sy
    return PairCounts(con=int((prod > 0).sum()), dis=int((prod < 0).sum()),
                      xtie=int(((sx == 0) & (sy != 0)).sum()),
                      ytie=int(((sy == 0) & (sx != 0)).sum()),
                      both=int(((sx == 0) & (sy == 0)).sum()))


def distinct(values: np.ndarray) -> int:
    return int(len(np.unique(values)))


def kendall_variant(x: np.ndarray, y: np.ndarray, variant: str) -> float:
    """One Kendall variant of the vectors x (metric) and y (human), with exact ties."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    classes = min(distinct(x), distinct(y))
    return tau(pair_counts(x, y), variant, len(x), classes)


# ----------------------------------------------------------------------------- row-wise


def pair_index(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i < j) of n items, in row-major order."""
    i, j = np.triu_indices(n, 1)
    return i, j


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of x with the matching row of y (or one row broadcast), as
    scipy.stats.pearsonr computes it (centred, each side scaled by its norm); NaN for a
    constant row."""
    xm = x - x.mean(axis=-1, keepdims=True)
    ym = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        xn = xm / np.linalg.norm(xm, axis=-1, keepdims=True)
        yn = ym / np.linalg.norm(ym, axis=-1, keepdims=True)
        r = (xn * yn).sum(axis=-1)
    return np.asarray(np.clip(r, -1.0, 1.0))


def average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of each row, ties sharing their average rank (scipy's ``rankdata``)."""
    less = (x[..., None, :] < x[..., :, None]).sum(axis=-1)
    equal = (x[..., None, :] == x[..., :, None]).sum(axis=-1)
    return np.asarray(less + (equal + 1) / 2.0)


def spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho: Pearson's r of the average ranks (scipy.stats.spearmanr)."""
    return pearson_rows(average_ranks(x), average_ranks(y))


def signs(x: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """sign(x_j - x_i) of every pair, row-wise."""
    return np.asarray(np.sign(x[..., j] - x[..., i]))


def kendall_b_rows(sx: np.ndarray, sy: np.ndarray) -> np.ndarray:
    """Kendall's tau-b from the pair signs of x and y (rows of pairs); NaN when one side is
    tied on every pair (scipy.stats.kendalltau, variant b)."""
    prod = (sx * sy).sum(axis=-1)
    total = sx.shape[-1]
    nx, ny = (sx != 0).sum(axis=-1), (sy != 0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = prod / np.sqrt(nx.astype(np.float64)) / np.sqrt(ny.astype(np.float64))
    return np.where((nx == 0) | (ny == 0) | (total == 0), np.nan, out)


def accuracy_rows(sx: np.ndarray, sy: np.ndarray) -> np.ndarray:
    """Pairwise accuracy: the share of pairs whose signs are equal (a pair tied on both sides
    agrees, as mt-metrics-eval's ``Agreement`` counts it)."""
    return np.asarray((sx == sy).mean(axis=-1))


__all__ = [
    "accuracy_rows", "average_ranks", "distinct", "kendall_b_rows", "kendall_variant",
    "pair_counts", "pair_index", "PairCounts", "pearson_rows", "signs", "spearman_rows", "tau",
    "VARIANTS",
]
