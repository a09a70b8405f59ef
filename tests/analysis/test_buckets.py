"""Bucketers (a pluggable component) and the bucketed analysis built on them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from evalfw.analysis import bucketed_analysis, confidence_intervals, paired_test  # noqa: E402
from evalfw.analysis.bucketers import (  # noqa: E402
    TARGET_BUCKETS,
    HypLength,
    Label,
    RefLength,
    data_edges,
    edge_labels,
    round_number,
)
from evalfw.analysis.bucketing import Bucketer
from evalfw.analysis.buckets import assign  # noqa: E402
from evalfw.errors import ConfigError, PluginError  # noqa: E402
from evalfw.metrics.base import SegmentLengths  # noqa: E402
from tests.support import significance as sup


def _lengths(ref_len: list[int]) -> SegmentLengths:
    return SegmentLengths(np.array(ref_len) + 1, np.array(ref_len))


def test_registered_through_the_plugin_host():
    reg = sup.host().registry("bucketer")
    assert {"ref-length", "hyp-length"} <= set(reg.names())
    bucketer = reg.create("ref-length", {"edges": [5, 15]})
    assert isinstance(bucketer, RefLength) and bucketer.options["edges"] == [5, 15]
    assert "edges" not in reg.create("ref-length", {}).options  # chosen from the data


def test_ref_length_assignment_and_labels():
    lengths = _lengths([0, 4, 5, 9, 10, 14, 15, 100])
    index, labels = RefLength(edges=[5, 10, 15]).assign(lengths)
    assert labels == ["<5", "5-9", "10-14", "15+"]
    assert index.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    index, _ = HypLength(edges=[5, 10, 15]).assign(lengths)
    assert index.tolist() == [0, 1, 1, 2, 2, 3, 3, 3]
    assert edge_labels([3, 4, 10]) == ["<3", "3", "4-9", "10+"]
    absent = RefLength(edges=[5]).assign(
        SegmentLengths(lengths.hypothesis, np.array([-1, 3, 7, 7, 7, 7, 7, 7])))[0]
    assert absent.tolist()[:3] == [-1, 0, 1]


@pytest.mark.parametrize("edges", [[10, 10], [20, 10], [], [0, 5]])
def test_bad_edges_are_config_errors(edges):
    with pytest.raises(ConfigError, match="edges"):
        RefLength(edges=edges)


def _three_systems(n: int = 400) -> dict[str, Any]:
    """Statistics rows of the default BLEU metric (``sup.metric()``)."""
    rng = np.random.default_rng(12)
    return sup.rows(sup.metric(), {name: sup.random_stats(rng, n, quality=q, mean_len=18)
                                   for name, q in (("base", 0.5), ("better", 0.6),
                                                   ("same", 0.5))})


def test_bucketed_analysis_default_mode():
    systems = _three_systems()
    metric = sup.metric()
    bucketer = RefLength(edges=[12, 18, 24])
    lengths = metric.lengths(systems["base"])
    results = bucketed_analysis(systems, "base", metric, bucketer, lengths, n=200, seed=4)
    assert [b.label for b in results] == ["<12", "12-17", "18-23", "24+"]
    index, _ = assign(bucketer, lengths)
    assert sum(b.segments for b in results) == int((index >= 0).sum()) == 400
    for b, result in enumerate(results):
        rows = np.flatnonzero(index == b)
        subset = {k: v[rows] for k, v in systems.items()}
        assert list(result.intervals) == confidence_intervals(subset, metric, 200, 4)
        assert [c.p_value for c in result.comparisons] == \
            [c.p_value for c in paired_test(subset, "base", metric, n=200, seed=4)]
        assert {c.bucket for c in result.comparisons} == {result.label}
        assert [c.system for c in result.comparisons] == ["better", "same"]
    assert results[0].to_json()["comparisons"][0]["bucket"] == "<12"


def test_bucketed_analysis_ar_sacrebleu_mode_and_empty_bucket():
    systems = _three_systems(200)
    metric = sup.metric()
    results = bucketed_analysis(systems, "same", metric, RefLength(edges=[2, 500]),
                                metric.lengths(systems["same"]), method="ar", n=100, seed="7",
                                mode="sacrebleu")
    assert results[0].segments == 0 and results[0].intervals == ()
    assert results[2].segments == 0
    middle = results[1]
    assert middle.segments == 200 and len(middle.intervals) == 3
    assert middle.intervals[0].system == "same" and middle.intervals[0].mode == "sacrebleu"
    assert all(c.method == "ar" and c.mean is None for c in middle.comparisons)
    whole = paired_test(systems, "same", metric, "ar", 100, seed="7", mode="sacrebleu")
    assert [c.p_value for c in middle.comparisons] == [c.p_value for c in whole]


class _Broken(Bucketer):
    name = "broken"

    def assign(self, lengths: Any) -> tuple[np.ndarray, list[str]]:
        return np.zeros(len(lengths.reference) + 1, dtype=np.int64), ["all"]


class _Raises(Bucketer):
    name = "raises"

    def assign(self, lengths: Any) -> tuple[np.ndarray, list[str]]:
        raise KeyError("oops")


@pytest.mark.parametrize("cls", [_Broken, _Raises])
def test_misbehaving_bucketer_is_named(cls):
    with pytest.raises(PluginError, match=f"bucketer '{cls.name}'"):
        systems = _three_systems(30)
        metric = sup.metric()
        bucketed_analysis(systems, "base", metric, cls(), metric.lengths(systems["base"]), n=10)


# ------------------------------------------------------------------ data-driven edges


def _counts(values: np.ndarray, edges: list[int]) -> list[int]:
    index = np.searchsorted(edges, values, side="right")
    return np.bincount(index, minlength=len(edges) + 1).tolist()


def test_round_numbers_near_a_value():
    assert [round_number(v) for v in (0.4, 3, 8, 12, 23, 37, 99, 143, 1234)] == \
        [1, 3, 8, 12, 24, 35, 100, 140, 1200]


@pytest.mark.parametrize("seed", range(30))
def test_data_edges_are_round_and_no_bucket_holds_half(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 3000))
    scale = float(rng.choice([5, 20, 120, 900]))
    values = rng.lognormal(np.log(scale), rng.uniform(0.2, 1.2), n).astype(np.int64)
    edges = data_edges(values)
    assert edges == sorted(set(edges)) and edges[0] >= 1
    counts = _counts(values, edges)
    assert all(c > 0 for c in counts), (edges, counts)  # no empty bucket
    assert max(counts) * 2 <= n, (edges, counts)
    assert len(counts) <= TARGET_BUCKETS + 2


def test_data_edges_split_a_heavy_bucket_when_the_data_allows_it():
    # 60% of the segments have lengths 20-25: rounding alone would put them in one bucket
    values = np.array([3] * 20 + list(range(20, 26)) * 10 + [90] * 20)
    edges = data_edges(values)
    assert max(_counts(values, edges)) * 2 <= len(values)
    # more than half of one length: no edges can help, and none is invented beyond reason
    same = np.array([7] * 60 + [3] * 20 + [40] * 20)
    counts = _counts(same, data_edges(same))
    assert max(counts) == 60 and all(c > 0 for c in counts)


def test_data_edges_of_tiny_or_empty_data():
    assert data_edges(np.array([], dtype=np.int64)) == [1]
    assert data_edges(np.array([-1, -1])) == [1]
    edges = data_edges(np.array([4, 9]))
    assert _counts(np.array([4, 9]), edges) == [1, 1]


def test_explicit_edges_win_and_the_record_keeps_the_edges_used():
    lengths = _lengths(list(range(200)))
    given = RefLength(edges=[10, 20])
    assert given.record_entry(lengths) == {"edges": [10, 20]}
    assert given.assign(lengths)[1] == ["<10", "10-19", "20+"]
    chosen = RefLength().record_entry(lengths)["edges"]
    assert chosen == data_edges(lengths.reference)
    assert RefLength().assign(lengths)[1] == edge_labels(chosen)
    assert RefLength.quantity == "reference length" and HypLength.quantity == "hypothesis length"
    # its signature text is Component's: name, version, options (the record entry is apart)
    assert repr(RefLength(edges=[10, 20])) == "<bucketer ref-length@1[edges=(10,20)]>"


def test_hyp_length_on_a_metric_without_hypothesis_lengths_says_so():
    lengths = SegmentLengths(None, np.array([3, 4]))
    with pytest.raises(ConfigError, match="reports no hypothesis lengths.*ref-length"):
        assign(HypLength(), lengths)


# ------------------------------------------------------------------ too small, descriptive


def _lengths_with_one_long(n: int = 300) -> SegmentLengths:
    ref = np.array([12 + (i % 40) for i in range(n)])
    ref[7] = 95  # the one segment of 80 tokens or more
    return SegmentLengths(ref + 1, ref)


def test_a_one_segment_bucket_gets_its_scores_and_no_test():
    # the audit's case: buckets: {name: ref-length, edges: [80]} leaves one segment in "80+";
    # resampling it has no spread, so a test would call every difference certain
    systems = _three_systems(300)
    metric = sup.metric()
    results = bucketed_analysis(systems, "base", metric, RefLength(edges=[80]),
                                _lengths_with_one_long(), n=200, seed=4)
    tiny = results[1]
    assert (tiny.label, tiny.segments, tiny.untested) == ("80+", 1, "too few segments")
    assert tiny.intervals == () and tiny.comparisons == ()
    assert set(tiny.scores) == {"base", "better", "same"}
    assert tiny.scores["better"] == metric.score(systems["better"][[7]])
    assert results[0].untested is None and len(results[0].comparisons) == 2
    # asked to test it anyway, the test has no variance and never marks
    forced = bucketed_analysis(systems, "base", metric, RefLength(edges=[80]),
                               _lengths_with_one_long(), n=200, seed=4, min_segments=1)[1]
    assert forced.comparisons and all(c.zero_variance and c.p_value == 1.0
                                      and not c.significant(0.05) for c in forced.comparisons)
    assert all(i.ci == 0 for i in forced.intervals)


@pytest.mark.parametrize("mode", ["default", "sacrebleu"])
def test_a_resampling_distribution_without_spread_never_marks(mode):
    metric = sup.metric()
    rng = np.random.default_rng(2)
    one = sup.rows(metric, {"base": sup.random_stats(rng, 1, quality=0.2),
                            "new": sup.random_stats(rng, 1, quality=0.9)})
    (comp,) = paired_test(one, "base", metric, "bootstrap", 99, 5, mode)
    assert comp.delta != 0 and comp.zero_variance and not comp.significant(0.05)
    assert comp.to_json()["zero_variance"] is True
    if mode == "default":
        assert comp.p_value == 1.0
    else:  # sacreBLEU's own p-value is kept (it is what sacreBLEU prints), unmarked
        assert comp.p_value == 1 / 100


def test_data_driven_edges_keep_buckets_at_the_minimum_when_the_data_allow():
    rng = np.random.default_rng(8)
    values = rng.lognormal(np.log(20), 0.8, 400).astype(np.int64)
    for minimum in (1, 30, 90, 250):
        edges = data_edges(values, minimum=minimum)
        counts = [c for c in _counts(values, edges) if c]
        assert min(counts) >= minimum, (minimum, counts)
        assert minimum > 1 or len(counts) > 3  # without a minimum: the buckets as before
    # fewer segments than the minimum: one bucket holds them all, the next is empty
    few = np.array([3, 5, 9, 12])
    edges = data_edges(few, minimum=30)
    assert _counts(few, edges) == [4, 0]
    # the analysis passes its minimum to the bucketer
    lengths = _lengths(list(rng.integers(1, 60, 200)))
    index, labels = assign(RefLength(), lengths, minimum=40)
    assert min(np.bincount(index, minlength=len(labels))) >= 40


def test_hypothesis_length_buckets_are_descriptive():
    assert HypLength.descriptive and not RefLength.descriptive
    systems = _three_systems(200)
    metric = sup.metric()
    results = bucketed_analysis(systems, "base", metric, HypLength(edges=[18]),
                                metric.lengths(systems["base"]), n=100, seed=1)
    assert all(b.comparisons == () for b in results)
    assert all(b.untested == "descriptive" and len(b.intervals) == 3
               for b in results if b.segments >= 30)


def test_label_buckets_group_by_a_label():
    bucketer = Label(column="domain")
    assert bucketer.reads_labels and bucketer.record_entry(None) == {"column": "domain"}
    labels = ["news", "chat", "news", "social", "chat"]
    index, names = bucketer.assign_labels(labels)
    assert names == ["chat", "news", "social"] and index.tolist() == [1, 0, 1, 2, 0]
    systems = _three_systems(90)
    metric = sup.metric()
    by = ["news", "chat", "social"] * 30
    results = bucketed_analysis(systems, "base", metric, bucketer,
                                SegmentLengths(None, np.zeros(90, dtype=np.int64)), n=100,
                                seed=2, labels=by)
    assert [(b.label, b.segments) for b in results] == [("chat", 30), ("news", 30),
                                                        ("social", 30)]
    rows = np.flatnonzero(np.array(by) == "news")
    assert [c.p_value for c in results[1].comparisons] == [
        c.p_value for c in paired_test({k: v[rows] for k, v in systems.items()}, "base", metric,
                                       n=100, seed=2)]
    with pytest.raises(ConfigError, match="groups by labels"):
        bucketer.assign(_lengths([1, 2]))
    with pytest.raises(PluginError, match="none were given"):
        assign(bucketer, _lengths([1, 2]))
