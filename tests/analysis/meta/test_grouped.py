"""Segment-level statistics grouped by item against scipy per segment and the literal
tau_optimization (tests/support/meta_oracles.py), with missing judgements and ties."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from evalfw.analysis.meta import grouped
from tests.support import meta_oracles as oracle

scipy_stats = pytest.importorskip("scipy.stats")


def _data(seed: int, systems: int = 6, segments: int = 9, missing: float = 0.25
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(systems, segments)), 1)  # metric ties within segments
    y = rng.integers(0, 4, size=(systems, segments)).astype(float)  # many human ties
    judged = rng.random((systems, segments)) > missing
    return x, y, judged


def _rows(values: np.ndarray, judged: np.ndarray) -> list[list[float | None]]:
    return [[float(v) if j else None for v, j in zip(values[:, r], judged[:, r])]
            for r in range(values.shape[1])]


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("variant", ["b", "c"])
def test_segment_taus_average_scipy_per_segment(seed: int, variant: str) -> None:
    x, y, judged = _data(seed)
    pairs = grouped.Pairs.of(judged)
    st = grouped.PairStatus.of(pairs, x[judged], y[judged])
    value, n = grouped.average(grouped.segment_taus(pairs, st, variant))
    want = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r in range(x.shape[1]):
            keep = judged[:, r]
            if keep.sum() >= 2:
                want.append(scipy_stats.kendalltau(x[keep, r], y[keep, r],
                                                   variant=variant).statistic)
    defined = [w for w in want if not math.isnan(w)]
    assert n == len(defined)
    assert value == pytest.approx(sum(defined) / len(defined), abs=1e-9)


@pytest.mark.parametrize("seed", range(40))
def test_calibration_equals_tau_optimization(seed: int) -> None:
    x, y, judged = _data(seed, missing=0.3 if seed % 2 else 0.0)
    pairs = grouped.Pairs.of(judged)
    cal = grouped.calibrate(pairs, grouped.PairStatus.of(pairs, x[judged], y[judged]))
    value, epsilon = oracle.tau_optimization(_rows(x, np.ones_like(judged)), _rows(y, judged))
    assert cal.value == pytest.approx(float(value), abs=1e-12)
    assert cal.epsilon == epsilon


def test_a_perfect_metric_needs_no_ties_and_a_constant_one_ties_everything() -> None:
    y = np.array([[3.0, 1.0], [2.0, 1.0], [1.0, 1.0]])
    judged = np.ones_like(y, dtype=bool)
    pairs = grouped.Pairs.of(judged)
    perfect = grouped.calibrate(pairs, grouped.PairStatus.of(pairs, y[judged], y[judged]))
    assert (perfect.value, perfect.epsilon) == (1.0, 0.0)
    flat = grouped.calibrate(pairs, grouped.PairStatus.of(pairs, np.zeros(6), y[judged]))
    assert flat.value == 0.5  # segment 1 all tied: 1; segment 0 no human tie: 0


@pytest.mark.parametrize("seed", range(12))
def test_resampled_calibration_searches_each_resample_again(seed: int) -> None:
    x, y, judged = _data(seed, segments=7)
    pairs = grouped.Pairs.of(judged)
    st = grouped.PairStatus.of(pairs, x[judged], y[judged])
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, 7, 7), minlength=7) for _ in range(6)])
    got = grouped.resampled_calibration(pairs, st, weights)
    xr, yr = _rows(x, np.ones_like(judged)), _rows(y, judged)
    for k, w in enumerate(weights):
        rows = [r for r in range(7) for _ in range(w[r]) if pairs.used[r]]
        if not rows:
            assert math.isnan(got[k])
            continue
        value, _ = oracle.tau_optimization([xr[r] for r in rows], [yr[r] for r in rows])
        assert got[k] == pytest.approx(float(value), abs=1e-12)


def test_resampled_averages_weight_the_defined_segments() -> None:
    values = np.array([0.5, np.nan, 1.0])
    got = grouped.resampled_averages(values, np.array([[2, 1, 0], [0, 3, 0], [1, 0, 1]]))
    assert got[0] == 0.5 and math.isnan(got[1]) and got[2] == 0.75
