"""Rankings: WMT-style clusters cut only where every system above is significantly better
than every system below, and bootstrap rank intervals from one joint resampling."""

from __future__ import annotations

import numpy as np
import pytest

from evalfw.analysis.ranking import clusters, rank_intervals, ranks
from evalfw.analysis.significance import bootstrap_analysis
from tests.support import significance as sup


def _better(pairs: set[tuple[str, str]]):
    return lambda a, b: (a, b) in pairs


def test_a_cut_needs_every_system_above_better_than_every_system_below():
    order = ["A", "B", "C", "D"]
    # A beats everyone; B and C are not told apart; both beat D
    found = {("A", "B"), ("A", "C"), ("A", "D"), ("B", "D"), ("C", "D")}
    assert clusters(order, _better(found)) == [["A"], ["B", "C"], ["D"]]
    # A beats C but neither A-B nor B-C is significant: no cut can be drawn between them
    assert clusters(["A", "B", "C"], _better({("A", "C")})) == [["A", "B", "C"]]
    # C beats D, but B does not: D stays with them
    assert clusters(order, _better({("A", "B"), ("A", "C"), ("A", "D"), ("C", "D")})) == \
        [["A"], ["B", "C", "D"]]
    assert clusters([], _better(set())) == [] and clusters(["X"], _better(set())) == [["X"]]


def test_ranks_share_the_better_rank_on_ties_and_follow_the_direction():
    scores = np.array([[3.0, 1.0, 3.0, 2.0]])
    assert ranks(scores).tolist() == [[1, 4, 1, 3]]
    assert ranks(scores, higher_is_better=False).tolist() == [[3, 1, 3, 2]]


def test_rank_intervals_are_observed_ranks_at_the_percentiles():
    rng = np.random.default_rng(0)
    # A clearly first, B and C swapping, D clearly last
    matrix = np.stack([rng.normal(m, s, 4000) for m, s in
                       ((10, 0.1), (5, 1.0), (5.2, 1.0), (0, 0.1))], axis=1)
    got = rank_intervals(["A", "B", "C", "D"], [10, 5, 5.2, 0], matrix)
    by = {r.system: r for r in got}
    assert (by["A"].lower, by["A"].upper, by["A"].rank) == (1, 1, 1)
    assert (by["D"].lower, by["D"].upper, by["D"].rank) == (4, 4, 4)
    assert (by["B"].lower, by["B"].upper) == (2, 3) == (by["C"].lower, by["C"].upper)
    assert by["C"].rank == 2 and by["B"].rank == 3
    assert got[0].to_json() == {"system": "A", "rank": 1, "lower": 1, "upper": 1,
                                "level": 0.95}


def test_bootstrap_ranks_come_from_the_shared_resamples():
    metric = sup.metric()
    rng = np.random.default_rng(3)
    stats = sup.rows(metric, {s: sup.random_stats(rng, 150, quality=q)
                              for s, q in (("low", 0.3), ("mid", 0.5), ("high", 0.7))})
    out = bootstrap_analysis(stats, None, metric, 200, 5, ranks=True, pairs=True)
    assert [r.system for r in out.ranks] == ["low", "mid", "high"]
    assert [r.rank for r in out.ranks] == [3, 2, 1]
    assert all(r.lower <= r.rank <= r.upper for r in out.ranks)
    assert len(out.pairs) == 3 and out.comparisons == ()
    with pytest.raises(Exception, match="baseline 'nope'"):
        bootstrap_analysis(stats, "nope", metric, 10, 1)
