"""Default mode: exact resampled scores, determinism, bounded memory, Holm, test behaviour."""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pytest

from evalfw.analysis import _default_mode as dm  # noqa: E402
from evalfw.analysis import (  # noqa: E402
    all_pairs,
    apply_holm,
    confidence_interval,
    holm,
    paired_analysis,
    paired_test,
)
from evalfw.analysis import resampling as rs  # noqa: E402
from evalfw.analysis.results import ComparisonResult  # noqa: E402
from evalfw.errors import ConfigError, InputError  # noqa: E402
from evalfw.metrics.bleu import _rows, engine  # noqa: E402
from evalfw.metrics.bleu._batch import BatchScorer, counts_of  # noqa: E402
from evalfw.metrics.bleu.counting import kernel  # noqa: E402
from evalfw.metrics.bleu.stats import SegmentStats  # noqa: E402
from tests.support import significance as sup

SPECS = [
    {}, {"smoothing": "floor"}, {"smoothing": "add-k"}, {"smoothing": "none"},
    {"effective_order": True}, {"max_order": 2}, {"smoothing": "add-k", "smooth_value": 3},
    {"preset": "nltk"}, {"preset": "nltk", "smoothing": "method5"},
    {"preset": "nltk", "smoothing": "method6"}, {"preset": "multi-bleu"},
]


def _systems(seed: int, k: int, n: int, order: int = 5, refs: int = 2,
             step: float = 0.05) -> dict[str, SegmentStats]:
    rng = np.random.default_rng(seed)
    return {f"sys{i}": sup.random_stats(rng, n, order=order, refs=refs, quality=0.35 + step * i,
                                        mean_len=rng.uniform(2, 25)) for i in range(k)}


@pytest.mark.parametrize("segments", [1, 5, 2037, 3001])
def test_block_draws_equal_one_draw(monkeypatch, segments):
    monkeypatch.setattr(rs, "BLOCK_ELEMENTS", 4096)  # many blocks
    one = np.random.default_rng(99).choice(segments, size=(150, segments), replace=True)
    blocks = np.concatenate(list(rs.index_blocks(np.random.default_rng(99), segments, 150)))
    assert (one == blocks).all()
    one = np.random.default_rng(99).integers(2, size=(150, segments), dtype=bool)
    blocks = np.concatenate(list(rs.mask_blocks(np.random.default_rng(99), segments, 150)))
    assert (one == blocks).all()


@pytest.mark.parametrize("options", SPECS)
def test_batch_scores_equal_score_counts(options):
    """Every resample's score equals engine.corpus_score of the resampled corpus, bit for bit
    (the fast path where it applies, and the general path, on the same rows)."""
    metric = sup.metric(**options)
    spec = metric.spec
    stats = _systems(len(str(options)), 1, 60)["sys0"]
    named = [("s", rs.columns(metric, metric.rows(stats)))]
    matrix = dm.bootstrap_matrix(metric, named, 40, np.random.default_rng(4))
    idx = np.random.default_rng(4).choice(60, size=(40, 60), replace=True)
    expected = [float(engine.corpus_score(spec, stats.select(row)).score) for row in idx]
    assert matrix[:, 0].tolist() == expected
    if _rows.applies(spec):
        sums = rs.exact_product(rs.count_matrix(idx, 60), named[0][1].sums)
        slow = BatchScorer(spec, fast=False).scores(sums, None, 60)
        assert slow.tolist() == BatchScorer(spec).scores(sums).tolist()


def test_fast_path_on_random_counts():
    """Random summed rows, including zero totals and zero matches, against score_counts."""
    rng = np.random.default_rng(11)
    for options in SPECS[:7]:
        spec = sup.spec(**options)
        assert _rows.applies(spec) == hasattr(kernel.kernel(), "bleu_rows")
        if not _rows.applies(spec):
            continue
        n = spec.max_order
        totals = rng.integers(0, 6, (300, n)) * (rng.random((300, 1)) < 0.9)
        totals = np.sort(totals, axis=1)[:, ::-1]
        matches = rng.integers(0, 3, (300, n)) * (rng.random((300, n)) < 0.6)
        matches = np.minimum(matches, totals)
        sums = np.concatenate([totals[:, :1], rng.integers(0, 9, (300, 1)), matches, totals], 1)
        fast = BatchScorer(spec).scores(sums)
        slow = [engine.score_counts(spec, counts_of(spec, row, None, 1)).score for row in sums]
        assert fast.tolist() == slow


