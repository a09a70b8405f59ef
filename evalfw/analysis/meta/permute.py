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
    return np.asarray(centred / std if std > 0 else centred)


def swap_masks(rng: np.random.Generator, trials: int, items: int) -> np.ndarray:
    """(trials, items) Booleans: True where an item's two metric scores are swapped."""
    return rng.integers(2, size=(trials, items), dtype=bool)


@dataclass(frozen=True, eq=False)
class Trials:
    """One pair of metrics (a, b) under every trial: the observed difference
    ``stat(a) - stat(b)`` and each trial's difference, per statistic."""

    observed: dict[str, float]
    deltas: dict[str, np.ndarray]

    def test(self, statistic: str, a_is_better: bool = True) -> Tested:
        """The one-sided test that a (else b) is the better metric."""
        observed, deltas = self.observed[statistic], self.deltas[statistic]
        if not a_is_better:
            observed, deltas = -observed, -deltas
        return Tested(observed, int((deltas >= observed - TOLERANCE).sum()), len(deltas))


@dataclass(frozen=True)
class Tested:
    """One one-sided test: the observed difference and how many trials reached it."""

    delta: float
    exceed: int
    trials: int

    @property
    def p_value(self) -> float:
        return (self.exceed + 1) / (self.trials + 1)


def permutation_trials(stat: Statistic, a: np.ndarray, b: np.ndarray,
                       masks: np.ndarray) -> Trials:
    """Every trial of metrics ``a`` and ``b`` (their scores of the judged items, higher is
    better): the mix of a takes a's z-score where the mask is set, b's elsewhere."""
    za, zb = zscore(a), zscore(b)
    observed = {k: float(v[0] - v[1]) for k, v in stat(np.stack([za, zb])).items()}
    mixed = getattr(stat, "mixed", None)
    both = mixed(za, zb, masks) if mixed is not None else None
    if both is not None:  # every trial at once (a compiled kernel)
        return Trials(observed, {k: ma - mb for k, (ma, mb) in both.items()})
    deltas: dict[str, list[np.ndarray]] = {k: [] for k in observed}
    for start in range(0, len(masks), BLOCK):
        m = masks[start:start + BLOCK]
        values = stat(np.concatenate([np.where(m, za, zb), np.where(m, zb, za)]))
        for k, v in values.items():
            deltas[k].append(v[:len(m)] - v[len(m):])
    return Trials(observed, {k: np.concatenate(v) if v else np.zeros(0)
                             for k, v in deltas.items()})


def permutation_tests(stat: Statistic, better: np.ndarray, worse: np.ndarray,
                      masks: np.ndarray) -> dict[str, Tested]:
    """For every statistic ``stat`` computes: is ``better`` really better than ``worse``?"""
    trials = permutation_trials(stat, better, worse, masks)
    return {k: trials.test(k) for k in trials.observed}


__all__ = ["BLOCK", "permutation_tests", "permutation_trials", "Statistic", "swap_masks",
           "Tested", "TOLERANCE", "Trials", "zscore"]
