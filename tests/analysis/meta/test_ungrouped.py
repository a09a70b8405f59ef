"""Ungrouped segment-level statistics: every pair of judged items, against scipy.stats, the
literal tau_optimization, and bootstrap resamples built item by item."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from evalfw.analysis.meta import ungrouped
from tests.support import meta_oracles as oracle

scipy_stats = pytest.importorskip("scipy.stats")


def _items(seed: int, n: int = 40, segments: int = 8) -> ungrouped.Items:
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=n) * 3, 1 if seed % 3 else 0)  # ties in the metric
    y = rng.integers(0, 5, n).astype(float) * (0.1 if seed % 2 else 1.0)
    return ungrouped.Items(x, y, rng.integers(0, segments, n), segments)


def _kendall(x: np.ndarray, y: np.ndarray, variant: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(scipy_stats.kendalltau(x, y, variant=variant).statistic)


@pytest.mark.parametrize("seed", range(30))
def test_taus_and_calibration_equal_the_definitions(seed: int) -> None:
    items = _items(seed)
    u = ungrouped.analyse(items)
    assert u.tau_b == pytest.approx(_kendall(items.x, items.y, "b"), abs=1e-9)
    assert u.tau_c == pytest.approx(_kendall(items.x, items.y, "c"), abs=1e-9)
    value, epsilon = oracle.tau_optimization([items.x.tolist()], [items.y.tolist()])
    assert u.acc_eq == pytest.approx(float(value), abs=1e-12)
    assert u.epsilon == epsilon


def test_calibration_refines_buckets_across_many_pairs() -> None:
    # 600 items, differences spread over many buckets, and long runs of equal ones
    rng = np.random.default_rng(7)
    x = np.round(rng.normal(size=600), 2)
    y = np.round(x + rng.normal(size=600), 0)
    u = ungrouped.analyse(ungrouped.Items(x, y, np.zeros(600, dtype=np.int64), 1), False)
    value, epsilon = oracle.tau_optimization([x.tolist()], [y.tolist()])
    assert (u.acc_eq, u.epsilon) == (pytest.approx(float(value), abs=1e-12), epsilon)


def _multiset(items: ungrouped.Items, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep = np.concatenate([np.flatnonzero(items.segment == s)
                           for s in range(items.segments) for _ in range(draws[s])])
    return items.x[keep], items.y[keep]


@pytest.mark.parametrize("seed", range(10))
def test_bootstrap_counts_every_pair_of_the_resample(seed: int) -> None:
    items = _items(seed, n=30, segments=6)
    u = ungrouped.analyse(items)
    rng = np.random.default_rng(seed + 100)
    weights = np.stack([np.bincount(rng.integers(0, 6, 6), minlength=6) for _ in range(5)])
    got = ungrouped.resampled(u, weights.astype(float))
    for k, w in enumerate(weights):
        x, y = _multiset(items, w)
        assert got["tau_b"][k] == pytest.approx(_kendall(x, y, "b"), abs=1e-9, nan_ok=True)
        assert got["tau_c"][k] == pytest.approx(_kendall(x, y, "c"), abs=1e-9, nan_ok=True)
        # acc_eq keeps the full data's threshold
        want = oracle.kendall(x.tolist(), y.tolist(), "acc23", u.epsilon)
        assert got["acc_eq"][k] == pytest.approx(want, abs=1e-12)


def test_all_ones_reproduce_the_point_estimates() -> None:
    items = _items(3)
    u = ungrouped.analyse(items)
    got = ungrouped.resampled(u, np.ones((1, items.segments)))
    assert got["tau_b"][0] == pytest.approx(u.tau_b, abs=1e-12)
    assert got["tau_c"][0] == pytest.approx(u.tau_c, abs=1e-12)
    assert got["acc_eq"][0] == pytest.approx(u.acc_eq, abs=1e-12)


def test_constant_metric_is_undefined_for_tau_and_ties_for_acc() -> None:
    items = ungrouped.Items(np.zeros(5), np.array([1.0, 1, 2, 3, 3]), np.arange(5), 5)
    u = ungrouped.analyse(items)
    assert math.isnan(u.tau_b) and math.isnan(u.tau_c)
    assert u.acc_eq == 2 / 10 and u.epsilon == 0.0
