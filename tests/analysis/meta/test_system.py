"""System-level statistics and the Kendall variants against scipy.stats and literal pair
loops (tests/support/meta_oracles.py), on random vectors with and without ties."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalfw.analysis.meta.kendall import kendall_variant
from evalfw.analysis.meta.system import SYSTEM_STATISTICS, agreement, system_statistics
from tests.support import meta_oracles as oracle

scipy_stats = pytest.importorskip("scipy.stats")


def _vectors(seed: int, n: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if ties:
        return rng.integers(0, 4, n).astype(float), rng.integers(0, 3, n).astype(float)
    return rng.normal(size=n), rng.normal(size=n)


def _close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("ties", [False, True])
def test_system_statistics_equal_scipy_and_pair_loops(seed: int, ties: bool) -> None:
    x, y = _vectors(seed, 3 + seed % 12, ties)
    got = {k: float(v) for k, v in system_statistics(x, y).items()}
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = {"pearson": scipy_stats.pearsonr(x, y).statistic,
                    "spearman": scipy_stats.spearmanr(x, y).statistic,
                    "kendall": scipy_stats.kendalltau(x, y).statistic}
    agree, pairs = oracle.agreement(x.tolist(), y.tolist())
    want["accuracy"] = agree / pairs
    assert set(got) == set(SYSTEM_STATISTICS)
    for key in SYSTEM_STATISTICS:
        assert _close(got[key], float(want[key])), (key, got[key], want[key])


def test_rows_are_computed_independently() -> None:
    x = np.random.default_rng(3).normal(size=(5, 7))
    y = np.random.default_rng(4).normal(size=7)
    rows = system_statistics(x, y)
    for k in range(5):
        one = system_statistics(x[k], y)
        for key in SYSTEM_STATISTICS:
            assert rows[key][k] == pytest.approx(float(one[key]), abs=1e-12)


def test_a_pair_tied_on_both_sides_agrees_and_on_one_side_does_not() -> None:
    diff, agree = agreement(np.array([1.0, 1.0, 2.0]), np.array([5.0, 5.0, 4.0]))
    assert diff.tolist() == [0.0, 1.0, 1.0]
    assert agree.tolist() == [True, False, False]
    assert float(system_statistics(np.array([1.0, 1.0]), np.array([3.0, 3.0]))["accuracy"]) == 1


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("variant", ["b", "c", "acc23"])
def test_kendall_variants_equal_the_definitions(seed: int, variant: str) -> None:
    x, y = _vectors(seed, 2 + seed % 15, seed % 2 == 0)
    got = kendall_variant(x, y, variant)
    want = oracle.kendall(x.tolist(), y.tolist(), variant)
    assert _close(got, want)
    if variant in "bc":
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert _close(got, float(scipy_stats.kendalltau(x, y, variant=variant).statistic))
