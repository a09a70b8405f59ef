"""From pairwise tests between metrics to conclusions: Holm-adjusted p-values, significance
clusters, and what a metric difference is worth.

Clusters are mt-metrics-eval's ``AssignRanks``: metrics sorted by their statistic, best
first; a metric starts a new cluster when a metric of the current cluster is significantly
better than it (adjusted p <= alpha), so a cluster holds metrics none of whose members is
significantly beaten by another member, nor by a metric of a better cluster... as far as the
ordered tests say.

Agreement by |delta| (Kocmi et al. 2024, "Navigating the Metrics Maze"): for every pair of
systems, the metric's absolute difference in its own units and whether it orders the pair as
the humans do; per bin of that difference, how many pairs fell in it and how many agreed,
and the same for every pair at least as far apart as each bin's lower edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evalfw.analysis.results import adjust


def clusters(p_adjusted: np.ndarray, alpha: float) -> list[int]:
    """Cluster ranks (1, 2, ...) of metrics sorted best first; ``p_adjusted[i, j]`` (i < j)
    is the p-value of "metric i is better than metric j"."""
    n = p_adjusted.shape[0]
    ranks, current, start = [], 1, 0
    for i in range(n):
        if i > start and bool((p_adjusted[start:i, i] <= alpha).any()):
            current += 1
            start = i
        ranks.append(current)
    return ranks


def corrected(p_values: Sequence[float], correction: str) -> list[float]:
    """The family's p-values after ``correction`` (``none``: as they are)."""
    out = adjust(list(p_values), correction)
    return list(p_values) if out is None else out


def default_edges(scale: float | None) -> list[float]:
    """|delta| bin edges in a metric's units: 0, 0.5, 1, 2, 4 and 8 points of a 0-100 scale
    (scaled to other scales; 1 when the scale is unknown)."""
    unit = (scale or 100.0) / 100.0
    return [0.0, *(e * unit for e in (0.5, 1.0, 2.0, 4.0, 8.0))]


def delta_bins(diff: np.ndarray, agree: np.ndarray, edges: Sequence[float]) -> dict[str, Any]:
    """Pairs and agreements per bin ``[edges[k], edges[k+1])`` (the last bin open), and for
    ``|delta| >= edges[k]``."""
    edges = sorted(set(float(e) for e in edges))
    bins, at_least = [], []
    for k, low in enumerate(edges):
        high = edges[k + 1] if k + 1 < len(edges) else None
        inside = (diff >= low) & (diff < high) if high is not None else diff >= low
        above = diff >= low
        bins.append({"low": low, "high": high, "pairs": int(inside.sum()),
                     "agreed": int((inside & agree).sum())})
        at_least.append({"low": low, "pairs": int(above.sum()),
                         "agreed": int((above & agree).sum())})
    return {"edges": edges, "pairs": int(len(diff)), "agreed": int(agree.sum()), "bins": bins,
            "at_least": at_least}


__all__ = ["clusters", "corrected", "default_edges", "delta_bins"]
