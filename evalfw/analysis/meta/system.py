"""System-level statistics: each system's metric score (its corpus score) against its human
score, over the systems both have.

Pearson, Spearman and Kendall's tau-b are scipy.stats' (``pearsonr``, ``spearmanr``,
``kendalltau``); pairwise accuracy is Kocmi et al. 2021's: the share of system pairs that the
metric orders as the humans do (mt-metrics-eval's ``Agreement``: a pair tied on both sides
agrees, a pair tied on one side only does not). Every function takes matrices whose last axis
is the systems, so a whole block of bootstrap resamples or permutations is computed at once.
"""

from __future__ import annotations

import numpy as np

from evalfw.analysis.meta.kendall import (
    accuracy_rows,
    kendall_b_rows,
    pair_index,
    pearson_rows,
    signs,
    spearman_rows,
)

#: the system-level statistics, in the order reports show them
SYSTEM_STATISTICS = ("accuracy", "pearson", "spearman", "kendall")


def system_statistics(x: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Every system-level statistic of metric scores ``x`` against human scores ``y``
    (``(..., systems)``, broadcast against each other; higher is better on both sides)."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    n = x.shape[-1]
    if n < 2:
        nan = np.full(x.shape[:-1], np.nan)
        return dict.fromkeys(SYSTEM_STATISTICS, nan)
    i, j = pair_index(n)
    sx, sy = signs(x, i, j), signs(y, i, j)
    return {"accuracy": accuracy_rows(sx, sy), "pearson": pearson_rows(x, y),
            "spearman": spearman_rows(x, y), "kendall": kendall_b_rows(sx, sy)}


def agreement(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every system pair (i < j): the metric's absolute difference and whether the metric
    orders the pair as the humans do (signs equal, ties included)."""
    i, j = pair_index(len(x))
    return np.abs(x[j] - x[i]), signs(x, i, j) == signs(y, i, j)


__all__ = ["agreement", "SYSTEM_STATISTICS", "system_statistics"]