def test_ar_matches_explicit_shuffles():
    metric = sup.metric(preset="nltk", smoothing="method5")
    spec = metric.spec
    systems = _systems(3, 2, 50)
    base, other = systems["sys0"], systems["sys1"]
    out = paired_analysis(sup.rows(metric, systems), "sys0", metric, "ar", 30,
                          seed=8).comparisons[0]
    masks = np.random.default_rng(8).integers(2, size=(30, 50), dtype=bool)
    observed = abs(engine.corpus_score(spec, other).score - engine.corpus_score(spec, base).score)
    count = 0
    for m in masks:
        a = SegmentStats(*(np.where(m[:, None] if x.ndim == 2 else m, x, y) for x, y in
                           zip(base.to_arrays().values(), other.to_arrays().values())))
        b = SegmentStats(*(np.where(m[:, None] if x.ndim == 2 else m, y, x) for x, y in
                           zip(base.to_arrays().values(), other.to_arrays().values())))
        diff = abs(engine.corpus_score(spec, a).score - engine.corpus_score(spec, b).score)
        count += diff >= observed
    assert out.p_value == (count + 1) / 31


def test_deterministic_for_a_seed():
    metric = sup.metric()
    systems = sup.rows(metric, _systems(5, 4, 300, step=0.004))
    for method in ("bootstrap", "ar"):
        a = paired_analysis(systems, "sys0", metric, method, 200, seed=42)
        b = paired_analysis(systems, "sys0", metric, method, 200, seed=42)
        c = paired_analysis(systems, "sys0", metric, method, 200, seed=43)
        assert a == b and a.to_json() == b.to_json()
        p_a = [x.p_value for x in a.comparisons]
        assert min(p_a) > 0.01 and p_a != [x.p_value for x in c.comparisons]
    fresh = paired_analysis(systems, "sys0", metric, "bootstrap", 100, seed="none")
    again = paired_analysis(systems, "sys0", metric, "bootstrap", 100, seed=fresh.seed)
    assert fresh == again  # the drawn seed is recorded and reproduces the run
    assert paired_analysis(systems, "sys0", metric, n=100).seed == 12345


def test_memory_bound_13_systems():
    """13 systems x 2037 segments x 1000 resamples: peak traced memory well under 300 MB."""
    metric = sup.metric()
    systems = sup.rows(metric, _systems(7, 13, 2037, order=4, refs=1))
    tracemalloc.start()
    try:
        outcome = paired_analysis(systems, "sys0", metric, "bootstrap", 1000, seed=1)
        peak_bs = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        paired_analysis(systems, "sys0", metric, "ar", 1000, seed=1)
        peak_ar = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak_bs < 100e6 and peak_ar < 100e6, (peak_bs, peak_ar)
    assert len(outcome.comparisons) == 12 and len(outcome.intervals) == 13


def test_intervals_contain_the_score():
    metric = sup.metric()
    systems = sup.rows(metric, _systems(9, 5, 800, order=4, refs=1))
    outcome = paired_analysis(systems, "sys0", metric, "bootstrap", 500, seed=3)
    for ci in outcome.intervals:
        assert ci.lower <= ci.score <= ci.upper and ci.lower <= ci.mean <= ci.upper
        assert ci.ci == (ci.upper - ci.lower) / 2 and ci.level == 0.95 and ci.n == 500
    for c in outcome.comparisons:
        assert c.delta_lower <= c.delta <= c.delta_upper and c.delta == c.score - c.baseline_score
    one = confidence_interval(systems["sys2"], metric, 500, seed=3, level=0.9)
    assert one.lower <= one.score <= one.upper
    assert one.upper - one.lower < outcome.intervals[2].upper - outcome.intervals[2].lower


