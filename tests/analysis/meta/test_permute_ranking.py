"""Permutation tests between metrics, Holm, clusters and agreement by |delta|, against
literal implementations."""

from __future__ import annotations

import numpy as np
import pytest

from evalfw.analysis.meta import permute, ranking
from evalfw.analysis.meta.system import system_statistics
from tests.support import meta_oracles as oracle


def _stat(y: np.ndarray) -> permute.Statistic:
    return lambda rows: system_statistics(rows, y)


def test_zscore_is_scipys() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    v = np.random.default_rng(1).normal(size=20) * 4 + 3
    assert np.allclose(permute.zscore(v), scipy_stats.zscore(v), atol=1e-12)
    assert permute.zscore(np.ones(4)).tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("seed", range(6))
def test_p_values_count_trials_as_perm_both_does(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.normal(size=12)
    better, worse = y + rng.normal(size=12) * 0.3, rng.normal(size=12)
    masks = permute.swap_masks(rng, 200, 12)
    got = permute.permutation_tests(_stat(y), better, worse, masks)
    zb, zw = permute.zscore(better), permute.zscore(worse)
    for key, tested in got.items():
        observed = float(system_statistics(zb, y)[key] - system_statistics(zw, y)[key])
        reach = 0
        for m in masks:  # PermutationSigDiff: m1 from worse where swapped, m2 from better
            m2, m1 = np.where(m, zb, zw), np.where(m, zw, zb)
            delta = float(system_statistics(m2, y)[key] - system_statistics(m1, y)[key])
            reach += delta >= observed - permute.TOLERANCE
        assert tested.delta == pytest.approx(observed, abs=1e-12)
        assert tested.exceed == reach
        assert tested.p_value == (reach + 1) / 201


def test_a_metric_against_itself_is_never_significant() -> None:
    y = np.arange(10.0)
    x = y + np.random.default_rng(0).normal(size=10)
    got = permute.permutation_tests(_stat(y), x, x, permute.swap_masks(
        np.random.default_rng(1), 99, 10))
    assert all(t.p_value == 1.0 for t in got.values())


def test_a_much_better_metric_is_significant() -> None:
    rng = np.random.default_rng(5)
    y = rng.normal(size=30)
    got = permute.permutation_tests(_stat(y), y + rng.normal(size=30) * 0.05,
                                    rng.normal(size=30), permute.swap_masks(rng, 999, 30))
    assert got["pearson"].p_value == 1 / 1000


@pytest.mark.parametrize("seed", range(20))
def test_clusters_are_assign_ranks(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 2 + seed % 6
    p = np.triu(rng.random((n, n)) * 0.2, 1) + np.tril(np.ones((n, n)))
    assert ranking.clusters(p, 0.05) == oracle.assign_ranks(p.tolist(), 0.05)


def test_holm_and_none() -> None:
    assert ranking.corrected([0.01, 0.04, 0.03], "holm") == pytest.approx([0.03, 0.06, 0.06])
    assert ranking.corrected([0.01, 0.5], "none") == [0.01, 0.5]


def test_delta_bins_count_pairs_and_agreements() -> None:
    diff = np.array([0.2, 0.7, 1.5, 3.0, 9.0, 0.0])
    agree = np.array([False, True, True, True, True, True])
    got = ranking.delta_bins(diff, agree, [0, 0.5, 1, 2])
    assert [(b["pairs"], b["agreed"]) for b in got["bins"]] == [(2, 1), (1, 1), (1, 1), (2, 2)]
    assert [(b["pairs"], b["agreed"]) for b in got["at_least"]] == [(6, 5), (4, 4), (3, 3),
                                                                    (2, 2)]
    assert got["bins"][-1]["high"] is None
    assert ranking.default_edges(1.0) == [0.0, 0.005, 0.01, 0.02, 0.04, 0.08]
