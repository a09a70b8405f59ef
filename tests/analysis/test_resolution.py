"""The p-value resolution: the smallest p-value a number of resamples allows, raw and
corrected, is the one the tests really produce, the number of resamples said to reach alpha
is the smallest that does, and the number recommended is 20 x family size / alpha."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalfw.analysis import paired_analysis
from evalfw.analysis.resolution import (
    at_floor,
    describe,
    p_value_resolution,
    smallest_adjusted,
    smallest_p,
)
from evalfw.analysis.results import adjust
from evalfw.host.host import PluginHost


@pytest.fixture(scope="module")
def far_apart():
    """A nearly perfect system and an empty one: no resample or trial is as extreme as the
    observed difference, so every test gives its smallest p-value (the good system's
    segments differ, so resampled differences vary: a constant difference decides nothing)."""
    host = PluginHost.create()
    metric = host.registry("metric").get("bleu").create({}, host=host)
    refs = [f"the cat number {i} sat on the mat today" for i in range(60)]
    good = [r.rsplit(" ", 1)[0] if i % 3 == 0 else r for i, r in enumerate(refs)]
    stats = {"base": metric.segment_statistics(["nothing"] * 60, [refs]),
             "good": metric.segment_statistics(good, [refs])}
    return metric, stats


@pytest.mark.parametrize("mode", ["default", "sacrebleu"])
@pytest.mark.parametrize("method,n", [("bootstrap", 10), ("bootstrap", 99), ("ar", 64)])
def test_the_floor_is_what_the_tests_produce(far_apart, mode, method, n):
    metric, stats = far_apart
    out = paired_analysis(stats, "base", metric, method, n, 3, mode)
    assert [c.p_value for c in out.comparisons] == [smallest_p(n)]


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 10**6), size=st.integers(1, 500),
       correction=st.sampled_from(["holm", "bonferroni", "none"]))
def test_the_corrected_floor_is_the_corrections_own_arithmetic(n, size, correction):
    family = [smallest_p(n)] + [1.0] * (size - 1)
    adjusted = adjust(family, correction)
    assert smallest_adjusted(n, size, correction) == (adjusted or family)[0]


@settings(max_examples=300, deadline=None)
@given(size=st.integers(1, 2000), alpha=st.sampled_from([0.05, 0.01, 0.001, 0.1, 0.0123]),
       correction=st.sampled_from(["holm", "bonferroni", "none"]))
def test_needed_is_the_smallest_number_that_reaches_alpha(size, alpha, correction):
    limit = p_value_resolution("bootstrap", 1, size, correction, alpha)
    assert smallest_adjusted(limit.needed, size, correction) <= alpha
    assert limit.needed == 1 or smallest_adjusted(limit.needed - 1, size, correction) > alpha


def test_ten_resamples_cannot_reach_alpha_and_say_how_many_would():
    alone = p_value_resolution("bootstrap", 10, 1, "none", 0.05)
    assert not alone.reachable and alone.min_p == 1 / 11 and alone.needed == 19
    family = p_value_resolution("bootstrap", 1000, 160, "holm", 0.05)
    assert family.min_p == 1 / 1001 and not family.reachable and family.needed == 3199
    assert p_value_resolution("ar", 10000, 160, "holm", 0.05).reachable
    assert p_value_resolution("bootstrap", 1000, 12, "holm", 0.05).reachable
    text = describe(family, "one test set x metric x test", "samples: {}")
    assert text == ("with 1000 paired bootstrap resamples the smallest possible p-value is "
                    "1/1001 = 0.000999, 0.1598 after Holm over a family of 160 comparisons "
                    "(one test set x metric x test), above alpha 0.05: no comparison in such a "
                    "family can be significant; 3199 resamples would reach alpha, 64000 "
                    "resamples (20 x family size / alpha) are recommended (samples: 64000)")
    assert describe(alone).endswith("no comparison can be significant; 19 resamples would "
                                    "reach alpha, 400 resamples (20 / alpha) are recommended")


def test_twenty_steps_per_threshold_are_recommended_not_the_bare_minimum():
    # 8 comparisons at 0.05: 159 resamples reach alpha, 3200 are recommended
    eight = p_value_resolution("bootstrap", 1000, 8, "holm", 0.05)
    assert eight.needed == 159 and eight.recommended == 3200
    assert eight.reachable and not eight.sufficient
    assert describe(eight, setting="samples: {}") == (
        "with 1000 paired bootstrap resamples the smallest possible p-value is 1/1001 = "
        "0.000999, 0.007992 after Holm over a family of 8 comparisons: p-values near the "
        "threshold are decided by resampling noise; 3200 resamples (20 x family size / alpha) "
        "are recommended (samples: 3200)")
    assert p_value_resolution("bootstrap", 3200, 8, "holm", 0.05).sufficient
    assert p_value_resolution("ar", 10000, 8, "none", 0.05).recommended == 400
    assert p_value_resolution("ar", 10000, 8, "bonferroni", 0.01).recommended == 16000


@pytest.mark.parametrize("n", [10, 99, 1000])
def test_a_p_value_at_the_floor_is_known(n):
    assert at_floor(1 / (n + 1), n) and not at_floor(2 / (n + 1), n)


def test_record_form():
    entry = p_value_resolution("ar", 100, 3, "bonferroni", 0.01).to_json()
    assert entry == {"method": "ar", "n": 100, "correction": "bonferroni", "size": 3,
                     "alpha": 0.01, "min_p": 1 / 101, "min_p_adjusted": 3 / 101,
                     "needed": 299, "recommended": 6000, "reachable": False,
                     "sufficient": False}
    assert np.isclose(entry["min_p_adjusted"], 3 * entry["min_p"])
