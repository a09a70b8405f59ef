"""The compiled meta-evaluation kernel gives the numpy code's bits (``EVALFW_NATIVE=0``
switches it off), on data with ties, missing judgements and -0.0."""

from __future__ import annotations

import numpy as np
import pytest

from evalfw import kernels
from evalfw.analysis.meta import _kernel, grouped, ungrouped
from evalfw.analysis.meta.permute import permutation_tests, swap_masks, zscore

pytestmark = pytest.mark.skipif(kernels.built(_kernel.KERNEL) is None,
                                reason="the compiled meta-evaluation kernel is not built "
                                       "(pip install -e . with a C compiler builds it)")


def _both(monkeypatch: pytest.MonkeyPatch, call: object) -> tuple[object, object]:
    monkeypatch.setenv("EVALFW_NATIVE", "1")
    native = call()  # type: ignore[operator]
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    return native, call()  # type: ignore[operator]


def _items(seed: int) -> ungrouped.Items:
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=300), 1)
    x[::17] = -0.0
    y = rng.integers(0, 4, 300) * 0.1
    return ungrouped.Items(x, y, rng.integers(0, 20, 300), 20)


def _same(a: object, b: object) -> None:
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    else:
        assert repr(a) == repr(b)


@pytest.mark.parametrize("seed", range(4))
def test_ungrouped_passes(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    items = _items(seed)
    native, plain = _both(monkeypatch, lambda: ungrouped.analyse(items))
    for field in ("counts", "tau_b", "tau_c", "acc_eq", "epsilon"):
        assert repr(getattr(native, field)) == repr(getattr(plain, field))
    _same(native.agree, plain.agree)
    _same(native.pairs.sign, plain.pairs.sign)
    weights = np.random.default_rng(seed).integers(0, 3, (7, 20)).astype(float)
    _same(ungrouped.resampled(native, weights), ungrouped.resampled(plain, weights))
    s = items.sorted()
    for eps in (0.0, 0.15, 1.0, 100.0):
        _same(*_both(monkeypatch,
                     lambda e=eps: np.stack(_kernel.band(s.x, s.y, s.segment, 20, e))))


def _grouped(seed: int) -> tuple[grouped.Pairs, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    judged = rng.random((7, 40)) > (0.2 if seed % 2 else 0.0)  # even seeds: all judged
    x = np.round(rng.normal(size=(7, 40)), 1)[judged]
    w = np.round(rng.normal(size=(7, 40)), 1)[judged]
    y = rng.integers(0, 3, (7, 40)).astype(float)[judged]
    return grouped.Pairs.of(judged), x, w, y


@pytest.mark.parametrize("seed", range(4))
def test_resampled_calibration(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    pairs, x, _, y = _grouped(seed)
    st = grouped.PairStatus.of(pairs, x, y)
    weights = np.random.default_rng(seed).integers(0, 3, (50, 40))
    weights[0] = 0
    _same(*_both(monkeypatch, lambda: grouped.resampled_calibration(pairs, st, weights)))


@pytest.mark.parametrize("seed", range(4))
def test_mixed_metrics_of_permutation_trials(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    pairs, x, w, y = _grouped(seed)
    stat = grouped.GroupedStatistics(pairs, y)
    masks = swap_masks(np.random.default_rng(seed), 30, len(x))
    monkeypatch.setenv("EVALFW_NATIVE", "1")
    fast = stat.mixed(zscore(x), zscore(w), masks)
    assert fast is not None
    rows = np.concatenate([np.where(masks, zscore(x), zscore(w)),
                           np.where(masks, zscore(w), zscore(x))])
    slow = stat(rows)
    for key, (better, worse) in fast.items():
        _same(better, slow[key][:30])
        _same(worse, slow[key][30:])
    _same(*_both(monkeypatch, lambda: permutation_tests(stat, x, w, masks)))