def test_same_system_is_not_significant():
    metric = sup.metric()
    systems = sup.rows(metric, _systems(4, 1, 200))
    systems["copy"] = systems["sys0"]
    for method in ("bootstrap", "ar"):
        (res,) = paired_test(systems, "sys0", metric, method, 100, seed=2)
        assert res.p_value == 1.0 and res.delta == 0.0 and not res.significant()


def test_clearly_different_systems_are_significant():
    rng = np.random.default_rng(0)
    metric = sup.metric()
    systems = sup.rows(metric, {"weak": sup.random_stats(rng, 500, quality=0.3),
                                "strong": sup.random_stats(rng, 500, quality=0.7)})
    for method in ("bootstrap", "ar"):
        (res,) = paired_test(systems, "weak", metric, method, 200, seed=2)
        assert res.p_value == 1 / 201 and res.significant()
        assert res.wins is None or res.wins == 1.0


def test_all_pairs_shares_the_stream():
    metric = sup.metric()
    systems = sup.rows(metric, _systems(6, 4, 150))
    pairs = all_pairs(systems, metric, "bootstrap", 100, seed=5)
    assert [(c.baseline, c.system) for c in pairs.comparisons] == [
        ("sys0", "sys1"), ("sys0", "sys2"), ("sys0", "sys3"), ("sys1", "sys2"),
        ("sys1", "sys3"), ("sys2", "sys3")]
    vs_first = paired_analysis(systems, "sys0", metric, "bootstrap", 100, seed=5).comparisons
    assert list(pairs.comparisons[:3]) == list(vs_first)
    ar = all_pairs(systems, metric, "ar", 50, seed=5)
    assert len(ar.comparisons) == 6 and all(0 < c.p_value <= 1 for c in ar.comparisons)


def test_holm_hand_made():
    assert holm([0.01, 0.04, 0.03, 0.005]) == [0.03, 0.06, 0.06, 0.02]
    assert holm([0.5, 0.6]) == [1.0, 1.0]
    assert holm([0.02, 0.02, 0.9]) == [0.06, 0.06, 0.9]
    assert holm([]) == []
    base = ComparisonResult("s", "b", "ar", "default", 10, 1, 1.0, 0.0, 1.0, 0.02)
    results = apply_holm([base, base, ComparisonResult(**{**base.__dict__, "p_value": 0.9})])
    assert [r.p_adjusted for r in results] == [0.06, 0.06, 0.9]
    assert base.significant() and not results[0].significant()
    assert not results[0].significant(0.05) and results[0].significant(0.1)


def test_json_and_progress():
    metric = sup.metric()
    systems = sup.rows(metric, _systems(8, 3, 100))
    seen: list[tuple[int, int]] = []
    outcome = paired_analysis(systems, "sys1", metric, "bootstrap", 70, seed=1,
                              progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (70, 70)
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["baseline"]["system"] == "sys1" and len(data["comparisons"]) == 2
    assert data["comparisons"][0]["p_value"] == outcome.comparisons[0].p_value


def test_user_errors():
    metric = sup.metric()
    systems = sup.rows(metric, _systems(8, 2, 40))
    with pytest.raises(ConfigError, match="'sys' is not among the systems .did you mean"):
        paired_test(systems, "sys", metric)
    with pytest.raises(ConfigError, match="choose one of: bootstrap, ar"):
        paired_test(systems, "sys0", metric, method="permutation")
    with pytest.raises(ConfigError, match="mode 'exact' is unknown"):
        paired_test(systems, "sys0", metric, mode="exact")
    with pytest.raises(ConfigError, match="seed"):
        paired_test(systems, "sys0", metric, seed="abc")
    systems["short"] = systems["sys1"][:30]
    with pytest.raises(InputError, match="same segments"):
        paired_test(systems, "sys0", metric, n=10)
