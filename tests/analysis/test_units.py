"""Resampling whole documents (within strata): a document's row is its segments' rows summed,
the bootstrap draws documents as it draws segments (within each stratum when given), the
numbers equal a direct computation from the document sums, blocks on an executor draw the same
resamples, and every result says what it resampled."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalfw.analysis import _default_mode as dm
from evalfw.analysis import resampling as rs
from evalfw.analysis._student import t_cdf, t_quantile
from evalfw.analysis.significance import bootstrap_analysis, confidence_intervals, paired_analysis
from evalfw.analysis.units import StrataDraw, Units, widening
from evalfw.errors import ConfigError, InputError
from tests.analysis.test_resampling_jobs import PickledSerial, SumMetric
from tests.support import significance as sup


def _blocks_of(size: int, segments: int) -> list[str]:
    return [f"d{i // size}" for i in range(segments)]


def test_documents_are_numbered_by_their_last_segment_and_summed_exactly():
    ids = ["b", "a", "b", "c", "a", "c", "c"]
    units = Units.from_ids(ids)
    # a ends at 4, b at 2, c at 6: b is document 0, a 1, c 2
    assert units.documents.tolist() == [0, 1, 0, 2, 1, 2, 2] and units.count == 3
    rows = np.arange(14, dtype=np.int64).reshape(7, 2)
    grouped = units.group(rs.Columns(rows, rows))
    assert grouped.sums.tolist() == [(rows[0] + rows[2]).tolist(), (rows[1] + rows[4]).tolist(),
                                     (rows[3] + rows[5] + rows[6]).tolist()]
    assert grouped.last.tolist() == [rows[2].tolist(), rows[4].tolist(), rows[6].tolist()]
    assert grouped.size == 7 and grouped.segments == 3
    assert grouped.sums.dtype == np.int64


def test_strata_belong_to_documents():
    units = Units.from_ids(["a", "a", "b", "c"], ["news", "news", "chat", "news"])
    assert units.strata_names == ("chat", "news")
    assert units.strata.tolist() == [1, 0, 1]  # a, b, c by last segment
    assert units.to_json() == {"documents": 3, "strata": ["chat", "news"]}
    with pytest.raises(InputError, match="document 'a' is in two strata .'news' and 'chat', "
                                         "line 2"):
        Units.from_ids(["a", "a"], ["news", "chat"], where="docs.tsv")


def test_the_document_bootstrap_is_the_segment_bootstrap_of_the_document_sums():
    metric = sup.metric()
    rng = np.random.default_rng(4)
    stats = sup.rows(metric, {s: sup.random_stats(rng, 120, quality=q)
                              for s, q in (("base", 0.5), ("new", 0.55))})
    units = Units.from_ids(_blocks_of(10, 120))
    got = bootstrap_analysis(stats, "base", metric, 300, 9, units=units)
    # by hand: sum each block, draw 12 blocks with replacement, score the sums, spread the
    # scores about the observed ones for 12 documents
    sums = {s: np.add.reduceat(v, np.arange(0, 120, 10), axis=0) for s, v in stats.items()}
    idx = np.random.default_rng(9).choice(12, size=(300, 12), replace=True)
    c = widening(12)
    scores = {s: metric.score(stats[s]) + c * (np.array([metric.score(sums[s][row])
                                                          for row in idx])
                                               - metric.score(stats[s])) for s in sums}
    assert np.allclose([i.mean for i in got.intervals],
                       [scores["base"].mean(), scores["new"].mean()], rtol=0, atol=1e-9)
    (comp,) = got.comparisons
    diffs = scores["new"] - scores["base"]
    extreme = np.sum(np.abs(diffs - comp.delta) >= abs(comp.delta) - 1e-9)
    assert comp.p_value == (extreme + 1) / 301 and comp.unit == "document"
    assert got.unit == "document" and comp.se == pytest.approx(np.std(diffs, ddof=1))


def test_few_documents_widen_the_bootstrap_by_the_small_sample_correction():
    # sqrt(G / (G - 1)) t(G - 1) / z: Student's t quantiles (R: qt(0.975, 19) = 2.093024)
    assert widening(20) == pytest.approx(math.sqrt(20 / 19) * 2.093024 / 1.959964, abs=1e-6)
    assert widening(50) == pytest.approx(math.sqrt(50 / 49) * 2.009575 / 1.959964, abs=1e-6)
    assert widening(6, 0.99) == pytest.approx(math.sqrt(6 / 5) * 4.032143 / 2.575829,
                                              abs=1e-6)
    assert widening(1) == 1.0 and 1 < widening(2000) < 1.001
    assert [round(widening(g), 2) for g in (20, 50, 181)] == [1.10, 1.04, 1.01]


def test_t_quantiles_are_students():
    # reference values of R's qt()
    for q, df, want in ((0.975, 1, 12.706205), (0.975, 5, 2.570582), (0.9, 2, 1.885618),
                        (0.995, 100, 2.625891), (0.025, 19, -2.093024)):
        assert t_quantile(q, df) == pytest.approx(want, abs=1e-6)
    assert t_cdf(0.0, 3) == 0.5 and t_cdf(2.570582, 5) == pytest.approx(0.975, abs=1e-7)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_one_segment_documents_draw_as_segments():
    metric = sup.metric()
    rng = np.random.default_rng(1)
    stats = sup.rows(metric, {s: sup.random_stats(rng, 50) for s in ("base", "new")})
    single = Units.from_ids([str(i) for i in range(50)], ar="document")
    segs = paired_analysis(stats, "base", metric, "ar", 256, 3)
    docs = paired_analysis(stats, "base", metric, "ar", 256, 3, units=single)
    assert [c.p_value for c in docs.comparisons] == [c.p_value for c in segs.comparisons]
    # the same resamples, spread about the scores by the widening for 50 documents
    plain = confidence_intervals(stats, metric, 200, 3)
    wide = confidence_intervals(stats, metric, 200, 3, units=single)
    for a, b in zip(plain, wide):
        assert b.lower == pytest.approx(a.score + widening(50) * (a.lower - a.score))
        assert b.upper == pytest.approx(a.score + widening(50) * (a.upper - a.score))


def test_each_resample_keeps_every_stratum_s_number_of_documents():
    strata = ["a"] * 3 + ["b"] * 5 + ["c"] * 2
    units = Units.from_ids([f"d{i}" for i in range(10)], strata)
    draw = units.draw()
    assert isinstance(draw, StrataDraw)
    idx = draw(np.random.default_rng(0), 10, 400)
    counts = np.stack([np.isin(idx, np.flatnonzero(units.strata == k)).sum(axis=1)
                       for k in range(3)], axis=1)
    assert (counts == [3, 5, 2]).all()
    # every document of a stratum is drawn, none of the others' in its places
    assert set(np.unique(idx)) == set(range(10))
    # blocks of any size draw the same stream
    whole = draw(np.random.default_rng(5), 10, 37)
    rng = np.random.default_rng(5)
    parts = np.concatenate([draw(rng, 10, 5), draw(rng, 10, 1), draw(rng, 10, 31)])
    assert np.array_equal(whole, parts)


@pytest.mark.parametrize("parallelism,remote", [(2, False), (3, True)])
def test_stratified_blocks_on_an_executor_equal_the_local_draw(parallelism, remote):
    rng = np.random.default_rng(2)
    named = [(f"s{i}", rs.Columns(rng.integers(0, 40, size=(300, 2)), None)) for i in range(3)]
    units = Units.from_ids(_blocks_of(7, 300), [f"k{(i // 7) % 4}" for i in range(300)])
    grouped = [(name, units.group(cols)) for name, cols in named]
    local_rng, job_rng = np.random.default_rng(11), np.random.default_rng(11)
    local = dm.bootstrap_matrix(SumMetric(), grouped, 700, local_rng, draw=units.draw())
    jobs = dm.bootstrap_matrix(SumMetric(), grouped, 700, job_rng,
                               executor=PickledSerial(parallelism, remote), draw=units.draw())
    assert jobs.tobytes() == local.tobytes()
    assert job_rng.bit_generator.state == local_rng.bit_generator.state


def test_approximate_randomization_swaps_what_it_is_told():
    metric = sup.metric()
    rng = np.random.default_rng(6)
    stats = sup.rows(metric, {s: sup.random_stats(rng, 80) for s in ("base", "new")})
    segments = Units.from_ids(_blocks_of(8, 80))
    documents = Units.from_ids(_blocks_of(8, 80), ar="document")
    by_segment = paired_analysis(stats, "base", metric, "ar", 320, 1, units=segments)
    assert by_segment.unit == "segment" and by_segment.comparisons[0].unit == "segment"
    assert by_segment.comparisons == paired_analysis(stats, "base", metric, "ar", 320, 1
                                                     ).comparisons
    by_document = paired_analysis(stats, "base", metric, "ar", 320, 1, units=documents)
    assert by_document.comparisons[0].unit == "document"
    assert by_document.comparisons[0].p_value != by_segment.comparisons[0].p_value


def test_documents_must_cover_the_segments_and_sacrebleu_mode_resamples_segments():
    metric = sup.metric()
    stats = sup.rows(metric, {s: sup.random_stats(np.random.default_rng(0), 20)
                              for s in ("base", "new")})
    with pytest.raises(InputError, match="the documents name 30 segments, the systems have 20"):
        paired_analysis(stats, "base", metric, units=Units.from_ids(_blocks_of(3, 30)))
    with pytest.raises(ConfigError, match="mode 'sacrebleu' resamples segments"):
        paired_analysis(stats, "base", metric, mode="sacrebleu",
                        units=Units.from_ids(_blocks_of(2, 20)))


def test_a_bucket_keeps_the_parts_of_its_documents():
    units = Units.from_ids(_blocks_of(4, 12), [f"s{(i // 4) % 2}" for i in range(12)])
    inner = units.subset(np.array([1, 2, 5, 9, 10, 11]))
    assert inner.count == 3 and inner.segments == 6
    assert inner.documents.tolist() == [0, 0, 1, 2, 2, 2]
    assert [inner.strata_names[k] for k in inner.strata] == ["s0", "s1", "s0"]
