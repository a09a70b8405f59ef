"""Rankings of systems: WMT-style clusters from pairwise tests, and bootstrap rank intervals.

**Clusters** (as the WMT findings draw them): systems sorted best first; a boundary is drawn
below position ``i`` when *every* system above it is significantly better than *every* system
below it. The systems between two boundaries form a cluster: nothing the tests showed
separates them from each other in a way that orders the whole group. :func:`clusters` works
from any "significantly better" relation, so automatic metrics (all-pairs tests) and human
scores use the same rule.

**Rank intervals**: in each bootstrap resample the systems are ranked by their resampled
scores (1 = best; tied systems share the better rank); a system's interval is the range from
the lower to the upper percentile of its ranks over the resamples (2.5-97.5 % for a 95 %
level), both ranks actually observed. Every system sees the same resamples, so the ranks are
those of one joint distribution.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class RankInterval:
    """A system's bootstrap rank interval: ``lower`` (best) to ``upper`` (worst) rank at
    ``level``, and its rank by the observed scores."""

    system: str
    rank: int
    lower: int
    upper: int
    level: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def ranks(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Rank of each column in each row of ``scores`` (rows x systems): 1 + the number of
    systems strictly better in that row."""
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim == 1:
        values = values[None, :]
    signed = values if higher_is_better else -values
    # a k x k comparison per row: fine for the dozens of systems a table holds
    ranked: np.ndarray = 1 + (signed[:, None, :] > signed[:, :, None]).sum(axis=2)
    return ranked


def rank_intervals(names: Sequence[str], observed: Sequence[float], matrix: np.ndarray,
                   higher_is_better: bool = True, level: float = 0.95) -> list[RankInterval]:
    """Every system's rank interval over the resampled scores ``matrix`` (n x systems)."""
    tail = (1.0 - level) / 2.0
    resampled = ranks(matrix, higher_is_better)
    actual = ranks(np.asarray(observed, dtype=np.float64), higher_is_better)[0]
    lower = np.quantile(resampled, tail, axis=0, method="inverted_cdf")
    upper = np.quantile(resampled, 1.0 - tail, axis=0, method="inverted_cdf")
    return [RankInterval(name, int(actual[k]), int(lower[k]), int(upper[k]), level)
            for k, name in enumerate(names)]


def clusters(order: Sequence[str], better: Callable[[str, str], bool]) -> list[list[str]]:
    """``order`` (best first) cut into clusters: a cut below position ``i`` when
    ``better(a, b)`` (a is significantly better than b) for every ``a`` above and every ``b``
    below it."""
    out: list[list[str]] = []
    current: list[str] = []
    for i, name in enumerate(order):
        current.append(name)
        above, below = order[:i + 1], order[i + 1:]
        if below and all(better(a, b) for a in above for b in below):
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


__all__ = ["clusters", "RankInterval", "rank_intervals", "ranks"]
