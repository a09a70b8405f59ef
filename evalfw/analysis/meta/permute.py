"""Paired permutation tests between two metrics (mt-metrics-eval's ``PermutationSigDiff``,
the PERM-BOTH test of Deutsch et al. 2021).

Both metrics' scores of the judged items are z-scored (mean 0, population standard deviation
1), so they can be exchanged. The observed difference is ``stat(better) - stat(worse)``. Each
trial swaps the two metrics' scores of every item with probability 1/2, independently, giving
two mixed metrics; the trial's difference is ``stat(mix of better) - stat(mix of worse)``. The
one-sided p-value is ``(1 + #{trial difference >= observed}) / (1 + trials)`` (mt-metrics-eval
reports ``#{...} / trials``, which can be 0; evalfw never reports a p-value below
1 / (1 + trials)), with no early stopping. A trial difference within :data:`TOLERANCE` of the
observed one counts as reaching it (the two are computed by different roundings of the same
sums). Every pair of metrics sees the same trials.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: a trial difference this close to the observed one counts as reaching it
TOLERANCE = 1e-12
#: trials computed at once (rows of the mixed-score matrices)
BLOCK = 64

#: rows of metric scores -> statistic name -> one value per row
Statistic = Callable[[np.ndarray], dict[str, np.ndarray]]


def zscore(values: np.ndarray) -> np.ndarray:
    """(v - mean) / std with the population standard deviation (scipy.stats.zscore); a
    constant vector becomes zeros."""
    centred = values - values.mean()
    std = float(np.sqrt(np.mean(centred ** 2)))
    return centred / std if std > 0 else centred


def swap_masks(rng: np.random.Generator, trials: int, items: int) -> np.ndarray:
    """(trials, items) Booleans: True where an item's two metric scores are swapped."""
    return rng.integers(2, size=(trials, items), dtype=bool)


@dataclass(frozen=True)
class Tested:
    """One one-sided test: the observed difference and how many trials reached it."""

    delta: float
    exceed: int
    trials: int

    @property
    def p_value(self) -> float:
        return (self.exceed + 1) / (self.trials + 1)


def permutation_tests(stat: Statistic, better: np.ndarray, worse: np.ndarray,
                      masks: np.ndarray) -> dict[str, Tested]:
    """For every statistic ``stat`` computes: is ``better`` really better than ``worse``?
    (``better``/``worse``: each metric's scores of the judged items, higher is better)."""
    zb, zw = zscore(better), zscore(worse)
    observed = {k: float(v[1] - v[0]) for k, v in stat(np.stack([zw, zb])).items()}
    exceed = dict.fromkeys(observed, 0)
    for start in range(0, len(masks), BLOCK):
        m = masks[start:start + BLOCK]
        values = stat(np.concatenate([np.where(m, zb, zw), np.where(m, zw, zb)]))
        for k, v in values.items():
            diff = v[:len(m)] - v[len(m):]
            exceed[k] += int((diff >= observed[k] - TOLERANCE).sum())
    return {k: Tested(observed[k], exceed[k], len(masks)) for k in observed}


__all__ = ["BLOCK", "permutation_tests", "Statistic", "swap_masks", "Tested", "TOLERANCE",
           "zscore"]
